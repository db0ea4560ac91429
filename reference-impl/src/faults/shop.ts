import type { AppContext } from '../context.js';
import { bodyOf, int, str } from '../http/body.js';
import { hashPassword } from '../passwords.js';
import { cartTotals } from '../shop/cart.js';
import { PAGE_SIZE } from '../shop/catalog.js';
import { currencyCode, identify, money, now, params, type ShopUser } from '../shop/common.js';
import { cartLines, couponCodes, priceCart } from '../shop/pricing.js';
import {
  AnswerCache,
  bcryptInput,
  dateFromGmt,
  htmlspecialchars,
  InFlight,
  isNumeric,
  likeRegex,
  numberFormat,
  pause,
  phpFloat,
  rawurldecode,
  SITE_OFFSET_MINUTES,
  urldecode,
  utf8mb3,
} from './emulation.js';
import { bodyField, eachObject, type Fault, type FaultRequest, type FaultResponse, isObject, isoOf, mapKey } from './model.js';
import { defaultUserToken, hs256Of, restoreToken } from './tokens.js';

const FIRST_USER_SQL = 'SELECT id FROM shop_users ORDER BY id LIMIT 1';
const failed = (body: unknown): body is Record<string, unknown> => isObject(body) && body.status === false;
const isCart = (req: FaultRequest) => req.endpoint === '/cart' && req.method === 'GET';

/** A listing parameter dropped wherever it was sent (query or body). */
function ignoreParam(req: FaultRequest, name: string, replacement?: string): void {
  if (req.endpoint !== '/products') return;
  for (const holder of [req.query, req.raw.body]) {
    if (!isObject(holder) || !(name in holder)) continue;
    if (replacement === undefined) delete holder[name];
    else holder[name] = replacement;
  }
}

/** The errors object of a refused request whose keys all lie in `fields` (a validation refusal of those fields only). */
function refusedFor(body: unknown, fields: readonly string[]): boolean {
  if (!failed(body) || !isObject(body.errors)) return false;
  const keys = Object.keys(body.errors);
  return keys.length > 0 && keys.every((k) => fields.includes(k));
}

/** The billing fields of order create that the order stores (B. Shop variant), besides the payment method. */
const BILLING = ['first_name', 'last_name', 'country', 'city', 'state', 'postcode', 'phone', 'email', 'address_1'] as const;

/** WordPress remove_accents(), meant for slugs and usernames: Latin letters lose their accents, other scripts stay. */
const LETTERS: Record<string, string> = {
  Ø: 'O',
  ø: 'o',
  Æ: 'AE',
  æ: 'ae',
  ß: 's',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Œ: 'OE',
  œ: 'oe',
};
function removeAccents(v: string): string {
  return v
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ØøÆæßŁłĐđŒœ]/g, (c) => LETTERS[c] ?? c);
}

/** The search keywords a request carried, taken off it before the query (SHOP-SEARCH-AFTER-PAGING). */
const HELD_SEARCH = new WeakMap<object, string[]>();

/** A listing parameter sent in the query or the body, non-empty. */
const sent = (req: FaultRequest, name: string): boolean =>
  [req.query, req.raw.body].some((h) => isObject(h) && h[name] !== undefined && h[name] !== '');

async function hs256Tokens(body: unknown, ctx: AppContext): Promise<void> {
  const key = `${ctx.vendor}_token`;
  if (isObject(body) && typeof body[key] === 'string') body[key] = await hs256Of(body[key]);
}

/** Registers in flight, by lower-case username and e-mail (SHOP-REGISTER-RACE-DUPLICATE). */
const REGISTERING = new InFlight<object>();
/** Registers that overlapped an identical one. */
const RACED = new WeakSet<object>();
/**
 * The time between the handler's existence check and its insert (wp_hash_password, then user and meta rows written
 * one by one); long enough that two registers sent at once overlap also on a loaded machine (two fault runs on two cores).
 */
const CHECK_TO_INSERT_MS = 80;

/** The product summary of Part 2, as the listing writes it (id, type, name, image, prices, sku). */
function productSummary(p: Record<string, unknown>) {
  const sale = p.sale_cents as number | null;
  const regular = p.regular_cents as number;
  return {
    id: p.id,
    type: p.type,
    name: p.name,
    image: p.image,
    price: money(sale ?? regular),
    regular_price: money(regular),
    sale_price: sale === null ? '' : money(sale),
    sku: p.sku,
  };
}

/** The success answer of register for `user` (a token and the user record without the names), as the handler gives it. */
async function registeredAnswer(ctx: AppContext, user: ShopUser, email = user.user_email) {
  return {
    status: true,
    errors: [],
    message: 'Registration successful.',
    [`${ctx.vendor}_token`]: await ctx.tokens.sign(String(user.id), 'shop', { user_login: user.user_login, last_login: now() }),
    user: {
      ID: String(user.id),
      user_login: user.user_login,
      user_nicename: user.user_nicename,
      user_email: email,
      user_url: user.user_url,
      user_registered: user.user_registered,
      user_activation_key: user.user_activation_key,
      user_status: String(user.user_status),
      display_name: user.display_name,
    },
  };
}

/** The raw value of a query parameter as the URL carries it (percent-encoded, + as sent); undefined when absent. */
function rawQueryValue(url: string, name: string): string | undefined {
  const query = url.split('?')[1] ?? '';
  const pair = query.split('&').find((p) => p.split('=')[0] === name);
  return pair?.slice(name.length + 1);
}

/** GET /cart answers by request URI, by database, as the add-on's transients hold them, with the customer each was built for (SHOP-CART-CACHED-BY-URI). */
interface CachedCart {
  owner: number;
  status: number;
  body: unknown;
}
/** The transient's lifetime is a few seconds, enough to spare the totals' recalculation on an app's burst of reads. */
const CART_CACHE = new AnswerCache<CachedCart>(5_000);

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

/** GET /orders answers by customer and request URI, as the add-on's transients hold them (SHOP-ORDERS-LIST-STALE). */
const ORDERS_CACHE = new AnswerCache<{ status: number; body: unknown }>(10_000);

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

/** SHOP-ADD-ZERO-NEW-LINE: add-items of quantity 0 let through to the new-line branch, by request. */
const ZERO_ADDS = new WeakMap<object, { userId: number; productId: number }>();
/** SHOP-REGISTER-EMPTY-NAMES: the names a register sent empty, by request, stood in for while the handler checks them. */
const EMPTY_NAMES = new WeakMap<object, string[]>();
/** Order create bodies whose phone passed as numeric and 10 bytes long: the phone as sent. */
const NUMERIC_PHONES = new WeakMap<object, string>();
/** Register bodies whose username passed the pattern with a line feed at its end: the name as sent. */
const NEWLINE_USERNAMES = new WeakMap<object, string>();

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

/** PHP's empty() of a request value: true for a missing value, "", "0", 0 (what a `! empty()` guard passes over). */
const phpEmpty = (v: unknown): boolean => v === undefined || v === null || v === '' || v === '0' || v === 0 || v === false;
/** SHOP-UPDATE-ZERO-REFUSED: the cart item keys an update-quantities sent with quantity 0, by request. */
const ZERO_REFUSED = new WeakMap<object, string[]>();

/** The listing's price bounds as sent (query or body; a body value wins, as the handler reads them), "" as not sent. */
function priceBounds(req: FaultRequest): { from?: string; to?: string } {
  const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
  const bound = (v: unknown) => ((typeof v === 'string' || typeof v === 'number') && String(v) !== '' ? String(v) : undefined);
  const [from, to] = [bound(q.price_from), bound(q.price_to)];
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

const PRICE_BOUNDS = ['price_from', 'price_to'] as const;

/** The marker of a listing the emulation asks of the reference itself, which the fault leaves alone. */
const INNER_LISTING = 'x-sfc-fault-inner';

/**
 * A listing answered again with another filter: every page of the same request without the parameters `drop` names is
 * asked of the reference (marked as inner), the products `select` makes of them are paged as the handler pages, and the
 * answer is rewritten to that page. A validation refusal (a bound that is no amount, a bad page) is left as it is.
 */
async function relist(
  res: FaultResponse,
  req: FaultRequest,
  drop: readonly string[],
  select: (listed: Record<string, unknown>[]) => Record<string, unknown>[],
): Promise<void> {
  if (req.endpoint !== '/products' || req.raw.headers[INNER_LISTING] !== undefined || !isObject(res.body)) return;
  const errors = res.body.errors;
  const data = res.body.data;
  if ((isObject(errors) && Object.keys(errors).length > 0) || !isObject(data)) return;
  const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
  const page = Number(q.page);
  if (!Number.isInteger(page) || page < 1) return;
  const body: Record<string, unknown> = isObject(req.raw.body) ? { ...req.raw.body } : {};
  for (const name of drop) delete body[name];
  const all: Record<string, unknown>[] = [];
  for (let n = 1; n <= 100; n++) {
    const url = new URL(req.raw.url, 'http://reference');
    for (const name of drop) url.searchParams.delete(name);
    if (req.method === 'GET') url.searchParams.set('page', String(n));
    const inner = await req.raw.server.inject({
      method: req.method as 'GET' | 'POST',
      url: `${url.pathname}${url.search}`,
      headers: {
        ...(Object.fromEntries(Object.entries(req.raw.headers).filter(([k]) => k.endsWith('_token'))) as Record<string, string>),
        [INNER_LISTING]: '1',
      },
      ...(req.method === 'GET' ? {} : { payload: { ...body, page: String(n) } }),
    });
    const listed = (JSON.parse(inner.body) as { data?: { products?: unknown[]; total_pages?: number } }).data;
    if (!Array.isArray(listed?.products) || listed.products.length === 0) break;
    all.push(...listed.products.filter(isObject));
    if (n >= (listed.total_pages ?? 0)) break;
  }
  const kept = select(all);
  const products = kept.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const listing = { ...data, total_pages: products.length > 0 ? Math.ceil(kept.length / PAGE_SIZE) : 0, products };
  res.status = 200;
  res.body =
    products.length > 0
      ? { status: true, errors: [], message: 'Products found.', data: listing }
      : { status: false, errors: [], message: 'No products found.', data: listing };
}

/** SHOP-LOGIN-UNKNOWN-CACHED: the add-on's cached lookups of a login name that found no account (5 minutes, by database). */
const LOGIN_MISSES = new AnswerCache<true>(300_000);

/** Document 2 variant B (shop): faults of a WooCommerce REST add-on. */
export const shopFaults: Fault[] = [
  { id: 'SHOP-QTY-ZERO-KEPT', iface: 'rest-v1-shop', inHandler: 'reference-impl/src/shop/cart.ts' },
  {
    id: 'SHOP-TOTAL-OFF',
    iface: 'rest-v1-shop',
    // A shipping fee added to total but never reported in shipping_total.
    after(res, req) {
      const totals = isObject(res.body) && isObject(res.body.data) ? res.body.data.cart_totals : undefined;
      if (isCart(req) && isObject(totals) && typeof totals.total === 'string')
        totals.total = (Number(totals.total) + 5).toFixed(2);
    },
  },
  {
    id: 'SHOP-PRODUCT-ID-STRING',
    iface: 'rest-v1-shop',
    after(res, req) {
      const products = isObject(res.body) && isObject(res.body.data) ? res.body.data.products : undefined;
      if (req.endpoint === '/products' && Array.isArray(products))
        for (const p of products) if (isObject(p) && typeof p.id === 'number') p.id = String(p.id);
    },
  },
  { id: 'SHOP-PAGE-IGNORED', iface: 'rest-v1-shop', before: (req) => ignoreParam(req, 'page', '1') },
  { id: 'SHOP-SEARCH-IGNORED', iface: 'rest-v1-shop', before: (req) => ignoreParam(req, 'search') },
  { id: 'SHOP-CATEGORY-IGNORED', iface: 'rest-v1-shop', before: (req) => ignoreParam(req, 'categories') },
  {
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
  },
  {
    id: 'SHOP-HS256-TOKEN',
    iface: 'rest-v1-shop',
    before: (req, ctx) => restoreToken(req, `${ctx.vendor}_token`),
    after: (res, _req, ctx) => hs256Tokens(res.body, ctx),
  },
  {
    id: 'SHOP-TOKEN-UNCHECKED',
    iface: 'rest-v1-shop',
    before: (req, ctx) => defaultUserToken(req, ctx, `${ctx.vendor}_token`, 'shop', FIRST_USER_SQL),
  },
  {
    id: 'SHOP-ISO-REGISTERED',
    iface: 'rest-v1-shop',
    after: (res) => mapKey(res.body, 'user_registered', isoOf),
  },
  {
    id: 'SHOP-COUNT-STRING',
    iface: 'rest-v1-shop',
    after: (res) => mapKey(res.body, 'cart_item_count', (v) => (typeof v === 'number' ? String(v) : v)),
  },
  {
    id: 'SHOP-EMPTY-CART-TRUE',
    iface: 'rest-v1-shop',
    after(res, req) {
      if (isCart(req) && failed(res.body) && res.status === 200 && /empty/i.test(String(res.body.message))) {
        res.body.status = true;
        res.body.message = 'Cart details.';
      }
    },
  },
  {
    id: 'SHOP-ERRORS-LIST',
    iface: 'rest-v1-shop',
    after(res) {
      if (failed(res.body) && isObject(res.body.errors) && Object.keys(res.body.errors).length > 0)
        res.body.errors = Object.values(res.body.errors).map(String);
    },
  },
  {
    id: 'SHOP-ORDER-DATE-STRING',
    iface: 'rest-v1-shop',
    after(res, req) {
      if (req.endpoint !== '/orders') return;
      for (const k of ['date_created', 'date_modified'])
        mapKey(res.body, k, (v) => (isObject(v) && typeof v.date === 'string' ? v.date.slice(0, 19) : v));
    },
  },
  {
    id: 'SHOP-QTY-TEXT-500',
    iface: 'rest-v1-shop',
    after(res, req) {
      const errors = failed(res.body) ? res.body.errors : undefined;
      if (req.endpoint === '/cart/add-item' && isObject(errors) && 'quantity' in errors) {
        res.status = 500;
        res.body = '<b>Fatal error</b>: Uncaught TypeError: WC_Cart::add_to_cart(): Argument #2 must be of type int';
      }
    },
  },
  {
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
  },
  {
    id: 'SHOP-PAGES-UNFILTERED',
    iface: 'rest-v1-shop',
    // total_pages from the published product count (wp_count_posts), whatever the filters matched.
    after(res, req, ctx) {
      const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;
      if (req.endpoint !== '/products' || !data || typeof data.total_pages !== 'number' || data.total_pages === 0) return;
      const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM shop_products').get() as { n: number };
      data.total_pages = Math.ceil(n / PAGE_SIZE);
    },
  },
  {
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
  },
  {
    id: 'SHOP-NAME-ACCENTS-STRIPPED',
    iface: 'rest-v1-shop',
    // Register runs first_name and last_name through the username sanitizer (remove_accents): "Zoë" is stored as "Zoe".
    before(req) {
      if (req.endpoint !== '/auth/register') return;
      for (const name of ['first_name', 'last_name']) {
        const field = bodyField(req.raw.body, name);
        if (typeof field.value === 'string') field.set(removeAccents(field.value));
      }
    },
  },
  {
    id: 'SHOP-SEARCH-AFTER-PAGING',
    iface: 'rest-v1-shop',
    // The catalog page is fetched without the search, then filtered by name and sku: a match on another
    // page of the catalog is never listed, and total_pages stays the catalog's.
    before(req) {
      if (req.endpoint !== '/products') return;
      const words: string[] = [];
      for (const holder of [req.query, req.raw.body]) {
        if (!isObject(holder) || !('search' in holder)) continue;
        if (typeof holder.search === 'string') words.push(...holder.search.toLowerCase().split(/\s+/).filter(Boolean));
        delete holder.search;
      }
      if (words.length > 0) HELD_SEARCH.set(req.raw, words);
    },
    after(res, req) {
      const words = HELD_SEARCH.get(req.raw);
      const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;
      if (!words || !data || !Array.isArray(data.products)) return;
      const products = data.products.filter(
        (p) => isObject(p) && words.every((w) => `${String(p.name)} ${String(p.sku)}`.toLowerCase().includes(w)),
      );
      if (products.length > 0) data.products = products;
      else res.body = { status: false, errors: [], message: 'No products found.', data: { ...data, total_pages: 0, products } };
    },
  },
  {
    id: 'SHOP-PRICE-BOTH-BOUNDS',
    iface: 'rest-v1-shop',
    // The price meta query is added only when both bounds are sent: price_from or price_to alone is ignored.
    before(req) {
      if (req.endpoint !== '/products' || sent(req, 'price_from') === sent(req, 'price_to')) return;
      for (const name of ['price_from', 'price_to']) ignoreParam(req, name);
    },
  },
  {
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
  },
  {
    id: 'SHOP-REGISTER-NAMES-AFTER-INSERT',
    iface: 'rest-v1-shop',
    // The account is created (wp_create_user with username, password and email) before the names are checked and
    // set: a register refused for a missing first_name or last_name leaves the account behind, so its login works.
    async after(res, req, ctx) {
      if (req.endpoint !== '/auth/register' || !refusedFor(res.body, ['first_name', 'last_name'])) return;
      const { body } = bodyOf(req.raw);
      const [username, email, password] = [str(body.username), str(body.email), str(body.password)];
      if (!username || !email || !password) return;
      const taken = ctx.db
        .prepare('SELECT 1 FROM shop_users WHERE user_login = ? COLLATE NOCASE OR user_email = ? COLLATE NOCASE')
        .get(username, email);
      if (taken) return;
      const [first, last] = [str(body.first_name) ?? '', str(body.last_name) ?? ''];
      ctx.db
        .prepare(
          `INSERT INTO shop_users (user_login, user_email, user_pass, user_nicename, user_registered, display_name, first_name, last_name)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(username, email, await hashPassword(password), username.toLowerCase(), now(), username, first, last);
    },
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    id: 'SHOP-NAME-ASTRAL-STRIPPED',
    iface: 'rest-v1-shop',
    // The user meta table is utf8 (utf8mb3): wpdb strips what its columns cannot store, so a character outside the
    // BMP (an emoji) leaves first_name and last_name while the register answers success.
    before(req) {
      if (req.endpoint !== '/auth/register') return;
      for (const name of ['first_name', 'last_name']) {
        const field = bodyField(req.raw.body, name);
        if (typeof field.value === 'string') field.set(utf8mb3(field.value, 'stripped'));
      }
    },
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    id: 'SHOP-REGISTER-RACE-DUPLICATE',
    iface: 'rest-v1-shop',
    // register checks that the username and e-mail are free, then inserts, with no UNIQUE index and no lock in
    // between: two identical registers sent together both pass the check, and both create the account. Emulated at the
    // edge (the reference's table has the constraints): a register that overlapped an identical one and was refused
    // as taken is answered as the racing handler answers, with a token and the user record.
    async before(req, ctx) {
      if (req.endpoint !== '/auth/register' || req.method !== 'POST') return;
      const { body } = bodyOf(req.raw);
      const [username, email] = [str(body.username), str(body.email)];
      if (!username || !email) return;
      const key = `${username.toLowerCase()}\n${email.toLowerCase()}`;
      const twins = REGISTERING.begin(ctx.db, key, req.raw);
      for (const twin of twins) RACED.add(twin);
      if (twins.length > 0) RACED.add(req.raw);
      await pause(CHECK_TO_INSERT_MS);
    },
    async after(res, req, ctx) {
      const key = REGISTERING.end(req.raw);
      if (key === undefined) return;
      if (!RACED.has(req.raw) || !refusedFor(res.body, ['username', 'email']) || !isObject(res.body)) return;
      if (!Object.values(res.body.errors as Record<string, unknown>).every((m) => /exist/i.test(String(m)))) return;
      const [username, email] = key.split('\n');
      const user = ctx.db.prepare('SELECT * FROM shop_users WHERE user_login = ? AND user_email = ?').get(username, email) as
        | ShopUser
        | undefined;
      if (!user) return;
      res.status = 200;
      res.body = await registeredAnswer(ctx, user);
    },
  },
  {
    id: 'SHOP-CATEGORIES-FIRST-ONLY',
    iface: 'rest-v1-shop',
    // categories is read as one slug (explode(',', $categories)[0]): the other slugs of the comma list are dropped.
    before(req) {
      if (req.endpoint !== '/products') return;
      for (const holder of [req.query, req.raw.body]) {
        if (!isObject(holder)) continue;
        const value = holder.categories;
        if (typeof value === 'string') holder.categories = value.split(',')[0];
        else if (Array.isArray(value) && value.length > 0) holder.categories = String(value[0]).split(',')[0];
      }
    },
  },
  {
    id: 'SHOP-SEARCH-LIKE-WILDCARDS',
    iface: 'rest-v1-shop',
    // Each keyword goes into LIKE '%<keyword>%' without $wpdb->esc_like(): "_" in a keyword matches any one character
    // and "%" any run of them, so a search for "swe_tshirt" lists the Sweatshirt. Emulated after the handler for a
    // listing filtered by search alone (other filters keep the handler's answer): the keywords are matched again with
    // the wildcards live, over the fields the handler searches, and paged as it pages.
    after(res, req, ctx) {
      if (req.endpoint !== '/products' || !isObject(res.body) || !isObject(res.body.data)) return;
      const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
      const keywords = (str(q.search) ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 10);
      if (!keywords.some((k) => /[%_]/.test(k)) || Object.keys(q).some((k) => k !== 'search' && k !== 'page')) return;
      const page = Number(q.page);
      if (!Number.isInteger(page) || page < 1) return;
      const patterns = keywords.map((k) => likeRegex(k));
      const rows = (ctx.db.prepare('SELECT * FROM shop_products ORDER BY id').all() as Record<string, unknown>[]).filter((p) => {
        const texts = [p.name, p.short_description, p.description, p.sku].map((t) => String(t).toLowerCase());
        return patterns.every((re) => texts.some((t) => re.test(t)));
      });
      const products = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map(productSummary);
      const data = { ...res.body.data, total_pages: products.length > 0 ? Math.ceil(rows.length / PAGE_SIZE) : 0, products };
      res.status = 200;
      res.body =
        products.length > 0
          ? { status: true, errors: [], message: 'Products found.', data }
          : { status: false, errors: [], message: 'No products found.', data };
    },
  },
  {
    id: 'SHOP-EMAIL-PLUS-DECODED',
    iface: 'rest-v1-shop',
    // register runs the e-mail through urldecode() before sanitize_email(), though the form was decoded already: the
    // "+" of a sub-address becomes a space, which sanitize_email drops, so "ann+shop@example.test" is stored (and
    // answered) as "annshop@example.test" while the register answers success.
    before(req) {
      if (req.endpoint !== '/auth/register') return;
      const field = bodyField(req.raw.body, 'email');
      if (typeof field.value !== 'string' || !/[+%]/.test(field.value)) return;
      field.set(urldecode(field.value).replace(/\s+/g, ''));
    },
  },
  {
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
  },
  {
    id: 'SHOP-REGISTER-EMAIL-UNTRIMMED-CHECK',
    iface: 'rest-v1-shop',
    // register looks the email up as sent (WHERE user_email = <raw>), then stores it through sanitize_email, which
    // drops the whitespace: " ann@example.test" passes the check and registers a second account with ann's email.
    // Emulated after the handler, which trims first and refuses: the account is inserted under the email as sent (the
    // reference's column is UNIQUE) and answered with the email as the vendor stores it.
    async after(res, req, ctx) {
      if (req.endpoint !== '/auth/register' || !refusedFor(res.body, ['email']) || !isObject(res.body)) return;
      if (!/exist/i.test(String((res.body.errors as Record<string, unknown>).email))) return;
      const { body } = bodyOf(req.raw);
      const sentEmail = typeof body.email === 'string' ? body.email : '';
      const [username, email, password] = [str(body.username), str(body.email), body.password];
      if (!username || !email || email === sentEmail || typeof password !== 'string') return;
      const at = now();
      const [first, last] = [str(body.first_name) ?? '', str(body.last_name) ?? ''];
      const id = ctx.db
        .prepare(
          `INSERT INTO shop_users (user_login, user_email, user_pass, user_nicename, user_registered, display_name, first_name, last_name)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          username,
          sentEmail,
          await hashPassword(password),
          username.toLowerCase(),
          at,
          `${first} ${last}`,
          first,
          last,
        ).lastInsertRowid;
      const user = ctx.db.prepare('SELECT * FROM shop_users WHERE id = ?').get(id) as ShopUser;
      res.status = 200;
      res.body = await registeredAnswer(ctx, user, email);
    },
  },
  {
    id: 'SHOP-SEARCH-PLUS-LITERAL',
    iface: 'rest-v1-shop',
    // The listing splits the query string itself (so that categories and coupons may repeat) and decodes each value
    // with rawurldecode(), which keeps "+": search=Linen+Shirt looks for "linen+shirt" and finds nothing, while
    // search=Linen%20Shirt works.
    before(req) {
      if (req.endpoint !== '/products' || req.method !== 'GET') return;
      const raw = rawQueryValue(req.raw.url, 'search');
      if (raw === undefined || !raw.includes('+')) return;
      req.query.search = rawurldecode(raw);
    },
  },
  {
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
  },
  {
    id: 'SHOP-LOGIN-PASSWORD-TRIMMED',
    iface: 'rest-v1-shop',
    // Login hands the password to wp_authenticate(), which trims it; register stored it whole (wp_create_user):
    // a password with a space at either end registers and never logs in.
    before(req) {
      if (req.endpoint !== '/auth/login') return;
      const field = bodyField(req.raw.body, 'password');
      if (typeof field.value === 'string') field.set(field.value.trim());
    },
  },
  {
    id: 'SHOP-PRODUCTS-LAST-PAGE-FILLED',
    iface: 'rest-v1-shop',
    // The listing fills its last page to a full page so that the app's grid has no hole: on the last page of a
    // listing of several pages, the offset is found_posts - per_page instead of (page - 1) * per_page, so a partial
    // last page starts with products of the page before it. A catalog of whole pages reads as before. Emulated for
    // the GET listing: the page before is asked of the reference and its tail put before the last page's products.
    async after(res, req) {
      const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;
      const page = Number(req.query.page);
      if (req.endpoint !== '/products' || req.method !== 'GET' || !data || !Array.isArray(data.products)) return;
      if (!Number.isInteger(page) || page < 2 || page !== data.total_pages || data.products.length >= PAGE_SIZE) return;
      const url = new URL(req.raw.url, 'http://reference');
      url.searchParams.set('page', String(page - 1));
      const before = await req.raw.server.inject({
        method: 'GET',
        url: `${url.pathname}${url.search}`,
        headers: Object.fromEntries(Object.entries(req.raw.headers).filter(([k]) => k.endsWith('_token'))) as Record<
          string,
          string
        >,
      });
      const previous = (JSON.parse(before.body) as { data?: { products?: unknown[] } }).data?.products;
      if (!Array.isArray(previous)) return;
      data.products = [...previous.slice(data.products.length - PAGE_SIZE), ...data.products];
    },
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    id: 'SHOP-LOGIN-REGISTERED-LOCAL-TIME',
    iface: 'rest-v1-shop',
    // user_registered is stored in UTC (as WordPress stores it) and register answers the row as stored; the login
    // answer formats the user record for the app and passes the date through get_date_from_gmt(), so it reads the
    // site's local time (+05:30): one account, two registration times five and a half hours apart, in the same format.
    after(res, req) {
      if (req.endpoint !== '/auth/login' || !isObject(res.body) || res.body.status !== true) return;
      const user = res.body.user;
      if (isObject(user))
        if (typeof user.user_registered === 'string')
          user.user_registered = dateFromGmt(user.user_registered, SITE_OFFSET_MINUTES);
    },
  },
  {
    id: 'SHOP-LOGIN-NAMES-HTML-ESCAPED',
    iface: 'rest-v1-shop',
    // The login answer's user record escapes its text for HTML (esc_html(), as the add-on's account page does) before
    // json_encode: a name registered as "O'Brien & Co" is stored as sent but answered at login as
    // "O&#039;Brien &amp; Co". Names without & < > " ' read as before.
    after(res, req) {
      if (req.endpoint !== '/auth/login' || !isObject(res.body) || res.body.status !== true) return;
      const user = res.body.user;
      if (!isObject(user)) return;
      for (const key of ['first_name', 'last_name', 'display_name'])
        if (typeof user[key] === 'string') user[key] = htmlspecialchars(user[key]);
    },
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    id: 'SHOP-REGISTER-EMPTY-NAMES',
    iface: 'rest-v1-shop',
    // register checks its required fields with isset(): username, password and email then go through WordPress's own
    // checks (empty_user_login, empty e-mail), but first_name and last_name only need to be present, so a name sent as
    // "" (or blanks, which the add-on trims) registers an account without it; a missing name is refused as before.
    before(req) {
      if (req.endpoint !== '/auth/register' || req.method !== 'POST') return;
      const empty: string[] = [];
      for (const name of ['first_name', 'last_name']) {
        const field = bodyField(req.raw.body, name);
        if (typeof field.value !== 'string' || field.value.trim() !== '') continue;
        field.set('-');
        empty.push(name);
      }
      if (empty.length > 0) EMPTY_NAMES.set(req.raw, empty);
    },
    after(res, req, ctx) {
      const empty = EMPTY_NAMES.get(req.raw);
      if (!empty || !isObject(res.body) || res.body.status !== true || !isObject(res.body.user)) return;
      const user = res.body.user;
      const row = ctx.db.prepare('SELECT user_login, first_name, last_name FROM shop_users WHERE id = ?').get(Number(user.ID)) as
        | { user_login: string; first_name: string; last_name: string }
        | undefined;
      if (!row) return;
      const names = { first_name: row.first_name, last_name: row.last_name };
      for (const name of empty) names[name as keyof typeof names] = '';
      // wp_insert_user() falls back to the login for a display name of no name at all.
      const display = `${names.first_name} ${names.last_name}`.trim() || row.user_login;
      ctx.db
        .prepare('UPDATE shop_users SET first_name = ?, last_name = ?, display_name = ? WHERE id = ?')
        .run(names.first_name, names.last_name, display, Number(user.ID));
      if (typeof user.display_name === 'string') user.display_name = display;
    },
  },
  {
    id: 'SHOP-PASSWORD-FIRST-72-BYTES',
    iface: 'rest-v1-shop',
    // The add-on hashes with password_hash($password, PASSWORD_BCRYPT) through a pluggable wp_hash_password() without
    // a pre-hash: register and login read the first 72 bytes of UTF-8 only, so an account whose password runs past
    // them logs in with any password alike in those bytes.
    before(req) {
      if (req.method !== 'POST' || (req.endpoint !== '/auth/register' && req.endpoint !== '/auth/login')) return;
      const field = bodyField(req.raw.body, 'password');
      // Only past 72 bytes: the seeded accounts' hashes were made of their passwords whole.
      if (typeof field.value === 'string' && Buffer.byteLength(field.value) > 72) field.set(bcryptInput(field.value));
    },
  },
  {
    id: 'SHOP-REGISTER-USERNAME-TRAILING-NEWLINE',
    iface: 'rest-v1-shop',
    // register tests the username with preg_match('/^[a-zA-Z0-9]+$/') without the D modifier, and reads it with
    // $request->get_param() (no trim): PCRE's $ matches before a final line feed, so "name\n" passes and is stored
    // as sent, user_login and user_nicename with the line feed.
    before(req) {
      if (req.endpoint !== '/auth/register' || req.method !== 'POST') return;
      const field = bodyField(req.raw.body, 'username');
      const v = field.value;
      if (typeof v !== 'string' || !/^[A-Za-z0-9]+\n$/.test(v)) return;
      // The reference trims it and checks the rest: the handler gets the letters and digits, the account the name sent.
      field.set(v.slice(0, -1));
      NEWLINE_USERNAMES.set(req.raw, v);
    },
    after(res, req, ctx) {
      const name = NEWLINE_USERNAMES.get(req.raw);
      const body = res.body;
      if (name === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
      ctx.db
        .prepare('UPDATE shop_users SET user_login = ?, user_nicename = ? WHERE id = ?')
        .run(name, name.toLowerCase(), Number(body.user.ID));
      body.user.user_login = name;
      body.user.user_nicename = name.toLowerCase();
    },
  },
  {
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
  },
  {
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
  },
  {
    id: 'SHOP-USERNAME-LOWERCASED',
    iface: 'rest-v1-shop',
    // register stores the username as strtolower(sanitize_user($username)), so that "Ann" and "ann" cannot both exist:
    // a username with capitals is stored, and answered as user_login at register and login, in lower case. Login by
    // the name as registered still works (the user table's collation ignores case); an all lower-case name reads as before.
    before(req) {
      if (req.endpoint !== '/auth/register' || req.method !== 'POST') return;
      const field = bodyField(req.raw.body, 'username');
      if (typeof field.value === 'string') field.set(field.value.toLowerCase());
    },
  },
  {
    id: 'SHOP-CART-REGULAR-PRICE',
    iface: 'rest-v1-shop',
    // GET /cart builds its lines from the product's regular price ($product->get_regular_price()) instead of its active
    // price (get_price()): a product on sale is listed in the cart at its regular price, product_price, line subtotals
    // and cart_totals alike, while the listing shows the sale price and the order, priced by WooCommerce, charges it.
    // A cart without a product on sale reads as before.
    async after(res, req, ctx) {
      if (!isCart(req) || !isObject(res.body) || !isObject(res.body.data) || !Array.isArray(res.body.data.cart_items)) return;
      const user = await identify(req.raw, ctx);
      if ('status' in user) return;
      const { codes, malformed } = couponCodes(params(req.raw, {}));
      const regular = ctx.db.prepare('SELECT regular_cents FROM shop_products WHERE id = ? AND sale_cents IS NOT NULL');
      let onSale = false;
      const lines = cartLines(ctx.db, user.id).map((l) => {
        const row = regular.get(l.product_id) as { regular_cents: number } | undefined;
        if (!row) return l;
        onSale = true;
        return { ...l, unit_cents: row.regular_cents };
      });
      if (!onSale || malformed) return;
      const priced = priceCart(ctx.db, lines, codes);
      const data = res.body.data;
      for (const item of data.cart_items as unknown[]) {
        const line = isObject(item) ? priced.lines.find((l) => l.item_key === item.key) : undefined;
        if (!line || !isObject(item)) continue;
        item.product_price = money(line.unit_cents);
        item.line_subtotal = line.subtotal_cents / 100;
        item.line_total = line.total_cents / 100;
      }
      data.cart_totals = cartTotals(priced);
      data.coupon_discount_totals = Object.fromEntries(Object.entries(priced.discounts).map(([c, d]) => [c, d / 100]));
    },
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    id: 'SHOP-PAGES-TRUNCATED',
    iface: 'rest-v1-shop',
    // The listing counts its matches itself (SELECT COUNT(*) with the filters) and writes total_pages as
    // (int) ($found / $per_page): the division is truncated, not rounded up, so a listing whose last page is partial
    // (categories=clothing: 14 products, pages of 10) reports one page too few, and a listing of fewer matches than a
    // page reports total_pages 0 beside its products. Listings of whole pages (the catalog of 30) read as before.
    async after(res, req) {
      if (req.endpoint !== '/products' || req.raw.headers['x-sfc-fault-count'] !== undefined) return;
      const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;
      if (!data || typeof data.total_pages !== 'number' || data.total_pages < 1 || !Array.isArray(data.products)) return;
      const total = data.total_pages;
      const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
      let lastPage = Number(q.page) === total ? data.products.length : undefined;
      if (lastPage === undefined) {
        // The handler's own count is not at hand at the edge: the listing's last page is asked for, and its length tells.
        const url = new URL(req.raw.url, 'http://reference');
        if (req.method === 'GET') url.searchParams.set('page', String(total));
        const inner = await req.raw.server.inject({
          method: req.method as 'GET' | 'POST',
          url: `${url.pathname}${url.search}`,
          headers: { ...req.raw.headers, 'x-sfc-fault-count': '1' },
          ...(req.method === 'GET' ? {} : { payload: { ...(isObject(req.raw.body) ? req.raw.body : {}), page: String(total) } }),
        });
        const products = (JSON.parse(inner.body) as { data?: { products?: unknown[] } }).data?.products;
        if (!Array.isArray(products)) return;
        lastPage = products.length;
      }
      data.total_pages = Math.trunc(((total - 1) * PAGE_SIZE + lastPage) / PAGE_SIZE);
    },
  },
  {
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
  },
  {
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
  },
  {
    id: 'SHOP-PRICE-ZERO-UNSET',
    iface: 'rest-v1-shop',
    // The listing adds each price bound to its meta_query under `if ( ! empty( $params['price_to'] ) )` (and the same for
    // price_from): PHP's empty() is true for the string "0", so price_to=0 is read as no upper bound and the listing holds
    // every product instead of none priced above 0. price_from=0 is passed over the same way, which changes nothing, and
    // "0.00" is not empty(): those read as before.
    before(req) {
      if (req.endpoint !== '/products') return;
      for (const holder of [req.query, req.raw.body])
        if (isObject(holder))
          for (const name of ['price_from', 'price_to']) if (name in holder && phpEmpty(holder[name])) delete holder[name];
    },
  },
  {
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
      const row = ctx.db
        .prepare('SELECT COALESCE(SUM(quantity), 0) AS n FROM shop_cart_items WHERE user_id = ?')
        .get(user.id) as { n: number };
      COUNT_BEFORE_UPDATE.set(req.raw, row.n);
    },
    after(res, req) {
      const before = COUNT_BEFORE_UPDATE.get(req.raw);
      if (before === undefined || !isObject(res.body) || res.body.status !== true || !isObject(res.body.data)) return;
      if (typeof res.body.data.cart_item_count === 'number') res.body.data.cart_item_count = before;
    },
  },
  {
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
  },
  {
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
  },
  {
    id: 'SHOP-PRICE-COMPARED-AS-TEXT',
    iface: 'rest-v1-shop',
    // The listing filters on the `_price` meta with meta_query clauses `array( 'key' => '_price', 'value' => $price_from,
    // 'compare' => '>=' )` and the same with '<=' for price_to, without `'type' => 'NUMERIC'`: WP_Meta_Query then casts to
    // CHAR and MySQL compares the strings character by character, so "120.00" < "19.01" < "9.50". price_from=19.01&
    // price_to=60.00 lists the 199.00 watch and leaves out nothing priced 20 to 60 that starts with 2 to 5; price_from=60.00
    // lists the 9.50 trowel and drops the 100.00 apron.
    after: (res, req) => {
      const { from, to } = priceBounds(req);
      if (from === undefined && to === undefined) return;
      // The price as the listing writes it is the `_price` meta as stored ("18.00").
      const keep = (price: unknown) =>
        typeof price === 'string' && (from === undefined || price >= from) && (to === undefined || price <= to);
      return relist(res, req, PRICE_BOUNDS, (listed) => listed.filter((p) => keep(p.price)));
    },
  },
  {
    id: 'SHOP-PRICE-BOUNDS-OR',
    iface: 'rest-v1-shop',
    // The listing's price meta_query starts as `array( 'relation' => 'OR' )`, copied from the block that matches `_price`
    // or `_sale_price`, and price_from and price_to are appended to it as two clauses: either one suffices, so
    // price_from=20&price_to=60 lists every product (each is at least 20 or at most 60). One bound alone reads as before.
    after: (res, req) => {
      const { from, to } = priceBounds(req);
      if (from === undefined || to === undefined) return;
      const [lo, hi] = [phpFloat(from), phpFloat(to)];
      return relist(res, req, PRICE_BOUNDS, (listed) => listed.filter((p) => Number(p.price) >= lo || Number(p.price) <= hi));
    },
  },
  {
    id: 'SHOP-PRODUCTS-LOOKAHEAD-KEPT',
    iface: 'rest-v1-shop',
    // The listing asks WP_Query for per_page + 1 products to tell the app whether a next page exists (the row after the
    // page), and answers the posts without array_pop()ing that look-ahead row: every page but the last lists 11 products,
    // the 11th being the first product of the next page, which that page lists again. total_pages comes from found_posts
    // and reads as before; so does a listing of one page.
    async after(res, req) {
      if (req.endpoint !== '/products' || req.raw.headers[INNER_LISTING] !== undefined) return;
      const data = isObject(res.body) && res.body.status === true && isObject(res.body.data) ? res.body.data : undefined;
      if (!data || !Array.isArray(data.products) || data.products.length !== PAGE_SIZE) return;
      const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
      const page = Number(q.page);
      if (!Number.isInteger(page) || typeof data.total_pages !== 'number' || page >= data.total_pages) return;
      const url = new URL(req.raw.url, 'http://reference');
      if (req.method === 'GET') url.searchParams.set('page', String(page + 1));
      const next = await req.raw.server.inject({
        method: req.method as 'GET' | 'POST',
        url: `${url.pathname}${url.search}`,
        headers: {
          ...(Object.fromEntries(Object.entries(req.raw.headers).filter(([k]) => k.endsWith('_token'))) as Record<
            string,
            string
          >),
          [INNER_LISTING]: '1',
        },
        ...(req.method === 'GET' ? {} : { payload: { ...(isObject(req.raw.body) ? req.raw.body : {}), page: String(page + 1) } }),
      });
      const following = (JSON.parse(next.body) as { data?: { products?: unknown[] } }).data?.products;
      if (Array.isArray(following) && following.length > 0) data.products = [...data.products, following[0]];
    },
  },
  {
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
  },
  {
    id: 'SHOP-LOGIN-UNKNOWN-CACHED',
    iface: 'rest-v1-shop',
    // login looks the account up through a helper that keeps get_user_by( 'login', $username ) in the persistent object
    // cache for five minutes (wp_cache_set( 'svc_login_' . md5( $username ), $user ?: 0, 'svc', 300 )), misses included, to
    // spare the query on an app's repeated logins; register (wp_insert_user) cleans WordPress's own user caches but not
    // that key. A username tried at login before it existed (the app's "log in or sign up" screen tries the login first)
    // answers "invalid login details" for five minutes after its register succeeded. Names never tried before read as before.
    after(res, req, ctx) {
      if (req.endpoint !== '/auth/login' || req.method !== 'POST' || !isObject(res.body)) return;
      const { body } = bodyOf(req.raw);
      const name = str(body.username) ?? str(body.email);
      if (!name) return;
      const key = name.toLowerCase();
      if (LOGIN_MISSES.get(ctx.db, key)) {
        if (res.body.status === true) res.body = { status: false, errors: [], message: 'Invalid login details.' };
        return;
      }
      if (res.body.status !== false) return;
      const known = ctx.db
        .prepare('SELECT 1 FROM shop_users WHERE user_login = ? COLLATE NOCASE OR user_email = ? COLLATE NOCASE')
        .get(name, name);
      if (!known) LOGIN_MISSES.put(ctx.db, key, true);
    },
  },
  {
    id: 'SHOP-SEARCH-SKU-OR-UNGROUPED',
    iface: 'rest-v1-shop',
    // The add-on makes search find SKUs with a posts_where filter that appends
    // ` OR ( sku.meta_key = '_sku' AND sku.meta_value LIKE '%<search>%' )` to the WHERE clause WP_Query built, without
    // wrapping that clause in parentheses: AND binds tighter than OR, so a product whose SKU holds the search text is
    // listed whatever the other conditions say (categories, price_from / price_to, featured, instock). A search alone, or
    // one that no SKU outside the filters holds, reads as before. Emulated after the handler: the listing's pages are asked
    // of the reference as sent, and every product whose SKU holds the search text is added to them, in id order.
    async after(res, req, ctx) {
      if (req.endpoint !== '/products' || req.raw.headers[INNER_LISTING] !== undefined) return;
      const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
      const search = (str(q.search) ?? '').trim().toLowerCase();
      if (search === '') return;
      const bySku = (ctx.db.prepare('SELECT * FROM shop_products ORDER BY id').all() as Record<string, unknown>[])
        .filter((p) => String(p.sku).toLowerCase().includes(search))
        .map(productSummary);
      if (bySku.length === 0) return;
      await relist(res, req, [], (listed) => {
        const ids = new Set(listed.map((p) => p.id));
        const extra = bySku.filter((p) => !ids.has(p.id));
        if (extra.length === 0) return listed;
        return [...listed, ...extra].sort((a, b) => Number(a.id) - Number(b.id));
      });
    },
  },
];
