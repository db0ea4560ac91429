import type { AppContext } from '../context.js';
import { PAGE_SIZE } from '../shop/catalog.js';
import { bodyField, eachObject, type Fault, type FaultRequest, isObject, isoOf, mapKey } from './model.js';
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
];
