import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/config/settings.js';
import { TargetClient } from '../../src/http/client.js';
import { startWatchdog } from '../../src/run/watchdog.js';
import { closedPort, type HostileServer, type Misbehaviour, startHostile } from './server.js';

// The engine pieces (target client, watchdog) against the hostile server directly: one request
// per misbehaviour, in-process, so each case costs milliseconds (the timeouts are 400 ms).

const VENDOR = 'acme';
let upstream: Server;
let upstreamOrigin: string;
let hostile: HostileServer;

const MODES: Misbehaviour[] = [
  'drop',
  'reset',
  'never-end',
  'hang',
  'html',
  'text',
  'bad-json',
  'empty',
  'stack-500',
  'redirect-loop',
  'wrong-type',
  'no-type',
  'gzip',
  'huge',
  'rate-limit',
  'drop-token-header',
];

beforeAll(async () => {
  // A minimal well-behaved upstream: echoes the path and the token it received.
  upstream = createServer((req, res) => {
    if (req.url === '/bomb') {
      const body = gzipSync(Buffer.alloc(8 * 1024 * 1024, 32));
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(body.length),
      });
      res.end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: true, url: req.url, token: req.headers[`${VENDOR}_token`] ?? null }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  hostile = await startHostile({
    upstream: upstreamOrigin,
    vendor: VENDOR,
    hugeBytes: 24 * 1024 * 1024,
    rules: [
      ...MODES.map((mode) => ({ path: new RegExp(`^/${mode}$`), mode, times: 2 })),
      { path: /^\/endless$/, mode: 'huge' as const },
    ],
  });
});

afterAll(async () => {
  await hostile.close();
  upstream.closeAllConnections();
  await new Promise<void>((r) => upstream.close(() => r()));
});

const send = (client: TargetClient, path: string) =>
  client.send({ method: 'GET', url: `${hostile.origin}${path}`, headers: { [`${VENDOR}_token`]: 'the-token' } });

describe('the target client against each misbehaviour', () => {
  it('turns connection-level misbehaviour into evidence, never an exception', async () => {
    const client = new TargetClient({ timeoutMs: 400 });
    expect((await send(client, '/drop')).error).toBe('connection reset by the target');
    expect((await send(client, '/reset')).error).toMatch(
      /^connection reset by the target \(after the HTTP 200 headers and \d+ bytes/,
    );
    expect((await send(client, '/never-end')).error).toMatch(/^timed out after 400 ms \(after the HTTP 200 headers/);
    const started = performance.now();
    const hang = await send(client, '/hang');
    expect(hang.response).toBeUndefined();
    expect(hang.error).toBe('timed out after 400 ms');
    expect(performance.now() - started).toBeLessThan(1500);
    await client.close();
  });

  it('waits on a hanging endpoint once, then answers at once for it, and still reaches the others', async () => {
    const client = new TargetClient({ timeoutMs: 400 });
    await send(client, '/hang');
    await send(client, '/never-end');
    await send(client, '/reset');
    const again = await send(client, '/hang');
    expect(again.notSent).toBe(true);
    expect(again.error).toMatch(/timed out earlier in this run/);
    // Three failures in a row, but none a refusal: the target is not "gone".
    const ok = await send(client, '/wrong-type');
    expect(ok.notSent).toBeUndefined();
    expect(ok.response?.status).toBe(200);
    await client.close();
  });

  it('records what came back where JSON was due, as it came', async () => {
    const client = new TargetClient({ timeoutMs: 1000 });
    const html = await send(client, '/html');
    expect([html.response?.status, html.response?.headers['content-type']]).toEqual([502, 'text/html']);
    expect(html.response?.body).toContain('502 Bad Gateway');
    expect((await send(client, '/text')).response?.body).toBe('OK');
    expect((await send(client, '/bad-json')).response?.body).toBe('{"status":true,"errors":[],"message":"Done.","data":{"cou');
    expect((await send(client, '/empty')).response).toMatchObject({ status: 200, body: '' });
    const stack = await send(client, '/stack-500');
    expect(stack.response?.status).toBe(500);
    expect(stack.response?.body).toContain('Stack trace');
    await client.close();
  });

  it('does not follow a redirect loop: the 302 is the answer', async () => {
    // A server of its own: the shared one counts hits from every test in this file.
    const own = await startHostile({ rules: [{ path: /^\/redirect-loop$/, mode: 'redirect-loop' }] });
    const client = new TargetClient({ timeoutMs: 1000 });
    try {
      const ex = await client.send({ method: 'GET', url: `${own.origin}/redirect-loop` });
      expect(ex.response?.status).toBe(302);
      expect(ex.response?.headers.location).toBe('/redirect-loop');
      expect(own.hits).toEqual([{ method: 'GET', url: '/redirect-loop', mode: 'redirect-loop', rule: 0 }]);
    } finally {
      await client.close();
      await own.close();
    }
  });

  it('reads JSON whatever the content type says, and decodes gzip it did not ask for', async () => {
    const client = new TargetClient({ timeoutMs: 1000 });
    const wrong = await send(client, '/wrong-type');
    expect(wrong.response?.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(JSON.parse(wrong.response?.body ?? '')).toMatchObject({ status: true });
    const none = await send(client, '/no-type');
    expect(none.response?.headers['content-type']).toBeUndefined();
    expect(JSON.parse(none.response?.body ?? '')).toMatchObject({ status: true });
    const gz = await send(client, '/gzip');
    expect(gz.request.headers['accept-encoding']).toBeUndefined();
    expect(gz.response?.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gz.response?.body ?? '')).toMatchObject({ status: true, url: '/gzip' });
    await client.close();
  });

  it('cuts a huge, an endless and a compressed-bomb body at the cap, marked truncated, without waiting for the end', async () => {
    const client = new TargetClient({ timeoutMs: 2000, maxBodyBytes: 1024 * 1024 });
    for (const path of ['/huge', '/endless']) {
      const ex = await send(client, path);
      expect(ex.error, path).toBeUndefined();
      expect(ex.response?.truncated, path).toBe(true);
      expect(ex.response?.body.length, path).toBe(1024 * 1024);
      expect(ex.durationMs, path).toBeLessThan(1500);
    }
    const bomb = await client.send({ method: 'GET', url: `${upstreamOrigin}/bomb` });
    expect(bomb.response?.truncated).toBe(true);
    expect(bomb.response?.body.length).toBe(1024 * 1024);
    await client.close();
  });

  it('retries after 429 with Retry-After and counts the retries', async () => {
    // A server of its own: its rule refuses the first two requests it ever sees, whatever the
    // other tests in this file sent before.
    const own = await startHostile({
      upstream: upstreamOrigin,
      rules: [{ path: /^\/rate-limit$/, mode: 'rate-limit', times: 2 }],
    });
    const client = new TargetClient({ timeoutMs: 1000 });
    try {
      const ex = await client.send({ method: 'GET', url: `${own.origin}/rate-limit` });
      expect(ex.response?.status).toBe(200);
      expect(ex.retries).toBe(2);
      expect(client.retryCount).toBe(2);
      expect(own.hits.map((h) => h.mode)).toEqual(['rate-limit', 'rate-limit', 'forward']);
    } finally {
      await client.close();
      await own.close();
    }
  }, 10_000);

  it('shows the target answering as if the dropped token header was never sent', async () => {
    const client = new TargetClient({ timeoutMs: 1000 });
    const ex = await send(client, '/drop-token-header');
    expect(ex.request.headers[`${VENDOR}_token`]).toBe('the-token');
    expect(JSON.parse(ex.response?.body ?? '')).toMatchObject({ token: null });
    expect(JSON.parse((await send(client, '/text-not-a-rule')).response?.body ?? '')).toMatchObject({ token: 'the-token' });
    await client.close();
  });

  it('after 3 refused connections in a row sends nothing more to that origin', async () => {
    const client = new TargetClient({ timeoutMs: 1000 });
    const url = `http://127.0.0.1:${await closedPort()}/x`;
    for (let i = 0; i < 3; i++) expect((await client.send({ method: 'GET', url })).error).toBe('connection refused');
    const ex = await client.send({ method: 'GET', url });
    expect(ex.notSent).toBe(true);
    expect(ex.error).toMatch(/refused the last 3 connections/);
    await client.close();
  });
});

function settingsFor(shopApiRoot: string): Settings {
  return {
    shopApiRoot,
    vendor: VENDOR,
    interfaces: ['rest-v1-shop'],
    reportDir: '/tmp',
    seed: 1,
    runs: 1,
    timeoutMs: 300,
    allowIncomplete: false,
    concurrency: 8,
    maxDurationS: 60,
    data: {},
    runId: 'hostile',
  };
}

/** Runs the watchdog for `ms` at 100 ms probes; resolves with why it fired, or undefined. */
async function watch(settings: Settings, ms: number, during?: () => Promise<void>): Promise<string | undefined> {
  let why: string | undefined;
  const dog = startWatchdog(
    settings,
    (w) => {
      why ??= w;
    },
    { ms: 100 },
  );
  await during?.();
  const until = performance.now() + ms;
  while (why === undefined && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
  await dog.stop();
  return why;
}

describe('the watchdog', () => {
  it('fires when the target refuses connections, naming the URL', async () => {
    const root = `http://127.0.0.1:${await closedPort()}/shop/wp-json/${VENDOR}/v1`;
    const why = await watch(settingsFor(root), 3000);
    expect(why).toMatch(/went away during the run/);
    expect(why).toContain(root);
  });

  it('does not fire when the probed endpoint hangs: that is one endpoint, not the target', async () => {
    const h = await startHostile({ global: 'hang' });
    try {
      expect(await watch(settingsFor(`${h.origin}/shop/wp-json/${VENDOR}/v1`), 1500)).toBeUndefined();
    } finally {
      await h.close();
    }
  });

  it('fires when a target that answered goes away', async () => {
    const h = await startHostile({ global: 'html' });
    const why = await watch(settingsFor(`${h.origin}/shop/wp-json/${VENDOR}/v1`), 3000, async () => {
      await new Promise((r) => setTimeout(r, 300));
      await h.goAway();
    });
    expect(why).toMatch(/connection refused/);
  });

  it('tells at the end of a run whether the target is gone now (refused), or merely slow (not gone)', async () => {
    const closed = startWatchdog(settingsFor(`http://127.0.0.1:${await closedPort()}/v1`), () => {});
    expect(await closed.goneNow()).toMatch(/went away during the run: .*connection refused/);
    await closed.stop();
    const h = await startHostile({ global: 'hang' });
    const slow = startWatchdog(settingsFor(`${h.origin}/v1`), () => {});
    expect(await slow.goneNow()).toBeUndefined();
    await slow.stop();
    await h.close();
  });
});
