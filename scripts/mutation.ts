/**
 * Mutation testing of the reference implementation's handlers, with the conformance suite as the
 * test (StrykerJS, command runner). A full run over every module would take hours on 2 cores, so a
 * run mutates one file or line range (`--mutate`), default the one in stryker.config.json.
 *
 *   npm run mutation [-- --mutate reference-impl/src/shop/cart.ts:163-197]
 *   tsx scripts/mutation.ts test <interface>     (the command Stryker runs for each mutant)
 *
 * A mutant is killed when the suite, run on the mutated reference, fails a MUST or SHOULD
 * requirement, reports a suite error, or does not reach a conformant verdict. ADVISORY findings
 * fail on the unmutated reference too, so they do not count.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runOnce } from './faults.js';

const ROOT = resolve(import.meta.dirname, '..');
const CONFIG = join(ROOT, 'stryker.config.json');

/** The interface whose suite exercises a module of the reference implementation. */
function interfaceOf(mutate: string): string {
  const module = /reference-impl\/src\/([^/]+)\//.exec(mutate)?.[1];
  const map: Record<string, string> = {
    'rest-route': 'rest-route',
    network: 'rest-v1-network',
    shop: 'rest-v1-shop',
    graphql: 'graphql',
  };
  const iface = module ? map[module] : undefined;
  if (!iface) throw new Error(`--mutate must name a file of one module under reference-impl/src/<module>/, got ${mutate}`);
  return iface;
}

/** The command runner's test: exit 0 (mutant survived) only when the suite sees nothing wrong. */
async function testCommand(iface: string): Promise<number> {
  // Few property runs: one mutant run must stay short, and the example-based checks carry most kills.
  const r = await runOnce(undefined, [iface], { runs: Number(process.env.SFC_MUTATION_RUNS ?? 5) });
  const serious = r.failed.filter((id) => r.levels[id] === 'MUST' || r.levels[id] === 'SHOULD');
  if (r.verdict === 'conformant' && serious.length === 0 && r.suiteErrors === 0) return 0;
  process.stdout.write(`killed: ${r.verdict}; ${serious.join(', ')}; suite errors ${r.suiteErrors}\n`);
  return 1;
}

interface MutantReport {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}

/** Score and survivors from Stryker's JSON report (mutation-testing-report-schema). */
function summarize(file: string) {
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    files: Record<string, { source: string; mutants: MutantReport[] }>;
  };
  const counts: Record<string, number> = {};
  const survivors: string[] = [];
  for (const [name, f] of Object.entries(report.files)) {
    const lines = f.source.split('\n');
    for (const m of f.mutants) {
      counts[m.status] = (counts[m.status] ?? 0) + 1;
      if (m.status === 'Survived' || m.status === 'NoCoverage') {
        const line = m.location.start.line;
        survivors.push(
          `${name}:${line} ${m.mutatorName}: ${(lines[line - 1] ?? '').trim().slice(0, 100)} -> ${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80)}`,
        );
      }
    }
  }
  const killed = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const valid = killed + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  return { counts, score: valid ? Math.round((killed / valid) * 1000) / 10 : 0, survivors };
}

async function mutationRun(args: string[]): Promise<number> {
  const config = JSON.parse(readFileSync(CONFIG, 'utf8')) as { mutate: string[] } & Record<string, unknown>;
  const i = args.indexOf('--mutate');
  const mutate = i >= 0 && args[i + 1] ? [args[i + 1] as string] : config.mutate;
  const iface = interfaceOf(mutate[0] ?? '');
  const outDir = join(ROOT, 'reports', 'mutation');
  mkdirSync(outDir, { recursive: true });
  const runConfig = join(outDir, 'stryker.run.json');
  writeFileSync(runConfig, JSON.stringify({ ...config, mutate }, null, 2));
  process.stdout.write(`mutation: ${mutate.join(', ')} against the ${iface} suite\n`);
  const started = Date.now();
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', runConfig], {
      cwd: ROOT,
      env: { ...process.env, SFC_MUTATION_INTERFACE: iface },
      stdio: 'inherit',
    });
    child.once('exit', (c) => done(c ?? 3));
  });
  const jsonReport = join(outDir, 'mutation.json');
  if (!existsSync(jsonReport)) return code || 3;
  const s = summarize(jsonReport);
  const summary = { mutate, interface: iface, minutes: Math.round((Date.now() - started) / 600) / 100, ...s };
  writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`mutation score ${s.score}% ${JSON.stringify(s.counts)}\nsurviving mutants:\n${s.survivors.join('\n')}\n`);
  return code;
}

const [command, ...rest] = process.argv.slice(2);
const done =
  command === 'test' ? testCommand(rest[0] ?? process.env.SFC_MUTATION_INTERFACE ?? '') : mutationRun(process.argv.slice(2));
done.then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`mutation: ${(e as Error).stack ?? e}\n`);
    process.exit(3);
  },
);
