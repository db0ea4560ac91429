import fc from 'fast-check';
import { type Alphabet, text } from './strings.js';

// Field values for the limits of document 1 (Parts 7 and 8): a length drawn around a limit, biased
// to its edges, and the value built at that length. Values start with a letter and hold no
// spaces, so a server that trims input still sees the intended length.

export interface RrLimit {
  /** Smallest accepted length (inclusive). */
  min: number;
  /** Largest accepted length (inclusive). */
  max: number;
  /** How far past the maximum random lengths may go (default 8). */
  margin?: number;
  alphabet?: Alphabet;
}

export interface LimitCase {
  value: string;
  length: number;
  /** Inside the limit: a conforming target accepts it. */
  valid: boolean;
}

/** A length: half the time one of the four edge lengths (min-1, min, max, max+1), else any length up to max+margin. */
export function lengthAround(limit: RrLimit): fc.Arbitrary<number> {
  const edges = [limit.min - 1, limit.min, limit.max, limit.max + 1].filter((n) => n >= 0);
  return fc.oneof(fc.constantFrom(...edges), fc.integer({ min: 0, max: limit.max + (limit.margin ?? 8) }));
}

/** A string of exactly `length` characters: a letter first, then the alphabet (default letters and digits). */
export function ofLength(length: number, alphabet: Alphabet = 'alnum'): fc.Arbitrary<string> {
  if (length === 0) return fc.constant('');
  return fc
    .tuple(
      text({ minLength: 1, maxLength: 1, alphabet: 'letters' }),
      text({ minLength: length - 1, maxLength: length - 1, alphabet }),
    )
    .map(([a, b]) => a + b);
}

/** A value around a limit, tagged with whether the limit accepts it. Shrinks towards short, plain values. */
export function limitCase(limit: RrLimit): fc.Arbitrary<LimitCase> {
  return lengthAround(limit).chain((length) =>
    ofLength(length, limit.alphabet).map((value) => ({ value, length, valid: length >= limit.min && length <= limit.max })),
  );
}

export interface TelephoneCase {
  value: string;
  /** The verdict of each reading of document 1 (AMB-RR-04). */
  message: boolean;
  table: boolean;
}

/**
 * A telephone for the two readings of document 1: 3 to 32 characters (Part 7 message) or exactly
 * 10 digits (parameter table). Digits of lengths around both limits, sometimes with a non-digit.
 */
export function telephoneCase(): fc.Arbitrary<TelephoneCase> {
  const length = fc.oneof(fc.constantFrom(0, 2, 3, 9, 10, 11, 32, 33), fc.integer({ min: 0, max: 40 }));
  return fc.tuple(length, fc.boolean(), fc.constantFrom('-', '+', ' ', 'x'), fc.nat()).chain(([n, digitsOnly, extra, at]) =>
    text({ minLength: n, maxLength: n, alphabet: 'digits' }).map((d) => {
      // A leading 9 keeps a numeric reading of the value at its length; the non-digit never sits at the ends (trimming).
      let value = n > 0 ? `9${d.slice(1)}` : d;
      if (!digitsOnly && n >= 3) {
        const i = 1 + (at % (n - 2));
        value = value.slice(0, i) + extra + value.slice(i + 1);
      }
      return { value, message: n >= 3 && n <= 32, table: n === 10 && /^\d+$/.test(value) };
    }),
  );
}

/** A username suffix: letters and digits, or with one character the rule forbids. */
export function usernameSuffix(): fc.Arbitrary<{ suffix: string; valid: boolean }> {
  return fc.oneof(
    text({ minLength: 1, maxLength: 10, alphabet: 'alnum' }).map((suffix) => ({ suffix, valid: true })),
    fc
      .tuple(
        text({ minLength: 1, maxLength: 10, alphabet: 'alnum' }),
        fc.constantFrom('-', '_', '.', '@', "'", '!', 'é', '名', '$', '%'),
        fc.nat(),
      )
      .map(([s, bad, at]) => {
        // Inside the name, never at an end, so a trimming server cannot drop it.
        const i = 1 + (at % s.length);
        return { suffix: `${s.slice(0, i)}${bad}${s.slice(i)}x`, valid: false };
      }),
  );
}
