/**
 * What the command lines of the developer scripts (bench, faults, mutation) share, so that they read
 * `--flag value` and `--flag=value` alike and word their one-line errors alike.
 */
import { closestFlag } from '../src/cli/flags.js';

/** A value as an error line shows it. */
export const got = (value: string | undefined): string => (value === undefined ? 'nothing' : JSON.stringify(value));

/** `--flag=value` → the flag and its inline value; anything else → the argument, no inline value. */
export function splitFlag(arg: string): { flag: string; inline: string | undefined } {
  const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
  return eq > 0 ? { flag: arg.slice(0, eq), inline: arg.slice(eq + 1) } : { flag: arg, inline: undefined };
}

/** The whole number `value` within the limits, or the line that says what to fix. */
export function wholeNumber(
  prog: string,
  flag: string,
  value: string | undefined,
  { min, max }: { min: number; max: number },
): number | string {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isInteger(n) || n < min || n > max)
    return `${prog}: ${flag} takes a whole number from ${min} to ${max}, got ${got(value)}`;
  return n;
}

/**
 * The line that says what to fix when a text value is missing, or undefined when there is one. A
 * value that looks like an option, not written inline, is one whose value was forgotten (`--out
 * --jobs 2`); `--out=-x` still gives "-x".
 */
export function missingText(
  prog: string,
  flag: string,
  value: string | undefined,
  inline: boolean,
  what: string,
): string | undefined {
  if (value === undefined || value.trim() === '' || (!inline && value.startsWith('-')))
    return `${prog}: ${flag} takes ${what}, got ${got(value)}`;
  return undefined;
}

/** Prints what parsing returned instead of options: the usage on stdout (exit 0), an error on stderr (exit 2). */
export function printParseText(text: string, usage: string): 0 | 2 {
  (text === usage ? process.stdout : process.stderr).write(text.endsWith('\n') ? text : `${text}\n`);
  return text === usage ? 0 : 2;
}

/** The line for an unknown option: names the known flag it is closest to, if one is (`--job` → `--jobs`). */
export function unknownOption(prog: string, flag: string, known: Iterable<string>): string {
  const near = flag.startsWith('--')
    ? closestFlag(
        flag.slice(2),
        [...known].map((k) => k.replace(/^--/, '')),
      )
    : undefined;
  return `${prog}: unknown option ${flag}${near ? ` (did you mean --${near}?)` : ''}; --help lists the options`;
}
