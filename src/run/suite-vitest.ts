import { join } from 'node:path';
import { createVitest, type Reporter, type Vitest } from 'vitest/node';
import type { Settings } from '../config/settings.js';

export interface SuiteVitestOptions {
  /** The repository whose suites/ run (the mutation runner passes Stryker's sandbox). */
  root: string;
  reporters: Reporter[];
  settings: Settings;
  /** The areas to run (`<interface>/<name>`); null: every area of the settings' interfaces. */
  areas: string[] | null;
  /** Areas run at once (each runs its checks in order). */
  concurrency: number;
  /** Per check and per hook. */
  timeoutMs: number;
}

/** The one suite file: it registers the selected areas (src/checks/area.ts, runSelectedAreas). */
export const SUITE_FILE = 'suites/conformance.test.ts';

/** The vitest that runs the suite's areas: one place for its configuration (a run, the mutation runner). */
export function createSuiteVitest(o: SuiteVitestOptions): Promise<Vitest> {
  return createVitest(
    'test',
    {
      root: o.root,
      config: false,
      watch: false,
      include: [SUITE_FILE],
      reporters: o.reporters,
      provide: { sfcSettings: o.settings, sfcAreas: o.areas },
      pool: 'threads',
      // One worker thread runs every area: the areas overlap their requests inside it (maxConcurrency),
      // and one module graph, schema registry and JIT serve them all. Each extra thread cost about a
      // CPU-second of loading and compiling again, on a machine whose two cores the target shares.
      isolate: false,
      maxWorkers: 1,
      maxConcurrency: o.concurrency,
      testTimeout: o.timeoutMs,
      hookTimeout: o.timeoutMs,
      passWithNoTests: true,
      sequence: { shuffle: false, concurrent: false },
      // Transformed suite modules kept on disk, keyed by their content: later runs (the fault matrix
      // runs the suite 61 times) skip vite's transform of every suite file on the main thread.
      experimental: { fsModuleCache: true, fsModuleCachePath: join(o.root, 'node_modules', '.vite-sfc', 'modules') },
    },
    { logLevel: 'error', cacheDir: join(o.root, 'node_modules', '.vite-sfc') },
  );
}
