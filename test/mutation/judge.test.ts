import { describe, expect, it } from 'vitest';
import { judgeMutantRun } from '../../scripts/mutation/judge.js';

const area = { id: 'rest-route/account' };
const check = (requirement: string, level: string, outcome: string, title = `${requirement} check`) => ({
  interface: 'rest-route' as const,
  area: 'account',
  requirement,
  title,
  level: level as 'MUST',
  outcome: outcome as 'passed',
  reason: `${requirement} ${outcome}`,
});
const key = (requirement: string) => `rest-route/account|${requirement}|${requirement} check`;

function judge(outcomes: Array<[string, string, string, string]>, ran = [area]) {
  // [requirement, level, dry-run outcome, mutant-run outcome]
  return judgeMutantRun({
    checks: outcomes.filter((o) => o[3] !== 'missing').map(([r, l, , now]) => check(r, l, now)),
    suiteErrors: [],
    areas: ran,
    baseline: new Map(outcomes.filter((o) => o[2] !== 'missing').map(([r, , before]) => [key(r), before])),
    serious: new Map(outcomes.map(([r, l]) => [r, l !== 'ADVISORY'])),
  });
}

describe('judgeMutantRun', () => {
  it('kills when a serious check that passed in the dry run fails, skips or is missing', () => {
    for (const now of ['failed', 'skipped', 'missing']) {
      const { killers } = judge([['RR-X-01', 'MUST', 'passed', now]]);
      expect(killers, now).toHaveLength(1);
      expect(killers[0]?.area).toBe('rest-route/account');
    }
  });

  it('kills when a serious check that skipped in the dry run fails (it found the mutant)', () => {
    // RR-PWD-02: the reference refuses a code for another customer's e-mail, so the check skips there;
    // a mutant that accepts and names the wrong customer makes it fail.
    const { killers } = judge([['RR-PWD-02', 'MUST', 'skipped', 'failed']]);
    expect(killers.map((k) => k.why)).toEqual(['RR-PWD-02 MUST failed: RR-PWD-02 failed']);
  });

  it('does not kill on outcomes the dry run already had, or on a skipped check that now passes', () => {
    expect(
      judge([
        ['RR-A-01', 'MUST', 'passed', 'passed'],
        ['RR-A-02', 'SHOULD', 'failed', 'failed'],
        ['RR-A-03', 'MUST', 'skipped', 'skipped'],
        ['RR-A-04', 'MUST', 'skipped', 'passed'],
        ['RR-A-05', 'SHOULD', 'failed', 'skipped'],
      ]).killers,
    ).toEqual([]);
  });

  it('never kills on an ADVISORY check, but reports one that flips from passed to failed', () => {
    const out = judge([
      ['RR-SEC-01', 'ADVISORY', 'passed', 'failed'],
      ['RR-SEC-03', 'ADVISORY', 'failed', 'failed'],
      ['RR-SEC-04', 'ADVISORY', 'skipped', 'failed'],
    ]);
    expect(out.killers).toEqual([]);
    expect(out.advisoryFlips).toEqual(['RR-SEC-01']);
  });

  it('kills on an erring check and on a suite error, naming its area (the first asked for when it has none)', () => {
    expect(judge([['RR-A-01', 'ADVISORY', 'passed', 'error']]).killers).toHaveLength(1);
    const out = judgeMutantRun({
      checks: [],
      suiteErrors: [
        { file: 'rest-route/auth', area: 'rest-route/auth', message: 'boom' },
        { file: '/sandbox/suites/conformance.test.ts', message: 'no import' },
      ],
      areas: [area],
      baseline: new Map(),
      serious: new Map(),
    });
    expect(out.killers).toEqual([
      { area: 'rest-route/auth', why: 'suite error: boom' },
      { area: 'rest-route/account', why: 'suite error: no import' },
    ]);
  });

  it('a check missing from an area that did not run does not kill', () => {
    expect(judge([['RR-X-01', 'MUST', 'passed', 'missing']], []).killers).toEqual([]);
  });
});
