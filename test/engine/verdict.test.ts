import { describe, expect, it } from 'vitest';
import type { Level } from '../../src/checks/model.js';
import type { CheckOutcome, CheckResult, RequirementResult } from '../../src/run/results.js';
import { exitCodeFor, overallVerdict, requirementStatus, summarize } from '../../src/run/verdict.js';

const req = (id: string, level: Level, outcomes: CheckOutcome[], testable = true): RequirementResult => {
  const base = {
    id,
    level,
    interface: 'rest-route' as const,
    area: 'A',
    source: { document: 'd', section: 's' },
    statement: 's',
    testable,
  };
  const checks: CheckResult[] = outcomes.map((outcome) => ({
    requirement: id,
    level,
    interface: 'rest-route',
    area: 'a',
    title: 't',
    source: base.source,
    startedAt: '2026-01-01T00:00:00.000Z',
    outcome,
    choices: {},
    notes: [],
    requests: 1,
    retries: 0,
    durationMs: 1,
  }));
  return { ...base, ...requirementStatus(base, checks), checks };
};

describe('requirement status', () => {
  it('fails when any check fails, passes when one passes and none fails', () => {
    expect(req('R-A-01', 'MUST', ['passed', 'failed']).status).toBe('failed');
    expect(req('R-A-01', 'MUST', ['passed', 'skipped']).status).toBe('passed');
    expect(req('R-A-01', 'MUST', ['skipped']).status).toBe('skipped');
    expect(req('R-A-01', 'MUST', []).status).toBe('untested');
    expect(req('R-A-01', 'MUST', [], false).status).toBe('untested');
  });
});

describe('verdict rules', () => {
  it('a failed MUST makes the interface non-conformant', () => {
    expect(summarize('rest-route', [req('R-A-01', 'MUST', ['failed']), req('R-A-02', 'MUST', ['passed'])], 0).verdict).toBe(
      'non-conformant',
    );
  });
  it('a failed SHOULD leaves it conformant, with a warning', () => {
    const s = summarize('rest-route', [req('R-A-01', 'SHOULD', ['failed']), req('R-A-02', 'MUST', ['passed'])], 0);
    expect(s.verdict).toBe('conformant');
    expect(s.warnings).toEqual(['R-A-01']);
  });
  it('an advisory never changes the verdict', () => {
    expect(summarize('rest-route', [req('R-A-01', 'ADVISORY', ['failed']), req('R-A-02', 'MUST', ['passed'])], 0).verdict).toBe(
      'conformant',
    );
  });
  it('a testable MUST that was skipped or untested makes it incomplete', () => {
    expect(summarize('rest-route', [req('R-A-01', 'MUST', ['skipped'])], 0).verdict).toBe('incomplete');
    expect(summarize('rest-route', [req('R-A-01', 'MUST', [])], 0).verdict).toBe('incomplete');
  });
  it('an untestable MUST does not make it incomplete', () => {
    expect(summarize('rest-route', [req('R-A-01', 'MUST', [], false), req('R-A-02', 'MUST', ['passed'])], 0).verdict).toBe(
      'conformant',
    );
  });
  it('a suite error makes it incomplete, never non-conformant', () => {
    expect(summarize('rest-route', [req('R-A-01', 'MUST', ['error'])], 0).verdict).toBe('incomplete');
    expect(summarize('rest-route', [req('R-A-01', 'MUST', ['passed'])], 1).verdict).toBe('incomplete');
  });
  it('an interface with no requirements is incomplete', () => {
    expect(summarize('rest-route', [], 0).verdict).toBe('incomplete');
  });
  it('a waived MUST failure does not count', () => {
    const r = req('R-A-01', 'MUST', ['failed']);
    r.waiver = { reason: 'known', expires: '2999-01-01' };
    expect(summarize('rest-route', [r], 0).verdict).toBe('conformant');
  });
  it('overall: any non-conformant wins, then incomplete', () => {
    const c = summarize('rest-route', [req('R-A-01', 'MUST', ['passed'])], 0);
    const n = summarize('graphql', [req('R-A-02', 'MUST', ['failed'])], 0);
    const i = summarize('graphql', [req('R-A-03', 'MUST', ['skipped'])], 0);
    expect(overallVerdict([c, n, i])).toBe('non-conformant');
    expect(overallVerdict([c, i])).toBe('incomplete');
    expect(overallVerdict([c])).toBe('conformant');
  });
  it('exit codes: 0 conformant, 1 otherwise, 0 for incomplete when allowed', () => {
    expect(exitCodeFor('conformant', false)).toBe(0);
    expect(exitCodeFor('non-conformant', true)).toBe(1);
    expect(exitCodeFor('incomplete', false)).toBe(1);
    expect(exitCodeFor('incomplete', true)).toBe(0);
  });
});
