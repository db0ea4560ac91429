/** The benchmark's command line and how it folds repeated measurements into one figure. */
import { splitFlag, wholeNumber } from '../cli-args.js';

export interface BenchOptions {
  repeat: number;
  /** Runs per property of the deep measurement; 0 leaves it out. */
  deepRuns: number;
}

export const USAGE = `npm run bench [-- options]: speed and memory of the suite against the reference (reports/bench.json)

Options:
  --repeat N       measure the suite and the bare loop N times at each depth and report the median
                   run with the spread (default 1; this machine's neighbours move figures by a quarter)
  --deep-runs N    runs per property of the deep measurement (default 1000, what a certification run
                   uses); 0 leaves it out
  -h, --help       this text
`;

const LIMITS = { repeat: { min: 1, max: 100 }, deepRuns: { min: 0, max: 100_000 } } as const;

/** The options, or the text to print: USAGE for --help, else one line saying what to fix. */
export function parseOptions(argv: readonly string[]): BenchOptions | string {
  const o: BenchOptions = { repeat: 1, deepRuns: 1000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') return USAGE;
    const { flag, inline } = splitFlag(arg);
    const key = flag === '--repeat' ? 'repeat' : flag === '--deep-runs' ? 'deepRuns' : undefined;
    if (!key) return `bench: unknown option ${flag}; --help lists the options`;
    const n = wholeNumber('bench', flag, inline ?? argv[++i], LIMITS[key]);
    if (typeof n === 'string') return n;
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
