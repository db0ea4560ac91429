import type Database from 'better-sqlite3';
import { type Call, type Envelope, fail, id, imageUrl, label, ok, ruleError, setting, sql, text } from './core.js';

interface CategoryRow {
  category_id: number;
  parent_id: number;
  image: string;
  icon: string;
  top: number;
  column: number;
  sort_order: number;
  status: number;
  date_added: string;
  date_modified: string;
  language_id: number;
  name: string;
  description: string;
  meta_title: string;
  meta_description: string;
  meta_keyword: string;
  store_id: number;
}

interface ProductRow {
  product_id: number;
  name: string;
  model: string;
  description: string;
  image: string;
  price: number;
  tax_rate: number;
  quantity: number;
  minimum: number;
  sort_order: number;
  recurring: number;
  date_added: string;
}

interface Currency {
  code: string;
  symbol_left: string;
  symbol_right: string;
  decimal_place: number;
  value: number;
}

/** Length of the truncated description of a product summary. */
const SUMMARY_LENGTH = 100;

// 15. GET common/category: the enabled category tree, children nested, ordered by sort_order then name.
export function categories(call: Call): Envelope {
  const rows = sql(call.db, 'SELECT * FROM rr_category WHERE status = 1 ORDER BY sort_order, name').all() as CategoryRow[];
  const record = (c: CategoryRow): Record<string, unknown> => ({
    category_id: String(c.category_id),
    image: imageUrl(call.request, c.image),
    parent_id: String(c.parent_id),
    top: String(c.top),
    column: String(c.column),
    sort_order: String(c.sort_order),
    status: String(c.status),
    date_added: c.date_added,
    date_modified: c.date_modified,
    language_id: String(c.language_id),
    name: c.name,
    description: c.description,
    meta_title: c.meta_title,
    meta_description: c.meta_description,
    meta_keyword: c.meta_keyword,
    store_id: String(c.store_id),
    icon: imageUrl(call.request, c.icon),
    children: rows.filter((child) => child.parent_id === c.category_id).map(record),
  });
  return ok(call, { categories: rows.filter((c) => c.parent_id === 0).map(record) });
}

/** The currency of the `currency` query parameter or cookie (the samples send one), else the store's. */
function currencyOf(call: Call): Currency {
  const cookie = /(?:^|;\s*)currency=([A-Za-z]{3})/.exec(String(call.request.headers.cookie ?? ''))?.[1];
  const wanted = (text(call.query, 'currency') ?? cookie ?? '').toUpperCase();
  const pick = (code: string) => sql(call.db, 'SELECT * FROM rr_currency WHERE code = ?').get(code) as Currency | undefined;
  return (
    pick(wanted) ??
    pick(setting(call.db, 'store.currency')) ?? { code: 'USD', symbol_left: '$', symbol_right: '', decimal_place: 2, value: 1 }
  );
}

/** `$1,234.50`: the language's decimal and thousand separators, the currency's symbols and rate. */
function money(db: Database.Database, amount: number, c: Currency): string {
  const fixed = (Math.round(amount * c.value * 10 ** c.decimal_place) / 10 ** c.decimal_place).toFixed(c.decimal_place);
  const [whole = '0', fraction] = fixed.split('.');
  const thousands = setting(db, 'language.thousand_point') || ',';
  const decimal = setting(db, 'language.decimal_point') || '.';
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return `${c.symbol_left}${fraction === undefined ? grouped : `${grouped}${decimal}${fraction}`}${c.symbol_right}`;
}

function plain(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** Everything computed about one product for one customer: special price, rating, options, wish list. */
function facts(call: Call, p: ProductRow) {
  const groupId = call.customer?.customer_group_id ?? Number(setting(call.db, 'store.customer_group_id'));
  const today = new Date().toISOString().slice(0, 10);
  const special = sql(
    call.db,
    `SELECT price FROM rr_product_special WHERE product_id = ? AND customer_group_id = ?
       AND (date_start = '' OR date_start <= ?) AND (date_end = '' OR date_end > ?) ORDER BY priority, price LIMIT 1`,
  ).get(p.product_id, groupId, today, today) as { price: number } | undefined;
  const reviews = sql(call.db, 'SELECT COUNT(*) AS n, AVG(rating) AS avg FROM rr_review WHERE product_id = ? AND status = 1').get(
    p.product_id,
  ) as { n: number; avg: number | null };
  const options = sql(call.db, 'SELECT COUNT(*) AS n FROM rr_product_option WHERE product_id = ?').get(p.product_id) as {
    n: number;
  };
  const wished = call.customer
    ? sql(call.db, 'SELECT 1 FROM rr_wishlist WHERE customer_id = ? AND product_id = ?').get(
        call.customer.customer_id,
        p.product_id,
      )
    : undefined;
  return {
    special: special?.price,
    effective: special?.price ?? p.price,
    rating: Math.round(reviews.avg ?? 0),
    reviewCount: reviews.n,
    hasOptions: options.n > 0,
    wished: wished !== undefined,
  };
}

function withTax(amount: number, p: ProductRow): number {
  return amount * (1 + p.tax_rate / 100);
}

function summary(call: Call, p: ProductRow, f: ReturnType<typeof facts>, c: Currency): Record<string, unknown> {
  const description = plain(p.description);
  return {
    product_id: String(p.product_id),
    thumb: imageUrl(call.request, p.image || 'placeholder.png'),
    name: p.name,
    model: p.model,
    description: description.length > SUMMARY_LENGTH ? `${description.slice(0, SUMMARY_LENGTH)}..` : description,
    price: money(call.db, withTax(p.price, p), c),
    special: f.special === undefined ? '' : money(call.db, withTax(f.special, p), c),
    tax: money(call.db, f.effective, c),
    minimum: String(Math.max(1, p.minimum)),
    rating: f.rating,
    reviews: String(f.reviewCount),
    wishlist_status: f.wished,
    is_options: f.hasOptions,
    is_recuring_product: p.recurring === 1,
  };
}

/** The sort options (value `<sort field>-<ASC|DESC>`), default first. */
const SORTS: Array<[string, string, 'ASC' | 'DESC']> = [
  ['text_default', 'p.sort_order', 'ASC'],
  ['text_name_asc', 'pd.name', 'ASC'],
  ['text_name_desc', 'pd.name', 'DESC'],
  ['text_price_asc', 'p.price', 'ASC'],
  ['text_price_desc', 'p.price', 'DESC'],
  ['text_rating_desc', 'rating', 'DESC'],
  ['text_rating_asc', 'rating', 'ASC'],
  ['text_model_asc', 'p.model', 'ASC'],
  ['text_model_desc', 'p.model', 'DESC'],
];

type Entry = { p: ProductRow; f: ReturnType<typeof facts> };

function comparator(sort: string): (a: Entry, b: Entry) => number {
  const byName = (a: Entry, b: Entry) => a.p.name.toLowerCase().localeCompare(b.p.name.toLowerCase());
  switch (sort) {
    case 'pd.name':
      return byName;
    case 'p.price':
      return (a, b) => a.f.effective - b.f.effective || byName(a, b);
    case 'rating':
      return (a, b) => a.f.rating - b.f.rating || byName(a, b);
    case 'p.model':
      return (a, b) => a.p.model.toLowerCase().localeCompare(b.p.model.toLowerCase()) || byName(a, b);
    default:
      return (a, b) => a.p.sort_order - b.p.sort_order || byName(a, b);
  }
}

// 16. GET product/listing: category_ids (one id or a comma list), search, and (not shown, OpenCart-style) sort, order, page, limit.
export function listing(call: Call): Envelope {
  const q = call.query;
  let rows = sql(call.db, 'SELECT * FROM rr_product WHERE status = 1').all() as ProductRow[];

  const categoryParam = text(q, 'category_ids', 'category_id', 'path');
  if (categoryParam !== undefined && categoryParam !== '') {
    const ids = categoryParam
      .split(/[,_]/)
      .map((s) => s.trim())
      .filter((s) => /^\d{1,15}$/.test(s))
      .map(Number);
    const member = sql(call.db, 'SELECT 1 FROM rr_product_category WHERE product_id = ? AND category_id = ?');
    rows = rows.filter((p) => ids.some((c) => member.get(p.product_id, c) !== undefined));
  }

  // Every word of the search must occur in the name (case-insensitive), or the search is the model.
  const search = text(q, 'search', 'filter_name');
  if (search) {
    const words = search.toLowerCase().split(/\s+/).filter(Boolean);
    rows = rows.filter(
      (p) => words.every((w) => p.name.toLowerCase().includes(w)) || p.model.toLowerCase() === search.toLowerCase(),
    );
  }

  const sortParam = text(q, 'sort') ?? '';
  const sortField = SORTS.some(([, s]) => s === sortParam) ? sortParam : 'p.sort_order';
  const order = (text(q, 'order') ?? '').toUpperCase() === 'DESC' ? -1 : 1;
  const cmp = comparator(sortField);
  const entries: Entry[] = rows.map((p) => ({ p, f: facts(call, p) }));
  entries.sort((a, b) => order * cmp(a, b));

  // Paging is not shown; without a limit every product is listed.
  const limit = id(q, 'limit');
  const page = Math.max(1, id(q, 'page') ?? 1);
  const shown = limit && limit > 0 ? entries.slice((page - 1) * limit, page * limit) : entries;

  const currency = currencyOf(call);
  return ok(call, {
    products: shown.map((e) => summary(call, e.p, e.f, currency)),
    sorts: SORTS.map(([key, sort, dir]) => ({
      text: label(call.db, key, 'product/listing'),
      value: `${sort}-${dir}`,
      sort,
      order: dir,
    })),
  });
}

// 17. GET product/product&product_id=: the detail record (not shown: the summary's fields plus full description, images, options, reviews).
export function product(call: Call): Envelope {
  const productId = id(call.query, 'product_id');
  if (productId === undefined) return fail(call, [ruleError(call, 'error_product_id', 'product_id')]);
  const p = sql(call.db, 'SELECT * FROM rr_product WHERE product_id = ? AND status = 1').get(productId) as ProductRow | undefined;
  if (!p) return fail(call, [ruleError(call, 'error_product_not_found', 'product_id')]);
  const f = facts(call, p);
  const currency = currencyOf(call);
  const options = sql(call.db, 'SELECT * FROM rr_product_option WHERE product_id = ? ORDER BY product_option_id').all(
    p.product_id,
  ) as Array<{
    product_option_id: number;
    name: string;
    type: string;
    required: number;
  }>;
  const values = sql(
    call.db,
    'SELECT * FROM rr_product_option_value WHERE product_option_id = ? ORDER BY product_option_value_id',
  );
  const reviews = sql(
    call.db,
    'SELECT author, text, rating, date_added FROM rr_review WHERE product_id = ? AND status = 1 ORDER BY review_id',
  ).all(p.product_id) as Array<{ author: string; text: string; rating: number; date_added: string }>;
  const categoryIds = sql(call.db, 'SELECT category_id FROM rr_product_category WHERE product_id = ? ORDER BY category_id').all(
    p.product_id,
  ) as Array<{ category_id: number }>;
  return ok(call, {
    ...summary(call, p, f, currency),
    description: p.description,
    popup: imageUrl(call.request, p.image || 'placeholder.png'),
    images: p.image ? [imageUrl(call.request, p.image)] : [],
    quantity: String(p.quantity),
    stock: label(call.db, p.quantity > 0 ? 'text_instock' : 'text_outofstock', 'product/product'),
    categories: categoryIds.map((c) => String(c.category_id)),
    options: options.map((o) => ({
      product_option_id: String(o.product_option_id),
      name: o.name,
      type: o.type,
      required: String(o.required),
      product_option_value: (
        values.all(o.product_option_id) as Array<{ product_option_value_id: number; name: string; price: number }>
      ).map((v) => ({
        product_option_value_id: String(v.product_option_value_id),
        name: v.name,
        price: v.price > 0 ? money(call.db, withTax(v.price, p), currency) : '',
      })),
    })),
    review_list: reviews.map((r) => ({ author: r.author, text: r.text, rating: r.rating, date_added: r.date_added })),
    date_added: p.date_added,
  });
}
