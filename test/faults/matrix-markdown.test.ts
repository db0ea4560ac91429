import { describe, expect, it } from 'vitest';
import { expectedCell, laneDrift, type Matrix, matrixMarkdown } from '../../scripts/faults.js';

describe('the fault matrix cell of the catalogued requirements', () => {
  it('lists the ones that failed', () => {
    expect(expectedCell({ expected: ['A-1', 'A-2'], expectedFailed: ['A-1', 'A-2'], expectedMet: true })).toBe('A-1, A-2');
  });

  it('names those that did not fail after them', () => {
    expect(expectedCell({ expected: ['A-1', 'A-STATE-01'], expectedFailed: ['A-1'], expectedMet: true })).toBe(
      'A-1 (named, not failed: A-STATE-01)',
    );
  });

  it('marks a fault none of whose named requirements failed', () => {
    expect(expectedCell({ expected: ['A-1', 'A-2'], expectedFailed: [], expectedMet: false })).toBe('**none of** A-1, A-2');
  });
});

describe('the fault matrix legend', () => {
  it('says that a fault detected through SHOULD requirements alone leaves the verdict conformant', () => {
    const md = matrixMarkdown({
      generatedAt: '2026-11-24T00:00:00Z',
      seed: 1,
      runs: undefined,
      baseline: {
        interfaces: ['rest-route'],
        verdict: 'conformant',
        failed: [],
        levels: {},
        suiteErrors: 0,
        requests: 1,
        ms: 1,
      },
      baselineAfter: [],
      rows: [
        {
          id: 'RR-X',
          interface: 'rest-route',
          title: 'x',
          detected: true,
          newlyFailed: ['RR-LIST-03'],
          expected: ['RR-LIST-03'],
          expectedFailed: ['RR-LIST-03'],
          expectedMet: true,
          level: 'SHOULD',
          verdict: 'conformant',
          suiteErrors: 0,
          ms: 1000,
        },
      ],
      detected: 1,
      total: 1,
      detectionRate: 1,
      wallMs: 1000,
    } satisfies Matrix);
    expect(md).toContain('a fault detected through SHOULD requirements alone leaves it conformant');
    expect(md).toContain('| RR-X | rest-route | yes | SHOULD | RR-LIST-03 | RR-LIST-03 | conformant | 1.0 s |');
  });
});

describe('the baseline again on each lane after its faults', () => {
  const outcome = (failed: string[], suiteErrors = 0) => ({
    verdict: 'conformant',
    failed,
    levels: {},
    suiteErrors,
    requests: 1,
    ms: 1,
  });
  const matrix = (after: ReturnType<typeof outcome>[]): Matrix => ({
    generatedAt: '2026-11-29T00:00:00Z',
    seed: 1,
    runs: undefined,
    baseline: { ...outcome(['RR-SEC-03', 'RR-SEC-06']), interfaces: ['rest-route'] },
    baselineAfter: after,
    rows: [],
    detected: 0,
    total: 0,
    detectionRate: 0,
    wallMs: 1,
  });

  it('is no drift when every lane fails what the first baseline failed, in any order', () => {
    const m = matrix([outcome(['RR-SEC-06', 'RR-SEC-03']), outcome(['RR-SEC-03', 'RR-SEC-06'])]);
    expect(laneDrift(m)).toEqual([]);
    expect(matrixMarkdown(m)).toContain('The baseline again on each of the 2 lanes after its faults: the same.');
  });

  it('names the lane that fails otherwise or where a check crashed', () => {
    const m = matrix([outcome(['RR-SEC-03', 'RR-SEC-06']), outcome(['RR-SEC-03', 'RR-SEC-06', 'RR-LIST-03'], 1)]);
    expect(laneDrift(m)).toEqual(['lane 2: failing RR-LIST-03, RR-SEC-03, RR-SEC-06, 1 suite error(s)']);
    expect(matrixMarkdown(m)).toContain('**different**: lane 2');
  });
});
