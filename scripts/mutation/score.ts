/**
 * Scores of a mutation run (pure: no Stryker, no file system beyond reading the classification).
 *
 * Two scores are reported side by side:
 *  - the raw score: killed (+ timeout) over killed + survived + no coverage, Stryker's definition;
 *  - the score over the mutants the documents constrain: the same, without the mutants a group of
 *    fixtures/mutation/classification/*.json matches ("equivalent": no client can observe the change;
 *    "unconstrained": the documents are silent or say "not shown"). A classified mutant leaves numerator
 *    and denominator alike, killed or not: a group drawn too wide costs kills, and the summary lists
 *    every kill a group takes away (classifiedButKilled) and every group that matches nothing (stale).
 * The unclassified survivors are the work list: each is a check the suite may still be missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';

export type Counts = Record<string, number>;

export interface MutantReport {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  static?: boolean;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

export interface StrykerReport {
  files: Record<string, { source: string; mutants: MutantReport[] }>;
}

export type MutantClass = 'equivalent' | 'unconstrained';

export interface ClassificationGroup {
  file: string;
  lines: [number, number];
  match?: string;
  mutators?: string[];
  /** Start column of the mutant (1-based, as Stryker reports it): one mutant among several on a line. */
  column?: number;
  /** The replacement exactly (whitespace collapsed): `true` and `false` of one condition apart. */
  replacement?: string;
  /** The replaced text exactly (its first line, whitespace collapsed): `a` apart from `a && b` at the same column. */
  original?: string;
  class: MutantClass;
  reason: string;
  source: string;
}

const GROUP_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['module', 'groups'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    module: { enum: ['rest-route', 'network', 'shop', 'graphql'] },
    groups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['file', 'lines', 'class', 'reason', 'source'],
        additionalProperties: false,
        properties: {
          file: { type: 'string', pattern: '^reference-impl/src/[a-z-]+/[a-z-]+\\.ts$' },
          lines: {
            type: 'array',
            prefixItems: [
              { type: 'integer', minimum: 1 },
              { type: 'integer', minimum: 1 },
            ],
            items: false,
            minItems: 2,
          },
          match: { type: 'string', minLength: 1 },
          mutators: { type: 'array', items: { type: 'string', pattern: '^[A-Z][A-Za-z]+$' }, minItems: 1 },
          column: { type: 'integer', minimum: 1 },
          replacement: { type: 'string' },
          original: { type: 'string', minLength: 1 },
          class: { enum: ['equivalent', 'unconstrained'] },
          reason: { type: 'string', minLength: 10 },
          source: { type: 'string', minLength: 2 },
        },
      },
    },
  },
} as const;

/** Every group of every file in `dir`; a file that does not match the format is an error naming it. */
export function loadClassification(dir: string): ClassificationGroup[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(GROUP_SCHEMA);
  const groups: ClassificationGroup[] = [];
  for (const name of names.sort()) {
    const data = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { groups: ClassificationGroup[] };
    if (!validate(data)) {
      const first = validate.errors?.[0];
      throw new Error(`${join(dir, name)}: ${first?.instancePath || '/'} ${first?.message ?? 'is not a classification file'}`);
    }
    for (const g of data.groups) {
      if (g.lines[0] > g.lines[1]) throw new Error(`${join(dir, name)}: ${g.file} lines ${g.lines.join('-')} run backwards`);
      groups.push(g);
    }
  }
  return groups;
}

/** The source text a mutant replaces (first line of it, whitespace collapsed). */
export function originalText(lines: string[], m: MutantReport): string {
  const { start, end } = m.location;
  const text =
    start.line === end.line
      ? (lines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1)
      : (lines[start.line - 1] ?? '').slice(start.column - 1);
  return text.replace(/\s+/g, ' ').trim();
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Every group that matches the mutant; the first one classifies it, the others only count as used. */
export function matchingGroups(
  groups: readonly ClassificationGroup[],
  file: string,
  m: MutantReport,
  original: string,
): ClassificationGroup[] {
  const line = m.location.start.line;
  return groups.filter(
    (g) =>
      g.file === file &&
      line >= g.lines[0] &&
      line <= g.lines[1] &&
      (!g.mutators || g.mutators.includes(m.mutatorName)) &&
      (g.column === undefined || g.column === m.location.start.column) &&
      (g.replacement === undefined || g.replacement === collapse(m.replacement ?? '')) &&
      (g.original === undefined || g.original === original) &&
      (!g.match || original.includes(g.match)),
  );
}

export function score(c: Counts): number | null {
  const killed = (c.Killed ?? 0) + (c.Timeout ?? 0);
  const valid = killed + (c.Survived ?? 0) + (c.NoCoverage ?? 0);
  return valid ? Math.round((killed / valid) * 1000) / 10 : null;
}

function add(c: Counts, key: string): void {
  c[key] = (c[key] ?? 0) + 1;
}

const TESTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

function survivorLine(file: string, m: MutantReport, original: string): string {
  return `${file}:${m.location.start.line} ${m.mutatorName}${m.status === 'NoCoverage' ? ' (no coverage)' : ''}: ${original.slice(0, 80)} -> ${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80)}`;
}

const mutantKey = (m: MutantReport) =>
  `${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ''}`;

/**
 * One report from several runs, oldest first: a mutant's status is the one of the last run that ran
 * it (a narrow run after a check was added overrides the full run before it). A file whose source
 * differs between two runs cannot be combined mutant by mutant: that is an error naming it.
 */
export function mergeReports(reports: readonly StrykerReport[]): StrykerReport {
  const files: StrykerReport['files'] = {};
  for (const report of reports) {
    for (const [name, f] of Object.entries(report.files)) {
      const known = files[name];
      if (!known) {
        files[name] = { source: f.source, mutants: f.mutants.map((m) => ({ ...m })) };
        continue;
      }
      if (known.source !== f.source) throw new Error(`${name} changed between the runs being combined; run it whole again`);
      const index = new Map(known.mutants.map((m, i) => [mutantKey(m), i]));
      for (const m of f.mutants) {
        const i = index.get(mutantKey(m));
        if (i === undefined) known.mutants.push({ ...m });
        else known.mutants[i] = { ...m };
      }
    }
  }
  return { files };
}

/** Raw and constrained scores per file, per module and overall, from Stryker's JSON report. */
export function summarizeReport(report: StrykerReport, groups: readonly ClassificationGroup[] = []) {
  const overall: Counts = {};
  const constrained: Counts = {};
  const classified: Counts = {};
  const byFile: Record<string, { score: number | null; constrainedScore: number | null; counts: Counts }> = {};
  const moduleCounts: Record<string, { raw: Counts; constrained: Counts }> = {};
  const survivors: string[] = [];
  const unclassifiedSurvivors: string[] = [];
  const classifiedButKilled: string[] = [];
  const used = new Set<ClassificationGroup>();
  let staticMutants = 0;
  for (const [name, f] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const lines = f.source.split('\n');
    const module = /reference-impl\/src\/([^/]+)\//.exec(name)?.[1] ?? name;
    const fc: Counts = {};
    const fcc: Counts = {};
    moduleCounts[module] ??= { raw: {}, constrained: {} };
    const mc = moduleCounts[module];
    for (const m of f.mutants) {
      for (const c of [overall, fc, mc.raw]) add(c, m.status);
      if (m.static) staticMutants++;
      const text = originalText(lines, m);
      const matches = TESTED.has(m.status) ? matchingGroups(groups, name, m, text) : [];
      const group = matches[0];
      for (const g of matches) used.add(g);
      if (group) {
        add(classified, group.class);
        if (m.status === 'Killed' || m.status === 'Timeout')
          classifiedButKilled.push(`${survivorLine(name, m, text)} [${m.status}]`);
      } else {
        for (const c of [constrained, fcc, mc.constrained]) add(c, m.status);
      }
      if (m.status === 'Survived' || m.status === 'NoCoverage') {
        survivors.push(survivorLine(name, m, text));
        if (!group) unclassifiedSurvivors.push(survivorLine(name, m, text));
      }
    }
    byFile[name] = { score: score(fc), constrainedScore: score(fcc), counts: fc };
  }
  const byModule = Object.fromEntries(
    Object.entries(moduleCounts).map(([k, c]) => [
      k,
      { score: score(c.raw), constrainedScore: score(c.constrained), counts: c.raw, constrainedCounts: c.constrained },
    ]),
  );
  const total = Object.values(overall).reduce((a, b) => a + b, 0);
  const mutatedFiles = new Set(Object.keys(report.files));
  // A group for a file this run did not mutate is not stale: the run was narrower than the catalog.
  const staleGroups = groups
    .filter((g) => mutatedFiles.has(g.file) && !used.has(g))
    .map((g) => `${g.file}:${g.lines.join('-')}${g.match ? ` "${g.match}"` : ''} (${g.class})`);
  return {
    score: score(overall),
    constrainedScore: score(constrained),
    counts: overall,
    constrainedCounts: constrained,
    classified,
    total,
    staticMutants,
    byModule,
    byFile,
    survivors,
    unclassifiedSurvivors,
    classifiedButKilled,
    staleGroups,
  };
}
