import fc from 'fast-check';
import { type Alphabet, visibleText } from './strings.js';

export interface LengthLimit {
  /** Smallest accepted length (inclusive). */
  min: number;
  /** Largest accepted length (inclusive). */
  max: number;
  alphabet?: Alphabet;
}

/**
 * The lengths a boundary property tries: both edges and a middle value are valid, one step past
 * each edge is not (0 is not tried as "past the edge" of a minimum of 1: that is "missing").
 */
export function lengthCases(limit: LengthLimit): { valid: number[]; invalid: number[] } {
  const valid = [...new Set([limit.min, limit.max, Math.floor((limit.min + limit.max) / 2)])];
  const invalid = [limit.max + 1, ...(limit.min > 1 ? [limit.min - 1] : [])];
  return { valid, invalid };
}

/** A value at a chosen length, tagged with whether the limit accepts it. */
export function aroundLimit(limit: LengthLimit): fc.Arbitrary<{ value: string; length: number; valid: boolean }> {
  const { valid, invalid } = lengthCases(limit);
  const lengths = [...valid.map((n) => ({ n, ok: true })), ...invalid.map((n) => ({ n, ok: false }))];
  return fc.constantFrom(...lengths).chain(({ n, ok }) =>
    visibleText({ minLength: n, maxLength: n, alphabet: limit.alphabet ?? 'letters' }).map((value) => ({
      value,
      length: n,
      valid: ok,
    })),
  );
}
