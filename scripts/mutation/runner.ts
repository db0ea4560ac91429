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
 * - A mutant is killed when a MUST or SHOULD check that passed in the dry run does not pass (failed,
 *   skipped, missing), or any check errs, or the suite reports an error, or the reference does not
 *   start. ADVISORY findings fail on the unmutated reference too and do not count.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
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
import type { RunResult } from '../../src/run/results.js';

type Server = typeof import('../../reference-impl/src/server.js');
type Orchestrate = typeof import('../../src/run/orchestrate.js');
type Options = typeof import('../../src/config/options.js');

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
const SERIOUS = new Set(['MUST', 'SHOULD']);
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
  id: string;
  interface: string;
  /** Suite file, relative to the sandbox. */
  file: string;
}

interface Outcome {
  result?: RunResult;
  error?: string;
  ms: number;
}

export class SuiteTestRunner implements TestRunner {
  static inject = tokens(commonTokens.logger);
  private readonly root = process.cwd();
  private server?: Server;
  private orchestrate?: Orchestrate;
  private options?: Options;
  private areas: Area[] = [];
  private readonly scratch = mkdtempSync(join(tmpdir(), 'sfc-mutation-'));
  /** Outcome of each serious check in the dry run, by `<area id>|<requirement>|<title>`. */
  private readonly baseline = new Map<string, string>();
  /** Mutant id -> the interface of the file it is in (from the instrumented sandbox files). */
  private readonly mutantInterface = new Map<string, string>();
  private runs = 0;
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
    this.orchestrate = (await import(at('src/run/orchestrate.ts'))) as Orchestrate;
    this.options = (await import(at('src/config/options.ts'))) as Options;
    this.areas = await this.findAreas();
  }

  /** Each suite file runs one area: `import { xArea } from '...'; runArea(xArea);`. */
  private async findAreas(): Promise<Area[]> {
    const out: Area[] = [];
    const suites = join(this.root, 'suites');
    for (const dir of readdirSync(suites).sort()) {
      for (const name of readdirSync(join(suites, dir))
        .filter((f) => f.endsWith('.test.ts'))
        .sort()) {
        const file = join(suites, dir, name);
        const text = readFileSync(file, 'utf8');
        const used = /runArea\((\w+)\)/.exec(text)?.[1];
        const from = used ? new RegExp(`import \\{[^}]*\\b${used}\\b[^}]*\\} from '([^']+)'`).exec(text)?.[1] : undefined;
        if (!used || !from) throw new Error(`${file}: not of the form import { xArea } from '...'; runArea(xArea);`);
        const mod = (await import(pathToFileURL(resolve(dirname(file), from.replace(/\.js$/, '.ts'))).href)) as Record<
          string,
          { name: string; interface: string }
        >;
        const spec = mod[used];
        if (!spec) throw new Error(`${file}: ${from} has no export ${used}`);
        out.push({ id: `${spec.interface}/${spec.name}`, interface: spec.interface, file: relative(this.root, file) });
      }
    }
    return out;
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

  private newRunId(): string {
    // Six characters [a-z0-9], unique per worker process and run (scratch directories are per run id).
    this.runs++;
    return `m${(process.pid % 1296).toString(36).padStart(2, '0')}${(this.runs % 46656).toString(36).padStart(3, '0')}`;
  }

  /** A fresh reference (new database), the areas of `files` against it, the reference stopped. */
  private async suite(files: string[], interfaces: string[], maxWorkers: number, trace: boolean): Promise<Outcome> {
    const started = Date.now();
    const ns = strykerNamespace();
    const server = this.server as Server;
    const dir = mkdtempSync(join(this.scratch, 'run-'));
    if (trace) ns.currentTestId = STARTUP;
    let app: Awaited<ReturnType<Server['buildServer']>>['app'] | undefined;
    try {
      try {
        ({ app } = await server.buildServer({
          db: join(dir, 'ref.db'),
          keyFile: join(this.scratch, 'keys.json'),
          hashCost: 1024,
        }));
        if (trace)
          app.server.prependListener('request', (req: IncomingMessage) => {
            ns.currentTestId = areaOfUserAgent(req.headers['user-agent']) ?? STARTUP;
          });
        const origin = await app.listen({ port: 0, host: '127.0.0.1' });
        const urls = server.urlsFor(origin, 'svc');
        const settings: Settings = {
          baseUrl: urls.baseUrl,
          networkApiRoot: urls.networkApiRoot,
          shopApiRoot: urls.shopApiRoot,
          vendor: 'svc',
          interfaces: interfaces as Settings['interfaces'],
          reportDir: join(dir, 'report'),
          seed: this.seed,
          runs: this.runsProperty,
          timeoutMs: 10_000,
          allowIncomplete: false,
          maxDurationS: 1800,
          data: Object.fromEntries((this.options as Options).DATA_KEYS.map((d) => [d.key, d.reference])),
          runId: this.newRunId(),
        };
        const result = await (this.orchestrate as Orchestrate).executeRun(settings, { suiteFiles: files, maxWorkers });
        return { result, ms: Date.now() - started };
      } catch (e) {
        return { error: `the suite or the reference failed: ${(e as Error)?.stack ?? e}`, ms: Date.now() - started };
      }
    } finally {
      ns.currentTestId = undefined;
      await app?.close().catch(() => {});
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
      areas.map((a) => a.file),
      interfaces,
      1,
      options.coverageAnalysis === 'perTest',
    );
    if (!out.result) return { status: DryRunStatus.Error, errorMessage: out.error ?? 'no result' };
    const result = out.result;
    const tests: TestResult[] = [];
    for (const area of areas) {
      const checks = result.requirements.flatMap((r) => r.checks).filter((c) => `${c.interface}/${c.area}` === area.id);
      for (const c of checks) if (SERIOUS.has(c.level)) this.baseline.set(`${area.id}|${c.requirement}|${c.title}`, c.outcome);
      const bad = checks.filter((c) => (SERIOUS.has(c.level) && c.outcome === 'failed') || c.outcome === 'error');
      const errors = result.suiteErrors.filter((e) => e.file.endsWith(area.file));
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
    const unplaced = result.suiteErrors.filter((e) => !areas.some((a) => e.file.endsWith(a.file)));
    if (unplaced.length)
      return { status: DryRunStatus.Error, errorMessage: unplaced.map((e) => `${e.file}: ${e.message}`).join('\n') };
    // Mutant runs happen in other workers too: they read the dry run's outcomes from the (one) sandbox.
    writeFileSync(join(this.root, BASELINE_FILE), JSON.stringify(Object.fromEntries(this.baseline)));
    this.log.info(`dry run: ${result.verdict} in ${(out.ms / 1000).toFixed(1)} s, ${result.requests} requests`);
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
        for (const [k, v] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>))
          this.baseline.set(k, v);
      }
      const iface = interfaceOfFile(options.sandboxFileName);
      const ids = options.testFilter ?? this.areas.filter((a) => !iface || a.interface === iface).map((a) => a.id);
      const areas = this.areas.filter((a) => ids.includes(a.id));
      if (areas.length === 0) return { status: MutantRunStatus.Survived, nrOfTests: 0 };
      const interfaces = [...new Set(areas.map((a) => a.interface))];
      const out = await this.suite(
        areas.map((a) => a.file),
        interfaces,
        Math.min(areas.length, Number(process.env.SFC_MUTATION_WORKERS ?? 1)),
        false,
      );
      const hit = determineHitLimitReached(ns.hitCount, ns.hitLimit);
      if (hit) return { status: MutantRunStatus.Timeout, reason: hit.reason };
      if (!out.result)
        return {
          status: MutantRunStatus.Killed,
          killedBy: [],
          failureMessage: out.error ?? 'no result',
          nrOfTests: areas.length,
        };
      if (out.result.aborted) return { status: MutantRunStatus.Timeout, reason: out.result.aborted };
      const killers = this.judge(out.result, areas);
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

  /** The areas (and why) where the mutated reference fails what the unmutated one passes. */
  private judge(result: RunResult, areas: Area[]): Array<{ area: string; why: string }> {
    const out: Array<{ area: string; why: string }> = [];
    const seen = new Set<string>();
    for (const c of result.requirements.flatMap((r) => r.checks)) {
      const area = `${c.interface}/${c.area}`;
      const key = `${area}|${c.requirement}|${c.title}`;
      seen.add(key);
      if (c.outcome === 'error') out.push({ area, why: `${c.requirement} error: ${c.reason ?? ''}` });
      else if (SERIOUS.has(c.level) && c.outcome !== 'passed' && (this.baseline.get(key) ?? 'passed') === 'passed')
        out.push({ area, why: `${c.requirement} ${c.level} ${c.outcome}: ${(c.reason ?? '').slice(0, 300)}` });
    }
    for (const e of result.suiteErrors) {
      const area = areas.find((a) => e.file.endsWith(a.file))?.id ?? areas[0]?.id ?? 'suite';
      out.push({ area, why: `suite error: ${e.message.slice(0, 300)}` });
    }
    const ran = new Set(areas.map((a) => a.id));
    for (const [key, outcome] of this.baseline) {
      const area = key.split('|')[0] as string;
      if (outcome === 'passed' && ran.has(area) && !seen.has(key)) out.push({ area, why: `${key} did not run` });
    }
    return out;
  }

  async dispose(): Promise<void> {
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'sfc-suite', SuiteTestRunner)];
