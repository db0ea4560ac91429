import type Database from 'better-sqlite3';
import { money, stmt } from './context.js';

/**
 * Cart totals. Rules (the document gives none): a line's unit price is the product price plus
 * the chosen option values' prices; subtotal is the sum of the lines; a coupon takes a fixed
 * amount (at most the subtotal) or a percentage of the subtotal; there are no tax classes, so
 * tax is 0; total = subtotal + coupon_discount + tax. coupon_discount is negative when it applies.
 */

interface CartRow {
  cart_id: number;
  product_id: number;
  options: string;
  quantity: number;
  name: string;
  model: string;
  price_cents: number;
  stock: number;
  minimum: number;
  subtract: number;
  shipping: number;
  image: string;
  weight: number;
  weight_class_id: number;
  length: number;
  width: number;
  height: number;
  length_class_id: number;
  tax_class_id: number;
  reward: number;
  points: number;
}

interface CouponRow {
  coupon_id: number;
  code: string;
  type: 'F' | 'P';
  discount: number;
  total_cents: number;
  date_start: string;
  date_end: string;
  uses_total: number;
  times_used: number;
  status: number;
}

const today = (): string => new Date().toISOString().slice(0, 10);

/** Line totals are whole cents, so rounding each back to cents is exact. */
const sumCents = (items: Array<Record<string, unknown>>): number =>
  items.reduce((sum, l) => sum + Math.round((l.total as number) * 100), 0);

function subtotalCents(db: Database.Database, customerId: number): number {
  return sumCents(lines(db, customerId));
}

/** Enabled, within its dates, not used up, and the cart reaches its minimum total. */
export function couponIsUsable(db: Database.Database, couponId: number, customerId: number): boolean {
  const c = stmt(db, 'SELECT * FROM gql_coupon WHERE coupon_id = ?').get(couponId) as CouponRow | undefined;
  if (!c?.status) return false;
  const day = today();
  if (day < c.date_start || day > c.date_end) return false;
  if (c.uses_total > 0 && c.times_used >= c.uses_total) return false;
  return subtotalCents(db, customerId) >= c.total_cents;
}

function lines(db: Database.Database, customerId: number): Array<Record<string, unknown>> {
  const rows = stmt(
    db,
    `SELECT c.cart_id, c.product_id, c.options, c.quantity, p.name, p.model, p.price_cents, p.quantity AS stock, p.minimum,
       p.subtract, p.shipping, p.image, p.weight, p.weight_class_id, p.length, p.width, p.height, p.length_class_id,
       p.tax_class_id, p.reward, p.points
     FROM gql_cart c JOIN gql_product p ON p.product_id = c.product_id WHERE c.customer_id = ? ORDER BY c.cart_id`,
  ).all(customerId) as CartRow[];
  // Stock is judged per product over all its lines, as the platform does.
  const perProduct = new Map<number, number>();
  for (const r of rows) perProduct.set(r.product_id, (perProduct.get(r.product_id) ?? 0) + r.quantity);
  return rows.map((r) => {
    let unitCents = r.price_cents;
    let unitWeight = r.weight;
    const option: Array<{ option_id: number; name: string; value: string }> = [];
    for (const [optionId, value] of JSON.parse(r.options) as Array<[number, string | number]>) {
      const o = stmt(db, 'SELECT name, type FROM gql_product_option WHERE option_id = ?').get(optionId) as {
        name: string;
        type: string;
      };
      if (o.type === 'select') {
        const v = stmt(db, 'SELECT name, price_cents, weight FROM gql_product_option_value WHERE option_value_id = ?').get(
          value,
        ) as { name: string; price_cents: number; weight: number };
        unitCents += v.price_cents;
        unitWeight += v.weight;
        option.push({ option_id: optionId, name: o.name, value: v.name });
      } else option.push({ option_id: optionId, name: o.name, value: String(value) });
    }
    const download = stmt(db, 'SELECT download_id, name FROM gql_product_download WHERE product_id = ? ORDER BY download_id').all(
      r.product_id,
    );
    return {
      cart_id: r.cart_id,
      product_id: r.product_id,
      name: r.name,
      model: r.model,
      shipping: r.shipping === 1,
      image: r.image,
      option,
      download,
      quantity: r.quantity,
      minimum: r.minimum,
      subtract: r.subtract === 1,
      stock: r.stock >= (perProduct.get(r.product_id) ?? 0),
      price: money(unitCents),
      total: money(unitCents * r.quantity),
      reward: r.reward * r.quantity,
      points: r.points * r.quantity,
      tax_class_id: r.tax_class_id,
      weight: Math.round(unitWeight * r.quantity * 1000) / 1000,
      weight_class_id: r.weight_class_id,
      length: r.length,
      width: r.width,
      height: r.height,
      length_class_id: r.length_class_id,
    };
  });
}

interface Totals {
  items: Array<Record<string, unknown>>;
  subtotalCents: number;
  discountCents: number;
  code: string;
}

function compute(db: Database.Database, customerId: number): Totals {
  const items = lines(db, customerId);
  const subtotal = sumCents(items);
  let discount = 0;
  let code = '';
  const applied = stmt(
    db,
    'SELECT k.* FROM gql_cart_coupon cc JOIN gql_coupon k ON k.coupon_id = cc.coupon_id WHERE cc.customer_id = ?',
  ).get(customerId) as CouponRow | undefined;
  // A coupon that stopped qualifying (expired, cart below its minimum) is kept but gives nothing.
  if (applied && couponIsUsable(db, applied.coupon_id, customerId)) {
    code = applied.code;
    discount =
      applied.type === 'F'
        ? Math.min(Math.round(applied.discount * 100), subtotal)
        : Math.round((subtotal * applied.discount) / 100);
  }
  return { items, subtotalCents: subtotal, discountCents: discount, code };
}

function totalsList(t: Totals): Array<{ title: string; value: number; sort_order: number }> {
  const list = [{ title: 'Sub-Total', value: money(t.subtotalCents), sort_order: 1 }];
  if (t.code) list.push({ title: `Coupon (${t.code})`, value: money(-t.discountCents), sort_order: 4 });
  list.push({ title: 'Total', value: money(t.subtotalCents - t.discountCents), sort_order: 9 });
  return list;
}

/** The result of addProductToCart. */
export function cartSummary(db: Database.Database, customerId: number): Record<string, unknown> {
  const t = compute(db, customerId);
  const weight = t.items.reduce((sum, l) => sum + (l.weight as number), 0);
  return {
    weight: Math.round(weight * 1000) / 1000,
    tax: 0,
    total: money(t.subtotalCents - t.discountCents),
    subtotal: money(t.subtotalCents),
    coupon_discount: money(-t.discountCents),
    coupon_code: t.code,
    has_stock: t.items.every((l) => l.stock === true),
    has_shipping: t.items.some((l) => l.shipping === true),
    has_download: t.items.some((l) => (l.download as unknown[]).length > 0),
    totals: totalsList(t),
    items: t.items,
  };
}

/** The result of addCoupon. */
export function couponResult(db: Database.Database, customerId: number): Record<string, unknown> {
  const t = compute(db, customerId);
  return {
    tax: 0,
    total: money(t.subtotalCents - t.discountCents),
    subtotal: money(t.subtotalCents),
    coupon_discount: money(-t.discountCents),
    coupon_code: t.code,
    totals: totalsList(t),
  };
}
