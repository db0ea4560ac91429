import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/config/load.js';
import { baselineExitCode, diffAgainstBaseline, loadBaseline } from '../../src/run/baseline.js';
import type { RequirementResult, RequirementStatus, RunResult } from '../../src/run/results.js';

const req = (id: string, status: RequirementStatus, level: RequirementResult['level'] = 'MUST'): RequirementResult => ({
  id,
  level,
  interface: 'rest-route',
  area: 'A',
  source: { document: 'd', section: 's' },
  statement: 's',
  testable: true,
  status,
  checks: [],
});
const result = (reqs: RequirementResult[]) => ({ requirements: reqs }) as unknown as RunResult;

describe('baseline gate', () => {
  const baseline = new Map<string, RequirementStatus>([
    ['A', 'failed'],
    ['B', 'passed'],
    ['C', 'failed'],
    ['D', 'passed'],
  ]);
  it('counts only MUSTs that newly fail', () => {
    const d = diffAgainstBaseline(
      result([req('A', 'failed'), req('B', 'failed'), req('C', 'passed'), req('D', 'passed'), req('E', 'failed', 'SHOULD')]),
      baseline,
    );
    expect(d).toEqual({ newlyFailing: ['B'], newlyUnexercised: [], fixed: ['C'], stillFailing: ['A'] });
    expect(baselineExitCode(d, false)).toBe(1);
  });
  it('passes the gate when every failure was already known', () => {
    const d = diffAgainstBaseline(result([req('A', 'failed'), req('B', 'passed')]), baseline);
    expect(baselineExitCode(d, false)).toBe(0);
  });
  it('fails the gate for a MUST that was exercised before and is not now, unless incomplete is allowed', () => {
    const d = diffAgainstBaseline(result([req('B', 'skipped')]), baseline);
    expect(d.newlyUnexercised).toEqual(['B']);
    expect(baselineExitCode(d, false)).toBe(1);
    expect(baselineExitCode(d, true)).toBe(0);
  });
  it('refuses a file that is not a report', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sfc-baseline-')), 'x.json');
    writeFileSync(path, '{"verdict": "conformant"}');
    expect(() => loadBaseline(path)).toThrow(UsageError);
  });
});
