import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERFACES, type InterfaceId } from '../../src/checks/model.js';
import { main } from '../../src/cli/main.js';
import { referenceData } from '../../src/config/options.js';
import type { Settings } from '../../src/config/settings.js';
import { verifyTarget } from '../../src/pact/verify.js';
import { type RunningReference, startReference } from '../../src/run/reference.js';
import { closedPort } from '../hostile/server.js';

// Provider side: the committed pacts/ verified with Pact's Verifier against the reference
// implementation (states created through its API), and against a broken provider.

let ref: RunningReference;
let broken: Server;
let brokenOrigin: string;

const data = referenceData();

function settingsFor(
  urls: { baseUrl: string; networkApiRoot: string; shopApiRoot: string },
  interfaces: InterfaceId[],
): Settings {
  return {
    ...urls,
    vendor: 'svc',
    interfaces,
    reportDir: '/tmp',
    seed: 1,
    runs: 1,
    timeoutMs: 10_000,
    allowIncomplete: false,
    concurrency: 8,
    maxDurationS: 120,
    data,
    runId: 'pact-test',
  };
}

/** A proxy in front of the reference that turns `total_pages` of /products into a string. */
function startBrokenProxy(origin: string): Promise<Server> {
  const upstream = new URL(origin);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers, host: upstream.host };
      delete headers['accept-encoding'];
      const up = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (r) => {
        const body: Buffer[] = [];
        r.on('data', (c: Buffer) => body.push(c));
        r.on('end', () => {
          let text = Buffer.concat(body).toString('utf8');
          if (req.url?.includes('/products')) text = text.replace(/"total_pages":(\d+)/, '"total_pages":"$1"');
          const out = { ...r.headers, 'content-length': String(Buffer.byteLength(text)) };
          delete out['transfer-encoding'];
          res.writeHead(r.statusCode ?? 502, out);
          res.end(text);
        });
      });
      up.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      up.end(Buffer.concat(chunks));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  ref = await startReference('svc');
  broken = await startBrokenProxy(ref.origin);
  brokenOrigin = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
}, 30_000);
afterAll(async () => {
  await new Promise((r) => broken.close(r));
  await ref.close();
});

describe('pact verify', () => {
  it('the reference implementation honours every interaction of the four contracts', async () => {
    const results = await verifyTarget(settingsFor(ref, [...INTERFACES]));
    expect(results.map((r) => [r.iface, r.ok, r.failures, r.stateErrors, r.error])).toEqual(
      INTERFACES.map((i) => [i, true, [], [], undefined]),
    );
  }, 90_000);

  it('a provider that changes the type of one field fails, naming the interaction', async () => {
    const urls = {
      baseUrl: brokenOrigin,
      networkApiRoot: `${brokenOrigin}/network/wp-json/svc/v1`,
      shopApiRoot: `${brokenOrigin}/shop/wp-json/svc/v1`,
    };
    const [shop] = await verifyTarget(settingsFor(urls, ['rest-v1-shop']));
    expect(shop?.ok).toBe(false);
    expect(shop?.failures).toHaveLength(1);
    expect(shop?.failures[0]?.interaction).toContain('the first page of products');
    expect(shop?.failures[0]?.detail).toContain('total_pages');
  }, 60_000);

  it('a state the target cannot be brought into fails its interactions, saying why', async () => {
    const [net] = await verifyTarget({ ...settingsFor(ref, ['rest-v1-network']), data: {} });
    expect(net?.ok).toBe(false);
    expect(net?.failures.length).toBeGreaterThan(0);
    expect(net?.failures.map((f) => f.interaction).join('\n')).toContain('a read of the bank details');
    expect(net?.stateErrors.join('\n')).toContain('needs SFC_NET_USERNAME');
  }, 60_000);

  it('another vendor verifies contracts generated for its header, route and namespace', async () => {
    const other = await startReference('letscms');
    try {
      const results = await verifyTarget({ ...settingsFor(other, ['rest-v1-shop', 'graphql']), vendor: 'letscms' });
      expect(results.map((r) => [r.iface, r.ok, r.failures])).toEqual([
        ['rest-v1-shop', true, []],
        ['graphql', true, []],
      ]);
    } finally {
      await other.close();
    }
  }, 90_000);

  it('exit codes: 3 when the target cannot be reached, 2 for bad usage', async () => {
    const err = process.stderr.write;
    process.stderr.write = () => true;
    try {
      const unreachable = `http://127.0.0.1:${await closedPort()}`;
      expect(await main(['pact', 'verify', '--base-url', unreachable, '--interfaces', 'rest-route'])).toBe(3);
      expect(await main(['pact', 'verify', '--no-such-flag'])).toBe(2);
      expect(await main(['pact', 'verify', '--base-url', ref.baseUrl, '--publish'])).toBe(2);
      expect(await main(['pact', 'unknown'])).toBe(2);
    } finally {
      process.stderr.write = err;
    }
  });
});
