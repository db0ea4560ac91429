import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../../src/run/reference.js';
import { allChecks, explain, runCli, SHOP_DATA } from './harness.js';
import { closedPort, type HostileServer, startHostile } from './server.js';

// A target that is not there, or stops being there: the run ends with exit 3 and a message that
// names the URL, quickly, instead of letting every check time out one after the other.

const VENDOR = 'acme';
const TIMEOUT_MS = 2000;
const shopArgs = (apiRoot: string) => [
  '--interfaces',
  'rest-v1-shop',
  '--shop-api-root',
  apiRoot,
  '--vendor',
  VENDOR,
  '--timeout',
  String(TIMEOUT_MS),
  '--seed',
  '7',
];

describe('a target that is gone', () => {
  it('refuses connections (closed port): exit 3 at the preflight, naming the URL', async () => {
    const apiRoot = `http://127.0.0.1:${await closedPort()}/shop/wp-json/${VENDOR}/v1`;
    const run = await runCli(shopArgs(apiRoot), SHOP_DATA, 30_000);
    console.log(`[hostile] closed port: exit ${run.code} in ${run.wallMs} ms`);
    expect(run.code, explain(run)).toBe(3);
    expect(run.stderr).toContain(apiRoot);
    expect(run.stderr).toMatch(/connection refused/);
    expect(run.wallMs).toBeLessThan(20_000);
  }, 40_000);

  it('accepts connections but never answers: exit 3 after one request timeout, not one per check', async () => {
    const hostile = await startHostile({ global: 'hang' });
    try {
      const apiRoot = `${hostile.origin}/shop/wp-json/${VENDOR}/v1`;
      const run = await runCli(shopArgs(apiRoot), SHOP_DATA, 30_000);
      console.log(`[hostile] never answers: exit ${run.code} in ${run.wallMs} ms`);
      expect(run.code, explain(run)).toBe(3);
      expect(run.stderr).toMatch(/timed out after 2000 ms/);
      expect(run.stderr).toContain(apiRoot);
      expect(hostile.hits.length).toBe(1); // the preflight only
      expect(run.wallMs).toBeLessThan(20_000);
    } finally {
      await hostile.close();
    }
  }, 40_000);
});

describe('a target that goes away during the run', () => {
  let reference: RunningReference;
  let hostile: HostileServer;
  beforeAll(async () => {
    reference = await startReference(VENDOR);
    // Enough requests for every area to be under way, then the port closes for good.
    hostile = await startHostile({
      upstream: reference.origin,
      vendor: VENDOR,
      goAwayAfter: 40,
      prefix: new URL(reference.shopApiRoot).pathname,
    });
  });
  afterAll(async () => {
    await hostile?.close();
    await reference?.close();
  });

  it('aborts with exit 3 soon after, with a report that says why', async () => {
    const apiRoot = `${hostile.origin}${new URL(reference.shopApiRoot).pathname}`;
    const run = await runCli(shopArgs(apiRoot), SHOP_DATA, 60_000);
    console.log(`[hostile] goes away mid-run: exit ${run.code} in ${run.wallMs} ms`);
    expect(run.code, explain(run)).toBe(3);
    const report = run.report;
    expect(report, explain(run)).toBeDefined();
    expect(report?.aborted).toMatch(/went away/);
    expect(report?.aborted).toContain(hostile.origin);
    expect(report?.verdict).toBe('incomplete');
    expect(report?.exitCode).toBe(3);
    // What the target did is not the suite's fault.
    expect(report?.suiteErrors).toEqual([]);
    expect(
      allChecks(report!)
        .filter((c) => c.outcome === 'error')
        .map((c) => `${c.requirement}: ${c.reason}`),
    ).toEqual([]);
    // Far below "every remaining check waited for its timeout".
    expect(run.wallMs).toBeLessThan(30_000);
  }, 70_000);
});
