import type { AppContext } from '../../context.js';
import { bodyOf, str } from '../../http/body.js';
import { currencyCode, identify, money, now } from '../../shop/common.js';
import { type OrderRow, orderSummary, paging } from '../../shop/orders.js';
import { cartLines } from '../../shop/pricing.js';
import { AnswerCache, isNumeric } from '../emulation.js';
import { bodyField, eachObject, type Fault, isObject, mapKey } from '../model.js';
import { failed, refusedFor } from './shared.js';

/** The billing fields of order create that the order stores (B. Shop variant), besides the payment method. */
const BILLING = ['first_name', 'last_name', 'country', 'city', 'state', 'postcode', 'phone', 'email', 'address_1'] as const;

/** GET /orders answers by customer and request URI, as the add-on's transients hold them (SHOP-ORDERS-LIST-STALE). */
const ORDERS_CACHE = new AnswerCache<{ status: number; body: unknown }>(10_000);

/** Order create bodies whose phone passed as numeric and 10 bytes long: the phone as sent. */
const NUMERIC_PHONES = new WeakMap<object, string>();

export const orderDateString: Fault = {
  id: 'SHOP-ORDER-DATE-STRING',
  iface: 'rest-v1-shop',
  after(res, req) {
    if (req.endpoint !== '/orders') return;
    for (const k of ['date_created', 'date_modified'])
      mapKey(res.body, k, (v) => (isObject(v) && typeof v.date === 'string' ? v.date.slice(0, 19) : v));
  },
};

export const orderQtyOne: Fault = {
  id: 'SHOP-ORDER-QTY-ONE',
  iface: 'rest-v1-shop',
  // Order lines added without their quantity (WC_Order::add_product defaults to 1); the total still comes from the cart.
  after(res, req) {
    if (req.endpoint !== '/orders' && req.endpoint !== '/order/create') return;
    eachObject(isObject(res.body) ? res.body.data : undefined, (o) => {
      if (!Array.isArray(o.items)) return;
      for (const item of o.items)
        if (isObject(item) && 'quantity' in item) item.quantity = typeof item.quantity === 'number' ? 1 : '1';
    });
  },
};

export const ordersStartPaged: Fault = {
  id: 'SHOP-ORDERS-START-PAGED',
  iface: 'rest-v1-shop',
  // start and limit mapped to a page number (paged = floor(start / limit) + 1): a start that is not a
  // multiple of limit is rounded down to one.
  before(req) {
    if (req.endpoint !== '/orders') return;
    const start = Number(req.query.start);
    const limit = Number(req.query.limit);
    if (Number.isInteger(start) && Number.isInteger(limit) && start > 0 && limit > 0)
      req.query.start = String(Math.floor(start / limit) * limit);
  },
};

export const orderTotalNoQty: Fault = {
  id: 'SHOP-ORDER-TOTAL-NO-QTY',
  iface: 'rest-v1-shop',
  // The order total summed from the product prices, each line counted once whatever its quantity, less the
  // discount: right for carts of quantity 1 only.
  after(res, req, ctx) {
    if (req.endpoint !== '/orders' && req.endpoint !== '/order/create') return;
    const unitSum = ctx.db.prepare(
      `SELECT COALESCE(SUM(i.subtotal_cents / i.quantity), 0) AS units, o.discount_cents, o.shipping_cents
       FROM shop_orders o LEFT JOIN shop_order_items i ON i.order_id = o.id WHERE o.id = ? GROUP BY o.id`,
    );
    eachObject(isObject(res.body) ? res.body.data : undefined, (o) => {
      if (typeof o.order_id !== 'number' || typeof o.total !== 'string') return;
      const row = unitSum.get(o.order_id) as { units: number; discount_cents: number; shipping_cents: number } | undefined;
      if (row) o.total = money(Math.max(0, row.units - row.discount_cents) + row.shipping_cents);
    });
  },
};

export const refusedOrderKept: Fault = {
  id: 'SHOP-REFUSED-ORDER-KEPT',
  iface: 'rest-v1-shop',
  // The order is created from the cart (wc_create_order, pending) before the billing fields are validated: a
  // create refused for a missing or invalid billing field leaves a pending order, listed by GET /orders; the cart
  // stays for the retry.
  async after(res, req, ctx) {
    if (req.endpoint !== '/order/create' || !refusedFor(res.body, BILLING)) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const { body } = bodyOf(req.raw);
    const method = ctx.db
      .prepare('SELECT id, title FROM shop_payment_methods WHERE id = ?')
      .get(str(body.payment_method) ?? '') as { id: string; title: string } | undefined;
    const lines = cartLines(ctx.db, user.id);
    if (!method || lines.length === 0) return;
    const billing = Object.fromEntries(BILLING.map((f) => [f, str(body[f]) ?? '']));
    const cents = lines.reduce((n, l) => n + l.unit_cents * l.quantity, 0);
    const at = now();
    const orderId = ctx.db
      .prepare(
        `INSERT INTO shop_orders (user_id, status, currency, payment_method, payment_title, billing, subtotal_cents, discount_cents,
           shipping_cents, total_cents, date_created, date_modified) VALUES (?, 'pending', ?, ?, ?, ?, ?, 0, 0, ?, ?, ?)`,
      )
      .run(
        user.id,
        currencyCode(ctx),
        method.id,
        str(body.payment_method_title) || method.title,
        JSON.stringify(billing),
        cents,
        cents,
        at,
        at,
      ).lastInsertRowid;
    const item = ctx.db.prepare(
      'INSERT INTO shop_order_items (order_id, product_id, item_name, quantity, subtotal_cents, total_cents) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const l of lines)
      item.run(orderId, l.product_id, l.name, l.quantity, l.unit_cents * l.quantity, l.unit_cents * l.quantity);
  },
};

export const orderItemsLastLine: Fault = {
  id: 'SHOP-ORDER-ITEMS-LAST-LINE',
  iface: 'rest-v1-shop',
  // The summary's items is assigned inside the loop over the order's lines ($items = [[...]] instead of
  // $items[] = [...]): an order of several lines lists its last line only.
  after(res, req) {
    if (req.endpoint !== '/orders' && req.endpoint !== '/order/create') return;
    eachObject(isObject(res.body) ? res.body.data : undefined, (o) => {
      if ('order_id' in o && Array.isArray(o.items) && o.items.length > 1) o.items = o.items.slice(-1);
    });
  },
};

export const orderPhoneIsNumeric: Fault = {
  id: 'SHOP-ORDER-PHONE-IS-NUMERIC',
  iface: 'rest-v1-shop',
  // order/create checks "10 digits" as is_numeric($phone) && strlen($phone) == 10: a sign, a decimal point, an
  // exponent or a blank before or after counts among the ten, so "12345678.9" (nine digits) passes and is filed.
  before(req) {
    if (req.endpoint !== '/order/create' || req.method !== 'POST') return;
    const field = bodyField(req.raw.body, 'phone');
    const v = field.value;
    if (typeof v !== 'string' || /^\d{10}$/.test(v) || Buffer.byteLength(v) !== 10 || !isNumeric(v)) return;
    // The reference's handler would refuse it: it gets a stand-in of ten digits, the order the phone sent.
    field.set('0000000000');
    NUMERIC_PHONES.set(req.raw, v);
  },
  async after(res, req, ctx) {
    const phone = NUMERIC_PHONES.get(req.raw);
    if (phone === undefined || !isObject(res.body) || res.body.status !== true) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    ctx.db
      .prepare(
        "UPDATE shop_orders SET billing = json_set(billing, '$.phone', ?) WHERE id = (SELECT MAX(id) FROM shop_orders WHERE user_id = ?)",
      )
      .run(phone, user.id);
  },
};

export const ordersCountryFromCustomer: Fault = {
  id: 'SHOP-ORDERS-COUNTRY-FROM-CUSTOMER',
  iface: 'rest-v1-shop',
  // The order summary reads billing_country from the customer ($customer->get_billing_country()), not from the order:
  // checkout saves the billing address to the customer, so every order of the account is listed with the country of
  // its latest order. An account whose orders all share one country reads as before.
  async after(res, req, ctx) {
    if ((req.endpoint !== '/orders' && req.endpoint !== '/order/create') || !isObject(res.body)) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const latest = ctx.db.prepare('SELECT billing FROM shop_orders WHERE user_id = ? ORDER BY id DESC LIMIT 1').get(user.id) as
      | { billing: string }
      | undefined;
    const country = latest ? (JSON.parse(latest.billing) as { country?: unknown }).country : undefined;
    if (typeof country !== 'string') return;
    eachObject(res.body.data, (o) => {
      if ('order_id' in o && typeof o.billing_country === 'string') o.billing_country = country;
    });
  },
};

export const ordersListStale: Fault = {
  id: 'SHOP-ORDERS-LIST-STALE',
  iface: 'rest-v1-shop',
  // GET /orders keeps its answer in a transient of ten seconds per customer and URI to spare wc_get_orders() on an
  // app's burst of reads; the purge is hooked to woocommerce_new_order, which the add-on's own create path (it
  // inserts the order itself) never fires: an order placed within ten seconds of a list read is missing from the
  // account's next read. A list first read after the order reads as before.
  async after(res, req, ctx) {
    if (req.endpoint !== '/orders' || req.method !== 'GET') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const key = `${user.id} ${req.raw.url}`;
    const held = ORDERS_CACHE.get(ctx.db, key);
    if (held) {
      res.status = held.status;
      res.body = held.body;
    } else ORDERS_CACHE.put(ctx.db, key, { status: res.status, body: res.body });
  },
};

export const orderLinesMovedByReorder: Fault = {
  id: 'SHOP-ORDER-LINES-MOVED-BY-REORDER',
  iface: 'rest-v1-shop',
  // The add-on keeps the app's order history lines in its own table with the cart item key as primary key, written
  // with $wpdb->replace(); the key is the same for a product in every cart of the account, so an order of a product the
  // account ordered before takes that line over: the earlier order is listed without it (its total unchanged).
  after(res, req, ctx) {
    if ((req.endpoint !== '/orders' && req.endpoint !== '/order/create') || !isObject(res.body)) return;
    const lines = ctx.db.prepare(
      `SELECT EXISTS (SELECT 1 FROM shop_order_items j JOIN shop_orders o2 ON o2.id = j.order_id
                      WHERE j.product_id = i.product_id AND o2.user_id = o.user_id AND j.order_id > i.order_id) AS moved
       FROM shop_order_items i JOIN shop_orders o ON o.id = i.order_id WHERE i.order_id = ? ORDER BY i.id`,
    );
    eachObject(res.body.data, (o) => {
      if (typeof o.order_id !== 'number' || !Array.isArray(o.items)) return;
      const moved = (lines.all(o.order_id) as { moved: number }[]).map((l) => l.moved === 1);
      if (moved.length === o.items.length && moved.some(Boolean)) o.items = o.items.filter((_, i) => !moved[i]);
    });
  },
};

export const orderCouponsQueryOnly: Fault = {
  id: 'SHOP-ORDER-COUPONS-QUERY-ONLY',
  iface: 'rest-v1-shop',
  // order/create reads coupons with $request->get_query_params() (the code was copied from GET /cart, whose coupons[]
  // rides in the query): coupons sent in the body, as the document's order form sends them, are never applied, and
  // the order is placed at the full price with status true.
  before(req) {
    if (req.endpoint !== '/order/create' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    for (const name of Object.keys(body)) if (/^coupons(\[\d*\])?$/.test(name)) delete body[name];
    for (const [name, value] of Object.entries(req.query)) if (/^coupons(\[\d*\])?$/.test(name)) body[name] = value;
  },
};

export const ordersSliceMinusOne: Fault = {
  id: 'SHOP-ORDERS-SLICE-MINUS-ONE',
  iface: 'rest-v1-shop',
  // GET /orders fetches the account's orders (wc_get_orders, limit -1) and pages them with
  // array_slice($orders, $start, $limit), with $limit defaulting to -1, WordPress's "all": array_slice reads a
  // negative length as "stop that many from the end", so a list without limit omits its last (oldest) order, and an
  // account with one order is listed none. A request with limit reads as before.
  after(res, req) {
    if (req.endpoint !== '/orders' || req.method !== 'GET') return;
    if (req.query.limit !== undefined && req.query.limit !== '') return;
    const data = isObject(res.body) && res.body.status === true && isObject(res.body.data) ? res.body.data : undefined;
    if (!data || !Array.isArray(data.orders) || data.orders.length === 0) return;
    const orders = data.orders.slice(0, -1);
    data.orders = orders;
    if (orders.length === 0) res.body = { ...(res.body as Record<string, unknown>), message: 'No orders found.' };
  },
};

export const ordersOffsetNeedsLimit: Fault = {
  id: 'SHOP-ORDERS-OFFSET-NEEDS-LIMIT',
  iface: 'rest-v1-shop',
  // GET /orders hands start and limit to wc_get_orders() as offset and limit, with limit -1 when none is sent; as
  // WP_Query does, the offset is ignored when the limit is -1: start alone lists every order from the first.
  before(req) {
    if (req.endpoint !== '/orders' || req.method !== 'GET') return;
    const limit = req.query.limit;
    if (limit === undefined || limit === '') delete req.query.start;
  },
};

export const orderEmptyCartAccepted: Fault = {
  id: 'SHOP-ORDER-EMPTY-CART-ACCEPTED',
  iface: 'rest-v1-shop',
  // order create builds the order with wc_create_order() and adds the cart's lines in a foreach, with no check that
  // the cart holds any: a valid create on an empty cart saves an order of no items and total 0 and answers success.
  async after(res, req, ctx) {
    if (req.endpoint !== '/order/create' || !failed(res.body) || res.body.message !== 'Cart is empty.') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const { body } = bodyOf(req.raw);
    const method = ctx.db
      .prepare('SELECT id, title FROM shop_payment_methods WHERE id = ?')
      .get(str(body.payment_method) ?? '') as { id: string; title: string } | undefined;
    if (!method) return;
    const billing = Object.fromEntries(BILLING.map((f) => [f, str(body[f]) ?? '']));
    const at = now();
    const orderId = ctx.db
      .prepare(
        `INSERT INTO shop_orders (user_id, status, currency, payment_method, payment_title, billing, subtotal_cents, discount_cents,
           shipping_cents, total_cents, date_created, date_modified) VALUES (?, 'processing', ?, ?, ?, ?, 0, 0, 0, 0, ?, ?)`,
      )
      .run(
        user.id,
        currencyCode(ctx),
        method.id,
        str(body.payment_method_title) || method.title,
        JSON.stringify(billing),
        at,
        at,
      ).lastInsertRowid;
    res.status = 200;
    res.body = { status: true, errors: [], message: 'Order created.', data: { order_id: Number(orderId), total: money(0) } };
  },
};

/**
 * SHOP-ORDER-PERSISTENT-CART-STALE: each account's persistent cart by database (item key -> quantity), as add-item and
 * remove-item save it; update-quantities leaves it as it was.
 */
const PERSISTENT_CARTS = new WeakMap<object, Map<number, Map<string, number>>>();
/** The quantities an order create found in the cart before the persistent ones stood in for them, by request. */
const LIVE_QUANTITIES = new WeakMap<object, { userId: number; quantities: Map<string, number> }>();

function persistentCart(ctx: AppContext, userId: number): Map<string, number> {
  const byUser = PERSISTENT_CARTS.get(ctx.db) ?? new Map<number, Map<string, number>>();
  PERSISTENT_CARTS.set(ctx.db, byUser);
  const cart = byUser.get(userId) ?? new Map<string, number>();
  byUser.set(userId, cart);
  return cart;
}

export const orderPersistentCartStale: Fault = {
  id: 'SHOP-ORDER-PERSISTENT-CART-STALE',
  iface: 'rest-v1-shop',
  // The add-on keeps the cart in its session row, and add-item and remove-item also save it to the customer's
  // persistent cart (user meta) with WC()->cart->persistent_cart_update(); update-quantities sets the quantities in
  // the session only. Order create rebuilds the cart from the persistent cart: a line whose quantity was updated is
  // ordered with the quantity add-item last saved, while GET /cart shows the new one.
  async before(req, ctx) {
    if (req.endpoint !== '/order/create' || req.method !== 'POST') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const saved = persistentCart(ctx, user.id);
    const quantities = new Map<string, number>();
    const set = ctx.db.prepare('UPDATE shop_cart_items SET quantity = ? WHERE user_id = ? AND item_key = ?');
    for (const l of cartLines(ctx.db, user.id)) {
      const q = saved.get(l.item_key);
      if (q === undefined || q === l.quantity) continue;
      quantities.set(l.item_key, l.quantity);
      set.run(q, user.id, l.item_key);
    }
    LIVE_QUANTITIES.set(req.raw, { userId: user.id, quantities });
  },
  async after(res, req, ctx) {
    const cartWrite = req.endpoint === '/cart/add-item' || req.endpoint.startsWith('/cart/remove-item');
    if (req.endpoint === '/order/create') {
      const live = LIVE_QUANTITIES.get(req.raw);
      if (!live) return;
      // A refused create leaves the session's cart as it was.
      if (!isObject(res.body) || res.body.status !== true) {
        const set = ctx.db.prepare('UPDATE shop_cart_items SET quantity = ? WHERE user_id = ? AND item_key = ?');
        for (const [key, q] of live.quantities) set.run(q, live.userId, key);
      } else persistentCart(ctx, live.userId).clear();
      return;
    }
    if (!cartWrite || !isObject(res.body) || res.body.status !== true) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const saved = persistentCart(ctx, user.id);
    saved.clear();
    for (const l of cartLines(ctx.db, user.id)) saved.set(l.item_key, l.quantity);
  },
};

export const orderPhoneDigitsStripped: Fault = {
  id: 'SHOP-ORDER-PHONE-DIGITS-STRIPPED',
  iface: 'rest-v1-shop',
  // order/create counts the phone's digits after taking out what a customer types around them: `$phone =
  // preg_replace( '/\D/', '', $params['phone'] ); if ( strlen( $phone ) !== 10 ) $errors['phone'] = ...`, and files
  // the digits. A phone written with separators, "512-555-0199" or "(512) 555 0199", passes as ten digits; a phone of
  // another number of digits is refused as before.
  before(req) {
    if (req.endpoint !== '/order/create' || req.method !== 'POST') return;
    const field = bodyField(req.raw.body, 'phone');
    const v = field.value;
    if (typeof v !== 'string' || /^\d{10}$/.test(v)) return;
    const digits = v.replace(/\D/g, '');
    if (digits.length === 10) field.set(digits);
  },
};

export const ordersLookaheadDropped: Fault = {
  id: 'SHOP-ORDERS-LOOKAHEAD-DROPPED',
  iface: 'rest-v1-shop',
  // GET /orders asks wc_get_orders() for limit + 1 orders to tell the app whether a next page exists, then
  // `$has_more = count( $orders ) > $limit; array_pop( $orders );` with no `if`: on a page that is not followed by
  // another, where no look-ahead order came back, the pop takes the page's last real order. limit=1 on an account of
  // two orders lists its first; start=<last index>&limit=1 lists none. A request without limit reads as before.
  async after(res, req, ctx) {
    if (req.endpoint !== '/orders' || req.method !== 'GET') return;
    const limit = Number(req.query.limit);
    const start = req.query.start === undefined || req.query.start === '' ? 0 : Number(req.query.start);
    if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(start) || start < 0) return;
    const data = isObject(res.body) && res.body.status === true && isObject(res.body.data) ? res.body.data : undefined;
    if (!data || !Array.isArray(data.orders) || data.orders.length === 0) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM shop_orders WHERE user_id = ?').get(user.id) as { n: number };
    if (n > start + limit) return;
    const orders = (data.orders as unknown[]).slice(0, -1);
    data.orders = orders;
    if (orders.length === 0) res.body = { ...(res.body as Record<string, unknown>), message: 'No orders found.' };
  },
};

export const orderTitleFromGateway: Fault = {
  id: 'SHOP-ORDER-TITLE-FROM-GATEWAY',
  iface: 'rest-v1-shop',
  // order create hands the gateway object to `$order->set_payment_method( $gateways[ $params['payment_method'] ] )`,
  // which, given a WC_Payment_Gateway, stores the gateway's own title (`$gateway->get_title()`, "Cash on delivery") as
  // the order's payment_method_title; the add-on validates payment_method_title as required but never calls
  // set_payment_method_title() with it. Every order is listed with the title the shop's settings give its method,
  // whatever title was sent; an order sent with that very title reads as before.
  after(res, req, ctx) {
    if (req.endpoint !== '/orders' && req.endpoint !== '/order/create') return;
    const title = ctx.db.prepare('SELECT title FROM shop_payment_methods WHERE id = ?');
    eachObject(isObject(res.body) ? res.body.data : undefined, (o) => {
      if (typeof o.order_id !== 'number' || typeof o.payment_method !== 'string' || !('payment_title' in o)) return;
      const row = title.get(o.payment_method) as { title: string } | undefined;
      if (row) o.payment_title = row.title;
    });
  },
};

export const ordersByBillingEmail: Fault = {
  id: 'SHOP-ORDERS-BY-BILLING-EMAIL',
  iface: 'rest-v1-shop',
  // GET /orders asks `wc_get_orders( array( 'billing_email' => $user->user_email, 'limit' => $limit, 'offset' => $start ) )`,
  // the query of the add-on's guest order lookup, instead of `'customer_id' => $user->ID`: the account's orders are
  // the orders billed to its e-mail (MySQL compares it case-insensitively). An order the account placed with another
  // billing e-mail (a gift, a work address) is not listed, and one that another account billed to this e-mail is.
  // Orders billed to the account's own e-mail read as before.
  after(res, req, ctx) {
    if (req.endpoint !== '/orders' || req.method !== 'GET' || !isObject(res.body) || res.body.status !== true) return;
    const data = res.body.data;
    const page = paging(req.query);
    if (!isObject(data) || !page.ok) return;
    return (async () => {
      const user = await identify(req.raw, ctx);
      if ('status' in user) return;
      const email = user.user_email.toLowerCase();
      const rows = (ctx.db.prepare('SELECT * FROM shop_orders ORDER BY id DESC').all() as OrderRow[]).filter(
        (o) => String((JSON.parse(o.billing) as { email?: unknown }).email ?? '').toLowerCase() === email,
      );
      const paged = rows.slice(page.start, page.limit === -1 ? undefined : page.start + page.limit);
      data.orders = paged.map((o) => orderSummary(ctx, o));
      if (paged.length === 0) res.body = { ...(res.body as Record<string, unknown>), message: 'No orders found.' };
    })();
  },
};

export const ordersItemsKeyedByItemId: Fault = {
  id: 'SHOP-ORDERS-ITEMS-KEYED-BY-ITEM-ID',
  iface: 'rest-v1-shop',
  // GET /orders builds each order's items with array_map() over $order->get_items(), which WooCommerce keys by the
  // order item id: array_map() keeps the keys, so json_encode() writes items as an object {"<item id>": {item_name,
  // quantity}, ...} instead of a list (no order's item ids start at 0).
  after(res, req, ctx) {
    if (req.endpoint !== '/orders' || req.method !== 'GET') return;
    const orders = isObject(res.body) && isObject(res.body.data) ? res.body.data.orders : undefined;
    if (!Array.isArray(orders)) return;
    const itemIds = ctx.db.prepare('SELECT id FROM shop_order_items WHERE order_id = ? ORDER BY id');
    for (const order of orders) {
      if (!isObject(order) || typeof order.order_id !== 'number' || !Array.isArray(order.items)) continue;
      const ids = (itemIds.all(order.order_id) as { id: number }[]).map((r) => r.id);
      if (ids.length !== order.items.length) continue;
      order.items = Object.fromEntries(order.items.map((item, i) => [String(ids[i]), item]));
    }
  },
};

export const orderCouponDiscountTwice: Fault = {
  id: 'SHOP-ORDER-COUPON-DISCOUNT-TWICE',
  iface: 'rest-v1-shop',
  // order create applies the coupons to the cart, then stores $order->set_total(WC()->cart->get_total('edit') -
  // WC()->cart->get_discount_total()): the cart's total already has the discount taken off, so an order with a coupon
  // is saved (and listed by GET /orders) with the discount taken off twice. An order without a coupon reads as before.
  after(res, req, ctx) {
    if (req.endpoint !== '/order/create' || !isObject(res.body) || res.body.status !== true) return;
    const data = isObject(res.body.data) ? res.body.data : undefined;
    if (!data || typeof data.order_id !== 'number') return;
    const row = ctx.db.prepare('SELECT discount_cents, total_cents FROM shop_orders WHERE id = ?').get(data.order_id) as
      | { discount_cents: number; total_cents: number }
      | undefined;
    if (!row || row.discount_cents <= 0) return;
    const total = Math.max(0, row.total_cents - row.discount_cents);
    ctx.db.prepare('UPDATE shop_orders SET total_cents = ? WHERE id = ?').run(total, data.order_id);
    data.total = money(total);
  },
};

export const ordersLengthFromEnd: Fault = {
  id: 'SHOP-ORDERS-LENGTH-FROM-END',
  iface: 'rest-v1-shop',
  // GET /orders pages the account's orders with array_slice( $orders, $start, $start + $limit ), the end index where
  // array_slice() takes a length: a start of 0, or no limit, reads as before, but start=1&limit=1 lists two orders
  // and start=1&limit=2 three, as far as the account has them.
  before(req) {
    if (req.endpoint !== '/orders' || req.method !== 'GET') return;
    const start = req.query.start;
    const limit = req.query.limit;
    if (typeof start !== 'string' || typeof limit !== 'string' || !/^\d{1,6}$/.test(start) || !/^\d{1,6}$/.test(limit)) return;
    if (Number(start) > 0 && Number(limit) > 0) req.query.limit = String(Number(start) + Number(limit));
  },
};

export const ordersPagedOldestFirst: Fault = {
  id: 'SHOP-ORDERS-PAGED-OLDEST-FIRST',
  iface: 'rest-v1-shop',
  // GET /orders answers wc_get_orders( array( 'customer_id' => $user_id ) ), newest first, when no start or limit is
  // sent; with either, the add-on runs its own $wpdb query with LIMIT/OFFSET and ORDER BY ID (ascending by default):
  // the paged listing walks the orders oldest first, so limit=1 lists the account's first order where the unpaged
  // list starts with its latest, and start skips the oldest orders instead of the newest.
  async after(res, req, ctx) {
    if (req.endpoint !== '/orders' || req.method !== 'GET' || !isObject(res.body) || res.body.status !== true) return;
    if (req.query.start === undefined && req.query.limit === undefined) return;
    const data = isObject(res.body.data) ? res.body.data : undefined;
    const page = paging(req.query);
    if (!data || !page.ok) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const rows = ctx.db
      .prepare('SELECT * FROM shop_orders WHERE user_id = ? ORDER BY id ASC LIMIT ? OFFSET ?')
      .all(user.id, page.limit, page.start) as OrderRow[];
    data.orders = rows.map((o) => orderSummary(ctx, o));
  },
};
