import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../../src/config/options.js';
import { REPO_ROOT } from '../../src/specs/paths.js';

const BIN = join(REPO_ROOT, 'bin', 'storefront-conformance.js');

function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', CI: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

// Each test spawns the real command; on a busy machine a start can take seconds.
describe.concurrent('the storefront-conformance command', { timeout: 60_000 }, () => {
  it('--help lists the commands and exit codes', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['run', 'self-test', 'reference', 'report', 'pact']) expect(r.stdout).toContain(`  ${c}`);
    expect(r.stdout).toMatch(/3 {2}the target could not be reached/);
  });
  for (const command of ['run', 'self-test'] as const) {
    it(`${command} --help lists every option with its environment variable and default`, async () => {
      const r = await cli([command, '--help']);
      expect(r.code).toBe(0);
      for (const o of OPTIONS.filter((x) => x.commands.includes(command))) {
        expect(r.stdout).toContain(`--${o.flag}`);
        expect(r.stdout).toContain(`environment: ${o.env}`);
        if (o.default) expect(r.stdout).toContain(`(default ${o.default})`);
      }
    });
  }
  it('reference --help lists its options', async () => {
    const r = await cli(['reference', '--help']);
    expect(r.code).toBe(0);
    for (const f of ['--port', '--host', '--db', '--vendor']) expect(r.stdout).toContain(f);
  });
  it('a malformed URL exits 2 with one line and no stack trace', async () => {
    const r = await cli(['run', '--base-url', 'not-a-url']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--base-url is not a URL');
    expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });
  it('an unknown interface and a negative --runs exit 2', async () => {
    const a = await cli(['run', '--base-url', 'http://127.0.0.1:9', '--interfaces', 'soap']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('unknown interface "soap"');
    const b = await cli(['run', '--base-url', 'http://127.0.0.1:9', '--runs', '-1']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--runs must be a whole number');
  });
  it('an unknown command or option exits 2', async () => {
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['run', '--bogus'])).code).toBe(2);
  });
  it('a target that refuses connections exits 3 quickly, naming the URL', async () => {
    const r = await cli(['run', '--base-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('http://127.0.0.1:9/index.php');
    expect(r.stderr).toContain('connection refused');
    expect(r.ms).toBeLessThan(15_000);
  });
  it('pact names its subcommands, and refuses an unknown one with exit 2', async () => {
    const help = await cli(['pact', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('generate');
    expect(help.stdout).toContain('verify');
    const bad = await cli(['pact', 'frob']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown pact subcommand');
  });
  it('report without results exits 2 and says what to run first', async () => {
    const r = await cli(['report', '--report-dir', '/nonexistent-sfc-dir']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no Allure results');
  });
});
