/**
 * Speed and memory of the suite against the reference implementation (npm run bench):
 *  1. wall time of `self-test` (goal: under 60 s on a 2-core machine);
 *  2. the reference as a child process (scrypt cost `--hash-cost`, default 2: the figures are the
 *     suite's, and password hashing is a target's own cost), warmed by one unmeasured run of the
 *     suite, and the suite as another process (`run`, every interface), with the peak RSS (VmHWM)
 *     of each, the requests the suite sends and its requests per second;
 *     and, from a request clock preloaded into the reference (scripts/bench/request-clock.mjs), the
 *     time from the suite's first request to its last: the rate while it sends, without its start-up;
 *  3. a bare undici keep-alive loop against the reference's cheapest endpoint (loopback, after a
 *     warm-up, bounded in count and time) and the ratio of the suite's rate to it (goal: at least
 *     one third);
 *  4. the bounds CPU time sets on that ratio: the reference's CPU per suite request (it is one Node
 *     thread) and both processes' CPU per request over all cores.
 *  5. steps 2 to 4 again at a certification run's depth (`--deep-runs`, default 1000 runs per property),
 *     where the start-up and each check's own cost weigh less against the requests it sends.
 * `--repeat N` measures steps 2 to 5 N times and reports the median with the spread.
 * Writes reports/bench.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { OPTIONS } from '../src/config/options.js';
import { cpuAtTime } from './bench/cpu-window.js';
import { parseOptions, summarize, USAGE } from './bench/options.js';
import { printParseText } from './cli-args.js';
import { startReferenceChild, suiteCommand } from './faults/reference.js';

const ROOT = resolve(import.meta.dirname, '..');
const BARE_MAX_REQUESTS = 5000;
const BARE_MAX_MS = 5000;
const BARE_WARMUP = 1000;
/** Runs per property when `--runs` is not given (the suite's own default). */
const DEFAULT_RUNS = Number(OPTIONS.find((o) => o.key === 'runs')?.default);

/** Peak resident set (kB) of a live process, from the kernel's own high-water mark. */
function vmHwmKb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // exited between two samples
  }
}

/** CPU seconds (user + system, all threads) a live process has used so far; 0 once it has exited. */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

/**
 * Samples VmHWM and CPU time of `pids()` every 100 ms; the kernel keeps the memory peak, and CPU
 * time only grows, so the last sample before exit is within 100 ms of the total. The CPU samples are
 * kept with their time, so the CPU of a window (the run inside the process's life) can be read too.
 */
function sampler(pids: () => Array<number | undefined>) {
  const peak = new Map<number, number>();
  const series = new Map<number, Array<[ms: number, cpu: number]>>();
  const last = (pid: number | undefined) => (pid && series.get(pid)?.at(-1)?.[1]) || 0;
  const tick = () => {
    for (const pid of pids()) {
      if (!pid) continue;
      peak.set(pid, Math.max(peak.get(pid) ?? 0, vmHwmKb(pid)));
      const points = series.get(pid) ?? [];
      points.push([Date.now(), Math.max(last(pid), cpuSeconds(pid))]); // 0 once exited: the last stands
      series.set(pid, points);
    }
  };
  const timer = setInterval(tick, 100);
  return {
    tick,
    peakMb: (pid: number | undefined) => Math.round(((pid && peak.get(pid)) || 0) / 102.4) / 10,
    cpuS: (pid: number | undefined) => Math.round(last(pid) * 100) / 100,
    /** CPU seconds of `pid` used by time `ms` (epoch), interpolated between the samples around it. */
    cpuAt: (pid: number | undefined, ms: number) => cpuAtTime((pid && series.get(pid)) || [], ms),
    stop: () => clearInterval(timer),
  };
}

interface ReportSummary {
  verdict: string;
  startedAt: string;
  requests: number;
  durationMs: number;
  propertyRuns: number;
  requirements: Array<{ checks: Array<{ requirement: string; level: string; outcome: string }> }>;
}

function readReport(dir: string): ReportSummary {
  return JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as ReportSummary;
}

/**
 * Checks that failed or erred against the reference, ADVISORY findings aside. A SHOULD failure
 * leaves the verdict conformant, yet it is a disagreement of suite and reference all the same.
 */
function failedChecks(r: ReportSummary): string[] {
  return r.requirements.flatMap((q) =>
    q.checks
      .filter((c) => c.outcome !== 'passed' && c.outcome !== 'skipped' && c.level !== 'ADVISORY')
      .map((c) => `${c.requirement} ${c.level} ${c.outcome}`),
  );
}

/** The request clock of the reference, asked for with SIGUSR2 (which also starts it over); null when it did not answer. */
async function readClock(pid: number | undefined, file: string): Promise<{ first: number; last: number; count: number } | null> {
  if (!pid) return null;
  rmSync(file, { force: true }); // the answer is the file written after the signal
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as { first: number; last: number; count: number };
    } catch {
      // not written yet
    }
  }
  return null;
}

/**
 * Runs the suite's command line; its summary would bury the bench's own lines, so its output is
 * kept (the last 8 kB) and printed only when it exits with another code than 0 (1: a failure
 * against the reference, whose FAIL lines say which requirement).
 */
function runChild(args: string[], env: NodeJS.ProcessEnv, onPid?: (pid: number | undefined) => void): Promise<number> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  onPid?.(child.pid);
  let tail = '';
  const keep = (d: Buffer) => {
    tail = (tail + d.toString()).slice(-8192);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return new Promise((r) =>
    child.once('close', (c) => {
      if (c !== 0) process.stderr.write(`suite exited with ${c}; its last output:\n${tail}\n`);
      r(c ?? 3);
    }),
  );
}

async function selfTest(dir: string) {
  const started = Date.now();
  const code = await runChild(['bin/storefront-conformance.js', 'self-test', '--seed', '1', '--report-dir', dir], process.env);
  const wallMs = Date.now() - started;
  const r = readReport(dir);
  return { exitCode: code, verdict: r.verdict, failedChecks: failedChecks(r), wallMs, requests: r.requests, runMs: r.durationMs };
}

/**
 * Sequential keep-alive GETs of one URL: the most the reference serves to one client on this machine.
 * The first BARE_WARMUP requests are not timed: in the first measurement of a bench the loop's own
 * code is cold, and it ran at 2,500-2,600 requests per second there against 3,150-3,330 in the
 * repeats after it, on the same machine.
 */
async function bareLoop(url: string, onTimedStart: () => void) {
  const dispatcher = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 10_000 });
  const one = async () => {
    const res = await request(url, { dispatcher });
    await res.body.text();
    if (res.statusCode >= 500) throw new Error(`bare loop: ${url} answered ${res.statusCode}`);
  };
  for (let i = 0; i < BARE_WARMUP; i++) await one();
  onTimedStart();
  const started = performance.now();
  let n = 0;
  while (n < BARE_MAX_REQUESTS && performance.now() - started < BARE_MAX_MS) {
    await one();
    n++;
  }
  const ms = performance.now() - started;
  await dispatcher.close();
  return { url, requests: n, ms: Math.round(ms), rps: Math.round((n / ms) * 1000) };
}

/**
 * One measurement at one depth: a fresh reference child with the request clock, warmed by one run of
 * the suite that is not measured (as the bare loop is timed after a warm-up: both figures are of a
 * warm target; a cold reference spent a third more CPU on the same run, compiling its code), then
 * the suite as its own process (every interface), then the bare loop against the same reference.
 */
async function measure(tmp: string, runs: number | undefined, hashCost: number, label: string, log: (s: string) => void) {
  const dir = join(tmp, label);
  mkdirSync(dir, { recursive: true });
  const clockFile = join(dir, 'request-clock.json');
  const ref = await startReferenceChild(undefined, {
    nodeArgs: ['--import', pathToFileURL(join(ROOT, 'scripts/bench/request-clock.mjs')).href],
    env: { ...process.env, SFC_REQUEST_CLOCK: clockFile },
    hashCost,
  });
  try {
    // At the default depth whatever the measured depth: it warms the reference's code, not its data.
    const warm = suiteCommand(ref, ['rest-route', 'rest-v1-network', 'rest-v1-shop', 'graphql'], join(dir, 'warm-up'), 2);
    const warmCode = await runChild(warm.args, warm.env);
    const warmRun = readReport(join(dir, 'warm-up'));
    const warmUp = {
      exitCode: warmCode,
      verdict: warmRun.verdict,
      failedChecks: failedChecks(warmRun),
      requests: warmRun.requests,
      runMs: warmRun.durationMs,
      requestsPerSecond: Math.round((warmRun.requests / warmRun.durationMs) * 1000 * 10) / 10,
    };
    log(
      `    warm-up run (seed 2, not measured): ${warmUp.requests} requests in ${(warmUp.runMs / 1000).toFixed(1)} s = ${warmUp.requestsPerSecond}/s`,
    );
    await readClock(ref.child?.pid, clockFile); // the warm-up's requests are not the measured run's
    const referenceCpuBefore = cpuSeconds(ref.child?.pid); // its start-up, seeding and warm-up are not the measured run's
    let suitePid: number | undefined;
    const mem = sampler(() => [ref.child?.pid, suitePid]);
    const { args, env } = suiteCommand(ref, ['rest-route', 'rest-v1-network', 'rest-v1-shop', 'graphql'], join(dir, 'run'));
    if (runs !== undefined) args.push('--runs', String(runs));
    const started = Date.now();
    const code = await runChild(args, env, (pid) => {
      suitePid = pid;
    });
    const suiteWallMs = Date.now() - started;
    mem.tick();
    mem.stop();
    const run = readReport(join(dir, 'run'));
    // The run itself, as its report times it: without the process's start-up (tsx, the CLI's modules)
    // and the report writing after it, which the rate does not count either.
    const runStart = Date.parse(run.startedAt);
    const suiteRunCpu = mem.cpuAt(suitePid, runStart + run.durationMs) - mem.cpuAt(suitePid, runStart);
    const suite = {
      exitCode: code,
      verdict: run.verdict,
      failedChecks: failedChecks(run),
      wallMs: suiteWallMs,
      runMs: run.durationMs,
      requests: run.requests,
      requestsPerSecond: Math.round((run.requests / run.durationMs) * 1000 * 10) / 10,
      peakRssMb: mem.peakMb(suitePid),
      // Where the time goes on a machine with few cores: CPU seconds of each process during the run.
      cpuSeconds: mem.cpuS(suitePid),
      cpuMsPerRequest: Math.round((mem.cpuS(suitePid) / run.requests) * 1e5) / 100,
      cpuSecondsInRun: Math.round(suiteRunCpu * 100) / 100,
      cpuMsPerRequestInRun: Math.round((suiteRunCpu / run.requests) * 1e5) / 100,
    };
    const referenceRunCpu = Math.round((cpuSeconds(ref.child?.pid) - referenceCpuBefore) * 100) / 100;
    const sending = await readClock(ref.child?.pid, clockFile);
    const sendingWindow = sending && {
      ms: sending.last - sending.first,
      requestsSeen: sending.count,
      // Start-up: from the suite's start to its first request (vitest, workers, schema registry).
      startupMs: sending.first - started,
      requestsPerSecond: Math.round((sending.count / Math.max(1, sending.last - sending.first)) * 1000 * 10) / 10,
    };
    log(
      `    suite: ${suite.requests} requests in ${(suite.runMs / 1000).toFixed(1)} s = ${suite.requestsPerSecond}/s, ${run.propertyRuns} property runs, peak RSS ${suite.peakRssMb} MB, CPU ${suite.cpuSeconds} s (${suite.cpuSecondsInRun} s in the run; reference ${referenceRunCpu} s)`,
    );

    // The cheapest endpoint: one product by id (no token, one indexed read), the first listed one.
    const listing = (await (await request(`${ref.shopApiRoot}/products?page=1`)).body.json()) as {
      data?: { products?: Array<{ id: number }> };
    };
    let referenceCpuBeforeBare = 0;
    const bare = await bareLoop(`${ref.shopApiRoot}/product/${listing.data?.products?.[0]?.id ?? 1}`, () => {
      referenceCpuBeforeBare = cpuSeconds(ref.child?.pid);
    });
    const referenceBareCpu = cpuSeconds(ref.child?.pid) - referenceCpuBeforeBare;
    const referencePeak = vmHwmKb(ref.child?.pid); // the kernel kept the peak of the whole run and loop
    log(`    bare loop: ${bare.requests} requests in ${bare.ms} ms = ${bare.rps}/s`);
    if (sendingWindow)
      log(
        `    while sending: ${sendingWindow.requestsSeen} requests in ${(sendingWindow.ms / 1000).toFixed(1)} s = ${sendingWindow.requestsPerSecond}/s (start-up ${(sendingWindow.startupMs / 1000).toFixed(1)} s)`,
      );

    const ratio = Math.round((suite.requestsPerSecond / bare.rps) * 1000) / 1000;
    const referenceMsPerRequest = (referenceRunCpu * 1000) / run.requests;
    const suiteMsPerRequest = (suiteRunCpu * 1000) / run.requests;
    // What the CPU time allows, whatever the order of the work: the reference is one Node thread, so it
    // cannot serve the suite's mix faster than one request per referenceMsPerRequest even if the suite
    // cost nothing; and both processes together cannot pass all cores' time over the CPU both spend in
    // the run. (The suite's CPU before and after its run, about a second of start-up, is left out: the
    // rate is over the run, and counting it made this bound lower than rates that were measured.)
    const referenceBoundRps = referenceMsPerRequest > 0 ? Math.round(1000 / referenceMsPerRequest) : null;
    const cpuBoundRps =
      referenceMsPerRequest > 0 ? Math.round((cpus().length * 1000) / (referenceMsPerRequest + suiteMsPerRequest)) : null;
    const ofBare = (rps: number | null) => (rps === null ? null : Math.round((rps / bare.rps) * 1000) / 1000);
    log(
      `    ratio ${ratio} of the bare loop; CPU bounds: the reference alone serves at most ${referenceBoundRps}/s of the suite's mix (${ofBare(referenceBoundRps)}); suite and reference on ${cpus().length} cores at most ${cpuBoundRps}/s (${ofBare(cpuBoundRps)})`,
    );
    return {
      runsPerProperty: runs ?? DEFAULT_RUNS,
      // The same suite against the same reference just before, cold: not measured, shown for comparison.
      warmUp,
      suite,
      reference: {
        hashCost,
        peakRssMb: Math.round(referencePeak / 102.4) / 10,
        cpuSecondsDuringSuite: referenceRunCpu,
        cpuMsPerRequest: Math.round((referenceRunCpu / run.requests) * 1e5) / 100,
        // The same process serving the bare loop: the cheapest request's cost, for comparison.
        cpuMsPerBareRequest: Math.round((referenceBareCpu / bare.requests) * 1e5) / 100,
      },
      propertyRuns: run.propertyRuns,
      // Property checks run alongside the scenario checks, so the rate is over the whole run.
      propertyRunsPerSecond: Math.round((run.propertyRuns / run.durationMs) * 1000 * 10) / 10,
      bareLoop: bare,
      // The goal's ratio: the suite's rate over its whole run (start-up included).
      suiteToBareRatio: ratio,
      // The same while the suite sends: first to last request, as the reference saw them.
      sendingWindow: sendingWindow ?? null,
      sendingToBareRatio: sendingWindow ? Math.round((sendingWindow.requestsPerSecond / bare.rps) * 1000) / 1000 : null,
      // Upper bounds from CPU time alone (see above); a ratio goal above them cannot be met here.
      cpuBounds: {
        referenceAloneRps: referenceBoundRps,
        referenceAloneToBareRatio: ofBare(referenceBoundRps),
        allCoresRps: cpuBoundRps,
        allCoresToBareRatio: ofBare(cpuBoundRps),
      },
      ratioGoal: 1 / 3,
      withinRatioGoal: ratio >= 1 / 3,
    };
  } finally {
    await ref.stop();
  }
}

type Measurement = Awaited<ReturnType<typeof measure>>;

async function main(argv: string[]): Promise<number> {
  const opts = parseOptions(argv);
  if (typeof opts === 'string') return printParseText(opts, USAGE);
  const out = join(ROOT, 'reports');
  const tmp = join(out, '.bench');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const log = (s: string) => process.stdout.write(`${s}\n`);
  const loadAtStart = loadavg();
  const steps = 1 + opts.repeat * (opts.deepRuns > 0 ? 2 : 1);
  let step = 0;

  log(`${++step}/${steps} self-test ...`);
  const self = await selfTest(join(tmp, 'self-test'));
  log(`    ${self.verdict} in ${(self.wallMs / 1000).toFixed(1)} s, ${self.requests} requests`);

  const atDefault: Measurement[] = [];
  const atDeep: Measurement[] = [];
  for (let i = 0; i < opts.repeat; i++) {
    log(
      `${++step}/${steps} reference (hash cost ${opts.hashCost}) and suite as separate processes, default depth (${DEFAULT_RUNS} runs per property) ...`,
    );
    atDefault.push(await measure(tmp, undefined, opts.hashCost, `default-${i}`, log));
    if (opts.deepRuns > 0) {
      log(`${++step}/${steps} the same at --runs ${opts.deepRuns} ...`);
      atDeep.push(await measure(tmp, opts.deepRuns, opts.hashCost, `deep-${i}`, log));
    }
  }
  const result = {
    generatedAt: new Date().toISOString(),
    // Other work on the machine skews every figure: the load averages say how much there was.
    machine: { cpus: cpus().length, node: process.version, loadAverageAtStart: loadAtStart, loadAverageAtEnd: loadavg() },
    selfTest: { ...self, goalMs: 60_000, withinGoal: self.wallMs < 60_000 },
    // The default depth: what `run` and `self-test` do unless told otherwise (the median run).
    ...summarize<Measurement>(atDefault),
    // Deeper runs send far more requests per check, so start-up and per-check costs weigh less.
    deep: atDeep.length ? summarize<Measurement>(atDeep) : null,
  };
  writeFileSync(join(out, 'bench.json'), `${JSON.stringify(result, null, 2)}\n`);
  // Figures of a run that did not pass against the reference measure a different run: say so, and
  // keep the runs' reports to read why.
  const off = [self, ...[...atDefault, ...atDeep].flatMap((m) => [m.warmUp, m.suite])].filter(
    (r) => r.verdict !== 'conformant' || r.failedChecks.length > 0,
  );
  if (off.length)
    process.stderr.write(
      `bench: ${off.length} of the suite's runs failed checks against the reference (${off.map((r) => `${r.verdict}: ${r.failedChecks.join(', ') || 'no check failed'}`).join('; ')}); the figures are of runs that found a failure; their reports are kept in ${tmp}\n`,
    );
  else rmSync(tmp, { recursive: true, force: true });
  log(JSON.stringify(result, null, 2));
  return 0;
}

// ^C or a kill: exit normally so that the reference child is stopped with us (its exit hook).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`bench: ${(e as Error).stack ?? e}\n`);
    process.exit(3);
  },
);
