import type { AppContext } from '../../context.js';
import { bodyOf, int } from '../../http/body.js';
import { cartTotals } from '../../shop/cart.js';
import { identify, params } from '../../shop/common.js';
import { cartLines, couponCodes, priceCart } from '../../shop/pricing.js';
import { type Fault, isObject } from '../model.js';
import { failed } from './shared.js';

/** The cart_data entries of an update-quantities body, nested (JSON, parsed fields) or flat (`cart_data[<key>]`). */
function cartDataEntries(body: unknown): { key: string; quantity: unknown; drop(): void }[] {
  if (!isObject(body)) return [];
  const nested = body.cart_data;
  if (isObject(nested))
    return Object.entries(nested).map(([key, quantity]) => ({ key, quantity, drop: () => delete nested[key] }));
  return Object.entries(body).flatMap(([name, quantity]) => {
    const key = /^cart_data\[([^\]]+)\]$/.exec(name)?.[1];
    return key === undefined ? [] : [{ key, quantity, drop: () => delete body[name] }];
  });
}

/** SHOP-REMOVED-LINE-RESTORED: each account's removed_cart_contents by database, product id -> the quantity its line had. */
const REMOVED_LINES = new WeakMap<object, Map<number, Map<number, number>>>();

/** A remove-item's line as it was before the handler took it out, for the removed contents once the removal succeeds. */
const REMOVING = new WeakMap<object, { userId: number; productId: number; quantity: number }>();

function removedLines(ctx: AppContext, userId: number): Map<number, number> {
  const byUser = REMOVED_LINES.get(ctx.db) ?? new Map<number, Map<number, number>>();
  REMOVED_LINES.set(ctx.db, byUser);
  const lines = byUser.get(userId) ?? new Map<number, number>();
  byUser.set(userId, lines);
  return lines;
}

/** SHOP-UPDATE-COUNT-BEFORE-WRITE: the cart's unit count as an update-quantities found it, by request. */
const COUNT_BEFORE_UPDATE = new WeakMap<object, number>();

/** SHOP-REMOVE-REMOVED-KEY-SUCCEEDS: each account's removed_cart_contents keys by database (lines taken out since the last order). */
const REMOVED_KEYS = new WeakMap<object, Map<number, Set<string>>>();

function removedKeys(ctx: AppContext, userId: number): Set<string> {
  const byUser = REMOVED_KEYS.get(ctx.db) ?? new Map<number, Set<string>>();
  REMOVED_KEYS.set(ctx.db, byUser);
  const keys = byUser.get(userId) ?? new Set<string>();
  byUser.set(userId, keys);
  return keys;
}

/** SHOP-UPDATE-ZERO-REFUSED: the cart item keys an update-quantities sent with quantity 0, by request. */
const ZERO_REFUSED = new WeakMap<object, string[]>();

export const updateFirstOnly: Fault = {
  id: 'SHOP-UPDATE-FIRST-ONLY',
  iface: 'rest-v1-shop',
  // A loop that returns after its first cart_data entry: the other items of the request are answered
  // as updated but keep their quantity.
  before(req) {
    if (req.endpoint !== '/cart/update-quantities' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    if (isObject(body.cart_data)) {
      const [first] = Object.keys(body.cart_data);
      for (const k of Object.keys(body.cart_data)) if (k !== first) delete body.cart_data[k];
    }
    const flat = Object.keys(body).filter((k) => /^cart_data\[/.test(k));
    for (const k of flat.slice(1)) delete body[k];
  },
};

export const removeAnyCart: Fault = {
  id: 'SHOP-REMOVE-ANY-CART',
  iface: 'rest-v1-shop',
  // remove-item deletes the line by its key alone (no owner condition, which update-quantities has): the key of
  // another account's line is removed from that account's cart and answered as removed.
  after(res, req, ctx) {
    const raw = /^\/cart\/remove-item\/(.+)$/.exec(req.endpoint)?.[1];
    if (raw === undefined || !failed(res.body)) return;
    let key: string;
    try {
      key = decodeURIComponent(raw);
    } catch {
      return;
    }
    if (ctx.db.prepare('DELETE FROM shop_cart_items WHERE item_key = ?').run(key).changes === 0) return;
    res.status = 200;
    res.body = { ...res.body, status: true, errors: [], message: 'Item removed from cart.' };
  },
};

export const updateAnyCart: Fault = {
  id: 'SHOP-UPDATE-ANY-CART',
  iface: 'rest-v1-shop',
  // update-quantities sets the line by its key alone (no owner condition, which remove-item has): the key of another
  // account's line changes that account's cart and is answered as updated.
  async after(res, req, ctx) {
    if (req.endpoint !== '/cart/update-quantities' || !failed(res.body) || !isObject(res.body.errors)) return;
    const cartData = bodyOf(req.raw).body.cart_data;
    if (!isObject(cartData)) return;
    const entries = Object.entries(cartData);
    const keys = Object.keys(res.body.errors);
    if (entries.length === 0 || keys.length !== entries.length) return;
    const owned = ctx.db.prepare('SELECT 1 FROM shop_cart_items WHERE item_key = ?');
    const changes = entries.map(([key, raw]) => ({ key, quantity: /^\d{1,6}$/.test(String(raw)) ? Number(raw) : -1 }));
    if (changes.some((c) => c.quantity < 0 || !keys.includes(c.key) || !owned.get(c.key))) return;
    for (const c of changes)
      if (c.quantity === 0) ctx.db.prepare('DELETE FROM shop_cart_items WHERE item_key = ?').run(c.key);
      else ctx.db.prepare('UPDATE shop_cart_items SET quantity = ? WHERE item_key = ?').run(c.quantity, c.key);
    res.status = 200;
    res.body = { ...res.body, status: true, errors: [], message: 'Cart updated.' };
  },
};

export const updateZeroSkipsNext: Fault = {
  id: 'SHOP-UPDATE-ZERO-SKIPS-NEXT',
  iface: 'rest-v1-shop',
  // update-quantities walks the cart's lines by index and removes a line set to 0 with array_splice() inside the
  // loop without stepping back: the line after it slides into the removed index and is passed over, so its new
  // quantity in the same request is never applied, while the answer says the cart was updated. One line per request,
  // or a zero on the last line, reads as before.
  async before(req, ctx) {
    if (req.endpoint !== '/cart/update-quantities' || req.method !== 'POST') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const entries = new Map(cartDataEntries(req.raw.body).map((e) => [e.key, e]));
    const lines = cartLines(ctx.db, user.id).map((l) => l.item_key);
    for (let i = 0; i < lines.length; i++) {
      const entry = entries.get(lines[i] as string);
      if (!entry || int(entry.quantity) !== 0) continue;
      lines.splice(i, 1);
      // The loop's i++ passes over the line now at i, sent in the same request.
      entries.get(lines[i] as string)?.drop();
    }
  },
};

export const updateOwnerFirstKeyOnly: Fault = {
  id: 'SHOP-UPDATE-OWNER-FIRST-KEY-ONLY',
  iface: 'rest-v1-shop',
  // update-quantities checks that the request's cart belongs to the token by its first cart_data key (the owner of
  // that line), then sets every line by its key alone: a key of another account's line after one of the token's own
  // is trusted, its quantity set in that account's cart (0 removes it) and the request answered as updated. A first
  // key of another account is refused as before, and so is a request of one key.
  async before(req, ctx) {
    if (req.endpoint !== '/cart/update-quantities' || req.method !== 'POST') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const [first, ...rest] = cartDataEntries(req.raw.body);
    const ownerOf = ctx.db.prepare('SELECT user_id FROM shop_cart_items WHERE item_key = ?');
    const owner = (key: string) => (ownerOf.get(key) as { user_id: number } | undefined)?.user_id;
    if (!first || owner(first.key) !== user.id) return;
    for (const entry of rest) {
      const other = owner(entry.key);
      const quantity = int(entry.quantity);
      // An unreadable quantity is refused by the loop's own check, whoever's the line.
      if (other === undefined || other === user.id || quantity === undefined || quantity < 0) continue;
      if (quantity === 0) ctx.db.prepare('DELETE FROM shop_cart_items WHERE item_key = ?').run(entry.key);
      else ctx.db.prepare('UPDATE shop_cart_items SET quantity = ? WHERE item_key = ?').run(quantity, entry.key);
      entry.drop();
    }
  },
};

export const removedLineRestored: Fault = {
  id: 'SHOP-REMOVED-LINE-RESTORED',
  iface: 'rest-v1-shop',
  // remove-item calls WC()->cart->remove_cart_item(), which keeps the line in removed_cart_contents (for an "undo"
  // link); add-item first looks for the product's line there and, when it finds one, restore_cart_item()s it (so that
  // the app keeps the line's key) and then adds the quantity sent: a product added again after its line was removed
  // comes back with the removed line's quantity plus the one added. An order empties the removed contents with the cart.
  async before(req, ctx) {
    const key = /^\/cart\/remove-item\/(.+)$/.exec(req.endpoint)?.[1];
    if (key === undefined || req.method !== 'POST') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    let itemKey: string;
    try {
      itemKey = decodeURIComponent(key).trim();
    } catch {
      return;
    }
    const line = cartLines(ctx.db, user.id).find((l) => l.item_key === itemKey);
    if (line) REMOVING.set(req.raw, { userId: user.id, productId: line.product_id, quantity: line.quantity });
  },
  async after(res, req, ctx) {
    if (req.method !== 'POST' || !isObject(res.body) || res.body.status !== true) return;
    const removing = REMOVING.get(req.raw);
    if (removing) {
      removedLines(ctx, removing.userId).set(removing.productId, removing.quantity);
      return;
    }
    if (req.endpoint !== '/cart/add-item' && req.endpoint !== '/order/create') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const removed = removedLines(ctx, user.id);
    if (req.endpoint === '/order/create') {
      removed.clear();
      return;
    }
    const productId = int(bodyOf(req.raw).body.product_id);
    const restored = productId === undefined ? undefined : removed.get(productId);
    if (productId === undefined || restored === undefined) return;
    removed.delete(productId);
    ctx.db
      .prepare('UPDATE shop_cart_items SET quantity = quantity + ? WHERE user_id = ? AND product_id = ?')
      .run(restored, user.id, productId);
    const data = res.body.data;
    if (isObject(data) && typeof data.cart_item_count === 'number') data.cart_item_count += restored;
  },
};

export const updateErrorsLastKey: Fault = {
  id: 'SHOP-UPDATE-ERRORS-LAST-KEY',
  iface: 'rest-v1-shop',
  // update-quantities validates in a foreach over cart_data and only raises a flag and keeps the first message; after
  // the loop it writes $errors[$key] = $message with the loop variable, which PHP leaves on the LAST key of the array:
  // a request whose item at fault is not its last entry is refused with errors keyed by another (valid) key. A request
  // of one key, or whose last key is the one at fault, reads as before.
  after(res, req) {
    if (req.endpoint !== '/cart/update-quantities' || req.method !== 'POST' || !failed(res.body)) return;
    const entries = cartDataEntries(req.raw.body);
    const errors = res.body.errors;
    if (entries.length < 2 || !isObject(errors)) return;
    const sentKeys = new Set(entries.map((e) => e.key));
    const keys = Object.keys(errors);
    if (keys.length === 0 || !keys.every((k) => sentKeys.has(k))) return;
    const last = entries[entries.length - 1]!.key;
    res.body.errors = { [last]: errors[keys[0] as string] };
  },
};

export const updateSetThenCheck: Fault = {
  id: 'SHOP-UPDATE-SET-THEN-CHECK',
  iface: 'rest-v1-shop',
  // update-quantities writes each entry through WC_Cart::set_quantity() (intval of what was sent; 0 or less removes the
  // line) and only then validates, by comparing each line's stored quantity with the value sent: a refused request
  // (a quantity that is not an integer, a negative one, or a key that is not in the cart beside the own lines) has
  // already changed the cart. "2.5" leaves 2, "abc" and "-2" remove the line, while the answer is status false keyed
  // by the key. A request the reference accepts reads as before.
  async after(res, req, ctx) {
    if (req.endpoint !== '/cart/update-quantities' || req.method !== 'POST' || !failed(res.body)) return;
    if (!isObject(res.body.errors) || Object.keys(res.body.errors).length === 0) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const entries = isObject(req.raw.body) ? cartDataEntries(req.raw.body) : [];
    const own = new Map(cartLines(ctx.db, user.id).map((l) => [l.item_key, l]));
    let changed = false;
    for (const { key, quantity } of entries) {
      const line = own.get(key);
      if (!line || (typeof quantity !== 'string' && typeof quantity !== 'number')) continue;
      const m = /^\s*[+-]?\d+/.exec(String(quantity));
      const q = m ? Number.parseInt(m[0], 10) : 0; // PHP's intval(): the leading integer, 0 when none
      if (q === line.quantity || (line.stock_quantity !== null && q > line.stock_quantity) || q > 9999) continue;
      if (q <= 0) ctx.db.prepare('DELETE FROM shop_cart_items WHERE user_id = ? AND item_key = ?').run(user.id, key);
      else ctx.db.prepare('UPDATE shop_cart_items SET quantity = ? WHERE user_id = ? AND item_key = ?').run(q, user.id, key);
      changed = true;
    }
    const data = res.body.data;
    if (changed && isObject(data) && typeof data.cart_item_count === 'number')
      data.cart_item_count = cartLines(ctx.db, user.id).reduce((n, l) => n + l.quantity, 0);
  },
};

export const updateCountBeforeWrite: Fault = {
  id: 'SHOP-UPDATE-COUNT-BEFORE-WRITE',
  iface: 'rest-v1-shop',
  // update-quantities writes each line with WC()->cart->set_quantity( $key, $quantity, false ) (no totals refresh per
  // line, to spare the recalculation) and answers cart_item_count from the totals the session holds (cart_contents_count),
  // which only calculate_totals() refreshes and this handler never calls: the count answered is the one from before
  // the update. The cart itself holds the new quantities; add-item and remove-item refresh their totals and read as before.
  async before(req, ctx) {
    if (req.endpoint !== '/cart/update-quantities' || req.method !== 'POST') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const row = ctx.db.prepare('SELECT COALESCE(SUM(quantity), 0) AS n FROM shop_cart_items WHERE user_id = ?').get(user.id) as {
      n: number;
    };
    COUNT_BEFORE_UPDATE.set(req.raw, row.n);
  },
  after(res, req) {
    const before = COUNT_BEFORE_UPDATE.get(req.raw);
    if (before === undefined || !isObject(res.body) || res.body.status !== true || !isObject(res.body.data)) return;
    if (typeof res.body.data.cart_item_count === 'number') res.body.data.cart_item_count = before;
  },
};

export const removeRemovedKeySucceeds: Fault = {
  id: 'SHOP-REMOVE-REMOVED-KEY-SUCCEEDS',
  iface: 'rest-v1-shop',
  // remove-item answers `WC()->cart->remove_cart_item( $key ) || isset( WC()->cart->removed_cart_contents[ $key ] )`:
  // the second test was meant to answer a double tap of the app's delete button as done, but removed_cart_contents
  // keeps every line taken out (by remove-item or by a quantity of 0) until an order empties the cart, so remove-item of
  // a key removed earlier answers status true, "Item removed from cart.", though the cart holds nothing under that key.
  // Keys never in the cart, and other accounts' keys, are refused as before.
  async after(res, req, ctx) {
    if (req.method !== 'POST' || !isObject(res.body)) return;
    const removing = /^\/cart\/remove-item\/(.+)$/.exec(req.endpoint)?.[1];
    const updating = req.endpoint === '/cart/update-quantities';
    const ordering = req.endpoint === '/order/create';
    if (removing === undefined && !updating && !ordering) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const removed = removedKeys(ctx, user.id);
    if (ordering) {
      if (res.body.status === true) removed.clear();
      return;
    }
    if (updating) {
      if (res.body.status === true)
        for (const { key, quantity } of cartDataEntries(req.raw.body)) if (int(quantity) === 0) removed.add(key);
      return;
    }
    let key: string;
    try {
      key = decodeURIComponent(removing ?? '').trim();
    } catch {
      return;
    }
    if (res.body.status === true) removed.add(key);
    else if (removed.has(key) && !cartLines(ctx.db, user.id).some((l) => l.item_key === key)) {
      res.body.status = true;
      res.body.errors = [];
      res.body.message = 'Item removed from cart.';
    }
  },
};

export const updateZeroRefused: Fault = {
  id: 'SHOP-UPDATE-ZERO-REFUSED',
  iface: 'rest-v1-shop',
  // update-quantities checks each entry with `if ( empty( $quantity ) ) $errors[ $key ] = 'Quantity is required.'`
  // before its intval() and range checks: PHP's empty() is true for "0", so the quantity 0 that the document makes the
  // way to remove a line is refused as missing (status false, errors keyed by the key), and the request changes nothing.
  // Quantities other than 0 read as before.
  before(req) {
    if (req.endpoint !== '/cart/update-quantities' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const zero = cartDataEntries(req.raw.body).filter((e) => e.quantity === '0' || e.quantity === 0);
    if (zero.length === 0) return;
    ZERO_REFUSED.set(
      req.raw,
      zero.map((e) => e.key),
    );
    const body = req.raw.body;
    for (const e of zero) {
      if (isObject(body.cart_data) && e.key in body.cart_data) body.cart_data[e.key] = 'required';
      else if (`cart_data[${e.key}]` in body) body[`cart_data[${e.key}]`] = 'required';
    }
  },
  after(res, req) {
    const keys = ZERO_REFUSED.get(req.raw);
    if (!keys || !failed(res.body) || !isObject(res.body.errors)) return;
    const errors = res.body.errors;
    for (const k of keys) if (k in errors) errors[k] = 'Quantity is required.';
  },
};

export const countLinesOnChange: Fault = {
  id: 'SHOP-COUNT-LINES-ON-CHANGE',
  iface: 'rest-v1-shop',
  // add-item answers cart_item_count with WC()->cart->get_cart_contents_count() (the sum of the quantities), while
  // remove-item and update-quantities, written later from another snippet, answer `count( WC()->cart->get_cart() )`
  // (the number of lines): one cart of a line of quantity 3 is counted 3 after add-item and 1 after an update. A cart
  // whose lines all hold quantity 1 reads as before.
  async after(res, req, ctx) {
    if (!req.endpoint.startsWith('/cart/remove-item') && req.endpoint !== '/cart/update-quantities') return;
    const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;
    if (!data || typeof data.cart_item_count !== 'number') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    data.cart_item_count = cartLines(ctx.db, user.id).length;
  },
};

/** SHOP-UPDATE-UNCHANGED-REFUSED: the cart item keys an update-quantities set to the quantity their line already had, by request. */
const UNCHANGED_KEYS = new WeakMap<object, string[]>();

export const updateUnchangedRefused: Fault = {
  id: 'SHOP-UPDATE-UNCHANGED-REFUSED',
  iface: 'rest-v1-shop',
  // update-quantities writes each line of the add-on's cart table with `$updated = $wpdb->update( $table,
  // array( 'quantity' => $quantity ), array( 'user_id' => $user_id, 'cart_item_key' => $key ) );` and answers
  // `if ( ! $updated ) $errors[ $key ] = __( 'Invalid cart item key.' );`, meant for a key that is not in the cart. But
  // $wpdb->update() returns the number of rows MySQL changed, not the number it matched: a line set to the quantity it
  // already has changes no row, returns 0, and the request answers status false with errors keyed by that line's key,
  // though the key is in the cart and the quantity valid (the other lines of the request are written). A quantity of 0
  // goes through a DELETE and reads as before, and so does any quantity that changes the line.
  async before(req, ctx) {
    if (req.endpoint !== '/cart/update-quantities' || req.method !== 'POST') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const held = new Map(cartLines(ctx.db, user.id).map((l) => [l.item_key, l.quantity]));
    const same = cartDataEntries(req.raw.body)
      .filter((e) => {
        const q = int(e.quantity);
        return q !== undefined && q > 0 && held.get(e.key) === q;
      })
      .map((e) => e.key);
    if (same.length > 0) UNCHANGED_KEYS.set(req.raw, same);
  },
  after(res, req) {
    const same = UNCHANGED_KEYS.get(req.raw);
    if (!same || !isObject(res.body) || res.body.status !== true) return;
    res.body = {
      ...res.body,
      status: false,
      errors: Object.fromEntries(same.map((k) => [k, 'Invalid cart item key.'])),
      message: 'Cart could not be updated.',
    };
  },
};

interface SessionTotals {
  subtotal: number;
  discount: number;
  total: number;
}

/** SHOP-REMOVE-TOTALS-STALE: each account's session totals left from before a remove-item, by database. */
const STALE_TOTALS = new WeakMap<object, Map<number, SessionTotals>>();

/** SHOP-REMOVE-TOTALS-STALE: the account and its cart's totals as a remove-item found them, by request. */
const TOTALS_BEFORE_REMOVE = new WeakMap<object, { userId: number; totals: SessionTotals }>();

function staleTotals(ctx: AppContext): Map<number, SessionTotals> {
  const byUser = STALE_TOTALS.get(ctx.db) ?? new Map<number, SessionTotals>();
  STALE_TOTALS.set(ctx.db, byUser);
  return byUser;
}

export const removeTotalsStale: Fault = {
  id: 'SHOP-REMOVE-TOTALS-STALE',
  iface: 'rest-v1-shop',
  // GET /cart answers cart_totals from WC()->cart->get_totals(), the totals the session holds, and recalculates only
  // when coupons are sent (apply_coupon() calls calculate_totals()). add-item calls calculate_totals() after
  // add_to_cart(), update-quantities refreshes through set_quantity( $key, $quantity, true ), but remove-item calls
  // remove_cart_item(), which does not: after a remove-item, GET /cart lists the lines left with cart_totals still
  // counting the removed line (subtotal, cart_contents_total and total from before the removal), until the next
  // add-item, update-quantities, order or read with coupons. The lines, cart_item_count and reads with coupons are right.
  async before(req, ctx) {
    if (req.method !== 'POST' || !/^\/cart\/remove-item(\/|$)/.test(req.endpoint)) return;
    const user = await identify(req.raw, ctx);
    if ('status' in user) return;
    const priced = priceCart(ctx.db, cartLines(ctx.db, user.id), []);
    TOTALS_BEFORE_REMOVE.set(req.raw, {
      userId: user.id,
      totals: { subtotal: priced.subtotal, discount: priced.discount, total: priced.total },
    });
  },
  async after(res, req, ctx) {
    const stale = staleTotals(ctx);
    const removing = TOTALS_BEFORE_REMOVE.get(req.raw);
    if (removing) {
      // The session keeps the totals of its last recalculation: those before the first of several removals.
      if (isObject(res.body) && res.body.status === true && !stale.has(removing.userId))
        stale.set(removing.userId, removing.totals);
      return;
    }
    const recalculates = ['/cart/add-item', '/cart/update-quantities', '/order/create'].includes(req.endpoint);
    if (!recalculates && req.endpoint !== '/cart') return;
    const user = await identify(req.raw, ctx);
    if ('status' in user || !stale.has(user.id)) return;
    if (recalculates || couponCodes(params(req.raw, {})).codes.length > 0) {
      stale.delete(user.id);
      return;
    }
    const totals = stale.get(user.id);
    if (totals && isObject(res.body) && res.body.status === true && isObject(res.body.data))
      res.body.data.cart_totals = cartTotals(totals);
  },
};

export const updateFailureNoMessage: Fault = {
  id: 'SHOP-UPDATE-FAILURE-NO-MESSAGE',
  iface: 'rest-v1-shop',
  // update-quantities starts with `$message = '';` and sets it inside its loop, on the line that was updated
  // (`$message = __( 'Cart updated.' );`); a key that is not in the cart only adds `$errors[ $key ]` and `continue`s. The
  // refusal `return $this->response( false, $errors, $message );` then goes out with an empty message whenever no line
  // of the request was written: errors are keyed by the cart item key as the document asks, but the general failure
  // text is "". The refusals before the loop (no cart_data, a body that cannot be read) carry their message as before.
  after(res, req) {
    if (req.endpoint !== '/cart/update-quantities' || !failed(res.body) || !isObject(res.body.errors)) return;
    const keys = Object.keys(res.body.errors);
    if (keys.length === 0 || keys.some((k) => ['cart_data', 'coupons', 'body'].includes(k))) return;
    // A request with a line the loop could write would have set the message: only refusals of every key sent.
    if (cartDataEntries(req.raw.body).some((e) => !keys.includes(e.key))) return;
    res.body.message = '';
  },
};
