import type { AppContext } from '../../context.js';
import { int } from '../../http/body.js';
import { cartTotals } from '../../shop/cart.js';
import { identify, money, params } from '../../shop/common.js';
import { type CartLine, cartLines, couponCodes, priceCart } from '../../shop/pricing.js';
import { AnswerCache, absint, numberFormat } from '../emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject, mapKey } from '../model.js';
import { failed, phpEmpty } from './shared.js';

const isCart = (req: FaultRequest) => req.endpoint === '/cart' && req.method === 'GET';

/** GET /cart answers by request URI, by database, as the add-on's transients hold them, with the customer each was built for (SHOP-CART-CACHED-BY-URI). */
interface CachedCart {
  owner: number;
  status: number;
  body: unknown;
}

/** The transient's lifetime is a few seconds, enough to spare the totals' recalculation on an app's burst of reads. */
const CART_CACHE = new AnswerCache<CachedCart>(5_000);

/** The cart endpoints whose answers the add-on's session list follows (SHOP-CART-ITEMS-UNSET-KEYS). */
const CART_WRITES = /^\/(cart(\/add-item|\/remove-item(\/.*)?|\/update-quantities)?|order\/create)$/;

/** Each account's cart lines as the add-on's session list holds them, by database: keys in the order added, null where unset. */
const SESSION_LINES = new WeakMap<object, Map<number, (string | null)[]>>();

/** The session list brought up to the cart's lines: a line gone is unset (its index stays), a new line appended. */
function sessionLines(ctx: AppContext, userId: number): (string | null)[] {
  const byUser = SESSION_LINES.get(ctx.db) ?? new Map<number, (string | null)[]>();
  SESSION_LINES.set(ctx.db, byUser);
  const keys = cartLines(ctx.db, userId).map((l) => l.item_key);
  // An emptied cart starts a new list (WC()->cart->empty_cart()); otherwise a new line takes the next index, even after
  // the last line was unset (PHP's next free element).
  const list = keys.length === 0 ? [] : (byUser.get(userId) ?? []).map((k) => (k !== null && keys.includes(k) ? k : null));
  for (const k of keys) if (!list.includes(k)) list.push(k);
  byUser.set(userId, list);
  return list;
}

/** SHOP-ADD-ZERO-NEW-LINE: add-items of quantity 0 let through to the new-line branch, by request. */
const ZERO_ADDS = new WeakMap<object, { userId: number; productId: number }>();

export const qtyZeroKept: Fault = {
  id: 'SHOP-QTY-ZERO-KEPT',
  iface: 'rest-v1-shop',
  inHandler: 'reference-impl/src/shop/cart.ts',
};

export const totalOff: Fault = {
  id: 'SHOP-TOTAL-OFF',
  iface: 'rest-v1-shop',
  // A shipping fee added to total but never reported in shipping_total.
  after(res, req) {
    const totals = isObject(res.body) && isObject(res.body.data) ? res.body.data.cart_totals : undefined;
    if (isCart(req) && isObject(totals) && typeof totals.total === 'string') totals.total = (Number(totals.total) + 5).toFixed(2);
  },
};

export const couponNoDiscount: Fault = {
  id: 'SHOP-COUPON-NO-DISCOUNT',
  iface: 'rest-v1-shop',
  // The coupon is "applied" (status, discount map) but the totals are computed before it.
  after(res, req) {
    const totals = isObject(res.body) && isObject(res.body.data) ? res.body.data.cart_totals : undefined;
    if (!isCart(req) || !isObject(totals) || Number(totals.discount_total) === 0) return;
    totals.total = (Number(totals.total) + Number(totals.discount_total)).toFixed(2);
    totals.cart_contents_total = (Number(totals.cart_contents_total) + Number(totals.discount_total)).toFixed(2);
    totals.discount_total = '0.00';
  },
};

export const countString: Fault = {
  id: 'SHOP-COUNT-STRING',
  iface: 'rest-v1-shop',
  after: (res) => mapKey(res.body, 'cart_item_count', (v) => (typeof v === 'number' ? String(v) : v)),
};

export const emptyCartTrue: Fault = {
  id: 'SHOP-EMPTY-CART-TRUE',
  iface: 'rest-v1-shop',
  after(res, req) {
    if (isCart(req) && failed(res.body) && res.status === 200 && /empty/i.test(String(res.body.message))) {
      res.body.status = true;
      res.body.message = 'Cart details.';
    }
  },
};

export const qtyText500: Fault = {
  id: 'SHOP-QTY-TEXT-500',
  iface: 'rest-v1-shop',
  after(res, req) {
    const errors = failed(res.body) ? res.body.errors : undefined;
    if (req.endpoint === '/cart/add-item' && isObject(errors) && 'quantity' in errors) {
      res.status = 500;
      res.body = '<b>Fatal error</b>: Uncaught TypeError: WC_Cart::add_to_cart(): Argument #2 must be of type int';
    }
  },
};

export const couponsFirstOnly: Fault = {
  id: 'SHOP-COUPONS-FIRST-ONLY',
  iface: 'rest-v1-shop',
  // GET /cart reads coupons[] as one code ($coupons[0]): a second code is neither applied nor reported.
  before(req) {
    if (!isCart(req)) return;
    for (const [name, value] of Object.entries(req.query)) {
      if (!/^coupons(\[\d*\])?$/.test(name)) continue;
      if (Array.isArray(value)) req.query[name] = value[0];
      else if (typeof value === 'string') req.query[name] = value.split(',')[0];
    }
  },
};

export const cartTotalsThousands: Fault = {
  id: 'SHOP-CART-TOTALS-THOUSANDS',
  iface: 'rest-v1-shop',
  // cart_totals written through number_format($amount, 2) without its separator arguments: an amount of 1,000 or
  // more reads "1,008.00", which is no decimal a client can add up; smaller carts read as before.
  after(res, req) {
    const totals = isObject(res.body) && isObject(res.body.data) ? res.body.data.cart_totals : undefined;
    if (!isCart(req) || !isObject(totals)) return;
    for (const [k, v] of Object.entries(totals))
      if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) totals[k] = numberFormat(Number(v));
  },
};

export const cartItemsUnsetKeys: Fault = {
  id: 'SHOP-CART-ITEMS-UNSET-KEYS',
  iface: 'rest-v1-shop',
  // The add-on keeps the cart's lines in its own session list (to answer them in the order added), drops a line with
  // unset() and builds cart_items by that list's indexes without array_values(): once a line other than the last has
  // left, json_encode writes cart_items as an object, {"1": {...}} or {"0": {...}, "2": {...}}, not an array.
  async after(res, req, ctx) {
    if (!CART_WRITES.test(req.endpoint)) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const list = sessionLines(ctx, user.id);
    const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;
    if (!isCart(req) || !data || !Array.isArray(data.cart_items)) return;
    const byKey = new Map(data.cart_items.filter(isObject).map((item) => [item.key, item]));
    const kept = list.flatMap((k, i): [string, unknown][] => (k !== null && byKey.has(k) ? [[String(i), byKey.get(k)]] : []));
    // json_encode writes a list only for the keys 0..n-1 in order: a hole before the last kept line makes an object.
    if (kept.some(([i], n) => i !== String(n))) data.cart_items = Object.fromEntries(kept);
  },
};

export const cartCachedByUri: Fault = {
  id: 'SHOP-CART-CACHED-BY-URI',
  iface: 'rest-v1-shop',
  // GET /cart keeps its answer in a transient for a few seconds to spare the totals' recalculation, keyed by the
  // request URI after the token check: the account is not in the key, so an account reading /cart right after
  // another account read the same URI gets the other account's cart (or its empty-cart answer). The transients set
  // while serving a customer are noted in that customer's session, and the cart hook that fires on their writes
  // (add, remove, update, order) deletes them: a customer's own reads after their own writes look fresh.
  async after(res, req, ctx) {
    const write = req.method === 'POST' && CART_WRITES.test(req.endpoint);
    if (!write && !isCart(req)) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    if (write) {
      CART_CACHE.purge(ctx.db, (held) => held.owner === user.id);
      return;
    }
    const held = CART_CACHE.get(ctx.db, req.raw.url);
    if (held) {
      res.status = held.status;
      res.body = held.body;
    } else CART_CACHE.put(ctx.db, req.raw.url, { owner: user.id, status: res.status, body: res.body });
  },
};

export const addZeroNewLine: Fault = {
  id: 'SHOP-ADD-ZERO-NEW-LINE',
  iface: 'rest-v1-shop',
  // add-item checks the quantity in two branches: merging into the product's line it refuses a quantity below 1, but
  // the branch that creates a line carries update-quantities' rule (quantity < 0 refused, since 0 there removes), so
  // quantity 0 of a product not yet in the cart is accepted and a line of quantity 0 is stored and listed. Negative
  // quantities, and 0 for a product already in the cart, are refused as before.
  async before(req, ctx) {
    if (req.endpoint !== '/cart/add-item' || req.method !== 'POST') return;
    const quantity = bodyField(req.raw.body, 'quantity');
    const productId = int(bodyField(req.raw.body, 'product_id').value);
    if (int(quantity.value) !== 0 || productId === undefined) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const exists = ctx.db.prepare("SELECT 1 FROM shop_products WHERE id = ? AND stock_status = 'instock'").get(productId);
    if (!exists || cartLines(ctx.db, user.id).some((l) => l.product_id === productId)) return;
    // The handler inserts a line of 1; after it the line is set to the 0 the request sent.
    quantity.set(typeof quantity.value === 'number' ? 1 : '1');
    ZERO_ADDS.set(req.raw, { userId: user.id, productId });
  },
  after(res, req, ctx) {
    const zero = ZERO_ADDS.get(req.raw);
    if (!zero || !isObject(res.body) || res.body.status !== true) return;
    ctx.db
      .prepare('UPDATE shop_cart_items SET quantity = 0 WHERE user_id = ? AND product_id = ?')
      .run(zero.userId, zero.productId);
    const data = res.body.data;
    if (isObject(data) && typeof data.cart_item_count === 'number') data.cart_item_count -= 1;
  },
};

/**
 * GET /cart's answer priced again with each line's unit price as `unitOf` gives it (undefined: the line's own), when
 * that changes any line: line subtotals and totals, cart_totals and coupon_discount_totals, and with `showUnit` the
 * lines' product_price too. A request whose coupons are malformed, or without a customer, is left as it is.
 */
async function repriceCart(
  res: FaultResponse,
  req: FaultRequest,
  ctx: AppContext,
  showUnit: boolean,
  unitOf: (line: CartLine) => number | undefined,
): Promise<void> {
  if (!isCart(req) || !isObject(res.body) || !isObject(res.body.data) || !Array.isArray(res.body.data.cart_items)) return;
  const user = await identify(req.raw, ctx);
  if ('status' in user) return;
  const { codes, malformed } = couponCodes(params(req.raw, {}));
  if (malformed) return;
  let changed = false;
  const lines = cartLines(ctx.db, user.id).map((l) => {
    const unit = unitOf(l);
    if (unit === undefined || unit === l.unit_cents) return l;
    changed = true;
    return { ...l, unit_cents: unit };
  });
  if (!changed) return;
  const priced = priceCart(ctx.db, lines, codes);
  const data = res.body.data;
  for (const item of data.cart_items as unknown[]) {
    const line = isObject(item) ? priced.lines.find((l) => l.item_key === item.key) : undefined;
    if (!line || !isObject(item)) continue;
    if (showUnit) item.product_price = money(line.unit_cents);
    item.line_subtotal = line.subtotal_cents / 100;
    item.line_total = line.total_cents / 100;
  }
  data.cart_totals = cartTotals(priced);
  data.coupon_discount_totals = Object.fromEntries(Object.entries(priced.discounts).map(([c, d]) => [c, d / 100]));
}

export const cartRegularPrice: Fault = {
  id: 'SHOP-CART-REGULAR-PRICE',
  iface: 'rest-v1-shop',
  // GET /cart builds its lines from the product's regular price ($product->get_regular_price()) instead of its active
  // price (get_price()): a product on sale is listed in the cart at its regular price, product_price, line subtotals
  // and cart_totals alike, while the listing shows the sale price and the order, priced by WooCommerce, charges it.
  // A cart without a product on sale reads as before.
  async after(res, req, ctx) {
    const regular = ctx.db.prepare('SELECT regular_cents FROM shop_products WHERE id = ? AND sale_cents IS NOT NULL');
    await repriceCart(
      res,
      req,
      ctx,
      true,
      (l) => (regular.get(l.product_id) as { regular_cents: number } | undefined)?.regular_cents,
    );
  },
};

export const addQtyEmptyDefaultOne: Fault = {
  id: 'SHOP-ADD-QTY-EMPTY-DEFAULT-ONE',
  iface: 'rest-v1-shop',
  // add-item checks that quantity was sent with isset() (errors keyed quantity when it is missing), then reads it as
  // WooCommerce's own add-to-cart form handler does: `$quantity = empty( $params['quantity'] ) ? 1 :
  // wc_stock_amount( $params['quantity'] )`. PHP's empty() is true for "0" and "", so quantity 0 adds one unit (status
  // true, the line created or grown by 1) instead of being refused. A missing quantity and negative ones are refused as
  // before.
  before(req) {
    if (req.endpoint !== '/cart/add-item' || req.method !== 'POST') return;
    const field = bodyField(req.raw.body, 'quantity');
    if (field.value !== undefined && phpEmpty(field.value)) field.set('1');
  },
};

export const addProductIdAbsint: Fault = {
  id: 'SHOP-ADD-PRODUCT-ID-ABSINT',
  iface: 'rest-v1-shop',
  // add-item reads `$product_id = absint($request['product_id'])` and validates what is left: "abc" becomes 0 and is
  // refused as before, but a product_id such as "12.5" or "12abc" becomes 12 and adds product 12.
  before(req) {
    if (req.endpoint !== '/cart/add-item' || req.method !== 'POST') return;
    const field = bodyField(req.raw.body, 'product_id');
    const v = field.value;
    if (v === undefined || v === '' || (typeof v === 'string' && /^\d+$/.test(v)) || Number.isInteger(v)) return;
    if (typeof v === 'string' || typeof v === 'number') field.set(String(absint(v)));
  },
};

export const cartCentsTruncated: Fault = {
  id: 'SHOP-CART-CENTS-TRUNCATED',
  iface: 'rest-v1-shop',
  // GET /cart computes its lines in cents, to keep float sums out of the totals, with `$unit = (int) (
  // $product->get_price() * 100 );`: the cast truncates the binary product of a price such as 19.99 (1998.9999…) to
  // 1998, so that line is priced a cent below its price per unit (line_subtotal 19.98, 39.96 for two), and cart_totals
  // with it, while product_price still reads 19.99. Prices whose cents survive the multiplication (18.00, 59.90, 16.50)
  // read as before.
  async after(res, req, ctx) {
    await repriceCart(res, req, ctx, false, (l) => Math.trunc(Number(money(l.unit_cents)) * 100));
  },
};

/**
 * The rows `sql` (one `?`: the code) finds for the codes a GET /cart sends; none for another request or malformed coupons.
 * For the faults that rewrite coupon rows for one read and put them back after it.
 */
function couponRowsOfRead<R>(req: FaultRequest, ctx: AppContext, sql: string): R[] {
  if (!isCart(req)) return [];
  const { codes, malformed } = couponCodes(params(req.raw, {}));
  if (malformed) return [];
  const find = ctx.db.prepare(sql);
  return codes.map((c) => find.get(c) as R | undefined).filter((r): r is R => r !== undefined);
}

/** GET /cart requests -> the coupons widened for them and their own expiry and usage count, put back after. */
const widenedCoupons = new WeakMap<object, Array<{ code: string; expires_at: string | null; usage_count: number }>>();

export const couponValidityUnchecked: Fault = {
  id: 'SHOP-COUPON-VALIDITY-UNCHECKED',
  iface: 'rest-v1-shop',
  // GET /cart applies each code with wc_get_coupon_id_by_code() and `$cart->applied_coupons[] = $code`, copied from an
  // admin screen, where apply_coupon() would have run WC_Discounts::is_coupon_valid(): a coupon that exists is applied
  // whatever its expiry date or usage count, and discounts the cart with no coupon_errors entry. Unknown codes are
  // still reported. The rows are widened for the one request, and their values put back after it.
  before(req, ctx) {
    const rows = couponRowsOfRead<{ code: string; expires_at: string | null; usage_count: number }>(
      req,
      ctx,
      `SELECT code, expires_at, usage_count FROM shop_coupons WHERE code = ?
         AND (expires_at IS NOT NULL OR (usage_limit IS NOT NULL AND usage_count >= usage_limit))`,
    );
    if (rows.length === 0) return;
    widenedCoupons.set(req.raw, rows);
    const widen = ctx.db.prepare('UPDATE shop_coupons SET expires_at = NULL, usage_count = 0 WHERE code = ?');
    for (const r of rows) widen.run(r.code);
  },
  after(_res, req, ctx) {
    const rows = widenedCoupons.get(req.raw);
    if (!rows) return;
    const restore = ctx.db.prepare('UPDATE shop_coupons SET expires_at = ?, usage_count = ? WHERE code = ?');
    for (const r of rows) restore.run(r.expires_at, r.usage_count, r.code);
  },
};

/** GET /cart requests -> the percent coupons read as fixed amounts for them, put back after (SHOP-COUPON-PERCENT-AS-FIXED). */
const percentAsFixed = new WeakMap<object, Array<{ code: string; amount: number }>>();

export const couponPercentAsFixed: Fault = {
  id: 'SHOP-COUPON-PERCENT-AS-FIXED',
  iface: 'rest-v1-shop',
  // The add-on computes each coupon's discount for GET /cart itself from $coupon->get_amount(), and never looks at
  // get_discount_type(): a 10 % coupon takes 10.00 off, capped at the subtotal; order/create, priced by WooCommerce,
  // takes the 10 %. Fixed-amount coupons read as before.
  // The rows are read as fixed for the one request, and put back after it.
  before(req, ctx) {
    const rows = couponRowsOfRead<{ code: string; amount: number }>(
      req,
      ctx,
      "SELECT code, amount FROM shop_coupons WHERE code = ? AND discount_type = 'percent'",
    );
    if (rows.length === 0) return;
    percentAsFixed.set(req.raw, rows);
    // Fixed amounts are kept in cents: 10 (percent) read as 10.00.
    const asFixed = ctx.db.prepare("UPDATE shop_coupons SET discount_type = 'fixed_cart', amount = ? WHERE code = ?");
    for (const r of rows) asFixed.run(r.amount * 100, r.code);
  },
  after(_res, req, ctx) {
    const rows = percentAsFixed.get(req.raw);
    if (!rows) return;
    const restore = ctx.db.prepare("UPDATE shop_coupons SET discount_type = 'percent', amount = ? WHERE code = ?");
    for (const r of rows) restore.run(r.amount, r.code);
  },
};
