/**
 * The reference implementation as the fault matrix and the benchmark start it: a child process, or
 * inside the calling process; each on a free port with a fresh database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceData } from '../../src/config/options.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

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
  const { buildServer, urlsFor } = await import('../../reference-impl/src/server.js');
  if (sharedKeys === undefined) {
    const keysDir = mkdtempSync(join(tmpdir(), 'sfc-fault-keys-'));
    sharedKeys = join(keysDir, 'keys.json');
    // The key pair outlives every reference of this process; nothing else removes its folder.
    process.once('exit', () => rmSync(keysDir, { recursive: true, force: true }));
  }
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
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...referenceData() };
  return { args, env };
}
