import { cartSummary } from '../../graphql/totals.js';
import { type Fault, isObject, mapKey } from '../model.js';
import { bearerCustomer, CART_FIELDS, cartIdOf, clean, has, result, variables } from './shared.js';

/** Per database: customers whose session a deleteCartProduct marked changed (GQL-SUMMARY-SQL-SUM-AFTER-DELETE). */
const sqlSumCustomers = new WeakMap<object, Set<number>>();

/** addProductToCart requests -> the customer whose summary is answered. */
const summaryCustomer = new WeakMap<object, number>();

export const discountPositive: Fault = {
  id: 'GQL-DISCOUNT-POSITIVE',
  iface: 'graphql',
  after(res) {
    mapKey(res.body, 'coupon_discount', (v) => (typeof v === 'number' ? Math.abs(v) : v));
  },
};

export const subtotalOff: Fault = {
  id: 'GQL-SUBTOTAL-OFF',
  iface: 'graphql',
  // Subtotal read from a stale total that already includes a handling fee.
  after(res) {
    for (const f of CART_FIELDS) {
      const r = result(res, f);
      if (r && typeof r.subtotal === 'number') r.subtotal += 2.5;
    }
  },
};

export const updateDropsCoupon: Fault = {
  id: 'GQL-UPDATE-DROPS-COUPON',
  iface: 'graphql',
  // Like the platform's cart/edit, which unsets shipping, payment and reward from the session when
  // a quantity changes, the vendor's updateCartProduct unsets the applied coupon too.
  after(res, req, ctx) {
    const cartId = cartIdOf(variables(req)?.cart_id);
    const data = isObject(res.body) ? res.body.data : undefined;
    if (!has(req, 'updateCartProduct') || cartId === undefined || !isObject(data) || data.updateCartProduct !== true) return;
    ctx.db
      .prepare('DELETE FROM gql_cart_coupon WHERE customer_id = (SELECT customer_id FROM gql_cart WHERE cart_id = ?)')
      .run(cartId);
  },
};

export const subtotalFirstLine: Fault = {
  id: 'GQL-SUBTOTAL-FIRST-LINE',
  iface: 'graphql',
  // The cart summary's subtotal is the first line's total ($products[0]['total'] where a sum was
  // meant), and total follows from it (subtotal + coupon_discount + tax); the lines themselves and
  // addCoupon's result are right. A one-line cart shows nothing.
  async before(req, ctx) {
    if (!has(req, 'addProductToCart')) return;
    const me = await bearerCustomer(req, ctx);
    if (me !== undefined) summaryCustomer.set(req.raw, me);
  },
  after(res, req, ctx) {
    const me = summaryCustomer.get(req.raw);
    const r = result(res, 'addProductToCart');
    if (me === undefined || !r || !clean(res)) return;
    const items = cartSummary(ctx.db, me).items as Record<string, unknown>[];
    const first = items[0]?.total;
    if (items.length < 2 || typeof first !== 'number') return;
    const cents = (v: unknown) => (typeof v === 'number' ? Math.round(v * 100) : 0);
    const total = (Math.round(first * 100) + cents(r.coupon_discount) + cents(r.tax)) / 100;
    if ('subtotal' in r) r.subtotal = first;
    if ('total' in r) r.total = total;
    if (Array.isArray(r.totals))
      for (const t of r.totals)
        if (isObject(t) && t.title === 'Sub-Total') t.value = first;
        else if (isObject(t) && t.title === 'Total') t.value = total;
  },
};

export const summaryDiscountDecimalString: Fault = {
  id: 'GQL-SUMMARY-DISCOUNT-DECIMAL-STRING',
  iface: 'graphql',
  // addProductToCart's summary reads coupon_discount from the row the coupon total keeps in the cart's totals
  // table (DECIMAL(15,4)), which mysqlnd answers as a string, and the vendor's Money scalar serialises values as
  // it gets them: once a coupon applies the summary says "-1.5000" where the document says numbers. Without a
  // coupon the resolver writes 0, and addCoupon's result is computed, so both stay numbers.
  after(res) {
    const r = result(res, 'addProductToCart');
    if (r && typeof r.coupon_discount === 'number' && r.coupon_discount !== 0) r.coupon_discount = r.coupon_discount.toFixed(4);
  },
};

export const summarySqlSumAfterDelete: Fault = {
  id: 'GQL-SUMMARY-SQL-SUM-AFTER-DELETE',
  iface: 'graphql',
  // deleteCartProduct marks the session's cart as changed outside the add path, and while the mark stands the add
  // resolver recomputes the summary with SELECT SUM(total) over the cart rows (DECIMAL(15,4)), which mysqlnd
  // answers as strings, instead of its PHP loop: after a delete, subtotal and total read "25.0000" where the
  // document says numbers, until emptyCart clears the session. The values are right; adds before any delete, and
  // addCoupon's result, are numbers.
  async after(res, req, ctx) {
    const field = ['deleteCartProduct', 'emptyCart', 'addProductToCart'].find((f) => has(req, f));
    if (!field || !clean(res)) return;
    const me = await bearerCustomer(req, ctx);
    if (me === undefined) return;
    const marked = sqlSumCustomers.get(ctx.db) ?? new Set<number>();
    sqlSumCustomers.set(ctx.db, marked);
    const data = isObject(res.body) ? res.body.data : undefined;
    if (field === 'deleteCartProduct' && isObject(data) && data.deleteCartProduct === true) marked.add(me);
    else if (field === 'emptyCart') marked.delete(me);
    const r = field === 'addProductToCart' && marked.has(me) ? result(res, field) : undefined;
    for (const key of ['subtotal', 'total']) if (r && typeof r[key] === 'number') r[key] = (r[key] as number).toFixed(4);
  },
};

export const lineOptionsDropped: Fault = {
  id: 'GQL-LINE-OPTIONS-DROPPED',
  iface: 'graphql',
  // The resolver reads a line's options from the cart table, where the platform keeps them as a JSON string, with
  // json_decode($row['option']) and no `true`: an object comes back, and the array_map over it that builds the
  // entries sees no array and gives []. Every cart line answers option [], whatever was chosen; the options are
  // stored, and priced, as before.
  after(res, req) {
    if (!has(req, 'addProductToCart')) return;
    const items = result(res, 'addProductToCart')?.items;
    if (!Array.isArray(items)) return;
    for (const line of items) if (isObject(line) && Array.isArray(line.option)) line.option = [];
  },
};
