/**
 * Readers of the target data values that hold more than one item, or a value with a unit (their form is checked when the
 * settings are read: DATA_KEYS in options.ts). Empty or missing: nothing to read.
 */

/** `A,B , C` to `['A', 'B', 'C']` (SFC_SHOP_UNUSABLE_COUPONS, SFC_GQL_UNUSABLE_COUPONS). */
export function codeList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

export interface OptionProduct {
  productId: string;
  /** The option entries to send, in the order given. */
  options: { optionId: string; value: string }[];
}

/** `30:226=16,227=Gift` to product 30 with options 226 (value 16) and 227 (value Gift) (SFC_GQL_OPTION_PRODUCT). */
export function optionProduct(value: string | undefined): OptionProduct | undefined {
  const text = (value ?? '').trim();
  const colon = text.indexOf(':');
  if (colon < 1) return undefined;
  const options = text
    .slice(colon + 1)
    .split(',')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return { optionId: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() };
    });
  return { productId: text.slice(0, colon), options };
}

/** What a valid coupon takes off: a fixed amount (capped at the subtotal) or a share of the subtotal. */
export type CouponOff = { kind: 'amount'; value: number } | { kind: 'share'; percent: number };

/** Reads SFC_GQL_COUPON_OFF or SFC_SHOP_COUPON_OFF (`10.00` or `10%`, the form checked with the settings); empty: unknown. */
export function couponOff(raw: string | undefined): CouponOff | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  return v.endsWith('%') ? { kind: 'share', percent: Number(v.slice(0, -1)) } : { kind: 'amount', value: Number(v) };
}
