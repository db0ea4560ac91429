import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Lane } from '../../scripts/faults/lanes.js';
import { INTERFACES, laneDrift, loadCatalog, type Matrix, matrixMarkdown, runMatrix } from '../../scripts/faults.js';

const catalog = loadCatalog();
let matrix: Matrix;

/**
 * Keeps the suite's detection rate at 100%: every catalogued fault must make at least one
 * requirement fail that passes without it, and one of the requirements the catalog names.
 */
describe('the conformance suite against the fault catalog', () => {
  beforeAll(async () => {
    matrix = await runMatrix(catalog, { jobs: 2, log: (line) => process.stdout.write(`${line}\n`) });
    mkdirSync('reports', { recursive: true });
    writeFileSync(join('reports', 'fault-matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
    writeFileSync(join('reports', 'fault-matrix.md'), matrixMarkdown(matrix));
  });

  it('finds no failure and no suite error on the reference without a fault', () => {
    expect(matrix.baseline.suiteErrors).toBe(0);
    // Only ADVISORY findings (security beyond the documents) fail without a fault.
    expect(matrix.baseline.failed.filter((id) => matrix.baseline.levels[id] !== 'ADVISORY')).toEqual([]);
  });

  it('finds the same without a fault on every lane after its faults (a lane carries nothing from one run to the next)', () => {
    expect(matrix.baselineAfter.length).toBeGreaterThan(0);
    expect(laneDrift(matrix)).toEqual([]);
  });

  it.each(catalog.map((f) => [f.id, f] as const))('detects %s', (id, fault) => {
    const row = matrix.rows.find((r) => r.id === id);
    expect(row?.error).toBeUndefined();
    expect(row?.detected, `${id}: no requirement failed that passes without the fault`).toBe(true);
    expect(row?.expectedFailed, `${id}: none of ${fault.breaks.join(', ')} failed`).not.toEqual([]);
    // A check that crashed on this fault's answers judged nothing there, and hides a defect of the suite.
    expect(row?.suiteErrors, `${id}: a check of the suite crashed (outcome error) under this fault`).toBe(0);
  });
});

/**
 * Token lifetime is not shown in any document, and the real products end an account's older tokens when
 * it logs in again. The suite must accept that reading too: no check may send a token after a newer
 * token of the same account was issued.
 */
describe('the conformance suite against the other reading of token lifetime', () => {
  it(
    'finds no failure and no suite error on a reference where each new token ends the older ones',
    async () => {
      const lane = await Lane.open();
      try {
        const run = await lane.run({ interfaces: INTERFACES, seed: 1, singleSession: true });
        expect(run.suiteErrors).toBe(0);
        expect(run.failed.filter((id) => run.levels[id] !== 'ADVISORY')).toEqual([]);
      } finally {
        await lane.close();
      }
    },
    5 * 60_000,
  );
});
