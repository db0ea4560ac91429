import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ClassificationGroup,
  loadClassification,
  type MutantReport,
  mergeReports,
  type StrykerReport,
  summarizeReport,
} from '../../scripts/mutation/score.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FILE = 'reference-impl/src/shop/pricing.ts';

function mutant(
  id: string,
  line: number,
  status: string,
  mutatorName = 'ConditionalExpression',
  replacement = `r${id}`,
): MutantReport {
  return {
    id,
    mutatorName,
    status,
    replacement,
    location: { start: { line, column: 1 }, end: { line, column: 40 } },
  };
}

const report: StrykerReport = {
  files: {
    [FILE]: {
      source: ['if (a > b) x', 'if (ctx.fault) y', 'if (c) z', 'if (d) w'].join('\n'),
      mutants: [
        mutant('1', 1, 'Killed'),
        mutant('2', 1, 'Survived'),
        mutant('3', 2, 'Survived'),
        mutant('4', 2, 'NoCoverage'),
        mutant('5', 3, 'Killed'),
        mutant('6', 4, 'Survived', 'BlockStatement'),
        mutant('7', 4, 'Ignored', 'StringLiteral'),
      ],
    },
  },
};

const group = (g: Partial<ClassificationGroup>): ClassificationGroup => ({
  file: FILE,
  lines: [1, 1],
  class: 'equivalent',
  reason: 'a reason long enough',
  source: 'reference internals',
  ...g,
});

describe('mutation scores (scripts/mutation/score.ts)', () => {
  it('without a classification, both scores are the raw score', () => {
    const s = summarizeReport(report);
    expect(s.score).toBe(33.3); // 2 killed of 6 tested; Ignored is not tested
    expect(s.constrainedScore).toBe(33.3);
    expect(s.unclassifiedSurvivors).toHaveLength(4);
  });

  it('takes classified mutants out of numerator and denominator, and reports what a group costs', () => {
    const s = summarizeReport(report, [
      group({ lines: [2, 2], match: 'ctx.fault' }), // both mutants of line 2 (one survived, one no coverage)
      group({ lines: [3, 3], class: 'unconstrained' }), // a killed mutant: the group costs a kill
      group({ lines: [9, 9] }), // matches nothing: stale
    ]);
    expect(s.score).toBe(33.3);
    // left: line 1 (killed, survived), line 4 (survived) -> 1 of 3
    expect(s.constrainedScore).toBe(33.3);
    expect(s.constrainedCounts).toEqual({ Killed: 1, Survived: 2, Ignored: 1 });
    expect(s.classified).toEqual({ equivalent: 2, unconstrained: 1 });
    expect(s.classifiedButKilled).toHaveLength(1);
    expect(s.classifiedButKilled[0]).toMatch(/pricing\.ts:3 .*\[Killed\]/);
    expect(s.staleGroups).toEqual([`${FILE}:9-9 (equivalent)`]);
    expect(s.unclassifiedSurvivors.map((l) => l.split(' ')[0])).toEqual([`${FILE}:1`, `${FILE}:4`]);
  });

  it('matches on mutator and on the replaced text, not only on lines', () => {
    const byMutator = summarizeReport(report, [group({ lines: [1, 4], mutators: ['BlockStatement'] })]);
    expect(byMutator.classified).toEqual({ equivalent: 1 });
    // the two mutants of line 1 differ only in replacement: one is picked, the other (killed) is not
    const byReplacement = summarizeReport(report, [group({ lines: [1, 1], column: 1, replacement: 'r2' })]);
    expect(byReplacement.classified).toEqual({ equivalent: 1 });
    expect(byReplacement.classifiedButKilled).toEqual([]);
    expect(summarizeReport(report, [group({ lines: [1, 1], column: 2 })]).classified).toEqual({});
    expect(summarizeReport(report, [group({ lines: [1, 4], original: 'if (c) z' })]).classified).toEqual({ equivalent: 1 });
    expect(summarizeReport(report, [group({ lines: [1, 4], original: 'if (c)' })]).classified).toEqual({});
    const byText = summarizeReport(report, [group({ lines: [1, 4], match: 'no such text' })]);
    expect(byText.classified).toEqual({});
    expect(byText.staleGroups).toHaveLength(1);
  });

  it('refuses a classification file that is not in the format, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sfc-class-'));
    writeFileSync(join(dir, 'shop.json'), JSON.stringify({ module: 'shop', groups: [{ file: FILE, lines: [3, 1] }] }));
    expect(() => loadClassification(dir)).toThrow(/shop\.json/);
    writeFileSync(join(dir, 'shop.json'), JSON.stringify({ module: 'shop', groups: [group({ lines: [3, 1] })] }));
    expect(() => loadClassification(dir)).toThrow(/backwards/);
  });

  it('every committed group names an existing handler file and lines inside it', () => {
    const groups = loadClassification(join(ROOT, 'fixtures/mutation/classification'));
    for (const g of groups) {
      const path = join(ROOT, g.file);
      expect(existsSync(path), g.file).toBe(true);
      const lines = readFileSync(path, 'utf8').split('\n').length;
      expect(g.lines[1], `${g.file}:${g.lines.join('-')}`).toBeLessThanOrEqual(lines);
    }
  });

  it('combines runs oldest first: a mutant has the status of the last run that ran it', () => {
    const narrow: StrykerReport = {
      files: {
        [FILE]: {
          source: report.files[FILE]?.source ?? '',
          mutants: [mutant('x', 1, 'Killed', 'ConditionalExpression', 'r2'), mutant('y', 9, 'Survived')],
        },
      },
    };
    const merged = mergeReports([report, narrow]);
    const statuses = merged.files[FILE]?.mutants.map((m) => `${m.location.start.line} ${m.status}`);
    // the narrow run killed the second mutant of line 1 (same location, mutator and replacement)
    expect(statuses).toEqual([
      '1 Killed',
      '1 Killed',
      '2 Survived',
      '2 NoCoverage',
      '3 Killed',
      '4 Survived',
      '4 Ignored',
      '9 Survived',
    ]);
    expect(report.files[FILE]?.mutants[1]?.status).toBe('Survived'); // inputs are not changed
    expect(() => mergeReports([report, { files: { [FILE]: { source: 'other', mutants: [] } } }])).toThrow(
      /changed between the runs/,
    );
  });
});
