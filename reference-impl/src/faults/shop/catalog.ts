import { PAGE_SIZE } from '../../shop/catalog.js';
import { identify } from '../../shop/common.js';
import { type Fault, isObject } from '../model.js';
import { INNER_LISTING, ignoreParam, innerListing } from './shared.js';

export const productIdString: Fault = {
  id: 'SHOP-PRODUCT-ID-STRING',
  iface: 'rest-v1-shop',
  after(res, req) {
    const products = isObject(res.body) && isObject(res.body.data) ? res.body.data.products : undefined;
    if (req.endpoint === '/products' && Array.isArray(products))
      for (const p of products) if (isObject(p) && typeof p.id === 'number') p.id = String(p.id);
  },
};

export const pageIgnored: Fault = {
  id: 'SHOP-PAGE-IGNORED',
  iface: 'rest-v1-shop',
  before: (req) => ignoreParam(req, 'page', '1'),
};

export const searchIgnored: Fault = {
  id: 'SHOP-SEARCH-IGNORED',
  iface: 'rest-v1-shop',
  before: (req) => ignoreParam(req, 'search'),
};

export const categoryIgnored: Fault = {
  id: 'SHOP-CATEGORY-IGNORED',
  iface: 'rest-v1-shop',
  before: (req) => ignoreParam(req, 'categories'),
};

export const pagesUnfiltered: Fault = {
  id: 'SHOP-PAGES-UNFILTERED',
  iface: 'rest-v1-shop',
  // total_pages from the published product count (wp_count_posts), whatever the filters matched.
  after(res, req, ctx) {
    const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;
    if (req.endpoint !== '/products' || !data || typeof data.total_pages !== 'number' || data.total_pages === 0) return;
    const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM shop_products').get() as { n: number };
    data.total_pages = Math.ceil(n / PAGE_SIZE);
  },
};

export const productsLastPageFilled: Fault = {
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
    const previous = (await innerListing(req, page - 1))?.products;
    if (!Array.isArray(previous)) return;
    data.products = [...previous.slice(data.products.length - PAGE_SIZE), ...data.products];
  },
};

export const pagesTruncated: Fault = {
  id: 'SHOP-PAGES-TRUNCATED',
  iface: 'rest-v1-shop',
  // The listing counts its matches itself (SELECT COUNT(*) with the filters) and writes total_pages as
  // (int) ($found / $per_page): the division is truncated, not rounded up, so a listing whose last page is partial
  // (categories=clothing: 14 products, pages of 10) reports one page too few, and a listing of fewer matches than a
  // page reports total_pages 0 beside its products. Listings of whole pages (the catalog of 30) read as before.
  async after(res, req) {
    if (req.endpoint !== '/products' || req.raw.headers[INNER_LISTING] !== undefined) return;
    const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;
    if (!data || typeof data.total_pages !== 'number' || data.total_pages < 1 || !Array.isArray(data.products)) return;
    const total = data.total_pages;
    const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
    let lastPage = Number(q.page) === total ? data.products.length : undefined;
    if (lastPage === undefined) {
      // The handler's own count is not at hand at the edge: the listing's last page is asked for, and its length tells.
      const products = (await innerListing(req, total))?.products;
      if (!Array.isArray(products)) return;
      lastPage = products.length;
    }
    data.total_pages = Math.trunc(((total - 1) * PAGE_SIZE + lastPage) / PAGE_SIZE);
  },
};

export const productsLookaheadKept: Fault = {
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
    const following = (await innerListing(req, page + 1))?.products;
    if (Array.isArray(following) && following.length > 0) data.products = [...data.products, following[0]];
  },
};

export const productNeedsToken: Fault = {
  id: 'SHOP-PRODUCT-NEEDS-TOKEN',
  iface: 'rest-v1-shop',
  // The add-on registers /product/<id> with the same permission_callback as the cart and orders routes (the token
  // check): the single product answers only a request that sends a valid token.
  async after(res, req, ctx) {
    if (!req.endpoint.startsWith('/product/')) return;
    const user = await identify(req.raw, ctx);
    if (!('status' in user)) return;
    res.status = 401;
    res.body = user;
  },
};

export const pagesAtLeastOne: Fault = {
  id: 'SHOP-PAGES-AT-LEAST-ONE',
  iface: 'rest-v1-shop',
  // The listing answers `'total_pages' => max(1, $query->max_num_pages)` so that an app never shows "page 1 of 0": a
  // listing with no match answers total_pages 1 beside its no-products message.
  after(res, req) {
    if (req.endpoint !== '/products' || !isObject(res.body) || !isObject(res.body.data)) return;
    if (res.body.data.total_pages === 0) res.body.data.total_pages = 1;
  },
};

export const pagesCountJoinedRows: Fault = {
  id: 'SHOP-PAGES-COUNT-JOINED-ROWS',
  iface: 'rest-v1-shop',
  // The listing counts its matches for total_pages with its own SQL, the listing's FROM wp_posts LEFT JOIN
  // wp_term_relationships (the product_cat join that the categories filter needs) under SELECT COUNT(*) instead of
  // COUNT(DISTINCT p.ID): the page query has GROUP BY p.ID, the count has not, so a product filed in two categories is
  // counted twice. The catalog of 30 (three products in two categories) counts 33 rows and answers total_pages 4, whose
  // page lists nothing; a listing filtered by one category counts each product once and reads as before.
  async after(res, req, ctx) {
    if (req.endpoint !== '/products' || req.raw.headers[INNER_LISTING] !== undefined) return;
    const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;
    if (!data || typeof data.total_pages !== 'number' || data.total_pages < 1 || data.total_pages > 100) return;
    const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
    const slugs = [q.categories, q['categories[]']]
      .flat()
      .flatMap((v) => (typeof v === 'string' ? v.split(',') : []))
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== '');
    const ids: number[] = [];
    for (let p = 1; p <= data.total_pages; p++) {
      const listed = (await innerListing(req, p))?.products;
      const products = Array.isArray(listed) ? listed : undefined;
      if (!products) return;
      for (const product of products) if (isObject(product) && typeof product.id === 'number') ids.push(product.id);
    }
    const joined = ctx.db.prepare(
      `SELECT lower(c.slug) AS slug, lower(c.name) AS name FROM shop_product_categories pc
       JOIN shop_categories c ON c.id = pc.category_id WHERE pc.product_id = ?`,
    );
    let rows = 0;
    for (const id of ids) {
      const cats = joined.all(id) as { slug: string; name: string }[];
      const matched =
        slugs.length === 0 ? cats.length : cats.filter((c) => slugs.includes(c.slug) || slugs.includes(c.name)).length;
      rows += Math.max(1, matched);
    }
    data.total_pages = Math.ceil(rows / PAGE_SIZE);
  },
};

export const productsOffsetPageTimesSize: Fault = {
  id: 'SHOP-PRODUCTS-OFFSET-PAGE-TIMES-SIZE',
  iface: 'rest-v1-shop',
  // The listing passes WP_Query 'offset' => $page * $per_page (which overrides 'paged') where ($page - 1) * $per_page
  // is meant: page 1 starts at the 11th product, the catalog's first page of products is never listed, and the page
  // that total_pages names (found_posts is not changed by the offset) lists nothing.
  before(req) {
    if (req.endpoint !== '/products' || req.raw.headers[INNER_LISTING] !== undefined) return;
    for (const holder of [req.query, req.raw.body]) {
      if (!isObject(holder) || !/^[1-9]\d{0,5}$/.test(String(holder.page))) continue;
      holder.page = typeof holder.page === 'number' ? holder.page + 1 : String(Number(holder.page) + 1);
    }
  },
};

export const productsLastPageStatusFalse: Fault = {
  id: 'SHOP-PRODUCTS-LAST-PAGE-STATUS-FALSE',
  iface: 'rest-v1-shop',
  // The listing tells the app's infinite scroll to stop with the envelope's status: `if ( $page >= $query->max_num_pages )
  // return $this->response( false, array(), __( 'No more products.' ), $data );` where it means "the last page", so the
  // last page of every listing answers status false and a failure message beside its products (a listing of one page
  // on its page 1). The pages before the last, and a listing with no match, read as before.
  after(res, req) {
    if (req.endpoint !== '/products' || req.raw.headers[INNER_LISTING] !== undefined || !isObject(res.body)) return;
    const data = isObject(res.body.data) ? res.body.data : undefined;
    if (res.body.status !== true || !data || !Array.isArray(data.products) || data.products.length === 0) return;
    const q: Record<string, unknown> = { ...req.query, ...(isObject(req.raw.body) ? req.raw.body : {}) };
    if (typeof data.total_pages !== 'number' || Number(q.page) < data.total_pages) return;
    res.body.status = false;
    res.body.message = 'No more products.';
  },
};
