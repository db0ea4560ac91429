/** The benchmark's command line and how it folds repeated measurements into one figure. */
import { splitFlag, unknownOption, wholeNumber } from '../cli-args.js';

export interface BenchOptions {
  repeat: number;
  /** Runs per property of the deep measurement; 0 leaves it out. */
  deepRuns: number;
  /** scrypt cost of the measured reference's new password hashes. */
  hashCost: number;
}

export const USAGE = `npm run bench [-- options]: speed and memory of the suite against the reference (reports/bench.json)

Options:
  --repeat N       measure the suite and the bare loop N times at each depth and report the median
                   run with the spread (default 1; this machine's neighbours move figures by a quarter)
  --deep-runs N    runs per property of the deep measurement (default 1000, what a certification run
                   uses); 0 leaves it out
  --hash-cost N    scrypt cost of the measured reference's password hashes, a power of two from 2
                   (default 2: the figures are the suite's, and a target's hashing is the target's
                   own cost; the self-test's reference uses 1024)
  -h, --help       this text
`;

const LIMITS = { repeat: { min: 1, max: 100 }, deepRuns: { min: 0, max: 100_000 }, hashCost: { min: 2, max: 1 << 20 } } as const;
const FLAGS = { '--repeat': 'repeat', '--deep-runs': 'deepRuns', '--hash-cost': 'hashCost' } as const;

/** The options, or the text to print: USAGE for --help, else one line saying what to fix. */
export function parseOptions(argv: readonly string[]): BenchOptions | string {
  const o: BenchOptions = { repeat: 1, deepRuns: 1000, hashCost: 2 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') return USAGE;
    const { flag, inline } = splitFlag(arg);
    const key = FLAGS[flag as keyof typeof FLAGS];
    if (!key) return unknownOption('bench', flag, Object.keys(FLAGS));
    const n = wholeNumber('bench', flag, inline ?? argv[++i], LIMITS[key]);
    if (typeof n === 'string') return n;
    if (key === 'hashCost' && (n & (n - 1)) !== 0) return `bench: --hash-cost takes a power of two, got "${n}"`;
    o[key] = n;
  }
  return o;
}

/** What summarize needs of one measurement. */
export interface RatioMeasurement {
  suiteToBareRatio: number;
  sendingToBareRatio: number | null;
  suite: { requestsPerSecond: number; cpuMsPerRequest: number };
  reference: { cpuMsPerRequest: number };
  bareLoop: { rps: number };
}

/**
 * The median measurement by the goal's ratio (the lower of the two middle ones for an even count),
 * whole, so that its figures stay those of one run; with more than one, the spread of the figures
 * that move from run to run.
 */
export function summarize<M extends RatioMeasurement>(ms: readonly M[]) {
  if (ms.length === 0) throw new Error('summarize: no measurement');
  const sorted = [...ms].sort((a, b) => a.suiteToBareRatio - b.suiteToBareRatio);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as M;
  const spread = (f: (m: M) => number | null) => {
    const v = ms.map(f).filter((x): x is number => typeof x === 'number');
    return v.length ? { min: Math.min(...v), max: Math.max(...v) } : null;
  };
  return {
    ...median,
    repeats:
      ms.length > 1
        ? {
            count: ms.length,
            suiteToBareRatio: spread((m) => m.suiteToBareRatio),
            sendingToBareRatio: spread((m) => m.sendingToBareRatio),
            suiteRequestsPerSecond: spread((m) => m.suite.requestsPerSecond),
            bareLoopRps: spread((m) => m.bareLoop.rps),
            suiteCpuMsPerRequest: spread((m) => m.suite.cpuMsPerRequest),
            referenceCpuMsPerRequest: spread((m) => m.reference.cpuMsPerRequest),
          }
        : null,
  };
}
