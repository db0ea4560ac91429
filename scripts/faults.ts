/**
 * The fault matrix: runs the conformance suite against the reference implementation with each
 * catalogued fault switched on (only the fault's interface), and once without a fault, and says
 * which faults the suite detects. Writes reports/fault-matrix.json and .md.
 *
 *   npm run faults [-- --only ID,ID] [--interface rest-route] [--jobs 2] [--runs N] [--seed 1] [--out reports]  (--help: the options)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DATA_KEYS } from '../src/config/options.js';
import { printParseText } from './cli-args.js';
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

export interface ReferenceChild {
  /** The child process; undefined for a reference inside this process. */
  child: ChildProcess | undefined;
  origin: string;
  networkApiRoot: string;
  shopApiRoot: string;
  dir: string;
  stop(): Promise<void>;
}

/**
 * The reference implementation as a child process on a free port with a fresh database; `nodeArgs`
 * and `env` go to its node (the benchmark preloads a request clock), `hashCost` is its scrypt cost.
 */
export async function startReferenceChild(
  fault?: string,
  { nodeArgs = [], env = process.env, hashCost = 1024 }: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv; hashCost?: number } = {},
): Promise<ReferenceChild> {
  const dir = mkdtempSync(join(tmpdir(), 'sfc-fault-'));
  const args = [
    ...nodeArgs,
    'reference-impl/bin/sfc-reference.js',
    '--port',
    '0',
    '--db',
    join(dir, 'ref.db'),
    '--hash-cost',
    String(hashCost),
  ];
  if (fault) args.push('--fault', fault);
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // A reference must not outlive the script that started it (a bench whose output pipe closed, ^C).
  const orphanGuard = () => child.kill('SIGTERM');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.removeListener('exit', orphanGuard));
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const urls = await new Promise<Record<string, string>>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`reference did not start in 30 s: ${err}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const base = /base_url[^:]*:\s*(\S+)/.exec(out)?.[1];
      const network = /network-plan api_root:\s*(\S+)/.exec(out)?.[1];
      const shop = /shop api_root:\s*(\S+)/.exec(out)?.[1];
      if (base && network && shop) {
        clearTimeout(timer);
        ok({ base, network, shop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`reference exited with ${code}: ${err}`));
    });
  });
  return {
    child,
    dir,
    origin: urls.base as string,
    networkApiRoot: urls.network as string,
    shopApiRoot: urls.shop as string,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let sharedKeys: string | undefined;

/**
 * The reference implementation inside this process (the matrix runs dozens: no tsx start-up and
 * no RSA key generation per fault, one key pair shared), on a free port with a fresh database.
 */
export async function startReferenceInProcess(fault?: string, { singleSession = false } = {}): Promise<ReferenceChild> {
  const { buildServer, urlsFor } = await import('../reference-impl/src/server.js');
  sharedKeys ??= join(mkdtempSync(join(tmpdir(), 'sfc-fault-keys-')), 'keys.json');
  const dir = mkdtempSync(join(tmpdir(), 'sfc-fault-'));
  const { app } = await buildServer({
    db: join(dir, 'ref.db'),
    keyFile: sharedKeys,
    hashCost: 1024,
    fault: fault ?? null,
    singleSession,
  });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const urls = urlsFor(origin, 'svc');
  return {
    child: undefined,
    dir,
    origin,
    networkApiRoot: urls.networkApiRoot,
    shopApiRoot: urls.shopApiRoot,
    async stop() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The suite's command line against `ref`, and the environment holding the reference's target data. */
export function suiteCommand(ref: ReferenceChild, interfaces: readonly string[], reportDir: string, seed = 1) {
  const args = [
    'bin/storefront-conformance.js',
    'run',
    '--base-url',
    ref.origin,
    '--network-api-root',
    ref.networkApiRoot,
    '--shop-api-root',
    ref.shopApiRoot,
    '--interfaces',
    interfaces.join(','),
    '--report-dir',
    reportDir,
    '--seed',
    String(seed),
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const d of DATA_KEYS) env[d.key] = d.reference;
  return { args, env };
}

interface Report {
  verdict: string;
  requests: number;
  durationMs: number;
  requirements: Array<{ id: string; level: string; status: string; checks: Array<{ outcome: string }> }>;
}

export interface RunOutcome {
  verdict: string;
  failed: string[];
  /** Level of each failed requirement. */
  levels: Record<string, string>;
  suiteErrors: number;
  requests: number;
  ms: number;
}

/** One suite run (child process) against a fresh reference with `fault` on (or none). */
export async function runOnce(
  fault: string | undefined,
  interfaces: readonly string[],
  opts: { runs?: number; seed?: number; singleSession?: boolean } = {},
): Promise<RunOutcome> {
  const started = Date.now();
  const ref = await startReferenceInProcess(fault, { singleSession: opts.singleSession });
  const reportDir = join(ref.dir, 'report');
  try {
    const { args, env } = suiteCommand(ref, interfaces, reportDir, opts.seed);
    if (opts.runs) args.push('--runs', String(opts.runs));
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout?.on('data', (d: Buffer) => {
      log += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      log += d.toString();
    });
    const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? 3)));
    let report: Report;
    try {
      report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as Report;
    } catch {
      throw new Error(`suite run (exit ${code}) wrote no report:\n${log.slice(-2000)}`);
    }
    return {
      verdict: report.verdict,
      failed: report.requirements.filter((q) => q.status === 'failed').map((q) => q.id),
      levels: Object.fromEntries(report.requirements.filter((q) => q.status === 'failed').map((q) => [q.id, q.level])),
      suiteErrors: report.requirements.flatMap((q) => q.checks).filter((c) => c.outcome === 'error').length,
      requests: report.requests,
      ms: Date.now() - started,
    };
  } finally {
    await ref.stop();
  }
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
  rows: MatrixRow[];
  detected: number;
  total: number;
  detectionRate: number;
  wallMs: number;
}

/** Runs `items` with at most `jobs` at a time, in order of start. */
async function pool<T, R>(items: T[], jobs: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T, i);
    }
  });
  await Promise.all(lanes);
  return out;
}

export async function runMatrix(
  faults: CatalogFault[],
  opts: { jobs?: number; runs?: number; seed?: number; log?: (line: string) => void } = {},
): Promise<Matrix> {
  const log = opts.log ?? (() => {});
  const seed = opts.seed ?? 1;
  const started = Date.now();
  const interfaces = INTERFACES.filter((i) => faults.some((f) => f.interface === i));
  log(`baseline (no fault): ${interfaces.join(', ')}; seed ${seed}, ${opts.runs ?? "the suite's default"} runs per property`);
  const baseline = { ...(await runOnce(undefined, interfaces, { runs: opts.runs, seed })), interfaces };
  log(
    `baseline: ${baseline.verdict}, failing (advisories): ${baseline.failed.join(', ') || 'none'} in ${(baseline.ms / 1000).toFixed(1)} s`,
  );
  const baseFailed = new Set(baseline.failed);
  const rows = await pool(faults, opts.jobs ?? 2, async (f, i): Promise<MatrixRow> => {
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
    try {
      const r = await runOnce(f.id, [f.interface], { runs: opts.runs, seed });
      row.newlyFailed = r.failed.filter((id) => !baseFailed.has(id));
      row.expectedFailed = f.breaks.filter((id) => r.failed.includes(id));
      row.detected = row.newlyFailed.length > 0;
      row.expectedMet = row.expectedFailed.length > 0;
      row.level = ['MUST', 'SHOULD', 'MAY', 'ADVISORY'].find((l) => row.newlyFailed.some((id) => r.levels[id] === l)) ?? '';
      row.verdict = r.verdict;
      row.suiteErrors = r.suiteErrors;
      row.ms = r.ms;
    } catch (e) {
      row.error = (e as Error).message;
    }
    const mark = row.detected ? (row.expectedMet ? 'DETECTED' : 'detected (not as catalogued)') : 'MISSED';
    log(
      `[${i + 1}/${faults.length}] ${f.id}: ${mark} ${row.newlyFailed.join(', ')} (${(row.ms / 1000).toFixed(1)} s)${row.suiteErrors ? `; ${row.suiteErrors} SUITE ERROR(S): a check crashed on what this fault answers` : ''}${row.error ? ` ERROR ${row.error.slice(0, 300)}` : ''}`,
    );
    return row;
  });
  const detected = rows.filter((r) => r.detected).length;
  return {
    generatedAt: new Date().toISOString(),
    seed,
    runs: opts.runs,
    baseline,
    rows,
    detected,
    total: rows.length,
    detectionRate: rows.length ? detected / rows.length : 0,
    wallMs: Date.now() - started,
  };
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

export function matrixMarkdown(m: Matrix): string {
  const lines = [
    '# Fault matrix',
    '',
    `${m.detected} of ${m.total} faults detected (${(m.detectionRate * 100).toFixed(1)}%) in ${(m.wallMs / 1000).toFixed(0)} s, seed ${m.seed}, ${m.runs ?? "the suite's default"} runs per property.`,
    `Baseline without a fault (${m.baseline.interfaces.join(', ')}): ${m.baseline.verdict}; failing: ${m.baseline.failed.join(', ') || 'none'}.`,
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
  // A check that crashes under a fault is the suite's defect even when the fault is detected otherwise.
  const suiteErrors = m.baseline.suiteErrors + m.rows.reduce((n, r) => n + r.suiteErrors, 0);
  if (suiteErrors > 0) process.stdout.write(`${suiteErrors} suite error(s): see the rows marked SUITE ERROR above\n`);
  return m.detected === m.total && baselineFailures.length === 0 && suiteErrors === 0 ? 0 : 1;
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
