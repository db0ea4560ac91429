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
