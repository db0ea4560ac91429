/** The mutation run's command line (scripts/mutation.ts). */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { got, missingText, splitFlag, unknownOption, wholeNumber } from '../cli-args.js';

export interface MutationOptions {
  /** --mutate: files to mutate (FILE or FILE:LINES); empty: stryker.config.json's. */
  mutate: string[];
  /** Stryker workers; undefined: stryker.config.json's. */
  concurrency: number | undefined;
  ignoreStatic: boolean;
  /** The progress.jsonl files to score (absolute); undefined without --summarize. */
  summarize: string[] | undefined;
  /** The Stryker reports to score again (absolute); empty without --rescore. */
  rescore: string[];
  /** --out as given; undefined: reports/mutation. */
  out: string | undefined;
}

export const USAGE = `npm run mutation [-- options]: mutation testing of the reference implementation's handlers with the
conformance suite as the test (StrykerJS; every handler module of stryker.config.json unless --mutate). Writes
mutation.json, mutation.html, summary.json (the score per file, per module and overall, raw and over the mutants
the documents constrain) and progress.jsonl under reports/mutation or --out DIR.

Options:
  --mutate FILE[:LINES]   mutate only this file, or these lines of it (reference-impl/src/shop/cart.ts:177-194);
                          repeatable
  --concurrency N         Stryker workers, 1 to 64 (default: stryker.config.json's, 2)
  --ignore-static         leave out static mutants (code that runs only when its module loads)
  --out DIR               write every file of the run under DIR (default reports/mutation), with a Stryker
                          sandbox of its own (.stryker-tmp-<name of DIR>), so a run can go beside another
  --rescore REPORT        score a finished run's mutation.json again with the current classification, without
                          running a mutant; repeatable, oldest first: each mutant has the status of the last run
                          that ran it (writes summary.json and mutation-combined.json)
  --summarize LOG...      score the per-mutant logs (progress.jsonl) of runs that did not finish; for each
                          source file the last log that has it wins; partial (writes summary-partial.json)
  -h, --help              this text

Environment: SFC_MUTATION_RUNS (runs per property, 5), SFC_MUTATION_SEED (1), SFC_MUTATION_AREAS (areas
of checks at once in a mutant run, 1), SFC_MUTATION_BAIL=0 (run every covering area, not only up to the first that
kills), SFC_MUTATION_PROGRESS (the per-mutant log, default <out>/progress.jsonl).

Exit code: Stryker's (0 the run finished), 3 if it wrote no report; 0 for --rescore and --summarize; 2 a bad
option; 3 the script failed
`;

const STRINGS = new Map([
  ['--mutate', 'mutate'],
  ['--rescore', 'rescore'],
  ['--out', 'out'],
] as const);

const VALUE = { mutate: 'a file (FILE or FILE:LINES)', rescore: 'a Stryker JSON report', out: 'a directory' } as const;

const CONCURRENCY = { min: 1, max: 64 } as const;

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/**
 * The options, or the text to print: USAGE for --help, else one line saying what to fix. The files
 * --summarize and --rescore read must exist (`fileExists`); --summarize, when given, is what runs.
 */
export function parseOptions(argv: readonly string[], fileExists: (path: string) => boolean = isFile): MutationOptions | string {
  const o: MutationOptions = {
    mutate: [],
    concurrency: undefined,
    ignoreStatic: false,
    summarize: undefined,
    rescore: [],
    out: undefined,
  };
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (arg === '-h' || arg === '--help') return USAGE;
    const { flag, inline } = splitFlag(arg);
    if (flag === '--ignore-static' || flag === '--summarize') {
      if (inline !== undefined) return `mutation: ${flag} takes no value, got ${got(inline)}`;
      if (flag === '--ignore-static') o.ignoreStatic = true;
      else o.summarize = [];
      continue;
    }
    const value = inline ?? argv[++i];
    if (flag === '--concurrency') {
      const n = wholeNumber('mutation', flag, value, CONCURRENCY);
      if (typeof n === 'string') return n;
      o.concurrency = n;
      continue;
    }
    const key = STRINGS.get(flag as never);
    if (!key) return unknownOption('mutation', flag, [...STRINGS.keys(), '--concurrency', '--ignore-static', '--summarize']);
    const missing = missingText('mutation', flag, value, inline !== undefined, VALUE[key]);
    if (missing || value === undefined) return missing as string; // the second test only narrows the type
    if (key === 'out') o.out = value;
    else o[key].push(value);
  }
  o.rescore = o.rescore.map((r) => resolve(r));
  if (o.summarize) {
    if (positionals.length === 0) return 'mutation: --summarize takes the progress.jsonl files of the runs to score, got none';
    o.summarize = positionals.map((p) => resolve(p));
    const missing = o.summarize.filter((p) => !fileExists(p));
    if (missing.length) return `mutation: --summarize: no progress log at ${missing.join(', ')}`;
    return o;
  }
  if (positionals.length)
    return `mutation: unexpected argument ${JSON.stringify(positionals[0])} (only --summarize takes files); --help lists the options`;
  const missing = o.rescore.filter((r) => !fileExists(r));
  if (missing.length) return `mutation: --rescore: no Stryker JSON report at ${missing.join(', ')}`;
  return o;
}
