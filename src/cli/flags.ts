import { parseArgs } from 'node:util';
import { UsageError } from '../config/load.js';

export type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/**
 * Parses a command's flags strictly. A mistake becomes a UsageError that names the command's help and,
 * for an unknown flag close to a known one (`--reports-dir`, `--seeed`), the flag that was probably meant.
 */
export function parseCommandFlags(
  args: string[],
  options: FlagSpec,
  command: string,
): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    const first = (e as Error).message.split('\n')[0] ?? '';
    const unknown = /^Unknown option '--([^'=]+)'/.exec(first)?.[1];
    const near = unknown === undefined ? undefined : closestFlag(unknown, Object.keys(options));
    const hint = near ? `; did you mean --${near}?` : '';
    throw new UsageError(`${first}${hint} (see storefront-conformance ${command} --help)`);
  }
}

/** The known flag a mistyped one most likely meant: few edits apart, or one a prefix of the other. */
export function closestFlag(typed: string, known: string[]): string | undefined {
  let best: { flag: string; score: number } | undefined;
  const limit = Math.max(1, Math.floor(typed.length / 4));
  for (const flag of known) {
    const d = editDistance(typed, flag);
    const prefix = typed.length >= 3 && (flag.startsWith(typed) || typed.startsWith(flag));
    if (d > limit && !prefix) continue;
    if (!best || d < best.score) best = { flag, score: d };
  }
  return best?.flag;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = cur;
  }
  return prev[b.length] as number;
}
