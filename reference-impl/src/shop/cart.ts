import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { bodyOf, int } from '../http/body.js';
import { authed, currencySymbol, type Envelope, fail, money, now, ok, params } from './common.js';
import { COUPONS_MALFORMED, cartLines, couponCodes, itemKey, type PricedCart, priceCart } from './pricing.js';

/** Largest quantity of one line: keeps totals far from overflow; the document gives no limit. */
const MAX_QUANTITY = 9999;
const UNREADABLE = { body: 'Send the fields as JSON, multipart or url-encoded form data.' };

function count(ctx: AppContext, userId: number): number {
  const row = ctx.db.prepare('SELECT COALESCE(SUM(quantity), 0) AS n FROM shop_cart_items WHERE user_id = ?').get(userId) as {
    n: number;
  };
  return row.n;
}

/**
 * The shape shared by add-item, remove-item and update-quantities: coupon_status, coupon_errors
 * (an array here, per the add-item row) and data.cart_item_count (the sum of the quantities).
 * Coupons are not stored with the cart (the document passes them per request), so these endpoints
 * report on the coupons of their own request, if any.
 */
function mutationBody(ctx: AppContext, userId: number, codes: string[]) {
  const priced = priceCart(ctx.db, cartLines(ctx.db, userId), codes);
  return {
    coupon_status: codes.length > 0 && Object.keys(priced.couponErrors).length === 0,
    coupon_errors: Object.values(priced.couponErrors),
    data: { cart_item_count: count(ctx, userId) },
  };
}

/** The mutation shape priced with the query's coupons only: remove-item (no body), or a body that could not be read. */
function queryCouponsShape(ctx: AppContext, request: FastifyRequest, userId: number) {
  return mutationBody(ctx, userId, couponCodes(params(request, {})).codes);
}

function cartItem(line: PricedCart['lines'][number]) {
  return {
    key: line.item_key,
    product_id: String(line.product_id),
    variation_id: line.variation_id,
    variation: [],
    quantity: String(line.quantity),
    data_hash: createHash('md5').update(`${line.product_id}:${line.variation_id}:[]`).digest('hex'),
    line_tax_data: { subtotal: [], total: [] },
    line_subtotal: line.subtotal_cents / 100,
    line_subtotal_tax: 0,
    line_total: line.total_cents / 100,
    line_tax: 0,
    product_name: line.name,
    product_price: money(line.unit_cents),
    product_image: line.image,
  };
}

/** cart_totals of Part 2; untyped scalars are strings ("Scalars are strings unless a type is given"). */
export function cartTotals(priced: Pick<PricedCart, 'subtotal' | 'discount' | 'total'>) {
  const zero = money(0);
  return {
    subtotal: money(priced.subtotal),
    subtotal_tax: zero,
    shipping_total: zero,
    shipping_tax: zero,
    shipping_taxes: [],
    discount_total: money(priced.discount),
    discount_tax: zero,
    cart_contents_total: money(priced.total),
    cart_contents_tax: zero,
    cart_contents_taxes: [],
    fee_total: zero,
    fee_tax: zero,
    fee_taxes: [],
    total: money(priced.total),
    total_tax: zero,
  };
}

export function cartRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const product = db.prepare('SELECT id, stock_status, stock_quantity FROM shop_products WHERE id = ?');
  const lineOf = db.prepare('SELECT quantity FROM shop_cart_items WHERE user_id = ? AND item_key = ?');
  const upsert = db.prepare(
    `INSERT INTO shop_cart_items (user_id, item_key, product_id, variation_id, quantity, added_at) VALUES (?, ?, ?, 0, ?, ?)
     ON CONFLICT (user_id, item_key) DO UPDATE SET quantity = excluded.quantity`,
  );
  const setQuantity = db.prepare('UPDATE shop_cart_items SET quantity = ? WHERE user_id = ? AND item_key = ?');
  const remove = db.prepare('DELETE FROM shop_cart_items WHERE user_id = ? AND item_key = ?');
  const lineWithStock = db.prepare(
    `SELECT c.quantity, p.stock_quantity FROM shop_cart_items c JOIN shop_products p ON p.id = c.product_id
     WHERE c.user_id = ? AND c.item_key = ?`,
  );

  app.post(
    '/cart/add-item',
    authed(ctx, (request, user): Envelope => {
      const { body, valid } = bodyOf(request);
      if (!valid) return fail('The request body could not be read.', UNREADABLE, queryCouponsShape(ctx, request, user.id));
      // Read once: a malformed value is refused before any write, the codes price the answer.
      const coupons = couponCodes(params(request, body));
      const productId = int(body.product_id);
      const quantity = int(body.quantity);
      const errors: Record<string, string> = {};
      if (body.product_id === undefined || body.product_id === '') errors.product_id = 'product_id is required.';
      else if (productId === undefined || productId < 1) errors.product_id = 'product_id must be a positive integer.';
      if (body.quantity === undefined || body.quantity === '') errors.quantity = 'quantity is required.';
      else if (quantity === undefined || quantity < 1 || quantity > MAX_QUANTITY)
        errors.quantity = `quantity must be an integer from 1 to ${MAX_QUANTITY}.`;
      if (coupons.malformed) errors.coupons = COUPONS_MALFORMED;
      if (Object.keys(errors).length > 0 || productId === undefined || quantity === undefined)
        return fail('Please correct the highlighted fields.', errors, mutationBody(ctx, user.id, coupons.codes));

      const outcome = db.transaction((): Envelope | null => {
        const p = product.get(productId) as { id: number; stock_status: string; stock_quantity: number | null } | undefined;
        if (!p) return fail('Product does not exist, perhaps it was deleted.', { product_id: 'Product does not exist.' });
        if (p.stock_status !== 'instock') return fail('Product is out of stock.', { product_id: 'Product is out of stock.' });
        const key = itemKey(user.id, p.id, 0);
        const existing = (lineOf.get(user.id, key) as { quantity: number } | undefined)?.quantity ?? 0;
        const wanted = existing + quantity;
        if (wanted > MAX_QUANTITY || (p.stock_quantity !== null && wanted > p.stock_quantity)) {
          const left = Math.min(MAX_QUANTITY, p.stock_quantity ?? MAX_QUANTITY) - existing;
          return fail('Not enough stock.', { quantity: `At most ${Math.max(0, left)} more can be added.` });
        }
        upsert.run(user.id, key, p.id, wanted, now());
        return null;
      })();
      const shape = mutationBody(ctx, user.id, coupons.codes);
      return outcome ? { ...outcome, ...shape } : ok('Product added to cart.', shape);
    }),
  );

  app.get(
    '/cart',
    authed(ctx, (request, user): Envelope => {
      const { codes, malformed } = couponCodes(params(request, {}));
      const priced = priceCart(db, cartLines(db, user.id), codes);
      const data = {
        cart_items: priced.lines.map(cartItem),
        cart_totals: cartTotals(priced),
        coupon_discount_totals: Object.fromEntries(Object.entries(priced.discounts).map(([c, d]) => [c, d / 100])),
        currency: currencySymbol(ctx),
      };
      const coupons = {
        coupon_status: codes.length > 0 && Object.keys(priced.couponErrors).length === 0,
        coupon_errors: priced.couponErrors,
      };
      if (malformed)
        return { ...fail('Please correct the highlighted fields.', { coupons: COUPONS_MALFORMED }), ...coupons, data };
      if (priced.lines.length === 0) return { ...fail('Cart is empty.'), ...coupons, data };
      return { ...ok('Cart details.'), ...coupons, data };
    }),
  );

  // Response "not shown": the add-item shape's data.cart_item_count, with status true even at 0.
  app.get(
    '/cart/count',
    authed(ctx, (_request, user): Envelope => ok('Cart item count.', { data: { cart_item_count: count(ctx, user.id) } })),
  );

  const removeItem = authed(ctx, (request, user): Envelope => {
    const key = ((request.params as { key?: string }).key ?? '').trim();
    const removed = key !== '' && key.length <= 64 && remove.run(user.id, key).changes > 0;
    const shape = queryCouponsShape(ctx, request, user.id);
    if (!removed) return { ...fail('Invalid cart item key.', { cart_item_key: 'Invalid cart item key.' }), ...shape };
    return ok('Item removed from cart.', shape);
  });
  app.post('/cart/remove-item/:key', removeItem);
  // Without a key the path is still this endpoint: the key is then invalid, not the path unknown.
  app.post('/cart/remove-item', removeItem);

  app.post(
    '/cart/update-quantities',
    authed(ctx, (request, user): Envelope => {
      const { body, valid } = bodyOf(request);
      if (!valid) return fail('The request body could not be read.', UNREADABLE, queryCouponsShape(ctx, request, user.id));
      const coupons = couponCodes(params(request, body));
      const cartData = body.cart_data;
      const fieldErrors: Record<string, string> = {};
      if (cartData === null || typeof cartData !== 'object' || Array.isArray(cartData) || Object.keys(cartData).length === 0)
        fieldErrors.cart_data = 'cart_data[<cart_item_key>]=<quantity> is required for each item to update.';
      // Checked before the transaction: a refused request changes nothing.
      if (coupons.malformed) fieldErrors.coupons = COUPONS_MALFORMED;
      if (Object.keys(fieldErrors).length > 0 || cartData === null || typeof cartData !== 'object')
        return fail('Please correct the highlighted fields.', fieldErrors, mutationBody(ctx, user.id, coupons.codes));
      // All or nothing: errors are keyed by cart item key (Part 7), and nothing changes when any is wrong.
      const outcome = db.transaction((): Envelope => {
        const errors: Record<string, string> = {};
        const changes: Array<{ key: string; quantity: number }> = [];
        for (const [key, raw] of Object.entries(cartData).slice(0, 200)) {
          const quantity = int(raw);
          const line = lineWithStock.get(user.id, key) as { quantity: number; stock_quantity: number | null } | undefined;
          if (!line) errors[key] = 'Invalid cart item key.';
          else if (quantity === undefined || quantity < 0 || quantity > MAX_QUANTITY)
            errors[key] = `Quantity must be an integer from 0 to ${MAX_QUANTITY}.`;
          else if (line.stock_quantity !== null && quantity > line.stock_quantity)
            errors[key] = `Only ${line.stock_quantity} in stock.`;
          else changes.push({ key, quantity });
        }
        if (Object.keys(errors).length > 0) return fail('Cart could not be updated.', errors);
        for (const c of changes) {
          // Fault catalog SHOP-QTY-ZERO-KEPT: a vendor that stores quantity 0 instead of removing the line.
          if (c.quantity === 0 && ctx.fault !== 'SHOP-QTY-ZERO-KEPT') remove.run(user.id, c.key);
          else setQuantity.run(c.quantity, user.id, c.key);
        }
        const allRemoved = changes.every((c) => c.quantity === 0);
        return ok(allRemoved ? 'Item removed from cart.' : 'Cart updated.');
      })();
      return { ...outcome, ...mutationBody(ctx, user.id, coupons.codes) };
    }),
  );
}
