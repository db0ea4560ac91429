import fc from 'fast-check';
import { text } from './strings.js';

/**
 * Inputs of document 3 with a stated form: CustomerInput.telephone and postcode are "String of
 * digits" ("2. Resources and their fields"); cart quantities are GraphQL Int (32-bit).
 */
export interface DigitsConstraints {
  minLength: number;
  maxLength: number;
}

/** A string of digits within the lengths, not starting with 0 (so the integer reading keeps it). */
export function digitString(c: DigitsConstraints): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: 1, max: 9 }), text({ minLength: c.minLength - 1, maxLength: c.maxLength - 1, alphabet: 'digits' }))
    .map(([d, rest]) => `${d}${rest}`);
}

/** A string of digits with one non-digit (letter, sign, space, punctuation) put somewhere in it. */
export function notDigits(c: DigitsConstraints): fc.Arbitrary<string> {
  return fc
    .tuple(digitString(c), fc.constantFrom('a', 'Z', '-', '+', ' ', '.', '/', '#', 'é', '٣'), fc.nat())
    .map(([digits, bad, at]) => {
      // A blank at either end is left out: trimming it is a reading of "string of digits" too.
      const i = bad === ' ' ? 1 + (at % (digits.length - 1)) : at % (digits.length + 1);
      return digits.slice(0, i) + bad + digits.slice(i);
    });
}

export interface QuantityConstraints {
  /** Largest quantity a valid case uses (the target's own ceiling is not stated). */
  maxValid: number;
}

/** A quantity at or above the lower edge 1: the edge itself is weighted up. */
export function validQuantity(c: QuantityConstraints): fc.Arbitrary<number> {
  return fc.oneof({ arbitrary: fc.constant(1), weight: 1 }, { arbitrary: fc.integer({ min: 1, max: c.maxValid }), weight: 3 });
}

/** Quantities below 1: the edge 0, -1, and down to the smallest 32-bit Int. */
export function quantityBelowOne(): fc.Arbitrary<number> {
  return fc.oneof(fc.constantFrom(0, -1, -(2 ** 31)), fc.integer({ min: -(2 ** 31), max: 0 }));
}

/** Paging arguments of `orders`: edges 0 and 1, small pages, and the 32-bit Int extremes. */
export function pageArgs(): fc.Arbitrary<{ start: number; limit: number }> {
  const edge = fc.oneof(fc.constantFrom(0, 1, 2, 2 ** 31 - 1, -1, -(2 ** 31)), fc.integer({ min: 0, max: 12 }));
  return fc.record({ start: edge, limit: edge });
}
