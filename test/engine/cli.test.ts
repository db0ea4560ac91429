import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_KEYS, OPTIONS } from '../../src/config/options.js';
import { PROVIDER_STATE_DATA } from '../../src/pact/states/target.js';
import { REPO_ROOT } from '../../src/specs/paths.js';
import { closedPort } from '../hostile/server.js';

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
    for (const f of ['--port', '--host', '--db', '--vendor', '--hash-cost', '--fault']) expect(r.stdout).toContain(f);
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
  // "Quickly" is shown by what did not happen (no check ran, no report was written), not by a wall-clock
  // bound that a busy machine breaks.
  it('a target that refuses connections exits 3 before any check runs, naming the URL', async () => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    const reports = mkdtempSync(join(tmpdir(), 'sfc-cli-down-'));
    const r = await cli(['run', '--base-url', target, '--report-dir', reports]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${target}/index.php`);
    expect(r.stderr).toContain('connection refused');
    expect(r.stderr).not.toMatch(/passed, \d+ failed/);
    expect(readdirSync(reports)).toEqual([]);
  });
  it('--baseline (or SFC_BASELINE) is read before anything is sent: an unreadable report exits 2 naming it', async () => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    const missing = join(tmpdir(), 'sfc-no-such-baseline.json');
    for (const r of [
      await cli(['run', '--base-url', target, '--baseline', missing]),
      await cli(['run', '--base-url', target], { SFC_BASELINE: missing }),
    ]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`baseline ${missing} cannot be read`);
      expect(r.stderr).not.toContain('connection refused');
    }
    const notReport = join(mkdtempSync(join(tmpdir(), 'sfc-cli-')), 'other.json');
    writeFileSync(notReport, '{"verdict": "conformant"}');
    const r = await cli(['run', '--base-url', target, '--baseline', notReport]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has no "requirements"');
  });
  it('a baseline does not excuse an aborted run: exit 3, not the baseline gate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sfc-cli-'));
    const baseline = join(dir, 'baseline.json');
    writeFileSync(baseline, JSON.stringify({ requirements: [] }));
    // A target that answers every request, slowly: the run passes --max-duration 1 and is aborted.
    const slow = createServer((_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 300);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const target = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
      const reports = join(dir, 'reports');
      const r = await cli([
        'run',
        '--base-url',
        target,
        '--interfaces',
        'rest-route',
        '--max-duration',
        '1',
        '--baseline',
        baseline,
        '--report-dir',
        reports,
      ]);
      expect(r.stderr).toContain('run aborted: the run took longer than --max-duration 1 s');
      expect(r.code).toBe(3);
      // The reports say so too: a reader of an aborted run's report must not take it for a finished one.
      expect(readFileSync(join(reports, 'conformance-report.md'), 'utf8')).toContain(
        '**The run was aborted**: the run took longer',
      );
      expect(readFileSync(join(reports, 'conformance-report.html'), 'utf8')).toContain('<strong>The run was aborted</strong>');
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });
  it('self-test takes no baseline (it judges the reference alone)', async () => {
    const r = await cli(['self-test', '--baseline', 'x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown option '--baseline'");
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

describe('the committed sample settings (.env.example)', () => {
  const sample = readFileSync(join(REPO_ROOT, '.env.example'), 'utf8');
  it('names every setting and every target data key, as the README says', () => {
    const named = new Set([...sample.matchAll(/^#?\s*(SFC_[A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const missing = [...OPTIONS.map((o) => o.env), ...DATA_KEYS.map((d) => d.key)].filter((k) => k && !named.has(k));
    expect(missing).toEqual([]);
  });
});

describe('pact verify --help', () => {
  it('lists exactly the target data the provider states read', async () => {
    const dir = join(REPO_ROOT, 'src', 'pact', 'states');
    const read = new Set<string>();
    for (const f of readdirSync(dir))
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/need\(t, '(SFC_[A-Z_]+)'/g)) read.add(m[1] as string);
    expect([...read].sort()).toEqual([...PROVIDER_STATE_DATA].sort());
    const r = await cli(['pact', 'verify', '--help']);
    expect(r.code).toBe(0);
    const listed = new Set([...r.stdout.matchAll(/^ {2}(SFC_[A-Z_]+) /gm)].map((m) => m[1]));
    expect([...listed].sort()).toEqual([...PROVIDER_STATE_DATA].sort());
  }, 60_000);
});
