import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions, USAGE } from '../../scripts/mutation/options.js';

const present = new Set(['/runs/a/progress.jsonl', '/runs/b/progress.jsonl', '/runs/a/mutation.json', '/runs/b/mutation.json']);
const parse = (argv: string[]) => parseOptions(argv, (p) => present.has(p));

describe('mutation options (npm run mutation)', () => {
  it('defaults to a run of stryker.config.json as it is', () => {
    expect(parse([])).toEqual({
      mutate: [],
      concurrency: undefined,
      ignoreStatic: false,
      summarize: undefined,
      rescore: [],
      out: undefined,
    });
  });

  it('reads the options of a run; --mutate is repeatable and keeps its line range', () => {
    expect(
      parse([
        '--mutate',
        'reference-impl/src/shop/cart.ts:177-194',
        '--mutate=reference-impl/src/network/accounts.ts',
        '--concurrency',
        '4',
        '--ignore-static',
        '--out',
        'reports/narrow',
      ]),
    ).toEqual({
      mutate: ['reference-impl/src/shop/cart.ts:177-194', 'reference-impl/src/network/accounts.ts'],
      concurrency: 4,
      ignoreStatic: true,
      summarize: undefined,
      rescore: [],
      out: 'reports/narrow',
    });
  });

  it('reads --rescore, repeatable, oldest first, as absolute paths', () => {
    expect(parse(['--rescore', '/runs/a/mutation.json', '--rescore', '/runs/b/mutation.json'])).toMatchObject({
      rescore: ['/runs/a/mutation.json', '/runs/b/mutation.json'],
    });
    expect(parseOptions(['--rescore', 'package.json'])).toMatchObject({ rescore: [resolve('package.json')] });
  });

  it('takes the files of --summarize from anywhere on the line, and after --', () => {
    expect(parse(['/runs/a/progress.jsonl', '--summarize', '/runs/b/progress.jsonl', '--out', 'x'])).toMatchObject({
      summarize: ['/runs/a/progress.jsonl', '/runs/b/progress.jsonl'],
      out: 'x',
    });
    expect(parse(['--summarize', '--', '/runs/a/progress.jsonl'])).toMatchObject({ summarize: ['/runs/a/progress.jsonl'] });
  });

  it('answers -h and --help with the usage', () => {
    expect(parse(['--help'])).toBe(USAGE);
    expect(parse(['--ignore-static', '-h'])).toBe(USAGE);
  });

  it('lists every option, the environment and the exit codes in the usage', () => {
    for (const o of [
      '--mutate FILE[:LINES]',
      '--concurrency N',
      '--ignore-static',
      '--out DIR',
      '--rescore REPORT',
      '--summarize LOG...',
      '-h, --help',
    ])
      expect(USAGE).toContain(`  ${o}`);
    for (const e of [
      'SFC_MUTATION_RUNS',
      'SFC_MUTATION_SEED',
      'SFC_MUTATION_AREAS',
      'SFC_MUTATION_BAIL',
      'SFC_MUTATION_PROGRESS',
    ])
      expect(USAGE).toContain(e);
    expect(USAGE).toMatch(/Exit code: .* 2 a bad\s+option; 3 the script failed/s);
  });

  it.each([
    [['--bogus'], 'mutation: unknown option --bogus; --help lists the options'],
    [['--mutat', 'x'], 'mutation: unknown option --mutat (did you mean --mutate?); --help lists the options'],
    [['--concurrency', 'x'], 'mutation: --concurrency takes a whole number from 1 to 64, got "x"'],
    [['--concurrency', '0'], 'got "0"'],
    [['--concurrency', '65'], 'got "65"'],
    [['--concurrency'], 'got nothing'],
    [['--mutate'], 'mutation: --mutate takes a file (FILE or FILE:LINES), got nothing'],
    [['--mutate', '--ignore-static'], 'got "--ignore-static"'],
    [['--out='], 'mutation: --out takes a directory, got ""'],
    [['--rescore'], 'mutation: --rescore takes a Stryker JSON report, got nothing'],
    [['--ignore-static=yes'], 'mutation: --ignore-static takes no value, got "yes"'],
    [['--summarize'], 'mutation: --summarize takes the progress.jsonl files of the runs to score, got none'],
    [['/runs/a/progress.jsonl'], 'mutation: unexpected argument "/runs/a/progress.jsonl" (only --summarize takes files)'],
  ])('refuses %j with one line saying what to fix', (argv, message) => {
    const out = parse(argv);
    expect(typeof out).toBe('string');
    expect(out).toContain(message);
    expect(out).not.toContain('\n');
  });

  it('names every missing file of --rescore and of --summarize', () => {
    expect(parse(['--rescore', '/runs/a/mutation.json', '--rescore', '/nope.json'])).toBe(
      'mutation: --rescore: no Stryker JSON report at /nope.json',
    );
    expect(parse(['--summarize', '/x.jsonl', '/runs/a/progress.jsonl', '/y.jsonl'])).toBe(
      'mutation: --summarize: no progress log at /x.jsonl, /y.jsonl',
    );
  });

  it('counts a directory as no file by default', () => {
    expect(parseOptions(['--rescore', 'scripts'])).toBe(`mutation: --rescore: no Stryker JSON report at ${resolve('scripts')}`);
  });

  it('exits 0 with the usage for --help and 2 with one line for a bad option, before Stryker starts', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../scripts/mutation.ts'), ...args], {
        encoding: 'utf8',
        timeout: 30_000,
      });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(USAGE);
    const bad = run('--rescore', '/nope.json');
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('mutation: --rescore: no Stryker JSON report at /nope.json\n');
  });
});
