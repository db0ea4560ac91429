import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions, USAGE } from '../../scripts/faults/options.js';
import { INTERFACES, loadCatalog } from '../../scripts/faults.js';

const ids = loadCatalog().map((f) => f.id);
const parse = (argv: string[]) => parseOptions(argv, ids, INTERFACES);

describe('fault matrix options (npm run faults)', () => {
  it('defaults to every fault on every interface, two pairs at a time, the suite depth, seed 1, reports/', () => {
    expect(parse([])).toEqual({ only: undefined, interfaces: undefined, jobs: 2, runs: undefined, seed: 1, out: 'reports' });
  });

  it('reads every option', () => {
    expect(
      parse(['--only', 'RR-STATUS-STRING,RR-ERRORS-NULL', '--interface', 'graphql,rest-route', '--jobs', '4']),
    ).toMatchObject({ only: ['RR-STATUS-STRING', 'RR-ERRORS-NULL'], interfaces: ['graphql', 'rest-route'], jobs: 4 });
    expect(parse(['--runs', '1000', '--out', 'tmp/matrix'])).toMatchObject({ runs: 1000, out: 'tmp/matrix' });
    expect(parse(['--seed', '0'])).toMatchObject({ seed: 0 });
    expect(parse(['--seed=2147483647'])).toMatchObject({ seed: 2_147_483_647 });
  });

  it('takes --flag=value, spaces around list items, and the last of a repeated option (as node parseArgs did)', () => {
    expect(parse(['--jobs=16', '--only=RR-STATUS-STRING, RR-ERRORS-NULL,', '--runs', '5', '--runs', '100000'])).toMatchObject({
      jobs: 16,
      only: ['RR-STATUS-STRING', 'RR-ERRORS-NULL'],
      runs: 100_000,
    });
  });

  it('answers -h and --help with the usage, after other options too', () => {
    expect(parse(['--help'])).toBe(USAGE);
    expect(parse(['--jobs', '3', '-h'])).toBe(USAGE);
  });

  it('lists every option, every interface and the exit codes in the usage', () => {
    for (const o of ['--only ID,...', '--interface NAME,...', '--jobs N', '--runs N', '--seed N', '--out DIR', '-h, --help'])
      expect(USAGE).toContain(`  ${o}`);
    for (const i of INTERFACES) expect(USAGE).toContain(i);
    expect(USAGE).toContain('fixtures/faults/catalog.json');
    expect(USAGE).toMatch(/Exit code: 0 .* 1 otherwise, 2 a bad option .* 3 the script failed/s);
  });

  it.each([
    [['--bogus'], 'faults: unknown option --bogus; --help lists the options'],
    [['--bogus=1'], 'unknown option --bogus;'],
    [['--job', '1'], 'faults: unknown option --job (did you mean --jobs?); --help lists the options'],
    [['RR-STATUS-STRING'], 'faults: unexpected argument "RR-STATUS-STRING"'],
    [['--jobs', '0'], 'faults: --jobs takes a whole number from 1 to 16, got "0"'],
    [['--jobs', '17'], 'got "17"'],
    [['--jobs', 'abc'], 'got "abc"'],
    [['--jobs', '1.5'], 'got "1.5"'],
    [['--jobs'], '--jobs takes a whole number from 1 to 16, got nothing'],
    [['--runs', '-1'], 'faults: --runs takes a whole number from 1 to 100000, got "-1"'],
    [['--runs', '100001'], 'got "100001"'],
    [['--runs='], 'got ""'],
    [['--seed', '-1'], 'faults: --seed takes a whole number from 0 to 2147483647, got "-1"'],
    [['--seed', '2147483648'], 'got "2147483648"'],
    [['--seed', 'random'], 'got "random"'],
    [['--out'], 'faults: --out takes a directory, got nothing'],
    [['--out', '--jobs', '2'], '--out takes a directory, got "--jobs"'],
    [['--only', ','], 'faults: --only takes fault ids (ID,ID), got ","'],
    [['--interface'], 'faults: --interface takes interface names (NAME,NAME), got nothing'],
  ])('refuses %j with one line saying what to fix', (argv, message) => {
    const out = parse(argv);
    expect(typeof out).toBe('string');
    expect(out).toContain(message);
    expect(out).not.toContain('\n');
  });

  it('names every --only id the catalog does not hold, and none that it does', () => {
    expect(parse(['--only', 'NOPE,RR-STATUS-STRING,ALSO-NOPE'])).toBe(
      'faults: --only names faults that fixtures/faults/catalog.json does not hold: NOPE, ALSO-NOPE',
    );
  });

  it('names every unknown --interface and lists the four', () => {
    expect(parse(['--interface', 'rest,graphql,soap'])).toBe(
      'faults: --interface names unknown interfaces: rest, soap (the interfaces: rest-route, rest-v1-network, rest-v1-shop, graphql)',
    );
  });

  it('exits 0 with the usage for --help and 2 with one line for a bad option, before any run starts', () => {
    const run = (arg: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../scripts/faults.ts'), arg], {
        encoding: 'utf8',
        timeout: 30_000,
      });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(USAGE);
    const bad = run('--jobs=0');
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('faults: --jobs takes a whole number from 1 to 16, got "0"\n');
  });
});
