/**
 * The fault matrix's lanes: each a process (./lane.ts) that runs the suite once per request against a
 * fresh reference with the request's fault on, keeping its suite session warm between requests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LANE_FILE = join(ROOT, 'scripts/faults/lane.ts');

export interface RunOutcome {
  verdict: string;
  failed: string[];
  /** Level of each failed requirement. */
  levels: Record<string, string>;
  /** Checks that erred, and areas that could not run. */
  suiteErrors: number;
  requests: number;
  ms: number;
}

export interface LaneRequest {
  /** Numbers the requests of a lane; a reply carries its request's. */
  n: number;
  /** The fault switched on in the reference; none: the reference as it is. */
  fault?: string;
  interfaces: readonly string[];
  seed: number;
  /** Runs per property; undefined: the suite's default. */
  runs?: number;
  /** The reference ends an account's older tokens when it issues a new one. */
  singleSession?: boolean;
}

export type LaneReply = { n: number; ready: true } | { n: number; outcome: RunOutcome } | { n: number; error: string };

export class Lane {
  private next = 0;
  private pending = new Map<number, { ok: (o: RunOutcome) => void; fail: (e: Error) => void }>();
  /** The end of what the lane printed, for the message when it dies. */
  private output = '';
  private exited = false;

  private constructor(private readonly child: ChildProcess) {}

  /** Starts a lane and waits until it listens for requests. */
  static open(): Promise<Lane> {
    // V8's later tier-up, as bin/storefront-conformance.js sets it for a suite run (docs/measurements.md).
    const child = spawn(process.execPath, ['--interrupt-budget=500000', '--import', 'tsx', LANE_FILE], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const lane = new Lane(child);
    // A lane must not outlive the script that started it (^C, a failed test run).
    const orphanGuard = () => child.kill('SIGKILL');
    process.once('exit', orphanGuard);
    const keep = (d: Buffer) => {
      lane.output = (lane.output + d.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    return new Promise((ok, fail) => {
      child.on('message', (reply: LaneReply) => {
        if ('ready' in reply) ok(lane);
        else lane.settle(reply);
      });
      child.once('exit', (code, signal) => {
        process.removeListener('exit', orphanGuard);
        lane.exited = true;
        const why = new Error(`a fault-matrix lane exited (${signal ?? `code ${code}`}): ${lane.output.trim()}`);
        fail(why);
        for (const p of lane.pending.values()) p.fail(why);
        lane.pending.clear();
      });
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** One suite run on this lane; rejects when the run failed to happen (not when checks fail). */
  run(req: Omit<LaneRequest, 'n'>): Promise<RunOutcome> {
    if (this.exited) return Promise.reject(new Error(`the lane has exited: ${this.output.trim()}`));
    const n = ++this.next;
    return new Promise((ok, fail) => {
      this.pending.set(n, { ok, fail });
      this.child.send({ ...req, n } satisfies LaneRequest);
    });
  }

  private settle(reply: Exclude<LaneReply, { ready: true }>): void {
    const p = this.pending.get(reply.n);
    if (!p) return;
    this.pending.delete(reply.n);
    if ('outcome' in reply) p.ok(reply.outcome);
    else p.fail(new Error(reply.error));
  }

  /** Lets the lane close its suite session and exit. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
