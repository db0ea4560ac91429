import fc from 'fast-check';

export interface AmountConstraints {
  min: number;
  max: number;
  /** Decimal places (default 2). */
  decimals?: number;
}

/** A money amount inside [min, max] with at most `decimals` places, as a number. */
export function amount(c: AmountConstraints): fc.Arbitrary<number> {
  const scale = 10 ** (c.decimals ?? 2);
  return fc.integer({ min: Math.ceil(c.min * scale), max: Math.floor(c.max * scale) }).map((n) => n / scale);
}

/** Amounts just outside [min, max], and ones no amount rule should accept (zero, negative). */
export function amountOutside(c: AmountConstraints): fc.Arbitrary<number> {
  const step = 1 / 10 ** (c.decimals ?? 2);
  const below = c.min - step > 0 ? [fc.constant(Number((c.min - step).toFixed(c.decimals ?? 2)))] : [];
  return fc.oneof(
    ...below,
    fc.constant(Number((c.max + step).toFixed(c.decimals ?? 2))),
    amount({ min: c.max + 1, max: c.max * 10 + 1 }),
    fc.constant(0),
    fc.constant(-1),
  );
}
