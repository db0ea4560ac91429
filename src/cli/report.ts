import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readDotenv, UsageError } from '../config/load.js';
import { REPO_ROOT } from '../specs/paths.js';
import { parseCommandFlags } from './flags.js';

export const REPORT_HELP = `storefront-conformance report: build the Allure HTML report of a report directory (Allure 3, offline)

Usage: storefront-conformance report [options]

Options:
  --report-dir DIR   the report directory of a run, holding allure-results/ (default ./reports)
                     environment (or .env): SFC_REPORT_DIR
  --output DIR       where the HTML report goes (default <report-dir>/allure-report)
  -h, --help         this text

Exit codes: 0 written, 2 bad usage or no allure-results/ in the directory, 3 Allure failed
`;

/** Runs the Allure 3 CLI on `<report-dir>/allure-results`; the page it writes needs no network. */
export async function reportCommand(args: string[], log: (line: string) => void): Promise<number> {
  const values: { 'report-dir'?: string; output?: string; help?: boolean } = parseCommandFlags(
    args,
    { 'report-dir': { type: 'string' }, output: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    'report',
  ) as typeof values;
  if (values.help) {
    process.stdout.write(REPORT_HELP);
    return 0;
  }
  // The same order as run's settings: flag, environment, .env, default (an empty value counts as unset).
  const dir = resolve(values['report-dir'] || process.env.SFC_REPORT_DIR || readDotenv().SFC_REPORT_DIR || './reports');
  const results = join(dir, 'allure-results');
  if (!existsSync(results) || readdirSync(results).length === 0)
    throw new UsageError(
      `no Allure results in ${results}: run "storefront-conformance run" (or self-test) with --report-dir ${dir} first`,
    );
  const output = resolve(values.output ?? join(dir, 'allure-report'));
  // The package exports no subpath for its CLI; its bin file sits in the installed package.
  const cli = join(REPO_ROOT, 'node_modules', 'allure', 'cli.js');
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, [cli, 'generate', results, '--output', output, '--name', 'Storefront conformance'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ALLURE_NO_ANALYTICS: 'true' },
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (c) => {
      if (c !== 0) log(err.trim());
      done(c ?? 1);
    });
  });
  if (code !== 0) return 3;
  stripAnalytics(join(output, 'index.html'));
  log(`Allure report: ${join(output, 'index.html')}`);
  return 0;
}

/** Allure's page template loads an analytics script from the network; a report must work offline. */
function stripAnalytics(file: string): void {
  if (!existsSync(file)) return;
  const html = readFileSync(file, 'utf8')
    .replace(/<script async src="https:\/\/www\.googletagmanager\.com\/[^"]*"><\/script>/g, '')
    .replace(/<script>\s*window\.dataLayer[\s\S]*?<\/script>/g, '');
  writeFileSync(file, html);
}
