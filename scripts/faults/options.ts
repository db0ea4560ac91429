/** The fault matrix's command line (scripts/faults.ts). */

export interface FaultsOptions {
  /** Fault ids of --only; undefined: every fault of the catalog. */
  only: string[] | undefined;
  /** Interfaces of --interface; undefined: every interface. */
  interfaces: string[] | undefined;
  /** Reference and suite pairs run at a time. */
  jobs: number;
  /** Runs per property; undefined: the suite's default. */
  runs: number | undefined;
  /** Where the reports go, relative to the repository root. */
  out: string;
}

export const USAGE = `npm run faults [-- options]: the fault matrix. Runs the conformance suite against the reference
implementation once without a fault and once with each fault of fixtures/faults/catalog.json switched on (on
the fault's interface only), and says which faults the suite detects (reports/fault-matrix.json and .md)

Options:
  --only ID,...          only these faults (ids of fixtures/faults/catalog.json)
  --interface NAME,...   only the faults of these interfaces: rest-route, rest-v1-network, rest-v1-shop, graphql
  --jobs N               reference and suite pairs run at a time, 1 to 16 (default 2)
  --runs N               runs per property, 1 to 100000 (default: the suite's, 20)
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
  ['--out', 'out'],
] as const);

const NUMBERS = { jobs: { min: 1, max: 16 }, runs: { min: 1, max: 100_000 } } as const;

const VALUE = { only: 'fault ids (ID,ID)', interface: 'interface names (NAME,NAME)', out: 'a directory' } as const;

const got = (value: string | undefined) => (value === undefined ? 'nothing' : JSON.stringify(value));

/**
 * The options, or the text to print: USAGE for --help, else one line saying what to fix. `catalogIds`
 * are the fault ids --only may name, `interfaces` the names --interface may.
 */
export function parseOptions(
  argv: readonly string[],
  catalogIds: readonly string[],
  interfaces: readonly string[],
): FaultsOptions | string {
  const o: FaultsOptions = { only: undefined, interfaces: undefined, jobs: 2, runs: undefined, out: 'reports' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') return USAGE;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const key = FLAGS.get(flag as never);
    if (!key)
      return flag.startsWith('-')
        ? `faults: unknown option ${flag}; --help lists the options`
        : `faults: unexpected argument ${JSON.stringify(arg)}; --help lists the options`;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (key === 'jobs' || key === 'runs') {
      const n = Number(value);
      const { min, max } = NUMBERS[key];
      if (value === undefined || value.trim() === '' || !Number.isInteger(n) || n < min || n > max)
        return `faults: ${flag} takes a whole number from ${min} to ${max}, got ${got(value)}`;
      o[key] = n;
      continue;
    }
    // A value that looks like an option is one whose value was forgotten (--out=-x still gives it).
    if (value === undefined || value.trim() === '' || (eq < 0 && value.startsWith('-')))
      return `faults: ${flag} takes ${VALUE[key]}, got ${got(value)}`;
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
