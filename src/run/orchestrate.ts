import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter } from 'vitest/node';
import { INTERFACES } from '../checks/model.js';
import { secretValues } from '../config/options.js';
import type { Settings } from '../config/settings.js';
import { TargetClient } from '../http/client.js';
import { runScratchDir } from '../provisioning/scratch.js';
import { loadRequirementFiles } from '../specs/catalog.js';
import { REPO_ROOT, SPECS_DIR } from '../specs/paths.js';
import { type ProgressEvent, ResultCollector } from './collector.js';
import { diagnose } from './diagnose.js';
import { TargetUnreachable } from './errors.js';
import type { AmbiguityOutcome, NotShownItem, RequirementResult, RunResult } from './results.js';
import { createSuiteVitest, SUITE_FILE } from './suite-vitest.js';
import { targetUrlOf } from './target-urls.js';
import { exitCodeFor, overallVerdict, requirementStatus, summarize } from './verdict.js';
import { applyWaivers, type Waiver } from './waivers.js';
import { startWatchdog } from './watchdog.js';

export { TargetUnreachable } from './errors.js';

/**
 * One request per selected interface, all at once, bounded by the request timeout: a target that
 * refuses connections or never answers ends the run here, not after every check has timed out.
 * Any HTTP answer, even a 404 or a 500, counts as reachable: the checks judge it.
 */
export async function preflight(settings: Settings): Promise<void> {
  const client = new TargetClient({ timeoutMs: settings.timeoutMs, maxBodyBytes: 64 * 1024 });
  try {
    const results = await Promise.all(
      settings.interfaces.map(async (iface) => {
        const url = targetUrlOf(settings, iface);
        const ex = await client.send({ method: 'GET', url });
        return { iface, url, error: ex.error };
      }),
    );
    const down = results.filter((r) => r.error);
    if (down.length === settings.interfaces.length && down[0]) {
      throw new TargetUnreachable(`target not reachable: ${down[0].url}: ${down[0].error}`);
    }
    for (const d of down) {
      throw new TargetUnreachable(
        `target not reachable for ${d.iface}: ${d.url}: ${d.error} (drop it with --interfaces, or fix its URL)`,
      );
    }
  } finally {
    await client.close();
  }
}

export interface RunOptions {
  onProgress?: (e: ProgressEvent) => void;
  waivers?: Waiver[];
  now?: Date;
}

/** Runs the selected interfaces' checks through vitest's Node API and folds the results. */
export async function executeRun(settings: Settings, options: RunOptions = {}): Promise<RunResult> {
  // Vitest is made while the preflight asks the targets: neither waits for the other.
  const opening = SuiteSession.open(settings);
  opening.catch(() => {}); // awaited below; a failure is reported there, not as an unhandled rejection
  try {
    await preflight(settings);
  } catch (e) {
    await opening.then(
      (s) => s.close(),
      () => {},
    );
    throw e;
  }
  const session = await opening;
  try {
    return await session.run(settings, options);
  } finally {
    await session.close();
  }
}

/**
 * One vitest kept for several runs of the same shape (concurrency, timeouts), one run at a time: its
 * worker thread keeps the suite's modules loaded and compiled, so a later run costs only its checks.
 * The fault matrix runs hundreds of short runs this way; a command-line run is one session of one run.
 */
export class SuiteSession {
  /** The collector of the run going on: the reporter vitest was made with hands everything to it. */
  private collector: ResultCollector | undefined;
  private busy = false;

  private constructor(
    private vitest: Vitest | undefined,
    private readonly shape: string,
  ) {}

  static async open(settings: Settings): Promise<SuiteSession> {
    const session = new SuiteSession(undefined, shapeOf(settings));
    const forward: Reporter = {
      onTestSuiteResult: (s) => session.collector?.onTestSuiteResult(s),
      onTestModuleEnd: (m) => session.collector?.onTestModuleEnd(m),
      onTestRunEnd: (m, u) => session.collector?.onTestRunEnd(m, u),
    };
    const previousExitCode = process.exitCode;
    session.vitest = await createSuiteVitest({
      root: REPO_ROOT,
      reporters: [forward],
      settings,
      areas: null,
      // Under a rate cap one area at a time keeps the cap exact (each area's client paces itself).
      concurrency: settings.rateLimit ? 1 : settings.concurrency,
      timeoutMs: checkTimeoutOf(settings),
    });
    process.exitCode = previousExitCode;
    return session;
  }

  /** Every area of `settings.interfaces` against `settings`' target (no preflight: executeRun asks first). */
  async run(settings: Settings, options: RunOptions = {}): Promise<RunResult> {
    const vitest = this.vitest;
    if (!vitest) throw new Error('the suite session is closed');
    if (this.busy) throw new Error('the suite session runs one run at a time');
    if (shapeOf(settings) !== this.shape)
      throw new Error(`the suite session was opened for ${this.shape}, not for ${shapeOf(settings)}`);
    this.busy = true;
    const started = new Date();
    const collector = new ResultCollector(options.onProgress, secretValues(settings.data));
    this.collector = collector;
    const previousExitCode = process.exitCode;
    let aborted: string | undefined;
    const abort = (why: string) => {
      aborted ??= why;
      void vitest.cancelCurrentRun(why as never);
    };
    const watchdog = startWatchdog(settings, abort);
    const bound = setTimeout(
      () => abort(`the run took longer than --max-duration ${settings.maxDurationS} s`),
      settings.maxDurationS * 1000,
    );
    try {
      vitest.provide('sfcSettings', settings);
      vitest.provide('sfcAreas', null);
      const project = vitest.getRootProject();
      await vitest.runTestSpecifications([project.createSpecification(join(REPO_ROOT, SUITE_FILE))]);
      // Checks fail fast against a vanished target, so the run can end before the watchdog's next probe.
      if (!aborted) aborted = await watchdog.goneNow();
    } finally {
      // Per-run scratch of the suites (e.g. tree positions reserved between parallel areas).
      rmSync(runScratchDir(settings.runId), { recursive: true, force: true });
      clearTimeout(bound);
      await watchdog.stop();
      this.collector = undefined;
      this.busy = false;
      process.exitCode = previousExitCode; // the verdict, not vitest, decides the exit code
    }
    return foldRun(settings, collector, started, aborted, options);
  }

  async close(): Promise<void> {
    const vitest = this.vitest;
    this.vitest = undefined;
    const previousExitCode = process.exitCode;
    await vitest?.close();
    process.exitCode = previousExitCode;
  }
}

type Vitest = Awaited<ReturnType<typeof createSuiteVitest>>;

const checkTimeoutOf = (settings: Settings) => Math.max(60_000, settings.timeoutMs * 8);
/** What vitest is made with: runs of another shape need another session. */
const shapeOf = (settings: Settings) =>
  `concurrency ${settings.rateLimit ? 1 : settings.concurrency}, check timeout ${checkTimeoutOf(settings)} ms`;

/** The requirements of the run's interfaces with their checks, status and the run's verdict. */
function foldRun(
  settings: Settings,
  collector: ResultCollector,
  started: Date,
  aborted: string | undefined,
  options: RunOptions,
): RunResult {
  const files = loadRequirementFiles().filter((f) => settings.interfaces.includes(f.interface));
  const choices: Record<string, string> = {};
  for (const c of collector.checks) Object.assign(choices, c.choices);
  const requirements: RequirementResult[] = [];
  for (const file of files) {
    for (const req of file.requirements) {
      const checks = collector.checks.filter((c) => c.requirement === req.id);
      const { status, reason } = requirementStatus(req, checks);
      requirements.push({ ...req, status, ...(reason ? { reason } : {}), checks });
    }
  }
  applyWaivers(requirements, options.waivers ?? [], options.now ?? new Date());
  const interfaces = settings.interfaces
    .slice()
    .sort((a, b) => INTERFACES.indexOf(a) - INTERFACES.indexOf(b))
    .map((iface) =>
      summarize(
        iface,
        requirements.filter((r) => r.interface === iface),
        collector.suiteErrors.filter((e) => !e.area || e.area.startsWith(`${iface}/`)).length,
      ),
    );
  const ambiguities: AmbiguityOutcome[] = files.flatMap((f) =>
    f.ambiguities.map((a) => ({
      id: a.id,
      interface: a.interface,
      subject: a.subject,
      alternatives: a.alternatives,
      chosen: choices[a.id] ?? null,
    })),
  );
  const notShown: NotShownItem[] = files.flatMap((f) =>
    f.notShown.map((n) => ({ id: n.id, interface: n.interface, subject: n.subject, reason: n.reason, source: n.source })),
  );
  const verdict = aborted ? 'incomplete' : overallVerdict(interfaces);
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return {
    tool: { name: pkg.name, version: pkg.version },
    specVersion: pkg.version,
    specDigest: specDigest(),
    runId: settings.runId,
    seed: settings.seed,
    startedAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    targets: {
      ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
      ...(settings.networkApiRoot ? { networkApiRoot: settings.networkApiRoot } : {}),
      ...(settings.shopApiRoot ? { shopApiRoot: settings.shopApiRoot } : {}),
      vendor: settings.vendor,
    },
    settings: {
      interfaces: settings.interfaces,
      runs: settings.runs,
      timeoutMs: settings.timeoutMs,
      allowIncomplete: settings.allowIncomplete,
      maxDurationS: settings.maxDurationS,
      ...(settings.rateLimit ? { rateLimit: settings.rateLimit } : {}),
      ...(settings.waivers ? { waivers: settings.waivers } : {}),
    },
    verdict,
    exitCode: aborted ? 3 : exitCodeFor(verdict, settings.allowIncomplete),
    interfaces,
    requirements,
    ambiguities,
    notShown,
    suiteErrors: collector.suiteErrors.map((e) => ({ ...e, file: relative(REPO_ROOT, e.file) || e.file })),
    requests: collector.checks.reduce((n, c) => n + c.requests, 0),
    retries: collector.checks.reduce((n, c) => n + c.retries, 0),
    propertyRuns: collector.checks.reduce((n, c) => n + (c.propertyRuns ?? 0), 0),
    ...(aborted ? { aborted } : {}),
    diagnoses: diagnose(collector.checks, settings.vendor),
  };
}

/** sha256 over every file of specs/ (path and content), so a report names the exact contract it used. */
export function specDigest(dir = SPECS_DIR): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else {
        hash.update(relative(dir, full));
        hash.update(readFileSync(full));
      }
    }
  };
  walk(dir);
  return `sha256:${hash.digest('hex')}`;
}
