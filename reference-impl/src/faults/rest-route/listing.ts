import { likeRegex, rawurldecode } from '../emulation.js';
import { type Fault, type FaultRequest, isObject } from '../model.js';
import { CATEGORY_FILTER, categoryIdsOf, categoryParam, data, takeCategory } from './shared.js';

/** RR-SEARCH-LIKE-WILDCARDS: the search (and paging) a listing request had, taken out before the handler. */
const LIKE_SEARCH = new WeakMap<object, { search: string; limit: unknown; page: unknown }>();

/** RR-LISTING-TAX-LOCALE: an amount as sprintf('%.2f') writes it under de_DE: no grouping, a decimal comma. */
const germanFixed = (amount: string): string =>
  amount.replace(/\d{1,3}(?:,\d{3})*(?:\.\d+)?/, (n) => n.replace(/,/g, '').replace('.', ','));

/** RR-LISTING-DESCRIPTION-DECODED-LAST: the summary's description length (the theme's product_description_length). */
const DESCRIPTION_LENGTH = 100;

/** The search word of a product/listing request (search, or its alias filter_name), when one is sent that is not blank. */
function listingSearch(req: FaultRequest): string | undefined {
  const search = req.query.search ?? req.query.filter_name;
  return req.endpoint === 'product/listing' && typeof search === 'string' && search.trim() !== '' ? search : undefined;
}

export const searchIgnored: Fault = {
  id: 'RR-SEARCH-IGNORED',
  iface: 'rest-route',
  before(req) {
    if (req.endpoint === 'product/listing') delete req.query.search;
  },
};

export const searchIgnoredInCategory: Fault = {
  id: 'RR-SEARCH-IGNORED-IN-CATEGORY',
  iface: 'rest-route',
  // The listing picks one filter: products of the category when category_ids is given, else the
  // search. search is dropped whenever a category is named, so the category's every product comes back.
  before(req) {
    if (req.endpoint !== 'product/listing') return;
    const category = req.query.category_ids ?? req.query.category_id ?? req.query.path;
    if (category !== undefined && category !== '') {
      delete req.query.search;
      delete req.query.filter_name;
    }
  },
};

export const searchFirstPageOnly: Fault = {
  id: 'RR-SEARCH-FIRST-PAGE-ONLY',
  iface: 'rest-route',
  // The search path reads the first page of the store's listing (the store's product limit, 10,
  // in the default order) and filters it by the word in PHP: a product past the tenth is listed
  // without a search, yet no search finds it, not even by a word of its own name.
  after(res, req, ctx) {
    const d = data(res);
    const search = listingSearch(req);
    if (search === undefined) return;
    if (!Array.isArray(d?.products)) return;
    const category = req.query.category_ids ?? req.query.category_id ?? req.query.path;
    const named = typeof category === 'string' && /^\d{1,15}$/.test(category.trim()) ? Number(category) : undefined;
    const firstPage = ctx.db
      .prepare(
        `SELECT p.product_id FROM rr_product p WHERE p.status = 1
           AND (? IS NULL OR EXISTS (SELECT 1 FROM rr_product_category pc WHERE pc.product_id = p.product_id AND pc.category_id = ?))
         ORDER BY p.sort_order, p.name LIMIT 10`,
      )
      .all(named ?? null, named ?? null) as Array<{ product_id: number }>;
    const ids = new Set(firstPage.map((r) => String(r.product_id)));
    d.products = d.products.filter((p) => isObject(p) && ids.has(String(p.product_id)));
  },
};

export const searchLikeWildcards: Fault = {
  id: 'RR-SEARCH-LIKE-WILDCARDS',
  iface: 'rest-route',
  // The search goes into LIKE '%word%' through the driver's escape(), which quotes but leaves %
  // and _ alone: a search word holding them is a pattern, so "Ci_ema" finds "Cinema" and "C%a"
  // most of the catalog, though no product carries either as written.
  before(req) {
    if (req.endpoint !== 'product/listing') return;
    const search = req.query.search ?? req.query.filter_name;
    if (typeof search !== 'string' || !/[%_]/.test(search)) return;
    LIKE_SEARCH.set(req.raw, { search, limit: req.query.limit, page: req.query.page });
    // The handler lists everything (in its order); the pattern and the page are applied after.
    for (const k of ['search', 'filter_name', 'limit', 'page']) delete req.query[k];
  },
  after(res, req) {
    const taken = LIKE_SEARCH.get(req.raw);
    const d = data(res);
    if (!taken || !Array.isArray(d?.products)) return;
    const whole = taken.search.trim().toLowerCase();
    const patterns = whole
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => likeRegex(w));
    const found = d.products.filter(
      (p) =>
        isObject(p) && (patterns.every((r) => r.test(String(p.name ?? ''))) || String(p.model ?? '').toLowerCase() === whole),
    );
    const limit = Number(taken.limit);
    const page = Math.max(1, Number(taken.page) || 1);
    d.products = Number.isInteger(limit) && limit > 0 ? found.slice((page - 1) * limit, page * limit) : found;
  },
};

export const searchPlusKept: Fault = {
  id: 'RR-SEARCH-PLUS-KEPT',
  iface: 'rest-route',
  // The module's router rebuilds the query from REQUEST_URI and decodes each value with rawurldecode(),
  // which leaves a + as it is: a search whose space is written + (form encoding, search=Cast+Iron)
  // looks for "cast+iron" and finds nothing; written with %20 for the space, it works.
  before(req) {
    if (req.endpoint !== 'product/listing') return;
    const raw = req.raw.url.split('?')[1] ?? '';
    for (const pair of raw.split('&')) {
      const at = pair.indexOf('=');
      const key = at < 0 ? pair : pair.slice(0, at);
      if ((key === 'search' || key === 'filter_name') && pair.slice(at + 1).includes('+'))
        req.query[key] = rawurldecode(pair.slice(at + 1));
    }
  },
};

export const searchPriceUngrouped: Fault = {
  id: 'RR-SEARCH-PRICE-UNGROUPED',
  iface: 'rest-route',
  // A search goes through the vendor's own search model (written to find a product by its model
  // too), which builds the summaries itself and writes amounts with number_format($amount, 2, '.', '')
  // and the currency's symbols: no thousands separator, "$1558.80" where the listing writes "$1,558.80".
  after(res, req) {
    const d = data(res);
    const search = listingSearch(req);
    if (search === undefined) return;
    const language = isObject(res.body) && isObject(res.body.language) ? res.body.language : {};
    const thousands = typeof language.thousand_point === 'string' ? language.thousand_point : ',';
    if (thousands === '' || !Array.isArray(d?.products)) return;
    const grouped = new RegExp(`(\\d)${thousands.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}(?=\\d{3})`, 'g');
    for (const p of d.products)
      if (isObject(p))
        for (const key of ['price', 'special', 'tax']) if (typeof p[key] === 'string') p[key] = p[key].replace(grouped, '$1');
  },
};

export const listingTaxLocale: Fault = {
  id: 'RR-LISTING-TAX-LOCALE',
  iface: 'rest-route',
  // The module writes the summary's tax (the price before tax) itself, with
  // sprintf('%s%.2f%s', symbol_left, $amount, symbol_right), in a store where another extension calls
  // setlocale(LC_ALL, 'de_DE.UTF-8') (for strftime() dates): printf's %f is locale-aware, so the amount
  // comes with a decimal comma and no grouping ("$12,50", "$1299,00"), while the language object says
  // decimal_point "." and price keeps it.
  after(res, req) {
    const d = data(res);
    if (req.endpoint !== 'product/listing' && req.endpoint !== 'product/product') return;
    const summaries = Array.isArray(d?.products) ? d.products : req.endpoint === 'product/product' && d ? [d] : [];
    for (const p of summaries) if (isObject(p) && typeof p.tax === 'string') p.tax = germanFixed(p.tax);
  },
};

export const searchModelOrUngrouped: Fault = {
  id: 'RR-SEARCH-MODEL-OR-UNGROUPED',
  iface: 'rest-route',
  // The module's listing query copies the platform's search condition without the parentheses around it:
  // `... AND p2c.category_id = X AND LCASE(pd.name) LIKE '%word%' OR LCASE(p.model) = 'search'`. AND binds
  // tighter than OR, so a product whose model is the search is listed whatever category_ids names: a search
  // within a category (or within an id that names no category) answers a product the category does not hold.
  before(req) {
    if (req.endpoint !== 'product/listing' || req.query.limit !== undefined || req.query.page !== undefined) return;
    const search = req.query.search ?? req.query.filter_name;
    const category = categoryParam(req);
    if (typeof search !== 'string' || search.trim() === '' || category === undefined) return;
    takeCategory(req, category);
  },
  after(res, req, ctx) {
    const category = CATEGORY_FILTER.get(req.raw);
    const d = data(res);
    const search = req.query.search ?? req.query.filter_name;
    if (category === undefined || typeof search !== 'string' || !Array.isArray(d?.products)) return;
    const ids = category
      .split(/[,_]/)
      .map((c) => c.trim())
      .filter((c) => /^\d{1,15}$/.test(c))
      .map((c) => String(Number(c)));
    const model = search.trim().toLowerCase();
    // The handler answered the search alone (name words, or the model): the category condition binds to the name half only.
    d.products = d.products.filter(
      (p) =>
        isObject(p) &&
        (String(p.model ?? '').toLowerCase() === model || categoryIdsOf(ctx, Number(p.product_id)).some((c) => ids.includes(c))),
    );
  },
};

export const listingDescriptionDecodedLast: Fault = {
  id: 'RR-LISTING-DESCRIPTION-DECODED-LAST',
  iface: 'rest-route',
  // The platform stores descriptions HTML-escaped (&lt;p&gt;...), and its own listing writes the summary's
  // description as utf8_substr(strip_tags(html_entity_decode($description)), 0, 100) . '..'. The module swapped
  // the two calls, html_entity_decode(strip_tags(...)): strip_tags() finds no tag in the escaped text, and the
  // decode that follows brings the markup back, so the summary carries the description's tags.
  after(res, req, ctx) {
    const d = data(res);
    if (req.endpoint !== 'product/listing' || !Array.isArray(d?.products)) return;
    for (const p of d.products) {
      if (!isObject(p)) continue;
      const row = ctx.db.prepare('SELECT description FROM rr_product WHERE product_id = ?').get(Number(p.product_id)) as
        | { description: string }
        | undefined;
      if (!row) continue;
      const html = row.description.trim();
      p.description = [...html].length > DESCRIPTION_LENGTH ? `${[...html].slice(0, DESCRIPTION_LENGTH).join('')}..` : html;
    }
  },
};

export const listingSpecialFalse: Fault = {
  id: 'RR-LISTING-SPECIAL-FALSE',
  iface: 'rest-route',
  // The listing builds its summaries the platform's way, $special = false; and formats it only when
  // the product has a special price: a product without one answers special false, not a string.
  after(res, req) {
    const products = data(res)?.products;
    if (req.endpoint !== 'product/listing' || !Array.isArray(products)) return;
    for (const p of products) if (isObject(p) && p.special === '') p.special = false;
  },
};

export const listingSortOrderLeaked: Fault = {
  id: 'RR-LISTING-SORT-ORDER-LEAKED',
  iface: 'rest-route',
  // The module builds the sort options in a loop over the platform's sort values, splitting each with
  // list($sort_key, $sort_dir) = explode('-', $value), but writes 'order' => $order: the listing's own order
  // (the request's order, 'ASC' by default) read at the top of the controller. Every option then carries the
  // same order, so "pd.name-DESC" comes with order "ASC" (and, with &order=DESC, "p.price-ASC" with "DESC").
  after(res, req) {
    const sorts = data(res)?.sorts;
    if (req.endpoint !== 'product/listing' || !Array.isArray(sorts)) return;
    const order = typeof req.query.order === 'string' && req.query.order !== '' ? req.query.order : 'ASC';
    for (const s of sorts) if (isObject(s)) s.order = order;
  },
};

export const productUnknownEmptyDetail: Fault = {
  id: 'RR-PRODUCT-UNKNOWN-EMPTY-DETAIL',
  iface: 'rest-route',
  // The module's product controller builds its answer from $product_info = getProduct($product_id) without the
  // platform's if ($product_info) branch: for an id that names no product, getProduct() returns false and every
  // $product_info['...'] reads null (PHP 7 raises no warning on false), so the answer is status true with a detail
  // of the record's keys, each null (and a thumb built from the placeholder image).
  after(res, req) {
    if (req.endpoint !== 'product/product' || req.method !== 'GET' || !isObject(res.body) || res.body.status !== false) return;
    // Only the handler's own "no such product": the token check (and its refusal) comes before the controller.
    const errors = Array.isArray(res.body.errors) ? res.body.errors : [];
    if (!errors.some((e) => isObject(e) && e.code === 'error_product_not_found')) return;
    const productId = req.query.product_id;
    if (typeof productId !== 'string' || !/^\s*\d+\s*$/.test(productId)) return;
    const detail: Record<string, unknown> = {};
    for (const key of ['product_id', 'name', 'model', 'description', 'price', 'special', 'tax', 'minimum', 'rating', 'reviews'])
      detail[key] = null;
    detail.thumb = 'image/cache/placeholder-228x228.png';
    detail.images = [];
    detail.options = [];
    res.status = 200;
    res.body = {
      status: true,
      errors: [],
      data: detail,
      ...(res.body.language === undefined ? {} : { language: res.body.language }),
    };
  },
};

export const searchNamePrefix: Fault = {
  id: 'RR-SEARCH-NAME-PREFIX',
  iface: 'rest-route',
  // The module's listing calls the admin product model's getProducts() (the one behind the product
  // autocomplete), whose name filter is `pd.name LIKE '<search>%'`: the search is matched as the start of
  // the name, so a word from the middle or the end of a product's name (Smartphone of Nimbus X
  // Smartphone) does not find it.
  after(res, req) {
    const d = data(res);
    const search = listingSearch(req);
    if (search === undefined || !Array.isArray(d?.products)) return;
    const start = search.trim().toLowerCase();
    const named = (p: unknown) =>
      isObject(p) &&
      String(p.name ?? '')
        .toLowerCase()
        .startsWith(start);
    d.products = d.products.filter(named);
  },
};
