import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../../src/run/reference.js';
import { allChecks, type CliRun, checksWith, explain, runCli, SHOP_DATA } from './harness.js';
import { type HostileServer, startHostile } from './server.js';

// A proxy in front of a correct target that drops header names with an underscore (nginx without
// underscores_in_headers): every authenticated call is refused as if it had no token. The run
// fails, and the report says what the likely cause is instead of leaving 30 unrelated failures.

const VENDOR = 'acme';
const WALL_BOUND_MS = 75_000; // a clean run takes ~16 s

let reference: RunningReference;
let hostile: HostileServer;
let run: CliRun;

beforeAll(async () => {
  reference = await startReference(VENDOR);
  const prefix = new URL(reference.shopApiRoot).pathname;
  hostile = await startHostile({ upstream: reference.origin, vendor: VENDOR, prefix, global: 'drop-token-header' });
  run = await runCli(
    [
      '--interfaces',
      'rest-v1-shop',
      '--shop-api-root',
      `${hostile.origin}${prefix}`,
      '--vendor',
      VENDOR,
      '--timeout',
      '3000',
      '--seed',
      '7',
    ],
    SHOP_DATA,
    WALL_BOUND_MS + 15_000,
  );
  console.log(`[hostile] dropped ${VENDOR}_token header: exit ${run.code} in ${run.wallMs} ms`);
}, WALL_BOUND_MS + 30_000);

afterAll(async () => {
  await hostile?.close();
  await reference?.close();
});

describe('a proxy that drops the <vendor>_token header', () => {
  it('ends non-conformant (exit 1) within the wall-time bound', () => {
    expect(run.report, explain(run)).toBeDefined();
    expect(run.code, explain(run)).toBe(1);
    expect(run.report?.verdict).toBe('non-conformant');
    expect(run.wallMs).toBeLessThan(WALL_BOUND_MS);
  });

  it('fails the token-acceptance checks with the refused exchange, which did carry the header', () => {
    const header = `${VENDOR}_token`;
    const refused = checksWith(
      run.report!,
      (ex) => header in ex.request.headers && ex.response?.status === 401 && /token/i.test(ex.response.body),
    );
    const failed = refused.filter((r) => r.check.outcome === 'failed').map((r) => r.check.requirement);
    // The token from login and register is accepted in the header (Part 5).
    expect(failed).toContain('SHOP-AUTH-12');
  });

  it('diagnoses the dropped header in the report', () => {
    const diagnoses = run.report!.diagnoses ?? [];
    expect(diagnoses.join('\n')).toMatch(new RegExp(`rest-v1-shop: .*${VENDOR}_token header.*underscores_in_headers`));
  });

  it('does not count it as a suite error', () => {
    expect(run.report!.suiteErrors).toEqual([]);
    expect(
      allChecks(run.report!)
        .filter((c) => c.outcome === 'error')
        .map((c) => `${c.requirement}: ${c.reason}`),
    ).toEqual([]);
  });
});
