/**
 * Mutation testing of the reference implementation's handlers, with the conformance suite as the
 * test (StrykerJS; the test runner scripts/mutation/runner.ts keeps reference and suite inside
 * Stryker's worker process, one fresh reference per mutant, and runs only the areas that reach the
 * mutant). Not part of `npm test`.
 *
 *   npm run mutation                                   (every handler module: stryker.config.json)
 *   npm run mutation -- --mutate reference-impl/src/shop/cart.ts[:177-194] [--mutate ...]
 *                       [--concurrency 2] [--ignore-static] [--out DIR]      (--help: the options)
 *
 * --out DIR (default reports/mutation) takes every file the run writes, and a sandbox of its own
 * (.stryker-tmp-<name of DIR>), so a short run can go beside a long one.
 *
 * Environment: SFC_MUTATION_RUNS (property runs, 5), SFC_MUTATION_SEED (1), SFC_MUTATION_AREAS
 * (areas of checks at once in a mutant run, 1), SFC_MUTATION_BAIL=0 (run every covering area, not only
 * up to the first that kills), SFC_MUTATION_PROGRESS (the per-mutant log, reports/mutation/progress.jsonl;
 * survivors there also name ADVISORY checks they fail, which do not kill).
 *
 * A mutant is killed when a MUST or SHOULD check that passes on the unmutated reference does not
 * pass, any check errs, the suite reports an error, or the reference does not start. ADVISORY
 * findings fail on the unmutated reference too, so they do not count.
 *
 * Writes <out>/{mutation.json,mutation.html,summary.json,progress.jsonl}: the score per file, per
 * module and overall, and the surviving mutants (file:line mutator original -> replacement). Beside
 * the raw score, the score over the mutants the documents constrain: mutants matched by
 * fixtures/mutation/classification/*.json (equivalent, or behaviour the documents leave unconstrained)
 * are left out, killed or not (scripts/mutation/score.ts); the unclassified survivors are the work list.
 *
 *   npm run mutation -- --rescore reports/mutation/mutation.json [--rescore narrow/mutation.json ...] [--out DIR]
 *
 * scores finished runs again with the current classification, without running a mutant; with several
 * reports (oldest first), each mutant has the status of the last run that ran it.
 *
 *   npm run mutation -- --summarize run1/progress.jsonl [run2/progress.jsonl ...]
 *
 * scores the mutants that were run, from the per-mutant logs of runs that did not finish (or of
 * several runs over different files: for each source file the last log that has it wins). Mutants a
 * run never reached, and those without coverage (Stryker decides them without running), are not in
 * the logs: the summary says it is partial. Writes <out>/summary-partial.json.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { printParseText } from './cli-args.js';
import { parseOptions, USAGE } from './mutation/options.js';
import { type Counts, loadClassification, mergeReports, type StrykerReport, score, summarizeReport } from './mutation/score.js';

const ROOT = resolve(import.meta.dirname, '..');
const CONFIG = join(ROOT, 'stryker.config.json');
const CLASSIFICATION = join(ROOT, 'fixtures', 'mutation', 'classification');

const readReport = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as StrykerReport;

/** summary.json of a Stryker report, with the current classification; prints the scores. */
function writeSummary(report: StrykerReport, outDir: string, extra: Record<string, unknown>): void {
  const s = summarizeReport(report, loadClassification(CLASSIFICATION));
  writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify({ ...extra, ...s }, null, 2)}\n`);
  const line = (name: string, c: { score: number | null; constrainedScore: number | null }) =>
    `  ${name}: ${c.score}% (over constrained mutants ${c.constrainedScore}%)`;
  process.stdout.write(
    `mutation score ${s.score}% ${JSON.stringify(s.counts)} (${s.staticMutants} static)\n` +
      `over the mutants the documents constrain: ${s.constrainedScore}% ${JSON.stringify(s.constrainedCounts)}; classified ${JSON.stringify(s.classified)}\n` +
      Object.entries(s.byModule)
        .map(([m, c]) => line(m, c))
        .join('\n') +
      `\nunclassified surviving mutants (${s.unclassifiedSurvivors.length}):\n${s.unclassifiedSurvivors.join('\n')}\n` +
      (s.classifiedButKilled.length
        ? `killed mutants a classification group takes out (${s.classifiedButKilled.length}):\n${s.classifiedButKilled.join('\n')}\n`
        : '') +
      (s.staleGroups.length
        ? `classification groups that match no mutant (${s.staleGroups.length}):\n${s.staleGroups.join('\n')}\n`
        : '') +
      `${join(outDir, 'summary.json')}\n`,
  );
}

interface ProgressLine {
  file: string;
  line: number;
  mutator: string;
  replacement: string;
  status: string;
  advisory?: unknown;
}

/** Scores from per-mutant logs (progress.jsonl of runs that may not have finished). */
function summarizeProgress(files: string[]) {
  const byFile = new Map<string, ProgressLine[]>();
  for (const log of files) {
    const fromThisLog = new Map<string, ProgressLine[]>();
    for (const text of readFileSync(log, 'utf8').split('\n')) {
      if (!text.trim()) continue;
      const m = JSON.parse(text) as ProgressLine;
      fromThisLog.set(m.file, [...(fromThisLog.get(m.file) ?? []), m]);
    }
    for (const [file, mutants] of fromThisLog) byFile.set(file, mutants);
  }
  const status = (s: string) => ({ killed: 'Killed', survived: 'Survived', timeout: 'Timeout' })[s] ?? s;
  const overall: Counts = {};
  const moduleCounts: Record<string, Counts> = {};
  const perFile: Record<string, { score: number | null; counts: Counts }> = {};
  const survivors: string[] = [];
  for (const [file, mutants] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    const module = /reference-impl\/src\/([^/]+)\//.exec(file)?.[1] ?? file;
    moduleCounts[module] ??= {};
    const fc: Counts = {};
    for (const m of mutants) {
      const st = status(m.status);
      for (const c of [overall, fc, moduleCounts[module] as Counts]) c[st] = (c[st] ?? 0) + 1;
      if (st === 'Survived')
        survivors.push(
          `${file}:${m.line} ${m.mutator}: ${(lines[m.line - 1] ?? '').trim().slice(0, 80)} -> ${m.replacement.replace(/\s+/g, ' ').slice(0, 60)}`,
        );
    }
    perFile[file] = { score: score(fc), counts: fc };
  }
  const byModule = Object.fromEntries(Object.entries(moduleCounts).map(([k, c]) => [k, { score: score(c), counts: c }]));
  return { partial: true, sources: files, score: score(overall), counts: overall, byModule, byFile: perFile, survivors };
}

async function mutationRun(argv: string[]): Promise<number> {
  const opts = parseOptions(argv);
  if (typeof opts === 'string') return printParseText(opts, USAGE);
  // Each run writes only under its --out directory (and its own Stryker sandbox), so two runs can go
  // side by side without overwriting each other's reports.
  const outDir = resolve(opts.out ?? join(ROOT, 'reports', 'mutation'));
  const tempDirName = opts.out ? `.stryker-tmp-${basename(outDir)}` : undefined;
  if (opts.summarize) {
    const s = summarizeProgress(opts.summarize);
    const out = join(outDir, 'summary-partial.json');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(out, `${JSON.stringify(s, null, 2)}\n`);
    process.stdout.write(
      `mutants run: ${JSON.stringify(s.counts)}; score over them ${s.score}% (partial: not-reached and no-coverage mutants are not in the logs)\n` +
        Object.entries(s.byModule)
          .map(([m, c]) => `  ${m}: ${c.score}% ${JSON.stringify(c.counts)}`)
          .join('\n') +
        `\n${out}\n`,
    );
    return 0;
  }
  if (opts.rescore.length) {
    // Finished runs scored again, after the classification or this script changed: no mutant is run.
    const reports = opts.rescore;
    mkdirSync(outDir, { recursive: true });
    const merged = mergeReports(reports.map(readReport));
    // The combined report is kept: another rescore, or Stryker's HTML viewer, can read it.
    writeFileSync(
      join(outDir, 'mutation-combined.json'),
      JSON.stringify({ schemaVersion: '1', thresholds: { high: 80, low: 60 }, ...merged }),
    );
    writeSummary(merged, outDir, { rescored: reports });
    return 0;
  }
  const config = JSON.parse(readFileSync(CONFIG, 'utf8')) as { mutate: string[] } & Record<string, unknown>;
  const mutate = opts.mutate.length ? opts.mutate : config.mutate;
  mkdirSync(outDir, { recursive: true });
  const runConfig = join(outDir, 'stryker.run.json');
  writeFileSync(
    runConfig,
    JSON.stringify(
      {
        ...config,
        mutate,
        ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
        ...(opts.ignoreStatic ? { ignoreStatic: true } : {}),
        jsonReporter: { fileName: join(outDir, 'mutation.json') },
        htmlReporter: { fileName: join(outDir, 'mutation.html') },
        ...(tempDirName ? { tempDirName } : {}),
      },
      null,
      2,
    ),
  );
  // One line per mutant run, written by the runner as it goes (partial results of a long run).
  const progress = resolve(process.env.SFC_MUTATION_PROGRESS ?? join(outDir, 'progress.jsonl'));
  writeFileSync(progress, '');
  process.stdout.write(`mutation: ${mutate.join(', ')}\n`);
  const started = Date.now();
  const code = await new Promise<number>((done) => {
    // tsx in Stryker's own process too: it loads the TypeScript runner plugin.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', runConfig],
      { cwd: ROOT, stdio: 'inherit', env: { ...process.env, SFC_MUTATION_PROGRESS: progress } },
    );
    child.once('exit', (c) => done(c ?? 3));
  });
  const jsonReport = join(outDir, 'mutation.json');
  if (!existsSync(jsonReport)) return code || 3;
  const minutes = Math.round((Date.now() - started) / 600) / 100;
  const report = readReport(jsonReport);
  const total = Object.values(report.files).reduce((n, f) => n + f.mutants.length, 0);
  writeSummary(report, outDir, {
    mutate,
    minutes,
    secondsPerMutant: total ? Math.round((minutes * 600) / total) / 10 : null,
  });
  return code;
}

mutationRun(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`mutation: ${(e as Error).stack ?? e}\n`);
    process.exit(3);
  },
);
