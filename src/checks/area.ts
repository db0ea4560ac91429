import { afterAll, describe, inject, it } from 'vitest';
import { secretValues } from '../config/options.js';
import type { Settings } from '../config/settings.js';
import { TargetClient } from '../http/client.js';
import { type Exchange, redact, toCurl } from '../http/exchange.js';
import { RunNames } from '../provisioning/names.js';
import { type CheckResultMeta, MAX_EVIDENCE } from '../run/results.js';
import { schemaRegistry } from '../schemas/registry.js';
import { loadAreas } from '../specs/areas.js';
import { requirementsById } from '../specs/catalog.js';
import { categorize } from './category.js';
import { type ContextRecorder, createContext, runTeardowns } from './context.js';
import { type AreaSpec, CheckSkipped, ConformanceFailure } from './model.js';

declare module 'vitest' {
  export interface ProvidedContext {
    sfcSettings: Settings;
    /** The areas to run (`<interface>/<name>`); null: every area of the settings' interfaces. */
    sfcAreas: string[] | null;
  }
  interface TaskMeta {
    sfc?: CheckResultMeta;
    /** On an area's describe block: the area, `<interface>/<name>`. */
    sfcArea?: string;
    /**
     * The check's evidence as sent and received (unredacted): the collector, on the main thread,
     * redacts it into `sfc.evidence` (src/run/evidence.ts) before anything is written.
     */
    sfcExchanges?: { exchanges: Exchange[]; details?: unknown };
  }
}

/**
 * Registers the areas the run selected (suites/conformance.test.ts calls this). Each area is a
 * describe block of its own: the blocks run at once, up to vitest's maxConcurrency (--concurrency),
 * and each runs its checks in order. In one worker thread they share one module graph, one schema
 * registry and one JIT. (Vitest runs a worker's files one after another, so a file per area had one
 * area per thread in flight, and each further thread cost about a CPU-second of loading again.)
 */
export async function runSelectedAreas(): Promise<void> {
  const settings = inject('sfcSettings');
  const wanted = inject('sfcAreas');
  for (const area of await loadAreas(settings.interfaces))
    if (!wanted || wanted.includes(`${area.interface}/${area.name}`)) runArea(area);
}

/** Turns an area's checks into vitest tests, in order, sharing state: one describe block. */
export function runArea<S>(spec: AreaSpec<S>): void {
  const settings = inject('sfcSettings');
  const catalog = requirementsById();
  const http = new TargetClient({
    timeoutMs: settings.timeoutMs,
    userAgent: `storefront-conformance (run ${settings.runId}; area ${spec.interface}/${spec.name})`,
    ...(settings.rateLimit ? { rateLimit: settings.rateLimit } : {}),
  });
  const schemas = schemaRegistry();
  const names = new RunNames(settings.runId, `${spec.interface}/${spec.name}`);
  const state: Partial<S> = {};
  const teardowns: (() => Promise<void>)[] = [];
  const secrets = secretValues(settings.data);

  const areaMeta = { sfcArea: `${spec.interface}/${spec.name}` };
  describe(`${spec.interface} ${spec.name}`, { concurrent: true, meta: areaMeta }, () => {
    afterAll(async () => {
      await runTeardowns(teardowns);
      await http.close();
    });

    for (const check of spec.checks) {
      const requirement = catalog.get(check.id);
      it.sequential(`${check.id} ${check.title}`, async ({ task, skip }) => {
        if (!requirement)
          throw new Error(`suite bug: check "${check.title}" names requirement ${check.id}, which the catalog does not have`);
        const meta: CheckResultMeta = {
          requirement: check.id,
          level: requirement.level,
          interface: spec.interface,
          area: spec.name,
          title: check.title,
          source: requirement.source,
          startedAt: new Date().toISOString(),
          outcome: 'passed',
          choices: {},
          notes: [],
          requests: 0,
          retries: 0,
        };
        task.meta.sfc = meta;
        const missing = (check.needs ?? []).filter((k) => (state as Record<string, unknown>)[k] === undefined);
        if (missing.length > 0) {
          meta.outcome = 'skipped';
          meta.reason = `prerequisite not available: ${missing.join(', ')} (an earlier check of this area failed or was skipped)`;
          skip(meta.reason);
          return;
        }
        const recorder: ContextRecorder = { choices: meta.choices, notes: meta.notes, teardowns, propertyRuns: 0 };
        const ctx = createContext({ settings, http, schemas, names, state }, recorder);
        const first = http.exchanges.length;
        try {
          await check.run(ctx);
          task.meta.sfcExchanges = evidence(http.exchanges.slice(first), undefined);
        } catch (e) {
          if (e instanceof CheckSkipped) {
            meta.outcome = 'skipped';
            meta.reason = e.message;
            skip(e.message);
            return;
          }
          if (e instanceof ConformanceFailure) {
            meta.outcome = 'failed';
            meta.reason = e.message;
            const shown = e.exchanges.length > 0 ? e.exchanges : http.exchanges.slice(first).slice(-1);
            task.meta.sfcExchanges = evidence(shown, e.details);
            meta.category = categorize(requirement, shown[shown.length - 1]?.response?.status, Array.isArray(e.details));
            const replay = task.meta.sfcExchanges.exchanges[0];
            throw new Error(
              `${meta.category}: ${check.id}: ${e.message}${replay ? `\n  replay: ${toCurl(redact(replay, secrets))}` : ''}`,
            );
          }
          meta.outcome = 'error';
          meta.reason = `suite error (not the target's fault): ${(e as Error)?.stack ?? String(e)}`;
          task.meta.sfcExchanges = evidence(http.exchanges.slice(first).slice(-1), undefined);
          throw e;
        } finally {
          const mine = http.exchanges.slice(first);
          meta.requests = mine.filter((x) => !x.notSent).length;
          meta.retries = mine.reduce((n, x) => n + (x.retries ?? 0), 0);
          if (recorder.propertyRuns > 0) meta.propertyRuns = recorder.propertyRuns;
        }
      });
    }
  });
}

/** The check's last exchanges, for the collector to redact (src/run/evidence.ts). */
function evidence(exchanges: Exchange[], details: unknown): { exchanges: Exchange[]; details?: unknown } {
  return { exchanges: exchanges.slice(-MAX_EVIDENCE), ...(details !== undefined ? { details } : {}) };
}
