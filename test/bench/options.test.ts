import { describe, expect, it } from 'vitest';
import { cpuAtTime } from '../../scripts/bench/cpu-window.js';
import { parseOptions, type RatioMeasurement, summarize, USAGE } from '../../scripts/bench/options.js';

function measurement(ratio: number, rps: number): RatioMeasurement & { tag: string } {
  return {
    tag: `r${ratio}`,
    suiteToBareRatio: ratio,
    sendingToBareRatio: ratio + 0.01,
    suite: { requestsPerSecond: rps, cpuMsPerRequest: 3 },
    reference: { cpuMsPerRequest: 1 },
    bareLoop: { rps: Math.round(rps / ratio) },
  };
}

describe('bench options', () => {
  it('defaults to one measurement at each depth, the deep one at 1000 runs', () => {
    expect(parseOptions([])).toEqual({ repeat: 1, deepRuns: 1000, hashCost: 2 });
  });

  it('reads --repeat and --deep-runs; 0 deep runs leaves the deep measurement out', () => {
    expect(parseOptions(['--repeat', '3', '--deep-runs', '0'])).toEqual({ repeat: 3, deepRuns: 0, hashCost: 2 });
    expect(parseOptions(['--hash-cost', '1024'])).toEqual({ repeat: 1, deepRuns: 1000, hashCost: 1024 });
  });

  it('reads --flag=value as the faults and mutation scripts do', () => {
    expect(parseOptions(['--repeat=2', '--deep-runs=500'])).toEqual({ repeat: 2, deepRuns: 500, hashCost: 2 });
    expect(parseOptions(['--repeat='])).toBe('bench: --repeat takes a whole number from 1 to 100, got ""');
  });

  it('answers --help with the usage', () => {
    expect(parseOptions(['--repeat', '2', '-h'])).toBe(USAGE);
  });

  it.each([
    [['--repeat', 'x'], '--repeat takes a whole number from 1 to 100, got "x"'],
    [['--repeat', '0'], '--repeat takes a whole number from 1 to 100, got "0"'],
    [['--repeat', '1.5'], 'got "1.5"'],
    [['--repeat', ''], 'got ""'],
    [['--deep-runs'], '--deep-runs takes a whole number from 0 to 100000, got nothing'],
    [['--deep-runs', '-1'], 'got "-1"'],
    [['--fast'], 'unknown option --fast; --help lists the options'],
    [['--repeats', '2'], 'bench: unknown option --repeats (did you mean --repeat?); --help lists the options'],
    [['--hash-cost', '1000'], '--hash-cost takes a power of two, got "1000"'],
    [['--hash-cost', '1'], '--hash-cost takes a whole number from 2 to 1048576, got "1"'],
  ])('refuses %j with one line saying what to fix', (argv, message) => {
    const out = parseOptions(argv);
    expect(typeof out).toBe('string');
    expect(out).toContain(message);
    expect(out).not.toContain('\n');
  });
});

describe('bench summary of repeated measurements', () => {
  it('keeps one run whole: the median by ratio, and the spread of each moving figure', () => {
    const s = summarize([measurement(0.2, 500), measurement(0.1, 300), measurement(0.15, 400)]);
    expect(s.tag).toBe('r0.15');
    expect(s.suite.requestsPerSecond).toBe(400);
    expect(s.repeats).toMatchObject({
      count: 3,
      suiteToBareRatio: { min: 0.1, max: 0.2 },
      suiteRequestsPerSecond: { min: 300, max: 500 },
    });
  });

  it('takes the lower middle run of an even count, so the figure is never better than half the runs', () => {
    expect(summarize([measurement(0.3, 1), measurement(0.1, 1)]).tag).toBe('r0.1');
  });

  it('has no spread for a single run; an empty list is an error, not a figure', () => {
    expect(summarize([measurement(0.2, 500)]).repeats).toBeNull();
    expect(() => summarize([])).toThrow(/no measurement/);
  });

  it('leaves out a missing sending window from its spread', () => {
    const m = { ...measurement(0.2, 500), sendingToBareRatio: null };
    expect(summarize([m, measurement(0.1, 300)]).repeats?.sendingToBareRatio).toEqual({ min: 0.11, max: 0.11 });
  });
});

describe('CPU within a window', () => {
  const points: [number, number][] = [
    [1000, 0.5],
    [1100, 0.7],
    [1200, 1.1],
  ];
  it('interpolates between the samples around a time, and holds the nearest one outside them', () => {
    expect(cpuAtTime(points, 1150)).toBeCloseTo(0.9);
    expect(cpuAtTime(points, 1100)).toBe(0.7);
    expect(cpuAtTime(points, 900)).toBe(0.5);
    expect(cpuAtTime(points, 5000)).toBe(1.1);
    expect(cpuAtTime([], 1000)).toBe(0);
  });
  it('gives the CPU of a run inside the process: end minus start', () => {
    expect(cpuAtTime(points, 1200) - cpuAtTime(points, 1050)).toBeCloseTo(0.5);
  });
});
