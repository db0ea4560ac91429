import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { CheckContext } from './context.js';
import { CheckSkipped, ConformanceFailure } from './model.js';

export interface PropertyOptions<T = unknown> {
  /** Runs of this property; default the run's `--runs`. */
  runs?: number;
  /** Caps shrinking (each shrink step sends requests again). */
  maxShrinks?: number;
  /**
   * Values run before the generated ones, whatever the seed: the cases a known fault needs, which
   * the generator reaches only on some seeds.
   */
  examples?: T[];
}

/** What a failed property reports: enough to replay it exactly. */
export interface PropertyFailure {
  property: string;
  seed: number;
  path: string;
  runs: number;
  shrinks: number;
  counterexample: string;
}

/** Each property gets its own seed, derived from the run seed and its name: one `--seed` replays all. */
export function propertySeed(runSeed: number, name: string): number {
  return ((runSeed ^ createHash('sha256').update(name).digest().readUInt32BE(0)) >>> 0) & 0x7fffffff;
}

/**
 * Runs a fast-check property inside a check. The predicate talks to the target and fails with
 * `ctx.fail`/`ctx.expect` like any check. A failure is shrunk to the smallest input that still
 * fails; the ConformanceFailure then carries the counterexample, the seed and path, and the
 * exchanges of the shrunk run.
 */
export async function checkProperty<T>(
  ctx: CheckContext<never> | CheckContext<Record<string, unknown>> | CheckContext<object>,
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions<T> = {},
): Promise<void> {
  const seed = propertySeed(ctx.settings.seed, name);
  const runs = options.runs ?? ctx.settings.runs;
  let lastFailure: ConformanceFailure | undefined;
  // Shrinking re-runs the predicate (and its requests) per candidate; past the budget the
  // remaining candidates are skipped, so the smallest counterexample found so far stands.
  let shrinkRuns = -1;
  // A run that cannot be exercised (ctx.skip) skips the check: not a failure to shrink, and the runs
  // left have nothing to show either.
  let skipped: CheckSkipped | undefined;
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      if (skipped) return;
      if (shrinkRuns >= 0) {
        shrinkRuns++;
        if (options.maxShrinks !== undefined && shrinkRuns > options.maxShrinks) return;
      }
      try {
        await predicate(value);
      } catch (e) {
        if (e instanceof CheckSkipped) {
          if (shrinkRuns < 0) skipped = e;
          return; // while shrinking: this candidate shows nothing, the smallest failure so far stands
        }
        if (e instanceof ConformanceFailure) lastFailure = e;
        if (shrinkRuns < 0) shrinkRuns = 0;
        throw e;
      }
    }),
    { seed, numRuns: runs, endOnFailure: options.maxShrinks === 0, examples: options.examples?.map((v): [T] => [v]) },
  );
  ctx.countPropertyRuns(details.numRuns + details.numShrinks);
  if (skipped) throw skipped;
  if (!details.failed) return;
  const error = details.errorInstance;
  if (!(error instanceof ConformanceFailure) && !lastFailure) throw error; // a suite error inside the property
  const failure = error instanceof ConformanceFailure ? error : (lastFailure as ConformanceFailure);
  const report: PropertyFailure = {
    property: name,
    seed,
    path: details.counterexamplePath ?? '',
    runs: details.numRuns,
    shrinks: details.numShrinks,
    counterexample: fc.stringify(details.counterexample),
  };
  throw new ConformanceFailure(
    `property "${name}" failed after ${report.runs} run(s), shrunk ${report.shrinks} time(s) to ${report.counterexample}: ${failure.message}\n` +
      `replay: the same settings with --seed ${ctx.settings.seed} (property seed ${seed}, path "${report.path}")`,
    failure.exchanges,
    { property: report, cause: failure.details },
  );
}

/**
 * Random command sequences of up to `maxCommands` commands. `size: 'max'` lets the length spread
 * over the whole bound: at fast-check's default size a bound of 16 gives 5 commands on average,
 * and a state fault that needs two steps in a row (an update, then a read) shows in few of a
 * default run's 8 sequences.
 */
export function commandSequences<Model extends object, Real>(
  commands: fc.Arbitrary<fc.AsyncCommand<Model, Real, boolean>>[],
  maxCommands: number,
): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Real, boolean>>> {
  return fc.commands(commands, { maxCommands, size: 'max' });
}

/**
 * A model-based property: random sequences of commands (`fc.commands`), each run against a fresh
 * real system from `setup` and compared with the model after every step (the commands' `check`
 * and `run`). A failure is shrunk to the shortest sequence that shows it.
 */
export async function checkCommands<Model extends object, Real>(
  ctx: CheckContext<never> | CheckContext<Record<string, unknown>> | CheckContext<object>,
  name: string,
  commands: fc.Arbitrary<fc.AsyncCommand<Model, Real, boolean>>[],
  setup: () => Promise<{ model: Model; real: Real }>,
  options: Omit<PropertyOptions, 'examples'> & { maxCommands?: number } = {},
): Promise<void> {
  await checkProperty(
    ctx,
    name,
    commandSequences(commands, options.maxCommands ?? 12),
    async (cmds) => {
      const initial = await setup();
      await fc.asyncModelRun(() => initial, cmds);
    },
    { runs: options.runs, maxShrinks: options.maxShrinks },
  );
}
