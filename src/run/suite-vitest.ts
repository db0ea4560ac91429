import { join } from 'node:path';
import { createVitest, type Reporter, type Vitest } from 'vitest/node';
import type { Settings } from '../config/settings.js';

export interface SuiteVitestOptions {
  /** The repository whose suites/ run (the mutation runner passes Stryker's sandbox). */
  root: string;
  /** Suite files or globs, relative to root. */
  include: string[];
  reporters: Reporter[];
  settings: Settings;
  maxWorkers: number;
  /** Per check and per hook. */
  timeoutMs: number;
}

/** The vitest that runs the suite's areas: one place for its configuration (a run, the mutation runner). */
export function createSuiteVitest(o: SuiteVitestOptions): Promise<Vitest> {
  return createVitest(
    'test',
    {
      root: o.root,
      config: false,
      watch: false,
      include: o.include,
      reporters: o.reporters,
      provide: { sfcSettings: o.settings },
      pool: 'threads',
      // One module graph per worker, not per file: each file would otherwise rebuild the schema
      // registry (every specs schema added and meta-validated) and recompile its schemas, which
      // cost more than the requests themselves. Areas keep their state in runArea, not in modules.
      isolate: false,
      maxWorkers: o.maxWorkers,
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
