import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Exchange } from '../../src/http/exchange.js';
import type { CheckResult, RunResult } from '../../src/run/results.js';

// Runs the real command in a child process (vitest inside vitest is fragile) and reads its report.

const BIN = resolve(import.meta.dirname, '../../bin/storefront-conformance.js');

/** The target data of the reference implementation's shop (the data contract of the brief). */
export const SHOP_DATA = { SFC_SHOP_COUPON: 'SAVE10', SFC_SHOP_CATEGORY: 'clothing', SFC_SHOP_PAYMENT_METHOD: 'cod' };

export interface CliRun {
  code: number | null;
  wallMs: number;
  stdout: string;
  stderr: string;
  /** The JSON report, when the run got as far as writing it. */
  report?: RunResult;
}

/**
 * `storefront-conformance run <args> --report-dir <tmp>` from an empty working directory (no
 * `.env` of the repository leaks in), killed after `killAfterMs` so a hanging run fails the test
 * instead of hanging it.
 */
export async function runCli(args: string[], env: Record<string, string>, killAfterMs: number): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'sfc-hostile-'));
  const reportDir = join(dir, 'reports');
  const started = performance.now();
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SFC_') && !k.startsWith('VITEST')));
  const child = spawn(process.execPath, [BIN, 'run', ...args, '--report-dir', reportDir], {
    cwd: dir,
    env: { ...clean, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  clearTimeout(killer);
  const wallMs = Math.round(performance.now() - started);
  const file = join(reportDir, 'conformance-report.json');
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunResult) : undefined;
  rmSync(dir, { recursive: true, force: true });
  return { code, wallMs, stdout, stderr, ...(report ? { report } : {}) };
}

export const allChecks = (r: RunResult): CheckResult[] => r.requirements.flatMap((q) => q.checks);

/** Checks whose recorded evidence holds an exchange matching `match`, with that exchange. */
export function checksWith(r: RunResult, match: (ex: Exchange) => boolean): { check: CheckResult; ex: Exchange }[] {
  const out: { check: CheckResult; ex: Exchange }[] = [];
  for (const check of allChecks(r)) {
    const ex = check.evidence?.exchanges.find(match);
    if (ex) out.push({ check, ex });
  }
  return out;
}

/** The path of a request URL under the api_root (`/orders`), and its query. */
export function pathUnder(apiRoot: string, url: string): { path: string; query: URLSearchParams } {
  const u = new URL(url);
  const root = new URL(apiRoot).pathname.replace(/\/+$/, '');
  return { path: u.pathname.startsWith(root) ? u.pathname.slice(root.length) : u.pathname, query: u.searchParams };
}

/** A one-line account of a run for assertion messages. */
export function explain(run: CliRun): string {
  return `exit ${run.code} after ${run.wallMs} ms\n--- stdout\n${run.stdout.slice(-3000)}\n--- stderr\n${run.stderr.slice(-3000)}`;
}
