/**
 * The fault matrix: runs the conformance suite against the reference implementation with each
 * catalogued fault switched on (only the fault's interface), and once without a fault, and says
 * which faults the suite detects. Writes reports/fault-matrix.json and .md.
 *
 *   npm run faults [-- --only ID,ID] [--interface rest-route] [--jobs 2] [--runs N] [--seed 1] [--out reports]  (--help: the options)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printParseText } from './cli-args.js';
import { Lane, type LaneRequest, type RunOutcome } from './faults/lanes.js';
import { parseOptions, USAGE } from './faults/options.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const INTERFACES = ['rest-route', 'rest-v1-network', 'rest-v1-shop', 'graphql'] as const;
export type Iface = (typeof INTERFACES)[number];

export interface CatalogFault {
  id: string;
  interface: Iface;
  title: string;
  description: string;
  breaks: string[];
}

export function loadCatalog(): CatalogFault[] {
  return (JSON.parse(readFileSync(join(ROOT, 'fixtures/faults/catalog.json'), 'utf8')) as { faults: CatalogFault[] }).faults;
}

export interface MatrixRow {
  id: string;
  interface: Iface;
  title: string;
  detected: boolean;
  /** Requirements failing with the fault that pass without it. */
  newlyFailed: string[];
  expected: string[];
  expectedFailed: string[];
  /** At least one of the catalogued `breaks` failed. */
  expectedMet: boolean;
  /** The strongest level among the newly failed requirements (MUST, SHOULD, ADVISORY). */
  level: string;
  verdict: string;
  suiteErrors: number;
  ms: number;
  error?: string;
}

export interface Matrix {
  generatedAt: string;
  /** Seed of every run's properties. */
  seed: number;
  /** Runs per property; undefined: the suite's default. */
  runs: number | undefined;
  baseline: RunOutcome & { interfaces: readonly string[] };
  /**
   * The baseline run again on each lane after its faults: a lane keeps its suite session from one run to
   * the next, and these show that nothing of a fault's run reached a later run.
   */
  baselineAfter: RunOutcome[];
  rows: MatrixRow[];
  detected: number;
  total: number;
  detectionRate: number;
  wallMs: number;
}

/**
 * Runs every fault on `jobs` lanes (processes that keep the suite loaded between runs), each against a
 * fresh reference with the fault on; and the baseline without a fault on the first lane, first, and on
 * every lane again at the end.
 */
export async function runMatrix(
  faults: CatalogFault[],
  opts: { jobs?: number; runs?: number; seed?: number; log?: (line: string) => void } = {},
): Promise<Matrix> {
  const log = opts.log ?? (() => {});
  const seed = opts.seed ?? 1;
  const started = Date.now();
  const interfaces = INTERFACES.filter((i) => faults.some((f) => f.interface === i));
  const jobs = Math.max(1, Math.min(opts.jobs ?? 2, faults.length));
  log(
    `baseline (no fault): ${interfaces.join(', ')}; seed ${seed}, ${opts.runs ?? "the suite's default"} runs per property; ${jobs} lane(s)`,
  );
  const lanes = await Promise.all(Array.from({ length: jobs }, () => Lane.open()));
  /** A lane that died is replaced before its next run; the run it took down is that row's error. */
  const onLane = async (k: number, req: Omit<LaneRequest, 'n'>): Promise<RunOutcome> => {
    if (!lanes[k]?.alive) lanes[k] = await Lane.open();
    return (lanes[k] as Lane).run(req);
  };
  try {
    const base = { interfaces, runs: opts.runs, seed };
    // The first lane runs the baseline while the others start on the faults.
    const baselineRun = onLane(0, base);
    baselineRun.then(
      (b) =>
        log(`baseline: ${b.verdict}, failing (advisories): ${b.failed.join(', ') || 'none'} in ${(b.ms / 1000).toFixed(1)} s`),
      () => {},
    );
    // A baseline that failed ends the matrix below; the rows meanwhile compare with nothing.
    const baseFailed = baselineRun.then(
      (b) => new Set(b.failed),
      () => new Set<string>(),
    );
    let next = 0;
    const rows: MatrixRow[] = new Array(faults.length);
    await Promise.all(
      lanes.map(async (_, k) => {
        if (k === 0) await baselineRun.catch(() => {});
        while (next < faults.length) {
          const i = next++;
          const f = faults[i] as CatalogFault;
          const outcome = await onLane(k, { fault: f.id, interfaces: [f.interface], runs: opts.runs, seed }).catch(
            (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
          );
          rows[i] = rowOf(f, outcome, await baseFailed);
          log(rowLine(rows[i] as MatrixRow, i, faults.length));
        }
      }),
    );
    const baseline = { ...(await baselineRun), interfaces };
    const baselineAfter = await Promise.all(lanes.map((_, k) => onLane(k, base)));
    for (const [k, b] of baselineAfter.entries())
      log(`baseline again on lane ${k + 1} after its faults: ${b.verdict}, failing: ${b.failed.join(', ') || 'none'}`);
    const detected = rows.filter((r) => r.detected).length;
    return {
      generatedAt: new Date().toISOString(),
      seed,
      runs: opts.runs,
      baseline,
      baselineAfter,
      rows,
      detected,
      total: rows.length,
      detectionRate: rows.length ? detected / rows.length : 0,
      wallMs: Date.now() - started,
    };
  } finally {
    await Promise.all(lanes.map((l) => l.close()));
  }
}

/** A fault's row: what newly fails against the baseline, and whether one of the catalogued requirements does. */
function rowOf(f: CatalogFault, r: RunOutcome | Error, baseFailed: Set<string>): MatrixRow {
  const row: MatrixRow = {
    id: f.id,
    interface: f.interface,
    title: f.title,
    detected: false,
    newlyFailed: [],
    expected: f.breaks,
    expectedFailed: [],
    expectedMet: false,
    level: '',
    verdict: 'error',
    suiteErrors: 0,
    ms: 0,
  };
  if (r instanceof Error) {
    row.error = r.message;
    return row;
  }
  row.newlyFailed = r.failed.filter((id) => !baseFailed.has(id));
  row.expectedFailed = f.breaks.filter((id) => r.failed.includes(id));
  row.detected = row.newlyFailed.length > 0;
  row.expectedMet = row.expectedFailed.length > 0;
  row.level = ['MUST', 'SHOULD', 'MAY', 'ADVISORY'].find((l) => row.newlyFailed.some((id) => r.levels[id] === l)) ?? '';
  row.verdict = r.verdict;
  row.suiteErrors = r.suiteErrors;
  row.ms = r.ms;
  return row;
}

function rowLine(row: MatrixRow, i: number, total: number): string {
  const mark = row.detected ? (row.expectedMet ? 'DETECTED' : 'detected (not as catalogued)') : 'MISSED';
  return `[${i + 1}/${total}] ${row.id}: ${mark} ${row.newlyFailed.join(', ')} (${(row.ms / 1000).toFixed(1)} s)${row.suiteErrors ? `; ${row.suiteErrors} SUITE ERROR(S): a check crashed on what this fault answers` : ''}${row.error ? ` ERROR ${row.error.slice(0, 300)}` : ''}`;
}

/**
 * The catalogued requirements that failed; those named but not failed are listed after them (a state
 * machine's random sequences may not reach one with this seed), so the matrix says which were not seen.
 */
export function expectedCell(r: Pick<MatrixRow, 'expected' | 'expectedFailed' | 'expectedMet'>): string {
  if (!r.expectedMet) return `**none of** ${r.expected.join(', ')}`;
  const notSeen = r.expected.filter((id) => !r.expectedFailed.includes(id));
  return `${r.expectedFailed.join(', ')}${notSeen.length > 0 ? ` (named, not failed: ${notSeen.join(', ')})` : ''}`;
}

/** Lanes whose baseline after their faults differs from the first baseline (other failures, or a check crashed). */
export function laneDrift(m: Matrix): string[] {
  const first = [...m.baseline.failed].sort().join(', ');
  return m.baselineAfter.flatMap((b, k) => {
    const now = [...b.failed].sort().join(', ');
    if (now === first && b.suiteErrors === 0) return [];
    return [`lane ${k + 1}: failing ${now || 'none'}${b.suiteErrors ? `, ${b.suiteErrors} suite error(s)` : ''}`];
  });
}

export function matrixMarkdown(m: Matrix): string {
  const drift = laneDrift(m);
  const lines = [
    '# Fault matrix',
    '',
    `${m.detected} of ${m.total} faults detected (${(m.detectionRate * 100).toFixed(1)}%) in ${(m.wallMs / 1000).toFixed(0)} s, seed ${m.seed}, ${m.runs ?? "the suite's default"} runs per property.`,
    `Baseline without a fault (${m.baseline.interfaces.join(', ')}): ${m.baseline.verdict}; failing: ${m.baseline.failed.join(', ') || 'none'}.`,
    `The baseline again on each of the ${m.baselineAfter.length} lanes after its faults: ${drift.length ? `**different**: ${drift.join('; ')}` : 'the same'}.`,
    '',
    // A reader took "conformant" beside a detected fault for a miss: the verdict counts MUSTs only.
    "*level*: the strongest level among the newly failed requirements. *verdict*: the faulted run's verdict, which only a MUST",
    'changes, so a fault detected through SHOULD requirements alone leaves it conformant.',
    '',
    '| fault | interface | detected | level | expected failed | newly failed requirements | verdict | time |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of m.rows)
    lines.push(
      `| ${r.id} | ${r.interface} | ${r.detected ? 'yes' : '**no**'} | ${r.level} | ${expectedCell(r)} | ${r.newlyFailed.join(', ')}${r.error ? ` error: ${r.error.split('\n')[0]}` : ''} | ${r.verdict} | ${(r.ms / 1000).toFixed(1)} s |`,
    );
  return `${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const catalog = loadCatalog();
  const ids = catalog.map((f) => f.id);
  const opts = parseOptions(argv, ids, INTERFACES);
  if (typeof opts === 'string') return printParseText(opts, USAGE);
  let faults = catalog;
  if (opts.only) {
    const only = new Set(opts.only);
    faults = faults.filter((f) => only.has(f.id));
  }
  if (opts.interfaces) {
    const wanted = opts.interfaces;
    faults = faults.filter((f) => wanted.includes(f.interface));
  }
  if (faults.length === 0) {
    process.stderr.write('faults: no fault selected: none of the --only faults is on an interface of --interface\n');
    return 2;
  }
  const m = await runMatrix(faults, {
    jobs: opts.jobs,
    ...(opts.runs ? { runs: opts.runs } : {}),
    seed: opts.seed,
    log: (l) => process.stdout.write(`${l}\n`),
  });
  const out = resolve(ROOT, opts.out);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'fault-matrix.json'), `${JSON.stringify(m, null, 2)}\n`);
  writeFileSync(join(out, 'fault-matrix.md'), matrixMarkdown(m));
  process.stdout.write(`${m.detected}/${m.total} detected; baseline ${m.baseline.verdict}; ${join(out, 'fault-matrix.md')}\n`);
  const baselineFailures = m.baseline.failed.filter((id) => m.baseline.levels[id] !== 'ADVISORY');
  const drift = laneDrift(m);
  if (drift.length > 0) process.stdout.write(`a lane's baseline after its faults differs from the first: ${drift.join('; ')}\n`);
  // A check that crashes under a fault is the suite's defect even when the fault is detected otherwise.
  const suiteErrors = m.baseline.suiteErrors + m.rows.reduce((n, r) => n + r.suiteErrors, 0);
  if (suiteErrors > 0) process.stdout.write(`${suiteErrors} suite error(s): see the rows marked SUITE ERROR above\n`);
  return m.detected === m.total && baselineFailures.length === 0 && suiteErrors === 0 && drift.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`faults: ${(e as Error).stack ?? e}\n`);
      process.exit(3);
    },
  );
}
