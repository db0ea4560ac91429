import { str } from '../../http/body.js';
import { PAGE_SIZE } from '../../shop/catalog.js';
import { money, toCents } from '../../shop/common.js';
import { likeRegex, phpFloat, rawurldecode } from '../emulation.js';
import { type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { INNER_LISTING, ignoreParam, innerListing, phpEmpty } from './shared.js';

/** The search keywords a request carried, taken off it before the query (SHOP-SEARCH-AFTER-PAGING). */
const HELD_SEARCH = new WeakMap<object, string[]>();

/** A listing parameter sent in the query or the body, non-empty. */
const sent = (req: FaultRequest, name: string): boolean =>
  [req.query, req.raw.body].some((h) => isObject(h) && h[name] !== undefined && h[name] !== '');

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

/** The raw value of a query parameter as the URL carries it (percent-encoded, + as sent); undefined when absent. */
function rawQueryValue(url: string, name: string): string | undefined {
  const query = url.split('?')[1] ?? '';
  const pair = query.split('&').find((p) => p.split('=')[0] === name);
  return pair?.slice(name.length + 1);
}

/** The listing's price bounds as sent (query or body; a body value wins, as the handler reads them), "" as not sent. */
function priceBounds(req: FaultRequest): { from?: string; to?: string } {
  const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
  const bound = (v: unknown) => ((typeof v === 'string' || typeof v === 'number') && String(v) !== '' ? String(v) : undefined);
  const [from, to] = [bound(q.price_from), bound(q.price_to)];
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

const PRICE_BOUNDS = ['price_from', 'price_to'] as const;

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
  const all: Record<string, unknown>[] = [];
  for (let n = 1; n <= 100; n++) {
    const listed = await innerListing(req, n, drop);
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

export const searchAfterPaging: Fault = {
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
};

export const priceBothBounds: Fault = {
  id: 'SHOP-PRICE-BOTH-BOUNDS',
  iface: 'rest-v1-shop',
  // The price meta query is added only when both bounds are sent: price_from or price_to alone is ignored.
  before(req) {
    if (req.endpoint !== '/products' || sent(req, 'price_from') === sent(req, 'price_to')) return;
    for (const name of ['price_from', 'price_to']) ignoreParam(req, name);
  },
};

export const categoriesFirstOnly: Fault = {
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
};

export const searchLikeWildcards: Fault = {
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
};

export const searchPlusLiteral: Fault = {
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
};

export const priceZeroUnset: Fault = {
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
};

/**
 * The listing filtered again on a price the vendor's query compares in place of the active price (`compared` of a
 * product summary, in cents; undefined drops it), between the bounds sent.
 */
function relistByPrice(
  res: FaultResponse,
  req: FaultRequest,
  compared: (p: Record<string, unknown>) => number | undefined,
): Promise<void> | undefined {
  const { from, to } = priceBounds(req);
  if (from === undefined && to === undefined) return;
  const [lo, hi] = [from === undefined ? undefined : toCents(from), to === undefined ? undefined : toCents(to)];
  // A bound that is no amount is the handler's validation refusal, which relist leaves as it is.
  if ((from !== undefined && lo === undefined) || (to !== undefined && hi === undefined)) return;
  return relist(res, req, PRICE_BOUNDS, (listed) =>
    listed.filter((p) => {
      const cents = compared(p);
      return cents !== undefined && (lo === undefined || cents >= lo) && (hi === undefined || cents <= hi);
    }),
  );
}

export const priceComparedAsText: Fault = {
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
};

export const priceBoundsOr: Fault = {
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
};

export const searchSkuOrUngrouped: Fault = {
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
};

export const priceRegularMeta: Fault = {
  id: 'SHOP-PRICE-REGULAR-META',
  iface: 'rest-v1-shop',
  // The listing's price meta_query filters on `'key' => '_regular_price'` (the field the product edit screen calls
  // "Regular price") instead of `_price`, the active price WooCommerce keeps for the sale price too: a product on sale
  // is kept or dropped by its regular price while the summary lists its sale price, so price_from=35.01&price_to=42.00
  // lists the Linen Shirt at 35.00 (regular 42.00). A product not on sale reads as before.
  after: (res, req) => relistByPrice(res, req, (p) => toCents(p.regular_price)),
};

export const priceArgsReplaced: Fault = {
  id: 'SHOP-PRICE-ARGS-REPLACED',
  iface: 'rest-v1-shop',
  // The listing builds its WP_Query arguments filter by filter, and the price branch, pasted from the shop's price
  // widget, assigns a fresh array instead of adding its clause: `$args = array( 'post_type' => 'product',
  // 'posts_per_page' => 10, 'paged' => $page, 'meta_query' => array( ... ) );`. Whenever price_from or price_to is sent,
  // the categories, search, featured and instock set before it are gone: categories=clothing&price_from=20 lists every
  // product from 20 up. A listing without a price bound reads as before.
  before(req) {
    if (req.endpoint !== '/products' || (!sent(req, 'price_from') && !sent(req, 'price_to'))) return;
    for (const name of ['categories', 'categories[]', 'search', 'featured', 'instock']) ignoreParam(req, name);
  },
};

export const priceCastSigned: Fault = {
  id: 'SHOP-PRICE-CAST-SIGNED',
  iface: 'rest-v1-shop',
  // The listing's price meta_query clauses carry `'type' => 'NUMERIC'`, which WP_Meta_Query turns into
  // `CAST(meta_value AS SIGNED)`: MySQL reads the `_price` meta "19.99" as the integer 19 and compares it with the bound,
  // which stays the string '19.98' (compared as a double). Every price is held to the range by its whole part only:
  // price_to=19.98 lists the 19.99 charger, price_to=49.00 the 49.50 dress. Whole prices, and bounds that fall on whole
  // amounts below a price's cents, read as before.
  after: (res, req) =>
    relistByPrice(res, req, (p) => {
      const cents = toCents(p.price);
      return cents === undefined ? undefined : Math.trunc(cents / 100) * 100;
    }),
};
