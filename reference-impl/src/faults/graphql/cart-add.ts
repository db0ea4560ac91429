import type Database from 'better-sqlite3';
import { cartSummary } from '../../graphql/totals.js';
import { pause } from '../emulation.js';
import { type Fault, isObject } from '../model.js';
import { bearerCustomer, cartIdOf, clean, has, refreshSummary, result, variables } from './shared.js';

/** addProductToCart requests -> the line they read before the handler, and the quantity they add. */
const readLines = new WeakMap<object, { me: number; cartId: number; read: number; added: number }>();

/** PHP's (int) of a number on a 32-bit build: wraps modulo 2^32 into the signed range. */
const int32 = (v: unknown): unknown =>
  typeof v === 'number' && Number.isInteger(v) && (v > 2 ** 31 - 1 || v < -(2 ** 31)) ? v | 0 : v;

/** Per database: the customer a worker's registry holds, set by the last addProductToCart, and that request's header. */
const registryCustomer = new WeakMap<object, { me: number; header: string }>();

/** addProductToCart requests whose product_id came as an integer -> that integer (GQL-PRODUCT-ID-STRING-ONLY). */
const integerProductIds = new WeakMap<object, number>();

/** A product_id string with digits at its front and something else after them ("40x"): PHP's (int) reads 40. */
const intCastPrefix = (v: unknown): string | undefined => {
  const m = typeof v === 'string' ? /^\s*\+?(\d+)\D/.exec(v) : null;
  return m ? String(Number.parseInt(m[1] as string, 10)) : undefined;
};

const upsertAdds = new WeakMap<object, { me: number; cartId: number; added: number }>();

/** addProductToCart requests -> their customer and the cart (summary and cart_ids) read before the handler. */
const cartBeforeAdd = new WeakMap<object, { me: number; summary: Record<string, unknown>; ids: string }>();

const cartIds = (summary: Record<string, unknown>): string =>
  ((summary.items ?? []) as Record<string, unknown>[]).map((l) => String(l.cart_id)).join(',');

export const addRaceLostQuantity: Fault = {
  id: 'GQL-ADD-RACE-LOST-QUANTITY',
  iface: 'graphql',
  // addProductToCart reads the line's quantity, checks stock and minimum (some 40 ms of the
  // platform's getProducts) and writes read + added, with no lock: two adds of one product at the
  // same time both read the same quantity, and the later write loses the earlier add. One after
  // the other they add up; a new line is not affected (the INSERT path).
  async before(req, ctx) {
    const input = variables(req)?.input;
    if (!has(req, 'addProductToCart') || !isObject(input)) return;
    const me = await bearerCustomer(req, ctx);
    const product = cartIdOf(input.product_id);
    if (me === undefined || product === undefined) return;
    const line = ctx.db
      .prepare("SELECT cart_id, quantity FROM gql_cart WHERE customer_id = ? AND product_id = ? AND options = '[]'")
      .get(me, product) as { cart_id: number; quantity: number } | undefined;
    const added = input.quantity ?? 1;
    if (!line || typeof added !== 'number') return;
    readLines.set(req.raw, { me, cartId: line.cart_id, read: line.quantity, added });
    await pause(40);
  },
  after(res, req, ctx) {
    const seen = readLines.get(req.raw);
    const r = result(res, 'addProductToCart');
    if (!seen || !r || !clean(res)) return;
    const now = ctx.db.prepare('SELECT quantity FROM gql_cart WHERE cart_id = ?').get(seen.cartId) as
      | { quantity: number }
      | undefined;
    const written = seen.read + seen.added;
    // Another add wrote between this one's read and its write: its quantity is overwritten.
    if (!now || now.quantity <= written) return;
    ctx.db.prepare('UPDATE gql_cart SET quantity = ? WHERE cart_id = ?').run(written, seen.cartId);
    refreshSummary(r, cartSummary(ctx.db, seen.me));
  },
};

export const quantityIntWraps: Fault = {
  id: 'GQL-QUANTITY-INT-WRAPS',
  iface: 'graphql',
  // The vendor's schema types quantity with its own scalar, which hands the JSON number to the cart through
  // (int) on a 32-bit PHP build: a quantity past 2^31 - 1 wraps modulo 2^32 instead of being refused as no Int
  // (4294967298 is 2), and updateCartProduct or addProductToCart answers success with the wrapped quantity stored.
  before(req) {
    const v = variables(req);
    if (has(req, 'updateCartProduct') && v && 'quantity' in v) v.quantity = int32(v.quantity);
    const input = v?.input;
    if (has(req, 'addProductToCart') && isObject(input) && 'quantity' in input) input.quantity = int32(input.quantity);
  },
};

export const addCustomerPerWorker: Fault = {
  id: 'GQL-ADD-CUSTOMER-PER-WORKER',
  iface: 'graphql',
  // The extension runs in a long-lived coroutine worker (the vendor's recommended Swoole server), where the
  // platform's registry, and the customer object in it, is one per worker, not per request: addProductToCart sets
  // the registry's customer from the token, awaits the stock lookup (some 30 ms), then adds to the registry's
  // customer's cart. Two customers' adds at the same time both land in the cart of the one that set it last, and
  // both answer that cart. One customer's adds, or adds one after the other, are right.
  async before(req, ctx) {
    if (!has(req, 'addProductToCart')) return;
    const me = await bearerCustomer(req, ctx);
    const header = req.raw.headers.authorization;
    if (me === undefined || typeof header !== 'string') return;
    registryCustomer.set(ctx.db, { me, header });
    await pause(30);
    const now = registryCustomer.get(ctx.db);
    if (now && now.me !== me) req.raw.headers.authorization = now.header;
  },
};

export const productIdStringOnly: Fault = {
  id: 'GQL-PRODUCT-ID-STRING-ONLY',
  iface: 'graphql',
  // The vendor's SDL declares CartProductInput.product_id as String where its documentation says ID: an integer
  // product_id (40, which GraphQL coerces to the ID "40") fails variable coercion, "String cannot represent a
  // non string value", and nothing is added. The string "40" is taken as before.
  before(req) {
    const input = variables(req)?.input;
    if (!has(req, 'addProductToCart') || !isObject(input) || typeof input.product_id !== 'number') return;
    integerProductIds.set(req.raw, input.product_id);
    input.product_id = '0'; // no product: the handler adds nothing, and `after` answers as coercion would
  },
  after(res, req) {
    const id = integerProductIds.get(req.raw);
    if (id === undefined || res.status === 401) return; // the token gate answers before the variables are coerced
    const message = `Variable "$input" got invalid value ${id} at "input.product_id"; String cannot represent a non string value: ${id}`;
    res.status = 200;
    res.body = { errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }], status: false, message };
  },
};

export const productIdIntCast: Fault = {
  id: 'GQL-PRODUCT-ID-INT-CAST',
  iface: 'graphql',
  // The resolver reads the product as getProduct((int)$input['product_id']): an ID with digits at its front and
  // anything after them ("40x", which no product has) is read as its digits, and 1 of product 40 is added and
  // answered where the document's rule refuses an unknown product_id. An ID of digits alone is read as before.
  before(req) {
    const input = variables(req)?.input;
    if (!has(req, 'addProductToCart') || !isObject(input)) return;
    const cast = intCastPrefix(input.product_id);
    if (cast !== undefined) input.product_id = cast;
  },
};

export const addUpsertReplaces: Fault = {
  id: 'GQL-ADD-UPSERT-REPLACES',
  iface: 'graphql',
  // The vendor's addProductToCart writes INSERT INTO cart ... ON DUPLICATE KEY UPDATE quantity = VALUES(quantity),
  // where the platform's cart->add() adds (quantity = quantity + :quantity): an add of a product whose line is already
  // in the cart (same options) sets the line to the quantity added instead of raising it by that much, and the
  // summary answers the line so. A new line is right.
  async before(req, ctx) {
    const input = variables(req)?.input;
    if (!has(req, 'addProductToCart') || !isObject(input)) return;
    const me = await bearerCustomer(req, ctx);
    const product = cartIdOf(input.product_id);
    const added = input.quantity ?? 1;
    if (me === undefined || product === undefined || typeof added !== 'number') return;
    const line = ctx.db
      .prepare("SELECT cart_id FROM gql_cart WHERE customer_id = ? AND product_id = ? AND recurring_id = 0 AND options = '[]'")
      .get(me, product) as { cart_id: number } | undefined;
    if (line) upsertAdds.set(req.raw, { me, cartId: line.cart_id, added });
  },
  after(res, req, ctx) {
    const add = upsertAdds.get(req.raw);
    const r = result(res, 'addProductToCart');
    if (!add || !r || !clean(res)) return;
    ctx.db.prepare('UPDATE gql_cart SET quantity = ? WHERE cart_id = ?').run(add.added, add.cartId);
    refreshSummary(r, cartSummary(ctx.db, add.me));
  },
};

export const addExistingStaleSummary: Fault = {
  id: 'GQL-ADD-EXISTING-STALE-SUMMARY',
  iface: 'graphql',
  // addProductToCart reads the cart ($products = $this->cart->getProducts()) to find a line of the same product and
  // options. A new line goes through cart->add() and the cart is read again for the answer; an existing line is
  // raised with cart->update() in the other branch, which does not read again, so the summary is built from
  // $products: the cart before the add (the line's old quantity and total, the old subtotal and total). The line is
  // raised as it should be, and the next summary shows it; the first add of a product is answered right.
  async before(req, ctx) {
    if (!has(req, 'addProductToCart')) return;
    const me = await bearerCustomer(req, ctx);
    if (me === undefined) return;
    const summary = cartSummary(ctx.db, me);
    cartBeforeAdd.set(req.raw, { me, summary, ids: cartIds(summary) });
  },
  after(res, req, ctx) {
    const seen = cartBeforeAdd.get(req.raw);
    const r = result(res, 'addProductToCart');
    if (!seen || !r || !clean(res) || seen.ids === '') return;
    // The add raised a line the cart held (no new cart_id): the answer is the cart as read before it.
    if (cartIds(cartSummary(ctx.db, seen.me)) !== seen.ids) return;
    refreshSummary(r, seen.summary);
  },
};

export const summaryLineQuantitySent: Fault = {
  id: 'GQL-SUMMARY-LINE-QUANTITY-SENT',
  iface: 'graphql',
  // The resolver answers the line of the product just added as array_merge($line, $args['input']):
  // the input's quantity overwrites the line's, so a product added to a line it already had shows
  // the quantity sent, while the store (and the line's total and the subtotal) hold the sum.
  after(res, req) {
    const input = variables(req)?.input;
    if (!has(req, 'addProductToCart') || !isObject(input) || typeof input.quantity !== 'number' || !clean(res)) return;
    const r = result(res, 'addProductToCart');
    if (!r || !Array.isArray(r.items)) return;
    for (const line of r.items)
      if (isObject(line) && 'quantity' in line && String(line.product_id) === String(input.product_id))
        line.quantity = input.quantity;
  },
};

/** Rewrites an answered cart summary to `fresh` (the cart as stored), keeping the answer's selection of each field. */
function rebuildSummary(r: Record<string, unknown>, fresh: Record<string, unknown>): void {
  const pick = (answered: unknown[], stored: unknown[]): unknown[] => {
    const keys = new Set(answered.flatMap((x) => (isObject(x) ? Object.keys(x) : [])));
    return stored.map((x) => {
      if (!isObject(x) || keys.size === 0) return x;
      const out: Record<string, unknown> = {};
      for (const k of keys) {
        const nested = answered.flatMap((a) => (isObject(a) && Array.isArray(a[k]) ? (a[k] as unknown[]) : []));
        out[k] = Array.isArray(x[k]) && nested.length > 0 ? pick(nested, x[k] as unknown[]) : x[k];
      }
      return out;
    });
  };
  for (const [k, v] of Object.entries(r))
    if (Array.isArray(v) && Array.isArray(fresh[k])) r[k] = pick(v, fresh[k] as unknown[]);
    else if (k in fresh) r[k] = fresh[k];
}

/** The customer's line of a product without options or recurring profile (the only lines these faults move). */
const plainLine = (db: Database.Database, customer: number, product: unknown) =>
  db
    .prepare(
      "SELECT cart_id, quantity FROM gql_cart WHERE customer_id = ? AND product_id = ? AND recurring_id = 0 AND options = '[]'",
    )
    .get(customer, product) as { cart_id: number; quantity: number } | undefined;

/** An add's options, when they are empty (the only lines these faults move: canonical '[]'). */
const noOptions = (v: unknown): boolean =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

/** addProductToCart requests -> the line the vendor's lookup found instead of the product's (GQL-ADD-LINE-LOOKUP-NO-PRODUCT). */
const wrongLineAdds = new WeakMap<
  object,
  { me: number; product: number; found: number; own?: { cart_id: number; quantity: number } }
>();

export const addLineLookupNoProduct: Fault = {
  id: 'GQL-ADD-LINE-LOOKUP-NO-PRODUCT',
  iface: 'graphql',
  // addProductToCart looks for the line to raise with SELECT cart_id FROM cart WHERE api_id = 0 AND customer_id = ?
  // AND session_id = ? AND recurring_id = ? AND `option` = ? LIMIT 1: the WHERE lost its product_id = ? when the
  // vendor added the api_id condition. An add to a cart holding any line with the same options (two products
  // without options) finds the cart's first such line and raises its quantity: the product added gets no line (or
  // its line stays as it was) and the first line grows. An add to an empty cart, or of the first line's product,
  // is right.
  async before(req, ctx) {
    const input = variables(req)?.input;
    if (!has(req, 'addProductToCart') || !isObject(input) || !noOptions(input.options)) return;
    const me = await bearerCustomer(req, ctx);
    const product = cartIdOf(input.product_id);
    if (me === undefined || product === undefined) return;
    const first = ctx.db
      .prepare(
        "SELECT cart_id, product_id FROM gql_cart WHERE customer_id = ? AND recurring_id = 0 AND options = '[]' ORDER BY cart_id LIMIT 1",
      )
      .get(me) as { cart_id: number; product_id: number } | undefined;
    if (!first || first.product_id === product) return;
    const own = plainLine(ctx.db, me, product);
    wrongLineAdds.set(req.raw, { me, product, found: first.cart_id, ...(own ? { own } : {}) });
  },
  after(res, req, ctx) {
    const add = wrongLineAdds.get(req.raw);
    const r = result(res, 'addProductToCart');
    const added = variables(req)?.input;
    const quantity = isObject(added) && typeof added.quantity === 'number' ? added.quantity : 1;
    if (!add || !r || !clean(res)) return;
    ctx.db.transaction(() => {
      if (add.own) ctx.db.prepare('UPDATE gql_cart SET quantity = ? WHERE cart_id = ?').run(add.own.quantity, add.own.cart_id);
      else
        ctx.db
          .prepare("DELETE FROM gql_cart WHERE customer_id = ? AND product_id = ? AND recurring_id = 0 AND options = '[]'")
          .run(add.me, add.product);
      ctx.db.prepare('UPDATE gql_cart SET quantity = MIN(quantity + ?, 10000) WHERE cart_id = ?').run(quantity, add.found);
    })();
    rebuildSummary(r, cartSummary(ctx.db, add.me));
  },
};

/** Per database: lines deleteCartProduct flagged removed, by customer and product (GQL-ADD-REVIVES-DELETED). */
const flaggedLines = new WeakMap<object, Map<string, Record<string, unknown>>>();
const flaggedOf = (db: object) => {
  let m = flaggedLines.get(db);
  if (!m) {
    m = new Map();
    flaggedLines.set(db, m);
  }
  return m;
};
/** deleteCartProduct requests -> the row they delete; addProductToCart requests -> the flagged row they find. */
const deletingLine = new WeakMap<object, Record<string, unknown>>();
const revivingLine = new WeakMap<object, { me: number; row: Record<string, unknown> }>();

export const addRevivesDeleted: Fault = {
  id: 'GQL-ADD-REVIVES-DELETED',
  iface: 'graphql',
  // deleteCartProduct only flags the line removed (the vendor keeps removed lines for its abandoned-cart report) and
  // the cart reads skip flagged lines, but addProductToCart's look-up of the line to raise (same product and options)
  // lacks AND removed = 0 and writes UPDATE cart SET quantity = quantity + ?, removed = 0: adding a product whose
  // line was deleted brings that line back under its old cart_id with its old quantity plus the quantity added.
  // emptyCart deletes the customer's rows, flagged or not; a product never deleted adds right.
  async before(req, ctx) {
    const field = ['deleteCartProduct', 'addProductToCart', 'emptyCart'].find((f) => has(req, f));
    if (!field) return;
    const me = await bearerCustomer(req, ctx);
    if (me === undefined) return;
    const flagged = flaggedOf(ctx.db);
    if (field === 'emptyCart') {
      for (const key of flagged.keys()) if (key.startsWith(`${me}:`)) flagged.delete(key);
      return;
    }
    const v = variables(req);
    if (field === 'deleteCartProduct') {
      const row = ctx.db.prepare('SELECT * FROM gql_cart WHERE cart_id = ? AND customer_id = ?').get(cartIdOf(v?.cart_id), me);
      if (isObject(row) && row.options === '[]') deletingLine.set(req.raw, row);
      return;
    }
    const input = v?.input;
    const product = isObject(input) && noOptions(input.options) ? cartIdOf(input.product_id) : undefined;
    const row = product === undefined ? undefined : flagged.get(`${me}:${product}`);
    if (row) revivingLine.set(req.raw, { me, row });
  },
  after(res, req, ctx) {
    const data = isObject(res.body) ? res.body.data : undefined;
    const deleted = deletingLine.get(req.raw);
    if (deleted && isObject(data) && data.deleteCartProduct === true)
      flaggedOf(ctx.db).set(`${deleted.customer_id}:${deleted.product_id}`, deleted);
    const revive = revivingLine.get(req.raw);
    const r = result(res, 'addProductToCart');
    if (!revive || !r || !clean(res)) return;
    const { me, row } = revive;
    flaggedOf(ctx.db).delete(`${me}:${row.product_id}`);
    const live = plainLine(ctx.db, me, row.product_id);
    if (!live) return;
    ctx.db
      .prepare('UPDATE gql_cart SET cart_id = ?, quantity = MIN(quantity + ?, 10000) WHERE cart_id = ?')
      .run(row.cart_id, row.quantity, live.cart_id);
    rebuildSummary(r, cartSummary(ctx.db, me));
  },
};
