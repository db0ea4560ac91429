/** The fault matrix's command line (scripts/faults.ts). */
import { got, missingText, splitFlag, unknownOption, wholeNumber } from '../cli-args.js';

export interface FaultsOptions {
  /** Fault ids of --only; undefined: every fault of the catalog. */
  only: string[] | undefined;
  /** Interfaces of --interface; undefined: every interface. */
  interfaces: string[] | undefined;
  /** Lanes: processes each running the suite against one fault's reference at a time. */
  jobs: number;
  /** Runs per property; undefined: the suite's default. */
  runs: number | undefined;
  /** Seed of every run's properties (the baseline's and each fault's). */
  seed: number;
  /** Where the reports go, relative to the repository root. */
  out: string;
}

export const USAGE = `npm run faults [-- options]: the fault matrix. Runs the conformance suite against the reference
implementation once without a fault and once with each fault of fixtures/faults/catalog.json switched on (on
the fault's interface only), and says which faults the suite detects (reports/fault-matrix.json and .md)

Options:
  --only ID,...          only these faults (ids of fixtures/faults/catalog.json)
  --interface NAME,...   only the faults of these interfaces: rest-route, rest-v1-network, rest-v1-shop, graphql
  --jobs N               lanes, 1 to 16 (default 2): processes that each keep the suite loaded and run it
                         against one fault's reference at a time (one per core is the fastest)
  --runs N               runs per property, 1 to 100000 (default: the suite's, 20)
  --seed N               seed of every run's properties, 0 to 2147483647 (default 1, so that a matrix
                         replays; other seeds show whether a detection depends on the generated inputs)
  --out DIR              write fault-matrix.json and .md under DIR, relative to the repository root
                         (default reports)
  -h, --help             this text

Exit code: 0 every selected fault detected and the run without a fault clean (no MUST or SHOULD failure, no
suite error), 1 otherwise, 2 a bad option or no fault selected, 3 the script failed
`;

const FLAGS = new Map([
  ['--only', 'only'],
  ['--interface', 'interface'],
  ['--jobs', 'jobs'],
  ['--runs', 'runs'],
  ['--seed', 'seed'],
  ['--out', 'out'],
] as const);

const NUMBERS = {
  jobs: { min: 1, max: 16 },
  runs: { min: 1, max: 100_000 },
  seed: { min: 0, max: 2 ** 31 - 1 },
} as const;

const VALUE = { only: 'fault ids (ID,ID)', interface: 'interface names (NAME,NAME)', out: 'a directory' } as const;

/**
 * The options, or the text to print: USAGE for --help, else one line saying what to fix. `catalogIds`
 * are the fault ids --only may name, `interfaces` the names --interface may.
 */
export function parseOptions(
  argv: readonly string[],
  catalogIds: readonly string[],
  interfaces: readonly string[],
): FaultsOptions | string {
  const o: FaultsOptions = { only: undefined, interfaces: undefined, jobs: 2, runs: undefined, seed: 1, out: 'reports' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') return USAGE;
    const { flag, inline } = splitFlag(arg);
    const key = FLAGS.get(flag as never);
    if (!key)
      return flag.startsWith('-')
        ? unknownOption('faults', flag, FLAGS.keys())
        : `faults: unexpected argument ${JSON.stringify(arg)}; --help lists the options`;
    const value = inline ?? argv[++i];
    if (key === 'jobs' || key === 'runs' || key === 'seed') {
      const n = wholeNumber('faults', flag, value, NUMBERS[key]);
      if (typeof n === 'string') return n;
      o[key] = n;
      continue;
    }
    const missing = missingText('faults', flag, value, inline !== undefined, VALUE[key]);
    if (missing || value === undefined) return missing as string; // the second test only narrows the type
    if (key === 'out') {
      o.out = value;
      continue;
    }
    const names = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const known = key === 'only' ? catalogIds : interfaces;
    const unknown = names.filter((n) => !known.includes(n));
    if (names.length === 0) return `faults: ${flag} takes ${VALUE[key]}, got ${got(value)}`;
    if (unknown.length)
      return key === 'only'
        ? `faults: --only names faults that fixtures/faults/catalog.json does not hold: ${unknown.join(', ')}`
        : `faults: --interface names unknown interfaces: ${unknown.join(', ')} (the interfaces: ${interfaces.join(', ')})`;
    if (key === 'only') o.only = names;
    else o.interfaces = names;
  }
  return o;
}
