import fc from 'fast-check';

// Values the shop variant types as integers (cart quantities, postcode) that are not integers.
// Only forms no reading of "integer" accepts: no "2.0", "1e2" or surrounding blanks, which a
// lenient parser may fairly take as integers.

export interface NotIntegerConstraints {
  /** Largest whole part of the fractions (default 99). */
  max?: number;
}

/** Fractions, words, digits with letters inside. */
export function notInteger(c: NotIntegerConstraints = {}): fc.Arbitrary<string> {
  const max = c.max ?? 99;
  return fc.oneof(
    fc.tuple(fc.integer({ min: 0, max }), fc.integer({ min: 1, max: 9 })).map(([whole, tenth]) => `${whole}.${tenth}`),
    fc.constantFrom('abc', 'two', 'x', 'NaN', 'null'),
    fc
      .tuple(fc.integer({ min: 1, max }), fc.constantFrom('a', 'x', '-', '#'), fc.integer({ min: 0, max: 9 }))
      .map(([a, ch, b]) => `${a}${ch}${b}`),
  );
}
