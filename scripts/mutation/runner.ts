/**
 * A StrykerJS test runner that runs the conformance suite against the reference implementation
 * inside Stryker's worker process (mutant schemata: every mutant is compiled into the sandbox and
 * switched on through `globalThis.__stryker__.activeMutant`), instead of a suite process and a
 * reference process per mutant.
 *
 * - A "test" is one area of the suite (`<interface>/<area>`, one suite file). The suite's HTTP client
 *   names its area in the user-agent; a 'request' listener on the reference's HTTP server sets
 *   `__stryker__.currentTestId` from it, so the dry run (areas one at a time) records which areas
 *   reach which mutants.
 * - Code run while the reference starts (migrations, route registration) and the preflight requests
 *   count as covered by every area of the file's interface: each mutant run starts a fresh
 *   reference (new database) with the mutant already on, so that code runs mutated too.
 * - Code run at import (module constants) is "static": the modules are imported lazily, on the first
 *   run, so a static mutant runs in a fresh worker (Stryker restarts it) with the mutant on at import.
 * - A mutant is killed when a MUST or SHOULD check fails that did not fail in the dry run, or one that
 *   passed there does not pass (skipped, missing), or any check errs, or the suite reports an error, or
 *   the reference does not start (./judge.ts). ADVISORY findings fail on the unmutated reference too
 *   and do not count.
 */
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MutantCoverage } from '@stryker-mutator/api/core';
import type { Logger } from '@stryker-mutator/api/logging';
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import {
  type DryRunOptions,
  type DryRunResult,
  DryRunStatus,
  determineHitLimitReached,
  type MutantRunOptions,
  type MutantRunResult,
  MutantRunStatus,
  type TestResult,
  type TestRunner,
  type TestRunnerCapabilities,
  TestStatus,
} from '@stryker-mutator/api/test-runner';
import type { Settings } from '../../src/config/settings.js';
import { runScratchDir } from '../../src/provisioning/scratch.js';
import type { CheckResult } from '../../src/run/results.js';
import { judgeMutantRun, SERIOUS_LEVELS } from './judge.js';

type Server = typeof import('../../reference-impl/src/server.js');
type Collector = typeof import('../../src/run/collector.js');
type SuiteVitest = typeof import('../../src/run/suite-vitest.js');
type Options = typeof import('../../src/config/options.js');
type Areas = typeof import('../../src/specs/areas.js');
type Vitest = Awaited<ReturnType<typeof import('vitest/node').createVitest>>;

interface StrykerNamespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: MutantCoverage;
  hitCount?: number;
  hitLimit?: number;
}

/** The instrumented code keeps a reference to this object (and to its mutantCoverage): mutate it, never replace it. */
function strykerNamespace(): StrykerNamespace {
  const g = globalThis as { __stryker__?: StrykerNamespace };
  g.__stryker__ ??= {};
  return g.__stryker__;
}

/** Pseudo test: reference start-up and preflight; its coverage goes to every area of the mutant's interface. */
const STARTUP = '(startup)';
const MODULE_INTERFACE: Record<string, string> = {
  'rest-route': 'rest-route',
  network: 'rest-v1-network',
  shop: 'rest-v1-shop',
  graphql: 'graphql',
};
/** Outcomes of the serious checks in the dry run, in the sandbox (shared by the workers). */
const BASELINE_FILE = '.sfc-mutation-baseline.json';

/** The suite interface whose reference module holds `file` (a path of reference-impl/src/<module>/). */
export function interfaceOfFile(file: string): string | undefined {
  const module = /reference-impl\/src\/([^/]+)\//.exec(file.replace(/\\/g, '/'))?.[1];
  return module ? MODULE_INTERFACE[module] : undefined;
}

/** `<interface>/<area>` from the suite's user-agent (`storefront-conformance (run x; area <interface>/<area>)`). */
export function areaOfUserAgent(ua: string | undefined): string | undefined {
  return ua ? /; area ([^)]+)\)/.exec(ua)?.[1] : undefined;
}

interface Area {
  /** `<interface>/<name>`. */
  id: string;
  interface: string;
}

interface Outcome {
  checks?: CheckResult[];
  suiteErrors?: Array<{ file: string; area?: string; message: string }>;
  error?: string;
  ms: number;
}

const INTERFACES = ['rest-route', 'rest-v1-network', 'rest-v1-shop', 'graphql'];
/**
 * Areas run at once in a mutant run (SFC_MUTATION_AREAS, default 1). The dry run takes one at a time
 * whatever it says: it hands each request's coverage to the area named in its user-agent, and a
 * handler that awaits (hashing) would be credited to another area's request in between.
 */
const MUTANT_RUN_AREAS = Number(process.env.SFC_MUTATION_AREAS ?? 1);
/** One line per mutant run (partial results while a long run goes on); scripts/mutation.ts empties it. */
export const PROGRESS_FILE =
  process.env.SFC_MUTATION_PROGRESS ?? resolve(import.meta.dirname, '../../reports/mutation/progress.jsonl');

export class SuiteTestRunner implements TestRunner {
  static inject = tokens(commonTokens.logger);
  private readonly root = process.cwd();
  private server?: Server;
  private collectorModule?: Collector;
  private suiteVitest?: SuiteVitest;
  private options?: Options;
  /** One vitest per worker, reused by every run (its worker threads keep the suite's modules loaded). */
  private vitest?: Vitest;
  private collector?: InstanceType<Collector['ResultCollector']>;
  /** The reference listens on the same port in every run: the suite's settings are provided once. */
  private port = 0;
  private runId = '';
  private runCount = 0;
  private areas: Area[] = [];
  private readonly scratch = mkdtempSync(join(tmpdir(), 'sfc-mutation-'));
  /** Outcome of each serious check in the dry run, by `<area id>|<requirement>|<title>`. */
  private readonly baseline = new Map<string, string>();
  /** Requirement id -> true when MUST or SHOULD (a check missing from a run kills only then). */
  private readonly levels = new Map<string, boolean>();
  /** ADVISORY checks that passed in the dry run and failed in the last mutant run (they do not kill). */
  private advisoryFlips: string[] = [];
  /** Stop a mutant run at the first area that kills (SFC_MUTATION_BAIL=0 runs every covering area). */
  private bail = false;
  private readonly bailEnabled = process.env.SFC_MUTATION_BAIL !== '0';
  /** Mutant id -> the interface of the file it is in (from the instrumented sandbox files). */
  private readonly mutantInterface = new Map<string, string>();
  private readonly runsProperty = Number(process.env.SFC_MUTATION_RUNS ?? 5);
  private readonly seed = Number(process.env.SFC_MUTATION_SEED ?? 1);

  constructor(private readonly log: Logger) {}

  capabilities(): TestRunnerCapabilities {
    // Modules are imported once per worker: a static mutant needs a fresh worker (Stryker restarts it).
    return { reloadEnvironment: false };
  }

  /** Imports the sandbox's reference and suite on first use, so that a static mutant is already on. */
  private async load(): Promise<void> {
    if (this.server) return;
    const at = (p: string) => pathToFileURL(join(this.root, p)).href;
    this.server = (await import(at('reference-impl/src/server.ts'))) as Server;
    this.collectorModule = (await import(at('src/run/collector.ts'))) as Collector;
    this.suiteVitest = (await import(at('src/run/suite-vitest.ts'))) as SuiteVitest;
    this.options = (await import(at('src/config/options.ts'))) as Options;
    this.areas = await this.findAreas();
  }

  /** Every area of checks of the sandbox (src/interfaces/<interface>/areas/), in run order. */
  private async findAreas(): Promise<Area[]> {
    const { loadAreas } = (await import(pathToFileURL(join(this.root, 'src/specs/areas.ts')).href)) as Areas;
    return (await loadAreas()).map((a) => ({ id: `${a.interface}/${a.name}`, interface: a.interface }));
  }

  /** Mutant ids of each instrumented file of reference-impl/src/<module>/ (`stryCov_9fa48("1", "2")`). */
  private mapMutants(): void {
    for (const module of Object.keys(MODULE_INTERFACE)) {
      const dir = join(this.root, 'reference-impl', 'src', module);
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
        const text = readFileSync(join(dir, f), 'utf8');
        for (const call of text.matchAll(/stryCov_9fa48\(([^)]*)\)/g))
          for (const id of (call[1] ?? '').matchAll(/"(\d+)"/g))
            this.mutantInterface.set(id[1] as string, MODULE_INTERFACE[module] as string);
      }
    }
  }

  /** The settings every run of this worker shares (the reference's URLs stay the same: same port). */
  private settings(origin: string, vendor: string): Settings {
    const urls = (this.server as Server).urlsFor(origin, vendor);
    // Six characters [a-z0-9], one per worker process (each run has a fresh database, so names do not collide).
    this.runId = `m${(process.pid % 46656).toString(36).padStart(3, '0')}xx`;
    return {
      baseUrl: urls.baseUrl,
      networkApiRoot: urls.networkApiRoot,
      shopApiRoot: urls.shopApiRoot,
      vendor,
      interfaces: INTERFACES as Settings['interfaces'],
      reportDir: join(this.scratch, 'report'),
      seed: this.seed,
      runs: this.runsProperty,
      timeoutMs: 10_000,
      allowIncomplete: false,
      concurrency: 1, // informational: suite() passes the areas at once to vitest itself
      maxDurationS: 1800,
      data: (this.options as Options).referenceData(),
      runId: this.runId,
    };
  }

  private async listen(app: Awaited<ReturnType<Server['buildServer']>>['app']): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        const origin = await app.listen({ port: this.port, host: '127.0.0.1' });
        this.port = Number(new URL(origin).port);
        return origin;
      } catch (e) {
        if (attempt >= 20 || (e as { code?: string }).code !== 'EADDRINUSE') throw e;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private async createVitest(settings: Settings, concurrency: number): Promise<Vitest> {
    const collector = () => this.collector as InstanceType<Collector['ResultCollector']>;
    const reporter = {
      onTestSuiteResult: (s: Parameters<InstanceType<Collector['ResultCollector']>['onTestSuiteResult']>[0]) => {
        collector().onTestSuiteResult(s);
        // Bail: the first area that kills the mutant ends the run (the remaining areas are not needed).
        if (this.bail && this.vitest && this.judge(collector().checks, collector().suiteErrors, []).length > 0)
          void this.vitest.cancelCurrentRun('test-failure');
      },
      onTestModuleEnd: (m: Parameters<InstanceType<Collector['ResultCollector']>['onTestModuleEnd']>[0]) =>
        collector().onTestModuleEnd(m),
      onTestRunEnd: (...a: Parameters<InstanceType<Collector['ResultCollector']>['onTestRunEnd']>) =>
        collector().onTestRunEnd(...a),
    };
    return (this.suiteVitest as SuiteVitest).createSuiteVitest({
      root: this.root,
      reporters: [reporter as never],
      settings,
      areas: [],
      concurrency,
      timeoutMs: 80_000,
    });
  }

  /** A fresh reference (new database), the areas `ids` against it, the reference stopped. */
  private async suite(ids: string[], concurrency: number, trace: boolean, bail = false): Promise<Outcome> {
    const started = Date.now();
    const ns = strykerNamespace();
    const server = this.server as Server;
    const dir = mkdtempSync(join(this.scratch, 'run-'));
    if (trace) ns.currentTestId = STARTUP;
    let app: Awaited<ReturnType<Server['buildServer']>>['app'] | undefined;
    const previousExitCode = process.exitCode;
    try {
      try {
        // A new vendor segment per run: the reference keeps its GraphQL schema (scalars patched when it is
        // built) and the documents it validated per vendor for the life of the process; a new vendor
        // builds and validates them again, with this run's mutant on.
        const vendor = `m${(process.pid % 1296).toString(36)}v${(++this.runCount).toString(36)}`;
        ({ app } = await server.buildServer({
          db: join(dir, 'ref.db'),
          keyFile: join(this.scratch, 'keys.json'),
          hashCost: 1024,
          vendor,
        }));
        if (trace)
          app.server.prependListener('request', (req: IncomingMessage) => {
            ns.currentTestId = areaOfUserAgent(req.headers['user-agent']) ?? STARTUP;
          });
        const origin = await this.listen(app);
        const settings = this.settings(origin, vendor);
        // Start-up work the first GraphQL request does (schema, scalars): start-up coverage, as buildServer's.
        await fetch(server.urlsFor(origin, vendor).graphql, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ __typename }' }),
        }).then(
          (r) => r.arrayBuffer(),
          () => undefined,
        );
        this.vitest ??= await this.createVitest(settings, concurrency);
        this.vitest.provide('sfcSettings', settings);
        this.vitest.provide('sfcAreas', ids);
        const collector = new (this.collectorModule as Collector).ResultCollector();
        this.collector = collector;
        this.bail = bail;
        const project = this.vitest.getRootProject();
        const suiteFile = (this.suiteVitest as SuiteVitest).SUITE_FILE;
        await this.vitest.runTestSpecifications([project.createSpecification(join(this.root, suiteFile))]);
        return { checks: collector.checks, suiteErrors: collector.suiteErrors, ms: Date.now() - started };
      } catch (e) {
        return { error: `the suite or the reference failed: ${(e as Error)?.stack ?? e}`, ms: Date.now() - started };
      }
    } finally {
      this.bail = false;
      process.exitCode = previousExitCode;
      ns.currentTestId = undefined;
      await app?.close().catch(() => {});
      // Per-run scratch of the suites (tree positions reserved between parallel areas).
      rmSync(runScratchDir(this.runId), { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  }

  async dryRun(options: DryRunOptions): Promise<DryRunResult> {
    const ns = strykerNamespace();
    ns.activeMutant = undefined;
    ns.mutantCoverage ??= { static: {}, perTest: {} };
    await this.load();
    this.mapMutants();
    // Only the interfaces whose reference modules have mutants (all when Stryker does not say).
    const wanted = new Set((options.files ?? []).map(interfaceOfFile).filter((i): i is string => i !== undefined) as string[]);
    const areas = this.areas.filter((a) => wanted.size === 0 || wanted.has(a.interface));
    const interfaces = [...new Set(areas.map((a) => a.interface))];
    this.log.info(`dry run: ${areas.length} areas of ${interfaces.join(', ')}, one at a time`);
    const out = await this.suite(
      areas.map((a) => a.id),
      1,
      options.coverageAnalysis === 'perTest',
    );
    if (!out.checks) return { status: DryRunStatus.Error, errorMessage: out.error ?? 'no result' };
    const result = { checks: out.checks, suiteErrors: out.suiteErrors ?? [] };
    const tests: TestResult[] = [];
    for (const area of areas) {
      const checks = result.checks.filter((c) => `${c.interface}/${c.area}` === area.id);
      // ADVISORY outcomes too: they do not kill, but a survivor that flips one is reported as such (progress.jsonl).
      for (const c of checks) this.baseline.set(`${area.id}|${c.requirement}|${c.title}`, c.outcome);
      for (const c of checks) this.levels.set(c.requirement, SERIOUS_LEVELS.has(c.level));
      const bad = checks.filter((c) => (SERIOUS_LEVELS.has(c.level) && c.outcome === 'failed') || c.outcome === 'error');
      const errors = result.suiteErrors.filter((e) => e.area === area.id);
      const timeSpentMs = checks.reduce((n, c) => n + c.durationMs, 0);
      if (bad.length || errors.length)
        tests.push({
          id: area.id,
          name: area.id,
          timeSpentMs,
          status: TestStatus.Failed,
          failureMessage: [
            ...bad.map((c) => `${c.requirement} ${c.outcome}: ${c.reason ?? ''}`),
            ...errors.map((e) => e.message),
          ].join('; '),
        });
      else tests.push({ id: area.id, name: area.id, timeSpentMs, status: TestStatus.Success });
    }
    const unplaced = result.suiteErrors.filter((e) => !areas.some((a) => e.area === a.id));
    if (unplaced.length)
      return { status: DryRunStatus.Error, errorMessage: unplaced.map((e) => `${e.file}: ${e.message}`).join('\n') };
    // Mutant runs happen in other workers too: they read the dry run's outcomes from the (one) sandbox.
    writeFileSync(
      join(this.root, BASELINE_FILE),
      JSON.stringify({ outcomes: Object.fromEntries(this.baseline), serious: Object.fromEntries(this.levels) }),
    );
    const requests = result.checks.reduce((n, c) => n + c.requests, 0);
    this.log.info(
      `dry run: ${tests.filter((t) => t.status === TestStatus.Failed).length} areas failing in ${(out.ms / 1000).toFixed(1)} s, ${requests} requests`,
    );
    if (MUTANT_RUN_AREAS !== 1) {
      await this.vitest?.close(); // mutant runs run more areas at once than the dry run's one
      this.vitest = undefined;
    }
    return { status: DryRunStatus.Complete, tests, mutantCoverage: this.coverage(areas) };
  }

  /** Stryker's coverage, with start-up coverage handed to every area of the mutant's interface. */
  private coverage(areas: Area[]): MutantCoverage {
    const cov = strykerNamespace().mutantCoverage ?? { static: {}, perTest: {} };
    const perTest: MutantCoverage['perTest'] = {};
    for (const a of areas) perTest[a.id] = { ...(cov.perTest[a.id] ?? {}) };
    const startup = cov.perTest[STARTUP] ?? {};
    for (const [id, hits] of Object.entries(startup)) {
      const iface = this.mutantInterface.get(id);
      for (const a of areas) {
        if (iface && a.interface !== iface) continue;
        const t = perTest[a.id] as Record<string, number>;
        t[id] = (t[id] ?? 0) + hits;
      }
    }
    this.log.info(
      `coverage: ${Object.keys(cov.static).length} mutants static (at import), ${Object.keys(startup).length} at reference start-up or preflight`,
    );
    return { static: { ...cov.static }, perTest };
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    const started = Date.now();
    this.advisoryFlips = [];
    const result = await this.runMutant(options);
    const m = options.activeMutant;
    const line = {
      id: m.id,
      file: m.fileName.slice(m.fileName.lastIndexOf('reference-impl/')),
      line: m.location.start.line + 1, // Stryker's locations count lines from 0
      mutator: m.mutatorName,
      replacement: m.replacement,
      status: result.status,
      tests: options.testFilter?.length ?? null,
      ms: Date.now() - started,
      ...(result.status === MutantRunStatus.Killed ? { why: result.failureMessage.slice(0, 300) } : {}),
      ...(result.status === MutantRunStatus.Timeout ? { why: result.reason } : {}),
      ...(result.status === MutantRunStatus.Error ? { why: result.errorMessage.slice(0, 300) } : {}),
      ...(this.advisoryFlips.length ? { advisory: [...new Set(this.advisoryFlips)] } : {}),
    };
    try {
      appendFileSync(PROGRESS_FILE, `${JSON.stringify(line)}\n`);
    } catch {
      // the log is a convenience for long runs
    }
    return result;
  }

  private async runMutant(options: MutantRunOptions): Promise<MutantRunResult> {
    const ns = strykerNamespace();
    ns.mutantCoverage ??= { static: {}, perTest: {} };
    ns.currentTestId = undefined;
    ns.activeMutant = options.activeMutant.id;
    ns.hitLimit = options.hitLimit;
    ns.hitCount = options.hitLimit === undefined ? undefined : 0;
    try {
      await this.load(); // a static mutant: first use of a fresh worker, the mutant on while the modules load
      if (this.baseline.size === 0) {
        const file = join(this.root, BASELINE_FILE);
        if (!existsSync(file)) return { status: MutantRunStatus.Error, errorMessage: `no dry run outcomes in ${file}` };
        const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        // Earlier format (a run started before ADVISORY outcomes were kept): outcomes of serious checks only.
        const outcomes = (saved.outcomes ?? saved) as Record<string, string>;
        const serious = (saved.serious ?? {}) as Record<string, boolean>;
        for (const [k, v] of Object.entries(outcomes)) this.baseline.set(k, v);
        for (const k of Object.keys(outcomes)) {
          const id = k.split('|')[1] as string;
          this.levels.set(id, saved.serious ? serious[id] === true : true);
        }
      }
      const iface = interfaceOfFile(options.sandboxFileName);
      const ids = options.testFilter ?? this.areas.filter((a) => !iface || a.interface === iface).map((a) => a.id);
      const areas = this.areas.filter((a) => ids.includes(a.id));
      if (areas.length === 0) return { status: MutantRunStatus.Survived, nrOfTests: 0 };
      const out = await this.suite(
        areas.map((a) => a.id),
        MUTANT_RUN_AREAS,
        false,
        this.bailEnabled,
      );
      const hit = determineHitLimitReached(ns.hitCount, ns.hitLimit);
      if (hit) return { status: MutantRunStatus.Timeout, reason: hit.reason };
      if (!out.checks)
        return {
          status: MutantRunStatus.Killed,
          killedBy: [],
          failureMessage: out.error ?? 'no result',
          nrOfTests: areas.length,
        };
      const killers = this.judge(out.checks, out.suiteErrors ?? [], areas);
      if (killers.length === 0) return { status: MutantRunStatus.Survived, nrOfTests: areas.length };
      return {
        status: MutantRunStatus.Killed,
        killedBy: [...new Set(killers.map((k) => k.area))],
        failureMessage: killers
          .slice(0, 3)
          .map((k) => k.why)
          .join('; '),
        nrOfTests: areas.length,
      };
    } finally {
      ns.activeMutant = undefined;
      ns.hitCount = undefined;
      ns.hitLimit = undefined;
    }
  }

  /** The areas (and why) where the mutated reference fails what the unmutated one passes (./judge.ts). */
  private judge(
    checks: CheckResult[],
    suiteErrors: Array<{ file: string; message: string }>,
    areas: Area[],
  ): Array<{ area: string; why: string }> {
    const { killers, advisoryFlips } = judgeMutantRun({
      checks,
      suiteErrors,
      areas,
      baseline: this.baseline,
      serious: this.levels,
    });
    this.advisoryFlips.push(...advisoryFlips);
    return killers;
  }

  async dispose(): Promise<void> {
    await this.vitest?.close();
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'sfc-suite', SuiteTestRunner)];
