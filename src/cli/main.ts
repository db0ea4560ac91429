import { readDotenv, resolveSettings, UsageError } from '../config/load.js';
import { OPTIONS, referenceData } from '../config/options.js';
import type { Settings } from '../config/settings.js';
import { TargetUnreachable } from '../run/errors.js';
import type { RunResult } from '../run/results.js';
import { parseCommandFlags } from './flags.js';
import { commandHelp, MAIN_HELP, REFERENCE_HELP } from './help.js';
import { Terminal } from './terminal.js';

/** The `storefront-conformance` command. Returns the exit code; never throws for a user's mistake. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const term = new Terminal();
  try {
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(MAIN_HELP);
        return command === undefined ? 2 : 0;
      case 'run':
      case 'self-test':
        return await runCommand(command, rest, term);
      case 'reference':
        return await referenceCommand(rest);
      case 'report':
        return await (await import('./report.js')).reportCommand(rest, (line) => term.info(line));
      case 'pact': {
        const { pactCommand } = await import('./pact.js');
        return await pactCommand(rest, (line) => term.info(line));
      }
      default:
        term.error(`unknown command "${command}"; run storefront-conformance --help for the commands`);
        return 2;
    }
  } catch (e) {
    if (e instanceof UsageError) {
      term.error(e.message);
      return 2;
    }
    if (e instanceof TargetUnreachable) {
      term.error(e.message);
      return 3;
    }
    term.error(`internal error of storefront-conformance (please report it): ${(e as Error)?.stack ?? String(e)}`);
    return 3;
  }
}

function parseFlags(command: 'run' | 'self-test', args: string[]) {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const o of OPTIONS.filter((x) => x.commands.includes(command)))
    options[o.flag] = { type: o.kind === 'bool' ? 'boolean' : 'string' };
  // `--runs -1` would read as two flags; join a negative number to its flag so validation can name it.
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const next = args[i + 1];
    if (a.startsWith('--') && !a.includes('=') && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${a}=${next}`);
      i++;
    } else joined.push(a);
  }
  return parseCommandFlags(joined, options, command);
}

async function runCommand(command: 'run' | 'self-test', args: string[], term: Terminal): Promise<number> {
  const flags = parseFlags(command, args);
  if (flags.help) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  const settings = resolveSettings({ flags, env: process.env, dotenv: readDotenv() }, command);
  // Loaded only now: help and usage errors answer without starting vitest, Allure or the reporters.
  const [{ loadWaivers }, { baselineExitCode, diffAgainstBaseline, loadBaseline }, { executeRun }, { writeReports }] =
    await Promise.all([
      import('../run/waivers.js'),
      import('../run/baseline.js'),
      import('../run/orchestrate.js'),
      import('../../reporters/index.js'),
    ]);
  const waivers = settings.waivers ? loadWaivers(settings.waivers) : [];
  const baseline = settings.baseline ? loadBaseline(settings.baseline) : undefined;
  let stopReference: (() => Promise<void>) | undefined;
  if (command === 'self-test') {
    const { startReference } = await import('../run/reference.js');
    const ref = await startReference(settings.vendor);
    stopReference = ref.close;
    settings.baseUrl = ref.baseUrl;
    settings.networkApiRoot = ref.networkApiRoot;
    settings.shopApiRoot = ref.shopApiRoot;
    settings.data = referenceData();
    term.info(`reference implementation on ${ref.origin} (fresh database)`);
  }
  try {
    describeRun(settings, term);
    const result = await executeRun(settings, {
      waivers,
      onProgress: (p) => term.progress(p),
    });
    const files = await writeReports(result, settings.reportDir);
    term.summary(result);
    term.info(`reports: ${files.map((f) => f.replace(`${process.cwd()}/`, '')).join(', ')}`);
    if (command === 'self-test' && result.verdict !== 'conformant')
      term.error(`self-test expected a conformant verdict, got ${result.verdict}`);
    // An aborted run (3) or an expired waiver (2) says nothing a baseline could excuse.
    if (baseline && result.exitCode <= 1) {
      const diff = diffAgainstBaseline(result, baseline);
      term.baseline(diff);
      return baselineExitCode(diff, settings.allowIncomplete);
    }
    return command === 'self-test' && result.verdict !== 'conformant' ? 1 : exitFor(result);
  } finally {
    await stopReference?.();
  }
}

function exitFor(result: RunResult): number {
  return result.exitCode;
}

function describeRun(s: Settings, term: Terminal): void {
  term.info(
    `run ${s.runId}, seed ${s.seed} (replay with --seed ${s.seed}), ${s.runs} runs per property, interfaces: ${s.interfaces.join(', ')}`,
  );
}

async function referenceCommand(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(REFERENCE_HELP);
    return 0;
  }
  const { main: referenceMain } = await import('../../reference-impl/src/main.js');
  return referenceMain(args);
}
