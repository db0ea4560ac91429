import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/http/exchange.js';
import { type RunningReference, startReference } from '../../src/run/reference.js';
import { allChecks, type CliRun, checksWith, explain, pathUnder, runCli, SHOP_DATA } from './harness.js';
import { type HostileServer, type Rule, startHostile } from './server.js';

// One realistic run of the shop interface (document 2 B) through a proxy that breaks one endpoint
// per misbehaviour and forwards the rest to the reference implementation. Login and register stay
// intact, so every area gets far enough to reach the broken endpoint.

const VENDOR = 'acme'; // not the default: nothing may hard-code svc
const TIMEOUT_MS = 2500; // slack for a loaded 2-core machine; a hang costs this once per area
const WALL_BOUND_MS = 90_000; // a clean run takes ~16 s; waiting on every check would take minutes

interface Case {
  rule: Rule;
  /** What the evidence must show for an exchange of this rule. */
  shows: (ex: Exchange) => boolean;
  /** The checks that met it fail (true) or pass (false: the suite must tolerate it). */
  fails: boolean;
}

const CASES: Record<string, Case> = {
  'hangs (no answer at all) on GET /orders only': {
    rule: { path: /^\/orders$/, mode: 'hang' },
    shows: (ex) => /timed out after 2500 ms|timed out earlier/.test(ex.error ?? ''),
    fails: true,
  },
  'answers JSON that does not parse on GET /cart/count': {
    rule: { path: /^\/cart\/count$/, mode: 'bad-json' },
    shows: (ex) => ex.response?.body.endsWith('"data":{"cou') === true,
    fails: true,
  },
  'resets the connection mid-answer on POST /cart/update-quantities': {
    rule: { path: /^\/cart\/update-quantities$/, mode: 'reset' },
    shows: (ex) => /connection reset by the target \(after the HTTP 200 headers/.test(ex.error ?? ''),
    fails: true,
  },
  'answers an HTML 502 page for a listed product': {
    rule: { path: /^\/product\/\d{1,6}$/, mode: 'html' },
    shows: (ex) => ex.response?.status === 502 && ex.response.body.includes('<html>'),
    fails: true,
  },
  'never ends the answer for an unknown product': {
    rule: { path: /^\/product\/\d{7,}$/, mode: 'never-end' },
    shows: (ex) => /timed out after 2500 ms \(after the HTTP 200 headers|timed out earlier/.test(ex.error ?? ''),
    fails: true,
  },
  'answers an empty body on POST /cart/remove-item': {
    rule: { path: /^\/cart\/remove-item\//, mode: 'empty' },
    shows: (ex) => ex.response?.status === 200 && ex.response.body === '',
    fails: true,
  },
  'answers 500 with a stack trace on POST /order/create': {
    rule: { path: /^\/order\/create$/, mode: 'stack-500' },
    shows: (ex) => ex.response?.status === 500 && ex.response.body.includes('Stack trace'),
    fails: true,
  },
  'redirects to itself for a product search': {
    rule: { path: /^\/products$/, queryHas: ['search'], mode: 'redirect-loop' },
    shows: (ex) => ex.response?.status === 302 && ex.response.headers.location !== undefined,
    fails: true,
  },
  'answers plain text for a sorted listing': {
    rule: { path: /^\/products$/, queryHas: ['sort_by'], mode: 'text' },
    shows: (ex) => ex.response?.body === 'OK' && /text\/plain/.test(ex.response.headers['content-type'] ?? ''),
    fails: true,
  },
  'answers tens of MiB for a category listing': {
    rule: { path: /^\/products$/, queryHas: ['categories'], mode: 'huge' },
    shows: (ex) => ex.response?.truncated === true,
    fails: true,
  },
  'labels the featured listing text/html (valid JSON)': {
    rule: { path: /^\/products$/, queryHas: ['featured'], mode: 'wrong-type' },
    shows: (ex) => /text\/html/.test(ex.response?.headers['content-type'] ?? ''),
    fails: false,
  },
  'sends no content type for the in-stock listing (valid JSON)': {
    rule: { path: /^\/products$/, queryHas: ['instock'], mode: 'no-type' },
    shows: (ex) => ex.response !== undefined && ex.response.headers['content-type'] === undefined,
    fails: false,
  },
  'gzips the price-range listing without being asked': {
    rule: { path: /^\/products$/, queryHas: ['price_from'], mode: 'gzip' },
    shows: (ex) => ex.response?.headers['content-encoding'] === 'gzip' && ex.response.body.startsWith('{'),
    fails: false,
  },
  'answers 429 with Retry-After twice to the first coupon cart, then the cart': {
    rule: { path: /^\/cart$/, queryHas: ['coupons[]'], mode: 'rate-limit', times: 2 },
    shows: (ex) => ex.response?.status === 200,
    fails: false,
  },
};

let reference: RunningReference;
let hostile: HostileServer;
let run: CliRun;
let apiRoot: string;

beforeAll(async () => {
  reference = await startReference(VENDOR);
  const prefix = new URL(reference.shopApiRoot).pathname;
  const rules = Object.values(CASES).map((c) => c.rule);
  hostile = await startHostile({ upstream: reference.origin, vendor: VENDOR, prefix, rules });
  apiRoot = `${hostile.origin}${prefix}`;
  run = await runCli(
    [
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
    ],
    SHOP_DATA,
    WALL_BOUND_MS + 15_000,
  );
}, WALL_BOUND_MS + 30_000);

afterAll(async () => {
  await hostile?.close();
  await reference?.close();
});

describe('a target that breaks one endpoint per misbehaviour', () => {
  it('ends non-conformant (exit 1) within the wall-time bound, with a report', () => {
    expect(run.report, explain(run)).toBeDefined();
    expect(run.code, explain(run)).toBe(1);
    expect(run.report?.verdict).toBe('non-conformant');
    expect(run.report?.aborted).toBeUndefined(); // a hanging endpoint is not a target gone
    expect(run.wallMs, explain(run)).toBeLessThan(WALL_BOUND_MS);
    console.log(`[hostile] broken endpoints: exit ${run.code} in ${run.wallMs} ms`);
    for (const c of allChecks(run.report!)
      .filter((x) => x.durationMs > 1000)
      .sort((a, b) => b.durationMs - a.durationMs))
      console.log(`  ${c.area} ${c.requirement} ${c.outcome} ${c.durationMs} ms`);
  });

  it('never blames the suite for what the target did', () => {
    const report = run.report!;
    expect(report.suiteErrors).toEqual([]);
    const errors = allChecks(report).filter((c) => c.outcome === 'error');
    expect(errors.map((c) => `${c.requirement} ${c.title}: ${c.reason?.slice(0, 300)}`)).toEqual([]);
  });

  it('keeps the other endpoints working: login, register and the plain listing pass', () => {
    const passed = new Set(
      allChecks(run.report!)
        .filter((c) => c.outcome === 'passed')
        .map((c) => c.requirement),
    );
    for (const id of ['SHOP-AUTH-01', 'SHOP-AUTH-02', 'SHOP-PROD-01']) expect(passed, id).toContain(id);
  });

  for (const [name, c] of Object.entries(CASES)) {
    it(`${c.fails ? 'fails' : 'tolerates'}: ${name}`, () => {
      const index = Object.values(CASES).indexOf(c);
      // The run reached the misbehaviour at all.
      expect(hostile.hits.filter((h) => h.rule === index && h.mode === c.rule.mode).length).toBeGreaterThan(0);
      const matching = (ex: Exchange) => {
        const { path, query } = pathUnder(apiRoot, ex.request.url);
        return (
          c.rule.path.test(path) &&
          (c.rule.method === undefined || c.rule.method === ex.request.method) &&
          (c.rule.queryHas ?? []).every((k) => query.has(k))
        );
      };
      const met = checksWith(run.report!, matching);
      expect(met.length, `no check recorded an exchange of this endpoint`).toBeGreaterThan(0);
      if (c.fails) {
        // Failed, with the misbehaving exchange as evidence (a check that only cleans up through the
        // endpoint may still pass).
        const failed = met.filter((m) => m.check.outcome === 'failed' && c.shows(m.ex));
        expect(failed.length, JSON.stringify(met.map((m) => [m.check.requirement, m.check.outcome, m.ex.error]))).toBeGreaterThan(
          0,
        );
        for (const m of failed) expect(m.check.reason).toBeTruthy();
      } else {
        const shown = met.filter((m) => c.shows(m.ex));
        expect(shown.length, JSON.stringify(met.map((m) => [m.check.requirement, m.check.outcome]))).toBeGreaterThan(0);
        expect(shown.filter((m) => m.check.outcome !== 'passed').map((m) => `${m.check.requirement}: ${m.check.reason}`)).toEqual(
          [],
        );
      }
    });
  }

  it('retries after 429 until the answer, and counts the retries in the check and the report', () => {
    expect(hostile.hits.filter((h) => h.mode === 'rate-limit')).toHaveLength(2);
    // Every 429 was retried and counted, whether one request met both or two areas met one each.
    const retried = allChecks(run.report!).filter((c) => c.retries > 0);
    expect(retried.reduce((n, c) => n + c.retries, 0)).toBe(2);
    for (const c of retried) expect(c.outcome).not.toBe('error');
    expect(run.report!.retries).toBe(2);
  });

  it('keeps the huge body out of the report: cut, and marked truncated', () => {
    const huge = checksWith(run.report!, (ex) => ex.response?.truncated === true);
    expect(huge.length).toBeGreaterThan(0);
    for (const { ex } of huge) expect(ex.response!.body.length).toBeLessThanOrEqual(16 * 1024 + 1);
    const failed = huge.find((h) => h.check.outcome === 'failed');
    expect(failed?.check.reason).toMatch(/cut at the size cap/);
  });

  it('names the hanging endpoint once per area and does not wait on it again', () => {
    const hangs = hostile.hits.filter((h) => h.mode === 'hang').length;
    // Each area (one client each) meets the hang at most once; more would be a second wait.
    const areas = new Set(allChecks(run.report!).map((c) => c.area)).size;
    expect(hangs).toBeGreaterThan(0);
    expect(hangs).toBeLessThanOrEqual(areas);
    const notSent = checksWith(run.report!, (ex) => ex.notSent === true && /timed out earlier/.test(ex.error ?? ''));
    for (const { check } of notSent) expect(check.outcome).not.toBe('passed');
  });
});
