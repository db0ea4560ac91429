import { describe, expect, it } from 'vitest';
import { closestFlag, parseCommandFlags } from '../../src/cli/flags.js';
import { UsageError } from '../../src/config/load.js';

const RUN_LIKE = ['base-url', 'report-dir', 'seed', 'runs', 'interfaces', 'vendor', 'help'];

describe('closestFlag', () => {
  it.each([
    ['reports-dir', 'report-dir'],
    ['seeed', 'seed'],
    ['interface', 'interfaces'],
    ['baseurl', 'base-url'],
    ['vendr', 'vendor'],
  ])('reads --%s as --%s', (typed, meant) => {
    expect(closestFlag(typed, RUN_LIKE)).toBe(meant);
  });
  it.each(['out', 'x', 'fault', 'jobs'])('suggests nothing for --%s, which is close to no flag', (typed) => {
    expect(closestFlag(typed, RUN_LIKE)).toBeUndefined();
  });
});

describe('parseCommandFlags', () => {
  const options = { 'report-dir': { type: 'string' as const }, help: { type: 'boolean' as const, short: 'h' } };
  it('returns the values of known flags', () => {
    expect(parseCommandFlags(['--report-dir', 'r'], options, 'run')).toEqual({ 'report-dir': 'r' });
  });
  it('names the flag probably meant and the help to read', () => {
    const call = () => parseCommandFlags(['--reports-dir', 'r'], options, 'run');
    expect(call).toThrow(UsageError);
    expect(call).toThrow("Unknown option '--reports-dir'; did you mean --report-dir? (see storefront-conformance run --help)");
  });
  it('names only the help when no flag is close', () => {
    expect(() => parseCommandFlags(['--out', 'r'], options, 'report')).toThrow(
      "Unknown option '--out' (see storefront-conformance report --help)",
    );
  });
  it('keeps the parser message of a flag without its value', () => {
    expect(() => parseCommandFlags(['--report-dir'], options, 'run')).toThrow(
      /--report-dir.*argument missing.*see storefront-conformance run --help/,
    );
  });
});
