import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { cartSummary } from '../../graphql/totals.js';
import { isNumeric, looseEquals, numberFormat, phpFloat } from '../emulation.js';
import { type Fault, isObject } from '../model.js';
import { bearerCustomer, CART_FIELDS, clean, has, result, variables } from './shared.js';

const cents = (v: unknown) => (typeof v === 'number' ? Math.round(v * 100) : 0);

/** Per database: the subtotal (cents) of each customer's cart when its last addProductToCart answered. */
const cachedSubtotals = new WeakMap<object, Map<number, number>>();

function subtotalCache(ctx: AppContext): Map<number, number> {
  let m = cachedSubtotals.get(ctx.db);
  if (!m) {
    m = new Map();
    cachedSubtotals.set(ctx.db, m);
  }
  return m;
}

/** Requests -> their bearer customer, seen by `before` for `after` (the token is checked once). */
const requestCustomer = new WeakMap<object, number>();

/** addProductToCart and addCoupon requests -> their bearer customer (GQL-COUPON-FIXED-PER-LINE). */
const perLineCustomer = new WeakMap<object, number>();

/** Per database: the coupon kept in the one session all customers share (GQL-COUPON-SHARED-SESSION); null: none. */
const sharedCoupon = new WeakMap<object, number | null>();

/** addCoupon and emptyCart requests -> their bearer customer, for `after` to update the shared session. */
const sessionCustomer = new WeakMap<object, number>();

/**
 * Rewrites an answered cart summary or Coupon result to a coupon_discount of `discountCents` (negative): total follows
 * (subtotal + coupon_discount + tax), and so do the coupon and Total rows of totals.
 */
function withDiscount(r: Record<string, unknown>, discountCents: number): void {
  const total = (cents(r.subtotal) + discountCents + cents(r.tax)) / 100;
  if ('coupon_discount' in r) r.coupon_discount = discountCents / 100;
  if ('total' in r) r.total = total;
  if (Array.isArray(r.totals))
    for (const t of r.totals)
      if (isObject(t) && typeof t.title === 'string' && t.title.startsWith('Coupon')) t.value = discountCents / 100;
      else if (isObject(t) && t.title === 'Total') t.value = total;
}

/** Per database: customer -> how many times in a row the coupon on their cart was applied (GQL-COUPON-REAPPLIED-STACKS). */
const couponRows = new WeakMap<object, Map<number, number>>();

function couponRowsOf(ctx: AppContext): Map<number, number> {
  let m = couponRows.get(ctx.db);
  if (!m) {
    m = new Map();
    couponRows.set(ctx.db, m);
  }
  return m;
}

/** addCoupon, emptyCart and addProductToCart requests -> their customer and the coupon on the cart before the handler. */
const stackRequests = new WeakMap<object, { me: number; before: number | null }>();

const appliedCoupon = (ctx: AppContext, me: number): number | null =>
  (ctx.db.prepare('SELECT coupon_id FROM gql_cart_coupon WHERE customer_id = ?').get(me) as { coupon_id: number } | undefined)
    ?.coupon_id ?? null;

export const couponPrefix: Fault = {
  id: 'GQL-COUPON-PREFIX',
  iface: 'graphql',
  // The code is looked up with LIKE 'code%' (the admin list's filter reused): a code that no coupon
  // has, but that begins one, applies that coupon.
  before(req, ctx) {
    const v = variables(req);
    if (!has(req, 'addCoupon') || !v || typeof v.code !== 'string') return;
    const code = v.code.trim();
    // Past the handler's own length check (at most 20 characters), as the vendor's lookup would be.
    if (!code || code.length > 20 || ctx.db.prepare('SELECT 1 FROM gql_coupon WHERE code = ?').get(code)) return;
    const hit = ctx.db.prepare("SELECT code FROM gql_coupon WHERE code LIKE ? || '%' ORDER BY coupon_id LIMIT 1").get(code) as
      | { code: string }
      | undefined;
    if (hit) v.code = hit.code;
  },
};

export const couponStaleSubtotal: Fault = {
  id: 'GQL-COUPON-STALE-SUBTOTAL',
  iface: 'graphql',
  // addCoupon answers from the cart totals the last addProductToCart stored in the session (the
  // vendor's cache of getTotals), which updateCartProduct and deleteCartProduct do not refresh: after
  // a quantity change or a removed line, the Coupon result's subtotal, discount and total are the
  // old cart's. emptyCart clears the session, so an emptied cart answers right.
  async before(req, ctx) {
    if (!has(req, 'addProductToCart') && !has(req, 'addCoupon') && !has(req, 'emptyCart')) return;
    const me = await bearerCustomer(req, ctx);
    if (me !== undefined) requestCustomer.set(req.raw, me);
  },
  after(res, req, ctx) {
    const me = requestCustomer.get(req.raw);
    if (me === undefined || !clean(res)) return;
    const cache = subtotalCache(ctx);
    if (has(req, 'emptyCart')) cache.delete(me);
    if (has(req, 'addProductToCart') && result(res, 'addProductToCart')) {
      const items = cartSummary(ctx.db, me).items as Record<string, unknown>[];
      cache.set(
        me,
        items.reduce((sum, l) => sum + cents(l.total), 0),
      );
    }
    const r = result(res, 'addCoupon');
    const stale = cache.get(me);
    if (!r || !has(req, 'addCoupon') || stale === undefined) return;
    const coupon = ctx.db
      .prepare(
        'SELECT k.type, k.discount FROM gql_cart_coupon cc JOIN gql_coupon k ON k.coupon_id = cc.coupon_id WHERE cc.customer_id = ?',
      )
      .get(me) as { type: string; discount: number } | undefined;
    const off = !coupon
      ? 0
      : coupon.type === 'F'
        ? Math.min(Math.round(coupon.discount * 100), stale)
        : Math.round((stale * coupon.discount) / 100);
    const discount = cents(r.coupon_discount) === 0 ? 0 : -off;
    const total = (stale + discount + cents(r.tax)) / 100;
    if ('subtotal' in r) r.subtotal = stale / 100;
    if ('coupon_discount' in r) r.coupon_discount = discount / 100;
    if ('total' in r) r.total = total;
    if (Array.isArray(r.totals))
      for (const t of r.totals)
        if (isObject(t) && t.title === 'Sub-Total') t.value = stale / 100;
        else if (isObject(t) && t.title === 'Total') t.value = total;
        else if (isObject(t) && typeof t.title === 'string' && t.title.startsWith('Coupon')) t.value = discount / 100;
  },
};

export const couponThousandsSeparator: Fault = {
  id: 'GQL-COUPON-THOUSANDS-SEPARATOR',
  iface: 'graphql',
  // addCoupon's resolver rounds each amount with the PHP idiom (float)number_format($value, 2), whose default
  // thousands separator makes 1234.5 the string "1,234.50", which the cast reads as 1: the Coupon result of a cart
  // of 1,000 or more answers subtotal (and total, a totals value) as its thousands. The cart summary is right.
  after(res) {
    const r = result(res, 'addCoupon');
    if (!r) return;
    const rounded = (v: unknown) => (typeof v === 'number' ? phpFloat(numberFormat(v)) : v);
    for (const k of ['tax', 'total', 'subtotal', 'coupon_discount']) if (k in r) r[k] = rounded(r[k]);
    if (Array.isArray(r.totals)) for (const t of r.totals) if (isObject(t) && 'value' in t) t.value = rounded(t.value);
  },
};

export const couponFixedPerLine: Fault = {
  id: 'GQL-COUPON-FIXED-PER-LINE',
  iface: 'graphql',
  // The vendor's coupon total copies the platform's loop over the cart's products, which spreads a fixed-amount
  // coupon over them ($discount = $coupon['discount'] * ($product['total'] / $sub_total)), but drops the share: each
  // line takes the coupon's whole amount off. A cart of one line is right; a cart of two lines takes 20.00 off for a
  // coupon of 10.00 (at most the subtotal), in the cart summary and in addCoupon's result alike, which stay
  // consistent (total = subtotal + coupon_discount + tax). Percentage coupons add up per line as they should.
  async before(req, ctx) {
    if (!has(req, 'addProductToCart') && !has(req, 'addCoupon')) return;
    const me = await bearerCustomer(req, ctx);
    if (me !== undefined) perLineCustomer.set(req.raw, me);
  },
  after(res, req, ctx) {
    const me = perLineCustomer.get(req.raw);
    if (me === undefined || !clean(res)) return;
    const coupon = ctx.db
      .prepare(
        'SELECT k.type, k.discount FROM gql_cart_coupon cc JOIN gql_coupon k ON k.coupon_id = cc.coupon_id WHERE cc.customer_id = ?',
      )
      .get(me) as { type: string; discount: number } | undefined;
    if (coupon?.type !== 'F') return;
    const items = cartSummary(ctx.db, me).items as Record<string, unknown>[];
    if (items.length < 2) return;
    const subtotal = items.reduce((sum, l) => sum + cents(l.total), 0);
    for (const field of CART_FIELDS) {
      const r = result(res, field);
      // Only where the coupon applies (a discount is answered): an unusable coupon gives nothing, per line or not.
      if (r && typeof r.coupon_discount === 'number' && r.coupon_discount < 0)
        withDiscount(r, -Math.min(Math.round(coupon.discount * 100) * items.length, subtotal));
    }
  },
};

export const couponSharedSession: Fault = {
  id: 'GQL-COUPON-SHARED-SESSION',
  iface: 'graphql',
  // API clients send no session cookie, so the extension starts the platform's session under one fixed id
  // (session->start('svc_graphql')) to keep the applied coupon between requests. The cart's lines are rows of the
  // customer (cart.customer_id), but the coupon is session->data['coupon']: one for every customer. A coupon one
  // customer applies is on every customer's cart summary and Coupon result (where the cart qualifies for it), and one
  // customer's emptyCart, which unsets it, takes it off everyone's cart.
  async before(req, ctx) {
    const reads = has(req, 'addProductToCart') || has(req, 'addCoupon');
    if (!reads && !has(req, 'emptyCart')) return;
    const me = await bearerCustomer(req, ctx);
    if (me === undefined) return;
    sessionCustomer.set(req.raw, me);
    if (!reads) return;
    // The customer's cart reads the session's coupon, whoever applied it.
    const shared = sharedCoupon.get(ctx.db) ?? null;
    if (shared === null) ctx.db.prepare('DELETE FROM gql_cart_coupon WHERE customer_id = ?').run(me);
    else
      ctx.db
        .prepare(
          'INSERT INTO gql_cart_coupon (customer_id, coupon_id) VALUES (?, ?) ON CONFLICT (customer_id) DO UPDATE SET coupon_id = excluded.coupon_id',
        )
        .run(me, shared);
  },
  after(res, req, ctx) {
    const me = sessionCustomer.get(req.raw);
    if (me === undefined || !clean(res)) return;
    if (has(req, 'emptyCart')) sharedCoupon.set(ctx.db, null);
    else if (has(req, 'addCoupon') && result(res, 'addCoupon')) {
      const row = ctx.db.prepare('SELECT coupon_id FROM gql_cart_coupon WHERE customer_id = ?').get(me) as
        | { coupon_id: number }
        | undefined;
      if (row) sharedCoupon.set(ctx.db, row.coupon_id);
    }
  },
};

export const couponReappliedStacks: Fault = {
  id: 'GQL-COUPON-REAPPLIED-STACKS',
  iface: 'graphql',
  // The vendor keeps the cart's coupon in a table of its own (svc_cart_coupon: an auto-increment key, customer_id,
  // code), which its coupon total reads row by row. addCoupon deletes the customer's rows of other codes, so that a
  // new code replaces the old one, and inserts a row: applying the code already on the cart again adds a second row,
  // and the coupon is taken off once per row (a 10.00 coupon applied twice takes 20.00 off, at most the subtotal; a
  // 10 % coupon 20 %), in addCoupon's result and every cart summary after it alike (total still subtotal +
  // coupon_discount + tax). emptyCart deletes the rows. A coupon applied once is right.
  async before(req, ctx) {
    if (!has(req, 'addCoupon') && !has(req, 'addProductToCart') && !has(req, 'emptyCart')) return;
    const me = await bearerCustomer(req, ctx);
    if (me !== undefined) stackRequests.set(req.raw, { me, before: appliedCoupon(ctx, me) });
  },
  after(res, req, ctx) {
    const seen = stackRequests.get(req.raw);
    if (!seen || !clean(res)) return;
    const rows = couponRowsOf(ctx);
    if (has(req, 'emptyCart')) {
      rows.delete(seen.me);
      return;
    }
    if (has(req, 'addCoupon') && result(res, 'addCoupon')) {
      const now = appliedCoupon(ctx, seen.me);
      rows.set(seen.me, now !== null && now === seen.before ? (rows.get(seen.me) ?? 1) + 1 : 1);
    }
    const n = rows.get(seen.me) ?? 1;
    if (n < 2) return;
    const coupon = ctx.db
      .prepare(
        'SELECT k.type, k.discount FROM gql_cart_coupon cc JOIN gql_coupon k ON k.coupon_id = cc.coupon_id WHERE cc.customer_id = ?',
      )
      .get(seen.me) as { type: string; discount: number } | undefined;
    if (!coupon) return;
    for (const field of CART_FIELDS) {
      const r = result(res, field);
      // Only where the coupon applies (a discount is answered): a coupon that gives nothing gives nothing twice.
      if (!r || typeof r.coupon_discount !== 'number' || r.coupon_discount >= 0) continue;
      const subtotal = cents(r.subtotal);
      const once = coupon.type === 'F' ? Math.round(coupon.discount * 100) : Math.round((subtotal * coupon.discount) / 100);
      withDiscount(r, -Math.min(once * n, subtotal));
    }
  },
};

export const couponCodeLooseMatch: Fault = {
  id: 'GQL-COUPON-CODE-LOOSE-MATCH',
  iface: 'graphql',
  // addCoupon checks the code against the store's coupon codes, which the vendor caches as one array, with
  // array_search($code, $codes) before the platform's getCoupon() reads the coupon found: array_search() compares
  // with == unless told to be strict, and PHP 8's == takes two numeric strings as numbers. A code no coupon has that
  // reads as the same number as a coupon's numeric code ("02222", "2222.0", "+2222" for 2222) applies that coupon,
  // answered with its code. Codes that are not numeric, and numeric ones of another value, are refused as before.
  before(req, ctx) {
    const v = variables(req);
    if (!has(req, 'addCoupon') || !v || typeof v.code !== 'string') return;
    const code = v.code.trim();
    if (!isNumeric(code) || ctx.db.prepare('SELECT 1 FROM gql_coupon WHERE code = ?').get(code) !== undefined) return;
    const codes = ctx.db.prepare('SELECT code FROM gql_coupon ORDER BY coupon_id').all() as { code: string }[];
    const hit = codes.find((c) => looseEquals(c.code, code));
    if (hit) v.code = hit.code;
  },
};

export const couponSortOrderString: Fault = {
  id: 'GQL-COUPON-SORT-ORDER-STRING',
  iface: 'graphql',
  // The Coupon result's totals take sort_order from $this->config->get('total_<code>_sort_order'): the
  // platform's settings are stored as text, and the resolver passes the value on uncast ("1", "4", "9").
  after(res, req) {
    if (!has(req, 'addCoupon') || !clean(res)) return;
    const totals = result(res, 'addCoupon')?.totals;
    if (!Array.isArray(totals)) return;
    for (const t of totals) if (isObject(t) && typeof t.sort_order === 'number') t.sort_order = String(t.sort_order);
  },
};

export const couponCodeLike: Fault = {
  id: 'GQL-COUPON-CODE-LIKE',
  iface: 'graphql',
  // The code is looked up with `WHERE code LIKE '<escaped code>'` (LIKE to match whatever the case): the
  // escaping quotes the string but leaves % and _ as they are, so a code holding one matches as a pattern.
  before(req, ctx) {
    const v = variables(req);
    if (!has(req, 'addCoupon') || !v || typeof v.code !== 'string') return;
    const code = v.code.trim();
    // Past the handler's own length check (at most 20 characters), as the vendor's lookup would be.
    if (!code || code.length > 20 || !/[%_]/.test(code)) return;
    if (ctx.db.prepare('SELECT 1 FROM gql_coupon WHERE code = ?').get(code)) return;
    const hit = ctx.db.prepare('SELECT code FROM gql_coupon WHERE code LIKE ? ORDER BY coupon_id LIMIT 1').get(code) as
      | { code: string }
      | undefined;
    if (hit) v.code = hit.code;
  },
};

/** Per database: customer -> (login session -> the coupon that session holds) (GQL-COUPON-PER-LOGIN-SESSION). */
const loginSessionCoupons = new WeakMap<object, Map<number, Map<string, number>>>();

function loginSessionsOf(ctx: AppContext, me: number): Map<string, number> {
  let byCustomer = loginSessionCoupons.get(ctx.db);
  if (!byCustomer) {
    byCustomer = new Map();
    loginSessionCoupons.set(ctx.db, byCustomer);
  }
  let m = byCustomer.get(me);
  if (!m) {
    m = new Map();
    byCustomer.set(me, m);
  }
  return m;
}

/** Requests carrying a bearer token -> its customer and login session (the token's sid claim). */
const sessionOfRequest = new WeakMap<object, { me: number; sid: string }>();

export const couponPerLoginSession: Fault = {
  id: 'GQL-COUPON-PER-LOGIN-SESSION',
  iface: 'graphql',
  // The extension maps each login to a platform session (the token carries its id): the cart's lines are rows of
  // the cart table, kept by customer_id, so they follow the customer into every login, but the applied coupon is
  // $this->session->data['coupon'], kept in the session of the login that applied it. A second login of the
  // customer (another device, or the app logging in again) sees the cart's lines without their coupon, and its
  // next summary has no coupon_code and no discount. Each login's token names its own session.
  async before(req, ctx) {
    const header = req.raw.headers.authorization;
    const token = typeof header === 'string' ? /^\s*Bearer\s+(\S+)/i.exec(header)?.[1] : undefined;
    const payload = token ? await ctx.tokens.verify(token, 'graphql') : null;
    const me = payload ? Number(payload.sub) : Number.NaN;
    if (!payload || !Number.isInteger(me) || me <= 0 || typeof payload.sid !== 'string') return;
    sessionOfRequest.set(req.raw, { me, sid: payload.sid });
    // The cart is read with this session's coupon: what another login applied is not in it.
    const coupon = loginSessionsOf(ctx, me).get(payload.sid);
    if (coupon === undefined) ctx.db.prepare('DELETE FROM gql_cart_coupon WHERE customer_id = ?').run(me);
    else
      ctx.db
        .prepare(
          'INSERT INTO gql_cart_coupon (customer_id, coupon_id) VALUES (?, ?) ON CONFLICT (customer_id) DO UPDATE SET coupon_id = excluded.coupon_id',
        )
        .run(me, coupon);
  },
  async after(res, req, ctx) {
    const key = `${ctx.vendor}_token`;
    const issued = result(res, 'login');
    if (issued && typeof issued[key] === 'string') {
      const payload = await ctx.tokens.verify(issued[key], 'graphql');
      if (payload) issued[key] = await ctx.tokens.sign(payload.sub, 'graphql', { email: payload.email, sid: randomUUID() });
      return;
    }
    const seen = sessionOfRequest.get(req.raw);
    if (!seen) return;
    // What the request left on the cart (a coupon applied, or removed by emptyCart) is this session's.
    const row = ctx.db.prepare('SELECT coupon_id FROM gql_cart_coupon WHERE customer_id = ?').get(seen.me) as
      | { coupon_id: number }
      | undefined;
    const sessions = loginSessionsOf(ctx, seen.me);
    if (row) sessions.set(seen.sid, row.coupon_id);
    else sessions.delete(seen.sid);
  },
};

/** addCoupon requests sent on an empty cart (GQL-COUPON-EMPTY-CART-DIVISION). */
const onEmptyCart = new WeakSet<object>();

export const couponEmptyCartDivision: Fault = {
  id: 'GQL-COUPON-EMPTY-CART-DIVISION',
  iface: 'graphql',
  // addCoupon's result titles the coupon's line with its share of the cart, sprintf('Coupon (%s, %d%%)', $code,
  // abs($discount) / $sub_total * 100). On an empty cart $sub_total is 0, and PHP 8 throws DivisionByZeroError
  // (0 / 0 too): the shop's display_errors prints the fatal error as HTML with status 500, after the coupon was put
  // in the session. A cart holding anything answers as before.
  async before(req, ctx) {
    if (!has(req, 'addCoupon')) return;
    const me = await bearerCustomer(req, ctx);
    if (me === undefined) return;
    const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM gql_cart WHERE customer_id = ?').get(me) as { n: number };
    if (n === 0) onEmptyCart.add(req.raw);
  },
  after(res, req) {
    if (!onEmptyCart.has(req.raw) || !clean(res) || !result(res, 'addCoupon')) return;
    res.status = 500;
    res.body =
      '<br />\n<b>Fatal error</b>:  Uncaught DivisionByZeroError: Division by zero in /var/www/html/catalog/model/extension/svc_graphql/coupon.php:58\nStack trace:\n#0 /var/www/html/catalog/controller/extension/svc_graphql/svc_graphql.php(301): ModelExtensionSvcGraphqlCoupon->getCouponResult()\n#1 {main}\n  thrown in <b>/var/www/html/catalog/model/extension/svc_graphql/coupon.php</b> on line <b>58</b><br />\n';
  },
};

/** addProductToCart and addCoupon requests -> their bearer customer (GQL-COUPON-SKIPS-FIRST-LINE). */
const skipFirstCustomer = new WeakMap<object, number>();

export const couponSkipsFirstLine: Fault = {
  id: 'GQL-COUPON-SKIPS-FIRST-LINE',
  iface: 'graphql',
  // The vendor's coupon total walks the cart's products with an index loop that starts at 1
  // (for ($i = 1; $i < count($products); $i++)), spreading the coupon over the lines as the platform
  // does (a fixed coupon: discount x line total / subtotal; a percentage: its share of each line):
  // the first line never gets its share. A cart of one line gets no discount at all, a cart of two
  // lines only the second line's share; the answer stays consistent (total = subtotal + coupon_discount + tax).
  async before(req, ctx) {
    if (!has(req, 'addProductToCart') && !has(req, 'addCoupon')) return;
    const me = await bearerCustomer(req, ctx);
    if (me !== undefined) skipFirstCustomer.set(req.raw, me);
  },
  after(res, req, ctx) {
    const me = skipFirstCustomer.get(req.raw);
    if (me === undefined || !clean(res)) return;
    const fresh = cartSummary(ctx.db, me);
    const items = fresh.items as Record<string, unknown>[];
    const discount = -cents(fresh.coupon_discount);
    const subtotal = cents(fresh.subtotal);
    if (discount <= 0 || items.length === 0 || subtotal <= 0) return;
    const kept = Math.round((discount * (subtotal - cents(items[0]?.total))) / subtotal);
    const total = (subtotal - kept + cents(fresh.tax)) / 100;
    for (const field of CART_FIELDS) {
      const r = result(res, field);
      if (!r) continue;
      if ('coupon_discount' in r) r.coupon_discount = -kept / 100 || 0;
      if ('total' in r) r.total = total;
      if (Array.isArray(r.totals))
        for (const t of r.totals)
          if (isObject(t) && typeof t.title === 'string' && t.title.startsWith('Coupon')) t.value = -kept / 100 || 0;
          else if (isObject(t) && t.title === 'Total') t.value = total;
    }
  },
};

/** addCoupon requests -> the coupon row widened for them and its own values, put back after (GQL-COUPON-VALIDITY-UNCHECKED). */
type CouponLimits = { coupon_id: number; date_start: string; date_end: string; times_used: number; total_cents: number };
const widenedCoupons = new WeakMap<object, CouponLimits>();

export const couponValidityUnchecked: Fault = {
  id: 'GQL-COUPON-VALIDITY-UNCHECKED',
  iface: 'graphql',
  // addCoupon finds the code with the admin model's getCouponByCode(), which reads the coupon by code and status only,
  // and answers from it; the platform's getCoupon(), which also judges the dates, the uses and the cart's minimum
  // total, is not called. An expired, used-up or minimum-total coupon is answered applied, with its discount. The
  // coupon total of later cart summaries is the platform's and leaves it out. Enabled coupons only: a disabled one
  // is still refused. The row is widened for the one request, and its values put back after it.
  before(req, ctx) {
    const code = variables(req)?.code;
    if (!has(req, 'addCoupon') || typeof code !== 'string') return;
    const row = ctx.db
      .prepare('SELECT coupon_id, date_start, date_end, times_used, total_cents FROM gql_coupon WHERE code = ? AND status = 1')
      .get(code.trim()) as CouponLimits | undefined;
    if (!row) return;
    widenedCoupons.set(req.raw, row);
    ctx.db
      .prepare(
        "UPDATE gql_coupon SET date_start = '2000-01-01', date_end = '2999-12-31', times_used = 0, total_cents = 0 WHERE coupon_id = ?",
      )
      .run(row.coupon_id);
  },
  after(_res, req, ctx) {
    const row = widenedCoupons.get(req.raw);
    if (!row) return;
    ctx.db
      .prepare('UPDATE gql_coupon SET date_start = ?, date_end = ?, times_used = ?, total_cents = ? WHERE coupon_id = ?')
      .run(row.date_start, row.date_end, row.times_used, row.total_cents, row.coupon_id);
  },
};
