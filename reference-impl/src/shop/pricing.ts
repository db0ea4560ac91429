import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { now } from './common.js';

/**
 * Cart pricing, shared by the cart endpoints and order creation. Rules (the document is silent):
 * price = sale price when set, else regular price; no tax; free shipping; no fees; coupons are
 * applied to the cart subtotal (percent of the subtotal, or a fixed cart amount), their sum never
 * exceeds the subtotal, and each coupon's discount is spread over the lines in cents, so
 * sum(line_total) = cart_contents_total = subtotal - discount_total = total.
 */

export interface CartLine {
  item_key: string;
  product_id: number;
  variation_id: number;
  quantity: number;
  name: string;
  image: string;
  unit_cents: number;
  stock_status: string;
  stock_quantity: number | null;
}

export interface Coupon {
  code: string;
  discount_type: 'percent' | 'fixed_cart';
  amount: number;
  expires_at: string | null;
  usage_limit: number | null;
  usage_count: number;
}

export interface PricedCart {
  lines: Array<CartLine & { subtotal_cents: number; total_cents: number }>;
  subtotal: number;
  discount: number;
  total: number;
  /** Discount per coupon code as the client wrote it. */
  discounts: Record<string, number>;
  /** Message per coupon code that could not be applied. */
  couponErrors: Record<string, string>;
  /** Coupons that were applied (database rows). */
  applied: Coupon[];
}

/** The cart item key: stable for a customer's product line, different between customers. */
export function itemKey(userId: number, productId: number, variationId: number): string {
  return createHash('md5').update(`${userId}_${productId}_${variationId}`).digest('hex');
}

export function cartLines(db: Database.Database, userId: number): CartLine[] {
  return db
    .prepare(
      `SELECT c.item_key, c.product_id, c.variation_id, c.quantity, p.name, p.image, p.stock_status, p.stock_quantity,
              COALESCE(p.sale_cents, p.regular_cents) AS unit_cents
       FROM shop_cart_items c JOIN shop_products p ON p.id = c.product_id
       WHERE c.user_id = ? ORDER BY c.added_at, c.rowid`,
    )
    .all(userId) as CartLine[];
}

/** The message of a refused `coupons` value (the validation error keyed `coupons`). */
export const COUPONS_MALFORMED = 'coupons must be a coupon code or a list of coupon codes.';

/**
 * Coupon codes from `coupons[]=A&coupons[]=B`, `coupons=A,B`, a JSON array or `coupons[0]=A`;
 * empty ones dropped. The document's coupons is an array of codes, so a value is one code (text
 * or number), null (none), or one list or object of those; anything else (a list in a list, a
 * boolean) gives `malformed`, and the caller refuses the request. No recursion: a value nested
 * thousands deep is refused at its second level.
 */
export function couponCodes(source: Record<string, unknown>): { codes: string[]; malformed: boolean } {
  const codes: string[] = [];
  let malformed = false;
  const code = (v: unknown): boolean => {
    if (v === null || v === undefined) return true;
    if (typeof v !== 'string' && typeof v !== 'number') return false;
    for (const c of String(v).split(',')) if (c.trim()) codes.push(c.trim());
    return true;
  };
  for (const [name, value] of Object.entries(source)) {
    if (!/^coupons(\[\d*\])?$/.test(name)) continue;
    if (value !== null && typeof value === 'object') {
      for (const item of Array.isArray(value) ? value : Object.values(value)) if (!code(item)) malformed = true;
    } else if (!code(value)) malformed = true;
  }
  const seen = new Set<string>();
  // The same code twice counts once (case-insensitive, like WooCommerce coupon codes).
  const unique = codes.filter((c) => !seen.has(c.toLowerCase()) && seen.add(c.toLowerCase())).slice(0, 20);
  return { codes: malformed ? [] : unique, malformed };
}

/** Why a coupon cannot be used now, or null when it can. */
export function couponProblem(coupon: Coupon | undefined, code: string): string | null {
  if (!coupon) return `Coupon "${code}" does not exist.`;
  if (coupon.expires_at !== null && coupon.expires_at <= now()) return `Coupon "${code}" has expired.`;
  if (coupon.usage_limit !== null && coupon.usage_count >= coupon.usage_limit)
    return `Coupon "${code}" usage limit has been reached.`;
  return null;
}

export function priceCart(db: Database.Database, lines: CartLine[], codes: string[]): PricedCart {
  const findCoupon = db.prepare('SELECT * FROM shop_coupons WHERE code = ?');
  const priced = lines.map((l) => ({ ...l, subtotal_cents: l.unit_cents * l.quantity, total_cents: l.unit_cents * l.quantity }));
  const subtotal = priced.reduce((s, l) => s + l.subtotal_cents, 0);
  const discounts: Record<string, number> = {};
  const couponErrors: Record<string, string> = {};
  const applied: Coupon[] = [];
  let discount = 0;
  for (const code of codes) {
    const coupon = findCoupon.get(code) as Coupon | undefined;
    const problem = couponProblem(coupon, code);
    if (problem || !coupon) {
      couponErrors[code] = problem ?? 'Coupon is not valid.';
      continue;
    }
    const wanted = coupon.discount_type === 'percent' ? Math.round((subtotal * coupon.amount) / 100) : coupon.amount;
    const d = Math.min(wanted, subtotal - discount);
    discounts[code] = d;
    applied.push(coupon);
    discount += d;
    spread(priced, d);
  }
  return { lines: priced, subtotal, discount, total: subtotal - discount, discounts, couponErrors, applied };
}

/** Takes `amount` cents off the lines in proportion to what is left of each, the remainder cent by cent. */
function spread(lines: Array<{ total_cents: number }>, amount: number): void {
  const base = lines.reduce((s, l) => s + l.total_cents, 0);
  if (amount <= 0 || base <= 0) return;
  let left = amount;
  for (const l of lines) {
    const share = Math.floor((amount * l.total_cents) / base);
    l.total_cents -= share;
    left -= share;
  }
  for (const l of lines) {
    if (left === 0) break;
    const take = Math.min(left, l.total_cents);
    l.total_cents -= take;
    left -= take;
  }
}
