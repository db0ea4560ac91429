import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { bodyOf, int, str } from '../http/body.js';
import { currencySymbol, type Envelope, fail, flag, money, ok, params, toCents } from './common.js';

/** Products per listing page (the document leaves the page size "not shown"). */
export const PAGE_SIZE = 10;

interface ProductRow {
  id: number;
  type: string;
  name: string;
  slug: string;
  sku: string;
  description: string;
  short_description: string;
  regular_cents: number;
  sale_cents: number | null;
  featured: number;
  stock_status: string;
  stock_quantity: number | null;
  image: string;
  gallery: string;
  created_at: string;
  modified_at: string;
}

const PRICE = 'COALESCE(p.sale_cents, p.regular_cents)';
/** sort_by values (the sample shows `modified`); anything else falls back to the default order, by id. */
const SORTS: Record<string, string> = {
  modified: 'p.modified_at',
  date: 'p.created_at',
  price: PRICE,
  name: 'p.name COLLATE NOCASE',
  title: 'p.name COLLATE NOCASE',
  id: 'p.id',
  sku: 'p.sku',
  rating: '(SELECT COALESCE(AVG(r.rating), 0) FROM shop_reviews r WHERE r.product_id = p.id)',
  popularity: '(SELECT COALESCE(SUM(i.quantity), 0) FROM shop_order_items i WHERE i.product_id = p.id)',
};

function summary(p: ProductRow) {
  return {
    id: p.id,
    type: p.type,
    name: p.name,
    image: p.image,
    price: money(p.sale_cents ?? p.regular_cents),
    regular_price: money(p.regular_cents),
    // WooCommerce shows an empty string when a product is not on sale.
    sale_price: p.sale_cents === null ? '' : money(p.sale_cents),
    sku: p.sku,
  };
}

/** A list parameter sent as `a,b`, as `x[]=a&x[]=b` or as a JSON array. */
function list(v: unknown): string[] {
  const parts = Array.isArray(v) ? v : [v];
  return parts
    .flatMap((x) => (typeof x === 'string' || typeof x === 'number' ? String(x).split(',') : []))
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '')
    .slice(0, 50);
}

function slider(ctx: AppContext) {
  return ctx.db.prepare('SELECT title, subtitle, link_type, link, image FROM shop_slider ORDER BY id').all();
}

function listing(ctx: AppContext, request: FastifyRequest): Envelope {
  const { body } = bodyOf(request);
  const q = params(request, body);
  const errors: Record<string, string> = {};
  const page = int(q.page);
  if (q.page === undefined || q.page === '') errors.page = 'page is required.';
  else if (page === undefined || page < 1 || page > 1_000_000) errors.page = 'page must be a positive integer.';
  const priceFrom = q.price_from === undefined || q.price_from === '' ? null : toCents(q.price_from);
  const priceTo = q.price_to === undefined || q.price_to === '' ? null : toCents(q.price_to);
  if (priceFrom === undefined) errors.price_from = 'price_from must be a non-negative amount.';
  if (priceTo === undefined) errors.price_to = 'price_to must be a non-negative amount.';
  const base = { slider: slider(ctx), currency: currencySymbol(ctx) };
  if (Object.keys(errors).length > 0 || page === undefined)
    return fail('Please correct the highlighted fields.', errors, { data: { ...base, total_pages: 0, products: [] } });

  const where: string[] = [];
  const args: Array<string | number> = [];
  const categories = [...list(q.categories), ...list(q['categories[]'])];
  if (categories.length > 0) {
    // Slugs per the document; names too, because public apps send category names.
    const marks = categories.map(() => '?').join(', ');
    where.push(`p.id IN (SELECT pc.product_id FROM shop_product_categories pc JOIN shop_categories c ON c.id = pc.category_id
      WHERE lower(c.slug) IN (${marks}) OR lower(c.name) IN (${marks}))`);
    args.push(...categories, ...categories);
  }
  const keywords = (str(q.search) ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 10);
  for (const k of keywords) {
    // Every keyword must occur in the name, the descriptions or the sku; instr() needs no escaping.
    where.push(
      '(instr(lower(p.name), ?) > 0 OR instr(lower(p.short_description), ?) > 0 OR instr(lower(p.description), ?) > 0 OR instr(lower(p.sku), ?) > 0)',
    );
    args.push(k, k, k, k);
  }
  if (flag(q.featured)) where.push('p.featured = 1');
  if (flag(q.instock)) where.push("p.stock_status = 'instock'");
  if (priceFrom !== null && priceFrom !== undefined) {
    where.push(`${PRICE} >= ?`);
    args.push(priceFrom);
  }
  if (priceTo !== null && priceTo !== undefined) {
    where.push(`${PRICE} <= ?`);
    args.push(priceTo);
  }
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const sortBy = SORTS[(str(q.sort_by) ?? '').toLowerCase()];
  const direction = (str(q.sort_order) ?? '').toLowerCase() === 'asc' ? 'ASC' : 'DESC';
  const order = sortBy ? `${sortBy} ${direction}, p.id ${direction}` : 'p.id ASC';

  const total = (ctx.db.prepare(`SELECT COUNT(*) AS n FROM shop_products p ${filter}`).get(...args) as { n: number }).n;
  const rows = ctx.db
    .prepare(`SELECT p.* FROM shop_products p ${filter} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...args, PAGE_SIZE, (page - 1) * PAGE_SIZE) as ProductRow[];
  // No match, or a page past the end: the no-products message with total_pages 0 (Part 4, Behaviour).
  if (rows.length === 0) return fail('No products found.', [], { data: { ...base, total_pages: 0, products: [] } });
  return ok('Products found.', { data: { ...base, total_pages: Math.ceil(total / PAGE_SIZE), products: rows.map(summary) } });
}

function product(ctx: AppContext, request: FastifyRequest): Envelope {
  const id = int((request.params as { id?: string }).id);
  const p =
    id === undefined ? undefined : (ctx.db.prepare('SELECT * FROM shop_products WHERE id = ?').get(id) as ProductRow | undefined);
  if (!p) return fail('Product does not exist, perhaps it was deleted.', { product_id: 'Product does not exist.' });
  const categories = ctx.db
    .prepare(
      `SELECT c.id, c.name, c.slug FROM shop_categories c JOIN shop_product_categories pc ON pc.category_id = c.id
       WHERE pc.product_id = ? ORDER BY c.id`,
    )
    .all(p.id);
  const reviews = ctx.db
    .prepare('SELECT id, reviewer, rating, review, date_created FROM shop_reviews WHERE product_id = ? ORDER BY id')
    .all(p.id) as Array<{ rating: number }>;
  const ratingCounts: Record<string, number> = {};
  for (const r of reviews) ratingCounts[String(r.rating)] = (ratingCounts[String(r.rating)] ?? 0) + 1;
  const average = reviews.length === 0 ? 0 : reviews.reduce((s, r) => s + r.rating, 0) / reviews.length;
  // id, type, name, slug are the shown fields; the rest follow what public client apps read.
  return ok('Product details.', {
    data: {
      ...summary(p),
      slug: p.slug,
      permalink: `/product/${p.slug}`,
      date_created: p.created_at,
      date_modified: p.modified_at,
      featured: p.featured === 1,
      on_sale: p.sale_cents !== null,
      description: p.description,
      short_description: p.short_description,
      stock_status: p.stock_status,
      stock_quantity: p.stock_quantity,
      categories,
      gallery_images: JSON.parse(p.gallery) as string[],
      average_rating: average.toFixed(2),
      review_count: reviews.length,
      rating_counts: ratingCounts,
      reviews,
      currency: currencySymbol(ctx),
    },
  });
}

export function catalogRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The headings say POST, every sample uses GET: both are served, with the same parameters.
  app.route({ method: ['GET', 'POST'], url: '/products', handler: async (request) => listing(ctx, request) });
  app.route({ method: ['GET', 'POST'], url: '/product/:id', handler: async (request) => product(ctx, request) });
  app.route({
    method: ['GET', 'POST'],
    url: '/product',
    handler: async () => fail('Product does not exist, perhaps it was deleted.', { product_id: 'product_id is required.' }),
  });
}
