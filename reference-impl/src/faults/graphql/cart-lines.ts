import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { cartSummary } from '../../graphql/totals.js';
import { type Fault, type FaultRequest, isObject } from '../model.js';
import { bearerCustomer, cartIdOf, clean, has, refreshSummary, result, variables } from './shared.js';

/** updateCartProduct requests whose quantity equalled the line's, seen by `before` for `after`. */
const unchangedUpdates = new WeakSet<object>();

/** emptyCart requests -> the cart rows after the first line, to put back once the handler emptied the cart. */
const keptLines = new WeakMap<object, Record<string, unknown>[]>();

/**
 * A `before` hook that points `field`'s cart_id at the first line of the same customer's cart, so the
 * mutation acts on that line whatever line the client named (a one-line cart shows nothing).
 */
function firstLineInstead(field: string): NonNullable<Fault['before']> {
  return (req, ctx) => {
    const v = variables(req);
    const cartId = cartIdOf(v?.cart_id);
    if (!has(req, field) || !v || cartId === undefined) return;
    const first = ctx.db
      .prepare('SELECT MIN(cart_id) AS id FROM gql_cart WHERE customer_id = (SELECT customer_id FROM gql_cart WHERE cart_id = ?)')
      .get(cartId) as { id: number | null } | undefined;
    if (first?.id != null && first.id !== cartId) v.cart_id = String(first.id);
  };
}

/** The bearer token as sent (the text after the scheme); undefined without one. */
function bearerText(req: FaultRequest): string | undefined {
  const header = req.raw.headers.authorization;
  return typeof header === 'string' ? /^\s*Bearer\s+(\S+)/i.exec(header)?.[1] : undefined;
}

/** Per database: cart_id -> the token (the login's session) that last added to the line. */
const lineSessions = new WeakMap<object, Map<number, string>>();

function sessionsOf(ctx: AppContext): Map<number, string> {
  let m = lineSessions.get(ctx.db);
  if (!m) {
    m = new Map();
    lineSessions.set(ctx.db, m);
  }
  return m;
}

/** addProductToCart and emptyCart requests -> their customer, token and the customer's lines before the handler. */
const sessionRequests = new WeakMap<object, { me: number; token: string; rows: Record<string, unknown>[] }>();

/** Per database: the lines deleteCartProduct removed, by cart_id (GQL-UPDATE-REVIVES-DELETED: the vendor only flags them). */
const removedLines = new WeakMap<object, Map<number, Record<string, unknown>>>();

function removedOf(ctx: AppContext): Map<number, Record<string, unknown>> {
  let m = removedLines.get(ctx.db);
  if (!m) {
    m = new Map();
    removedLines.set(ctx.db, m);
  }
  return m;
}

/** deleteCartProduct requests -> the row they name, read before the handler deletes it. */
const deletingRows = new WeakMap<object, Record<string, unknown>>();

/** updateCartProduct requests that brought a removed row back -> its cart_id, removed again if the update is refused. */
const revivedRows = new WeakMap<object, number>();

/** updateCartProduct and addProductToCart requests -> their bearer customer, and what the vendor's query then writes. */
const allLinesUpdates = new WeakMap<object, { me: number; quantity: number }>();

/** Whether CartProductInput.options is left out or empty (an empty object or list): the lines the line cache keys. */
const noOptions = (v: unknown): boolean =>
  v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);

/** Per database: `<customer>:<product>` -> the cart_id the worker's line cache holds (GQL-EMPTY-CART-STALE-LINE-CACHE). */
const lineCaches = new WeakMap<object, Map<string, number>>();

function lineCacheOf(ctx: AppContext): Map<string, number> {
  let m = lineCaches.get(ctx.db);
  if (!m) {
    m = new Map();
    lineCaches.set(ctx.db, m);
  }
  return m;
}

/** addProductToCart and deleteCartProduct requests -> their customer, product (add) and whether the cache was stale. */
const lineCacheRequests = new WeakMap<object, { me: number; product?: number; stale: boolean }>();

export const updateNoop: Fault = {
  id: 'GQL-UPDATE-NOOP',
  iface: 'graphql',
  // Answers true but writes the quantity to a column nobody reads.
  before(req, ctx) {
    const v = variables(req);
    const cartId = cartIdOf(v?.cart_id);
    if (!has(req, 'updateCartProduct') || !v || cartId === undefined) return;
    const line = ctx.db.prepare('SELECT quantity FROM gql_cart WHERE cart_id = ?').get(cartId) as
      | { quantity: number }
      | undefined;
    if (line) v.quantity = line.quantity;
  },
};

export const updateSameFalse: Fault = {
  id: 'GQL-UPDATE-SAME-FALSE',
  iface: 'graphql',
  // Success is read from the UPDATE's affected rows, which MySQL reports as 0 when the value does
  // not change: updateCartProduct to the quantity the line already has answers false, "not found".
  before(req, ctx) {
    const v = variables(req);
    const cartId = cartIdOf(v?.cart_id);
    if (!has(req, 'updateCartProduct') || cartId === undefined) return;
    const line = ctx.db.prepare('SELECT quantity FROM gql_cart WHERE cart_id = ?').get(cartId) as
      | { quantity: number }
      | undefined;
    if (line && line.quantity === v?.quantity) unchangedUpdates.add(req.raw);
  },
  after(res, req) {
    const data = isObject(res.body) ? res.body.data : undefined;
    if (!unchangedUpdates.has(req.raw) || !isObject(data) || data.updateCartProduct !== true) return;
    const message = 'Cart item not found.';
    data.updateCartProduct = false;
    res.body = {
      data,
      errors: [{ message, path: ['updateCartProduct'], extensions: { code: 'CART_ITEM_NOT_FOUND' } }],
      status: false,
      message,
    };
  },
};

export const emptyFirstLine: Fault = {
  id: 'GQL-EMPTY-FIRST-LINE',
  iface: 'graphql',
  // emptyCart meant to loop over the cart's keys but returns after the first cart->remove(): the
  // first line (and the applied coupon) go, every other line stays. A one-line cart empties fine.
  async before(req, ctx) {
    if (!has(req, 'emptyCart')) return;
    const me = await bearerCustomer(req, ctx);
    if (me === undefined) return;
    const rows = ctx.db.prepare('SELECT * FROM gql_cart WHERE customer_id = ? ORDER BY cart_id').all(me) as Record<
      string,
      unknown
    >[];
    keptLines.set(req.raw, rows.slice(1));
  },
  after(res, req, ctx) {
    const rows = keptLines.get(req.raw);
    if (!rows || rows.length === 0 || !clean(res)) return;
    const put = ctx.db.prepare(
      'INSERT OR IGNORE INTO gql_cart (cart_id, customer_id, product_id, recurring_id, options, quantity, date_added) VALUES (@cart_id, @customer_id, @product_id, @recurring_id, @options, @quantity, @date_added)',
    );
    for (const row of rows) put.run(row);
  },
};

export const updateFirstLine: Fault = {
  id: 'GQL-UPDATE-FIRST-LINE',
  iface: 'graphql',
  // updateCartProduct finds the line through the customer's cart (cart->getProducts()[0], a
  // leftover of a one-product test) instead of the cart_id sent: the cart's first line gets the
  // new quantity and the line named keeps its own. Another customer's cart_id stays refused.
  before: firstLineInstead('updateCartProduct'),
};

export const deleteFirstLine: Fault = {
  id: 'GQL-DELETE-FIRST-LINE',
  iface: 'graphql',
  // The same leftover in deleteCartProduct: the cart's first line is removed, the line named stays.
  before: firstLineInstead('deleteCartProduct'),
};

export const emptyCartOneSession: Fault = {
  id: 'GQL-EMPTY-CART-ONE-SESSION',
  iface: 'graphql',
  // The cart rows carry the session of the login that last added to them (the platform's cart table keeps a
  // session_id beside customer_id), the cart is read by customer, and emptyCart calls cart->clear(), which deletes
  // WHERE customer_id = ? AND session_id = ?: a line last added to under another login of the same customer (a
  // second device) survives emptyCart and is back in the next summary. Each login's token names its session.
  async before(req, ctx) {
    if (!has(req, 'addProductToCart') && !has(req, 'emptyCart')) return;
    const token = bearerText(req);
    const me = await bearerCustomer(req, ctx);
    if (me === undefined || token === undefined) return;
    const rows = ctx.db.prepare('SELECT * FROM gql_cart WHERE customer_id = ? ORDER BY cart_id').all(me) as Record<
      string,
      unknown
    >[];
    sessionRequests.set(req.raw, { me, token, rows });
  },
  async after(res, req, ctx) {
    const key = `${ctx.vendor}_token`;
    const issued = result(res, 'login');
    if (issued && typeof issued[key] === 'string') {
      // The session id as a claim: two logins within one second get tokens of their own.
      const payload = await ctx.tokens.verify(issued[key], 'graphql');
      if (payload) issued[key] = await ctx.tokens.sign(payload.sub, 'graphql', { email: payload.email, sid: randomUUID() });
      return;
    }
    const seen = sessionRequests.get(req.raw);
    if (!seen || !clean(res)) return;
    const sessions = sessionsOf(ctx);
    if (has(req, 'addProductToCart')) {
      const before = new Map(seen.rows.map((r) => [r.cart_id as number, r.quantity as number]));
      const now = ctx.db.prepare('SELECT cart_id, quantity FROM gql_cart WHERE customer_id = ?').all(seen.me) as {
        cart_id: number;
        quantity: number;
      }[];
      for (const r of now) if (before.get(r.cart_id) !== r.quantity) sessions.set(r.cart_id, seen.token);
      return;
    }
    // emptyCart: the handler removed every line; the lines of other sessions go back.
    const others = seen.rows.filter((r) => {
      const owner = sessions.get(r.cart_id as number);
      return owner !== undefined && owner !== seen.token;
    });
    const put = ctx.db.prepare(
      'INSERT OR IGNORE INTO gql_cart (cart_id, customer_id, product_id, recurring_id, options, quantity, date_added) VALUES (@cart_id, @customer_id, @product_id, @recurring_id, @options, @quantity, @date_added)',
    );
    for (const row of others) put.run(row);
  },
};

export const updateRevivesDeleted: Fault = {
  id: 'GQL-UPDATE-REVIVES-DELETED',
  iface: 'graphql',
  // deleteCartProduct only flags the line removed (the vendor keeps removed lines for its abandoned-cart report),
  // and the cart reads skip flagged lines; updateCartProduct writes UPDATE cart SET quantity = ?, removed = 0
  // WHERE cart_id = ? AND customer_id = ?: an update of a line deleted before answers true and the line is back in
  // the cart with the new quantity. emptyCart deletes the customer's rows, flagged or not.
  async before(req, ctx) {
    if (!has(req, 'deleteCartProduct') && !has(req, 'updateCartProduct') && !has(req, 'emptyCart')) return;
    const me = await bearerCustomer(req, ctx);
    if (me === undefined) return;
    const removed = removedOf(ctx);
    if (has(req, 'emptyCart')) {
      for (const [id, row] of removed) if (row.customer_id === me) removed.delete(id);
      return;
    }
    const v = variables(req);
    const cartId = cartIdOf(v?.cart_id);
    if (!v || cartId === undefined) return;
    if (has(req, 'deleteCartProduct')) {
      const row = ctx.db.prepare('SELECT * FROM gql_cart WHERE cart_id = ? AND customer_id = ?').get(cartId, me);
      if (isObject(row)) deletingRows.set(req.raw, row);
      return;
    }
    const row = removed.get(cartId);
    const q = v.quantity;
    if (!has(req, 'updateCartProduct') || row?.customer_id !== me || typeof q !== 'number' || !Number.isInteger(q) || q < 1)
      return;
    removed.delete(cartId);
    // Back under its own cart_id, unless the cart holds that product and options again (the reference's unique key).
    const put = ctx.db
      .prepare(
        'INSERT OR IGNORE INTO gql_cart (cart_id, customer_id, product_id, recurring_id, options, quantity, date_added) VALUES (@cart_id, @customer_id, @product_id, @recurring_id, @options, @quantity, @date_added)',
      )
      .run(row);
    if (put.changes > 0) revivedRows.set(req.raw, cartId);
  },
  after(res, req, ctx) {
    const data = isObject(res.body) ? res.body.data : undefined;
    const row = deletingRows.get(req.raw);
    if (row && isObject(data) && data.deleteCartProduct === true) removedOf(ctx).set(row.cart_id as number, row);
    const back = revivedRows.get(req.raw);
    if (back !== undefined && !(isObject(data) && data.updateCartProduct === true))
      ctx.db.prepare('DELETE FROM gql_cart WHERE cart_id = ?').run(back);
  },
};

export const updateAllLines: Fault = {
  id: 'GQL-UPDATE-ALL-LINES',
  iface: 'graphql',
  // The vendor's updateCartProduct writes UPDATE cart SET quantity = :quantity WHERE customer_id = :customer_id AND
  // session_id = :session_id: the condition on :cart_id, bound as before, fell out of the WHERE when the query was
  // reformatted. The line is still looked up by cart_id first (another customer's line, or none, is refused), and the
  // answer is true, but every line of the customer's cart gets the new quantity. A cart of one line shows nothing.
  async before(req, ctx) {
    const v = variables(req);
    if (!has(req, 'updateCartProduct') || !v || typeof v.quantity !== 'number') return;
    const me = await bearerCustomer(req, ctx);
    if (me !== undefined) allLinesUpdates.set(req.raw, { me, quantity: v.quantity });
  },
  after(res, req, ctx) {
    const update = allLinesUpdates.get(req.raw);
    const data = isObject(res.body) ? res.body.data : undefined;
    if (!update || !isObject(data) || data.updateCartProduct !== true) return;
    ctx.db.prepare('UPDATE gql_cart SET quantity = ? WHERE customer_id = ?').run(update.quantity, update.me);
  },
};

export const emptyCartStaleLineCache: Fault = {
  id: 'GQL-EMPTY-CART-STALE-LINE-CACHE',
  iface: 'graphql',
  // The extension runs under a long-lived worker and keeps, per worker (APCu), the cart_id of each customer's line
  // by product and options, so that an add of a product already in the cart raises its line with one UPDATE cart
  // SET quantity = quantity + :n WHERE cart_id = :cached. The entry is set when a line is made and dropped by
  // deleteCartProduct, but emptyCart calls the platform's cart->clear() and leaves it: after emptyCart, an add of a
  // product the cart held updates a row that no longer exists (no row affected, no error), and the summary answered
  // (and every add of that product after it) holds no line of it. Products new to the cart are added as before.
  async before(req, ctx) {
    if (has(req, 'addProductToCart')) {
      const input = variables(req)?.input;
      if (!isObject(input) || !noOptions(input.options)) return;
      const me = await bearerCustomer(req, ctx);
      const product = cartIdOf(input.product_id);
      if (me === undefined || product === undefined) return;
      const cached = lineCacheOf(ctx).get(`${me}:${product}`);
      const stale = cached !== undefined && ctx.db.prepare('SELECT 1 FROM gql_cart WHERE cart_id = ?').get(cached) === undefined;
      lineCacheRequests.set(req.raw, { me, product, stale });
    } else if (has(req, 'deleteCartProduct')) {
      const me = await bearerCustomer(req, ctx);
      if (me !== undefined) lineCacheRequests.set(req.raw, { me, stale: false });
    }
  },
  after(res, req, ctx) {
    const seen = lineCacheRequests.get(req.raw);
    if (!seen || !clean(res)) return;
    const cache = lineCacheOf(ctx);
    if (has(req, 'deleteCartProduct')) {
      const cartId = cartIdOf(variables(req)?.cart_id);
      const data = isObject(res.body) ? res.body.data : undefined;
      if (cartId === undefined || !isObject(data) || data.deleteCartProduct !== true) return;
      for (const [key, id] of cache) if (id === cartId) cache.delete(key);
      return;
    }
    const r = result(res, 'addProductToCart');
    if (!r || seen.product === undefined) return;
    const key = `${seen.me}:${seen.product}`;
    if (!seen.stale) {
      const line = ctx.db
        .prepare("SELECT cart_id FROM gql_cart WHERE customer_id = ? AND product_id = ? AND recurring_id = 0 AND options = '[]'")
        .get(seen.me, seen.product) as { cart_id: number } | undefined;
      if (line) cache.set(key, line.cart_id);
      return;
    }
    // The UPDATE by the cached cart_id changed nothing: the line the handler made is not there, nor in the answer.
    ctx.db
      .prepare("DELETE FROM gql_cart WHERE customer_id = ? AND product_id = ? AND recurring_id = 0 AND options = '[]'")
      .run(seen.me, seen.product);
    if (Array.isArray(r.items))
      r.items = r.items.filter((l) => !(isObject(l) && 'product_id' in l && String(l.product_id) === String(seen.product)));
    refreshSummary(r, cartSummary(ctx.db, seen.me));
  },
};

export const updateAddsQuantity: Fault = {
  id: 'GQL-UPDATE-ADDS-QUANTITY',
  iface: 'graphql',
  // The resolver reuses the cart's add query, `UPDATE cart SET quantity = (quantity + n)`: the line gets the
  // quantity it had plus the one sent, not the one sent.
  before(req, ctx) {
    const v = variables(req);
    const cartId = cartIdOf(v?.cart_id);
    if (!has(req, 'updateCartProduct') || !v || cartId === undefined) return;
    if (typeof v.quantity !== 'number' || !Number.isInteger(v.quantity) || v.quantity < 1) return;
    const line = ctx.db.prepare('SELECT quantity FROM gql_cart WHERE cart_id = ?').get(cartId) as
      | { quantity: number }
      | undefined;
    if (line) v.quantity = line.quantity + v.quantity;
  },
};

export const deleteAnswersFalse: Fault = {
  id: 'GQL-DELETE-ANSWERS-FALSE',
  iface: 'graphql',
  // `$this->cart->remove($cart_id); return $this->db->countAffected() > 0;`: remove() ends with a second
  // statement (the session's cart timestamp, which matches no row), so the count read is 0 and the answer
  // false, though the line was deleted.
  after(res, req) {
    if (!has(req, 'deleteCartProduct') || !clean(res)) return;
    const data = isObject(res.body) ? res.body.data : undefined;
    if (isObject(data) && data.deleteCartProduct === true) data.deleteCartProduct = false;
  },
};

/** deleteCartProduct requests -> their bearer customer (GQL-DELETE-WHERE-OR). */
const deleteOrCustomer = new WeakMap<object, number>();

export const deleteWhereOr: Fault = {
  id: 'GQL-DELETE-WHERE-OR',
  iface: 'graphql',
  // remove() builds its WHERE from the line and the cart's owner without parentheses:
  // DELETE FROM cart WHERE cart_id = ? AND api_id = 0 OR customer_id = ? AND session_id = ?, meant as
  // "this line, of this cart". Its OR takes every line of the customer's cart: deleting one line of
  // a cart of two empties it (the applied coupon stays). A cart of one line shows nothing.
  async before(req, ctx) {
    if (!has(req, 'deleteCartProduct')) return;
    const me = await bearerCustomer(req, ctx);
    if (me !== undefined) deleteOrCustomer.set(req.raw, me);
  },
  after(res, req, ctx) {
    const me = deleteOrCustomer.get(req.raw);
    const data = isObject(res.body) ? res.body.data : undefined;
    if (me === undefined || !clean(res) || !isObject(data) || data.deleteCartProduct !== true) return;
    ctx.db.prepare('DELETE FROM gql_cart WHERE customer_id = ?').run(me);
  },
};

/** updateCartProduct requests that set a product to exactly its minimum -> the line and its quantity before. */
const atMinimum = new WeakMap<object, { cartId: number; quantity: number; minimum: number; name: string }>();

export const updateAtMinimumRefused: Fault = {
  id: 'GQL-UPDATE-AT-MINIMUM-REFUSED',
  iface: 'graphql',
  // updateCartProduct checks the product's minimum with if ($product_total <= $product['minimum']) where the platform
  // writes < (checkout/cart: if ($product['minimum'] > $product_total)): a quantity that brings the product's lines
  // to exactly its minimum (1 for most products) is refused with the minimum-quantity error and answers false, the
  // line unchanged. Quantities above the minimum update as before.
  async before(req, ctx) {
    const v = variables(req);
    const cartId = cartIdOf(v?.cart_id);
    if (!has(req, 'updateCartProduct') || !v || cartId === undefined || typeof v.quantity !== 'number') return;
    const me = await bearerCustomer(req, ctx);
    const line = ctx.db
      .prepare(
        `SELECT c.cart_id, c.product_id, c.quantity, p.minimum, p.name, (SELECT COALESCE(SUM(o.quantity), 0) FROM gql_cart o
           WHERE o.customer_id = c.customer_id AND o.product_id = c.product_id AND o.cart_id <> c.cart_id) AS others
         FROM gql_cart c JOIN gql_product p ON p.product_id = c.product_id WHERE c.cart_id = ? AND c.customer_id = ?`,
      )
      .get(cartId, me) as { cart_id: number; quantity: number; minimum: number; name: string; others: number } | undefined;
    if (line && line.others + v.quantity === line.minimum)
      atMinimum.set(req.raw, { cartId, quantity: line.quantity, minimum: line.minimum, name: line.name });
  },
  after(res, req, ctx) {
    const line = atMinimum.get(req.raw);
    const data = isObject(res.body) ? res.body.data : undefined;
    if (!line || !isObject(data) || data.updateCartProduct !== true) return;
    ctx.db.prepare('UPDATE gql_cart SET quantity = ? WHERE cart_id = ?').run(line.quantity, line.cartId);
    data.updateCartProduct = false;
    const earlier = isObject(res.body) && Array.isArray(res.body.errors) ? res.body.errors : [];
    res.body = {
      data,
      errors: [
        ...earlier,
        {
          message: `The minimum quantity of ${line.name} is ${line.minimum}.`,
          path: ['updateCartProduct'],
          extensions: { code: 'MINIMUM_QUANTITY', minimum: line.minimum },
        },
      ],
    };
  },
};
