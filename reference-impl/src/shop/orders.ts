import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { bodyOf, int, str } from '../http/body.js';
import { cartTotals } from './cart.js';
import { authed, currencyCode, currencySymbol, type Envelope, fail, money, now, ok, text } from './common.js';
import { COUPONS_MALFORMED, cartLines, couponCodes, priceCart } from './pricing.js';

const EMAIL = /^[^\s@"<>()[\],;:]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
/** Order status after a successful create: cash on delivery and a taken card both wait for fulfilment. */
const NEW_ORDER_STATUS = 'processing';

export interface OrderRow {
  id: number;
  status: string;
  currency: string;
  payment_method: string;
  payment_title: string;
  billing: string;
  subtotal_cents: number;
  discount_cents: number;
  shipping_cents: number;
  total_cents: number;
  date_created: string;
  date_modified: string;
}

/** PHP's DateTime as JSON ({date, timezone_type, timezone}), the form of the order sample. */
function phpDate(value: string) {
  return { date: value, timezone_type: 3, timezone: 'UTC' };
}

export function orderSummary(ctx: AppContext, o: OrderRow) {
  const items = ctx.db
    .prepare('SELECT item_name, quantity FROM shop_order_items WHERE order_id = ? ORDER BY id')
    .all(o.id) as Array<{
    item_name: string;
    quantity: number;
  }>;
  const billing = JSON.parse(o.billing) as { country: string };
  return {
    order_id: o.id,
    order_status: o.status,
    currency: o.currency,
    payment_method: o.payment_method,
    payment_title: o.payment_title,
    date_created: phpDate(o.date_created),
    date_modified: phpDate(o.date_modified),
    billing_country: billing.country,
    total: money(o.total_cents),
    // quantity has no type in the document, so it is a string like every untyped scalar.
    items: items.map((i) => ({ item_name: i.item_name, quantity: String(i.quantity) })),
  };
}

/** Optional start/limit paging (Part 1: list endpoints accept them); invalid values are validation failures. */
export function paging(
  query: Record<string, unknown>,
): { ok: true; start: number; limit: number } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const start = query.start === undefined || query.start === '' ? 0 : int(query.start);
  const limit = query.limit === undefined || query.limit === '' ? -1 : int(query.limit);
  if (start === undefined || start < 0) errors.start = 'start must be a non-negative integer.';
  if (limit === undefined || (limit < 1 && limit !== -1)) errors.limit = 'limit must be a positive integer.';
  if (start === undefined || limit === undefined || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, start, limit };
}

export function orderRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const method = db.prepare('SELECT id, title, requires_card_token FROM shop_payment_methods WHERE id = ?');
  const insertOrder = db.prepare(
    `INSERT INTO shop_orders (user_id, status, currency, payment_method, payment_title, billing, subtotal_cents, discount_cents,
       shipping_cents, total_cents, date_created, date_modified) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
  );
  const insertItem = db.prepare(
    'INSERT INTO shop_order_items (order_id, product_id, item_name, quantity, subtotal_cents, total_cents) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertCoupon = db.prepare('INSERT INTO shop_order_coupons (order_id, code, discount_cents) VALUES (?, ?, ?)');
  const useCoupon = db.prepare(
    'UPDATE shop_coupons SET usage_count = usage_count + 1 WHERE code = ? AND (usage_limit IS NULL OR usage_count < usage_limit)',
  );
  const takeStock = db.prepare(
    `UPDATE shop_products SET stock_quantity = stock_quantity - ?,
       stock_status = CASE WHEN stock_quantity - ? <= 0 THEN 'outofstock' ELSE stock_status END
     WHERE id = ? AND stock_quantity IS NOT NULL`,
  );
  const clearCart = db.prepare('DELETE FROM shop_cart_items WHERE user_id = ?');
  const orderById = db.prepare('SELECT * FROM shop_orders WHERE id = ?');

  app.get(
    '/orders',
    authed(ctx, (request, user): Envelope => {
      const page = paging((request.query ?? {}) as Record<string, unknown>);
      const currency = currencySymbol(ctx);
      if (!page.ok) return fail('Please correct the highlighted fields.', page.errors, { data: { orders: [], currency } });
      const rows = db
        .prepare('SELECT * FROM shop_orders WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?')
        .all(user.id, page.limit, page.start) as OrderRow[];
      const orders = rows.map((o) => orderSummary(ctx, o));
      return ok(orders.length > 0 ? 'Orders found.' : 'No orders found.', { data: { orders, currency } });
    }),
  );

  app.post(
    '/order/create',
    authed(ctx, (request, user): Envelope => {
      const { body, valid } = bodyOf(request);
      if (!valid)
        return fail('The request body could not be read.', {
          body: 'Send the fields as JSON, multipart or url-encoded form data.',
        });
      const errors: Record<string, string> = {};
      const billing: Record<string, string> = {};
      for (const field of ['first_name', 'last_name', 'country', 'city', 'state', 'address_1', 'payment_method_title']) {
        const value = text(body[field]);
        if (value === undefined) errors[field] = `${field} is required (at most 200 characters).`;
        else billing[field] = value;
      }
      for (const field of ['address_2', 'company']) {
        const value = str(body[field]);
        if (body[field] !== undefined && (value === undefined || value.length > 200))
          errors[field] = `${field} must be text of at most 200 characters.`;
        else billing[field] = value ?? '';
      }
      const postcode = str(body.postcode);
      if (!postcode || !/^\d{1,10}$/.test(postcode)) errors.postcode = 'postcode is required and must be an integer.';
      else billing.postcode = postcode;
      const phone = str(body.phone);
      if (!phone || !/^\d{10}$/.test(phone)) errors.phone = 'phone is required and must be 10 digits.';
      else billing.phone = phone;
      const email = str(body.email);
      if (!email || email.length > 100 || !EMAIL.test(email)) errors.email = 'email is required and must be a valid address.';
      else billing.email = email;
      const methodId = str(body.payment_method) ?? '';
      const payment = method.get(methodId) as { id: string; title: string; requires_card_token: number } | undefined;
      if (!payment) errors.payment_method = methodId === '' ? 'payment_method is required.' : 'Unknown payment method.';
      else if (payment.requires_card_token === 1 && text(body[`${payment.id}_card_token`], 500) === undefined)
        errors[`${payment.id}_card_token`] = `${payment.id}_card_token is required for this payment method.`;
      const { codes, malformed } = couponCodes(body);
      if (malformed) errors.coupons = COUPONS_MALFORMED;
      if (Object.keys(errors).length > 0 || !payment) return fail('Please correct the highlighted fields.', errors);

      // One transaction: cart, stock and coupon limits are read and written with no other request in between.
      return db.transaction((): Envelope => {
        const lines = cartLines(db, user.id);
        if (lines.length === 0) return fail('Cart is empty.');
        const stockErrors: Record<string, string> = {};
        for (const l of lines) {
          if (l.stock_status !== 'instock') stockErrors[l.item_key] = `${l.name} is out of stock.`;
          else if (l.stock_quantity !== null && l.quantity > l.stock_quantity)
            stockErrors[l.item_key] = `Only ${l.stock_quantity} of ${l.name} in stock.`;
        }
        if (Object.keys(stockErrors).length > 0) return fail('Some products are not available.', stockErrors);
        const priced = priceCart(db, lines, codes);
        const couponErrors = Object.values(priced.couponErrors);
        if (couponErrors.length > 0) return fail('Coupon could not be applied.', { coupons: couponErrors.join(' ') });
        const at = now();
        const orderId = Number(
          insertOrder.run(
            user.id,
            NEW_ORDER_STATUS,
            currencyCode(ctx),
            payment.id,
            billing.payment_method_title ?? payment.title,
            JSON.stringify(billing),
            priced.subtotal,
            priced.discount,
            priced.total,
            at,
            at,
          ).lastInsertRowid,
        );
        for (const l of priced.lines) {
          insertItem.run(orderId, l.product_id, l.name, l.quantity, l.subtotal_cents, l.total_cents);
          takeStock.run(l.quantity, l.quantity, l.product_id);
        }
        for (const coupon of priced.applied) {
          if (useCoupon.run(coupon.code).changes !== 1) throw new Error(`coupon ${coupon.code} limit raced`); // cannot happen: one transaction
          const sentAs = Object.keys(priced.discounts).find((c) => c.toLowerCase() === coupon.code.toLowerCase()) ?? coupon.code;
          insertCoupon.run(orderId, coupon.code, priced.discounts[sentAs] ?? 0);
        }
        clearCart.run(user.id);
        const summary = orderSummary(ctx, orderById.get(orderId) as OrderRow);
        return ok('Order created.', {
          data: { ...summary, totals: cartTotals(priced), coupon_discount_totals: discountsOf(priced.discounts) },
        });
      })();
    }),
  );
}

function discountsOf(discounts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(discounts).map(([c, d]) => [c, d / 100]));
}
