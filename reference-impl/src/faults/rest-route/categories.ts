import { type Fault, isObject, isoOf, mapKey } from '../model.js';
import { CATEGORY_FILTER, categoryIdsOf, categoryParam, data, takeCategory } from './shared.js';

export const categoryIsoDate: Fault = {
  id: 'RR-CATEGORY-ISO-DATE',
  iface: 'rest-route',
  after(res, req) {
    if (req.endpoint === 'common/category') {
      mapKey(res.body, 'date_added', isoOf);
      mapKey(res.body, 'date_modified', isoOf);
    }
  },
};

export const childrenNull: Fault = {
  id: 'RR-CHILDREN-NULL',
  iface: 'rest-route',
  after(res, req) {
    if (req.endpoint === 'common/category') mapKey(res.body, 'children', (v) => (Array.isArray(v) && v.length === 0 ? null : v));
  },
};

export const categoryFilterIgnored: Fault = {
  id: 'RR-CATEGORY-FILTER-IGNORED',
  iface: 'rest-route',
  before(req) {
    if (req.endpoint === 'product/listing') delete req.query.category_ids;
  },
};

export const categoryFilterKeysKept: Fault = {
  id: 'RR-CATEGORY-FILTER-KEYS-KEPT',
  iface: 'rest-route',
  // The category filter runs in PHP over the store's listing with array_filter(), which keeps each
  // product's key, and no array_values() follows: json_encode() writes a list only when the keys run
  // 0, 1, 2..., so a category whose products are not the first of the listing comes back as an object
  // {"3": {...}, "7": {...}} in place of the products array. (Paging, not shown, is left alone.)
  before(req) {
    const category = req.endpoint === 'product/listing' ? categoryParam(req) : undefined;
    if (category === undefined || req.query.limit !== undefined || req.query.page !== undefined) return;
    takeCategory(req, category);
  },
  after(res, req, ctx) {
    const category = CATEGORY_FILTER.get(req.raw);
    const d = data(res);
    if (category === undefined || !Array.isArray(d?.products)) return;
    const ids = category
      .split(/[,_]/)
      .map((c) => c.trim())
      .filter((c) => /^\d{1,15}$/.test(c))
      .map(Number);
    const member = ctx.db.prepare('SELECT 1 FROM rr_product_category WHERE product_id = ? AND category_id = ?');
    const kept: Record<string, unknown> = {};
    d.products.forEach((p, key) => {
      if (isObject(p) && ids.some((c) => member.get(Number(p.product_id), c) !== undefined)) kept[String(key)] = p;
    });
    const keys = Object.keys(kept);
    d.products = keys.every((k, i) => k === String(i)) ? Object.values(kept) : kept;
  },
};

export const categoryZeroUnfiltered: Fault = {
  id: 'RR-CATEGORY-ZERO-UNFILTERED',
  iface: 'rest-route',
  // The listing hands category_ids to the platform's getProducts(), whose filter is
  // `if (!empty($data['filter_category_id']))`: PHP's empty() takes the string "0" for missing, so
  // category_ids=0, which names no category (the top level's parent_id, not a category of the tree),
  // lists the whole catalog as if no category had been named.
  before(req) {
    const category = req.endpoint === 'product/listing' ? categoryParam(req) : undefined;
    if (category !== '0') return;
    for (const k of ['category_ids', 'category_id', 'path']) delete req.query[k];
  },
};

export const categoryIdsStrpos: Fault = {
  id: 'RR-CATEGORY-IDS-STRPOS',
  iface: 'rest-route',
  // The module applies category_ids in PHP over the store's listing (it takes a comma list) and asks, per
  // product, `strpos($this->request->get['category_ids'], $category['category_id']) !== false` for each of
  // the product's categories: a search of the request's string for the product's id, so an id that names no
  // category but holds the digits of one (200 holds 20) lists that category's products.
  before(req) {
    const category = req.endpoint === 'product/listing' ? categoryParam(req) : undefined;
    if (category === undefined || req.query.limit !== undefined || req.query.page !== undefined) return;
    takeCategory(req, category);
  },
  after(res, req, ctx) {
    const category = CATEGORY_FILTER.get(req.raw);
    const d = data(res);
    if (category === undefined || !Array.isArray(d?.products)) return;
    d.products = d.products.filter(
      (p) => isObject(p) && categoryIdsOf(ctx, Number(p.product_id)).some((c) => category.includes(c)),
    );
  },
};

/** RR-CATEGORY-DISABLED-LISTED: per request, the disabled products the category query let through (enabled for it). */
const LET_THROUGH = new WeakMap<object, number[]>();

export const categoryDisabledListed: Fault = {
  id: 'RR-CATEGORY-DISABLED-LISTED',
  iface: 'rest-route',
  // A listing that names a category runs the module's own query, `SELECT p.product_id FROM product_to_category
  // p2c LEFT JOIN product p ON ... WHERE p2c.category_id IN (...)`, which (unlike the platform's getProducts())
  // leaves out `AND p.status = '1'`: a disabled product of the category is listed with the others, while its
  // detail (the platform's getProduct(), which keeps the status test) answers that there is no such product.
  before(req, ctx) {
    const category = req.endpoint === 'product/listing' ? categoryParam(req) : undefined;
    if (category === undefined) return;
    const ids = category
      .split(/[,_]/)
      .map((c) => c.trim())
      .filter((c) => /^\d{1,15}$/.test(c))
      .map(Number);
    const hidden = ctx.db
      .prepare(
        `SELECT DISTINCT p.product_id FROM rr_product p JOIN rr_product_category pc ON pc.product_id = p.product_id
         WHERE p.status = 0 AND pc.category_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids)) as Array<{ product_id: number }>;
    if (hidden.length === 0) return;
    const list = hidden.map((r) => r.product_id);
    LET_THROUGH.set(req.raw, list);
    // The handler reads the status column: the rows are enabled for this one listing and disabled again after it.
    const enable = ctx.db.prepare('UPDATE rr_product SET status = 1 WHERE product_id = ?');
    for (const id of list) enable.run(id);
  },
  after(_res, req, ctx) {
    const list = LET_THROUGH.get(req.raw);
    if (!list) return;
    const disable = ctx.db.prepare('UPDATE rr_product SET status = 0 WHERE product_id = ?');
    for (const id of list) disable.run(id);
  },
};
