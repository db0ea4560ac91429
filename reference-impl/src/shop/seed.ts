import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import { toCents } from './common.js';

interface SeedProduct {
  id: number;
  name: string;
  slug: string;
  sku: string;
  type: string;
  categories: string[];
  regular_price: string;
  sale_price: string | null;
  featured: boolean;
  stock_status: 'instock' | 'outofstock';
  stock_quantity: number | null;
  short_description: string;
  description: string;
  image: string;
  gallery: string[];
  created_at: string;
  modified_at: string;
  reviews: Array<{ reviewer: string; reviewer_email: string; rating: number; review: string; date_created: string }>;
}

interface ShopSeed {
  currency: { code: string; symbol: string };
  categories: Array<{ slug: string; name: string }>;
  products: SeedProduct[];
  slider: Array<{ title: string; subtitle: string; link_type: string; link: string; image: string }>;
  coupons: Array<{
    code: string;
    discount_type: 'percent' | 'fixed_cart';
    amount: string;
    expires_at: string | null;
    usage_limit: number | null;
    usage_count: number;
  }>;
  payment_methods: Array<{ id: string; title: string; requires_card_token: boolean }>;
  users: Array<{
    user_login: string;
    user_email: string;
    first_name: string;
    last_name: string;
    password_hash: string;
    user_registered: string;
  }>;
}

function cents(value: string, what: string): number {
  const c = toCents(value);
  if (c === undefined) throw new Error(`fixtures/seed/shop.json: ${what} is not an amount: "${value}"`);
  return c;
}

/** Loads `fixtures/seed/shop.json`; runs inside the server's seeding transaction, so a bad file leaves nothing behind. */
export function seedShop(ctx: AppContext): void {
  const seed = JSON.parse(readFileSync(join(ctx.fixturesDir, 'shop.json'), 'utf8')) as ShopSeed;
  const { db } = ctx;
  const setSetting = db.prepare('INSERT OR REPLACE INTO shop_settings (name, value) VALUES (?, ?)');
  setSetting.run('currency_code', seed.currency.code);
  setSetting.run('currency_symbol', seed.currency.symbol);

  const addCategory = db.prepare('INSERT INTO shop_categories (slug, name) VALUES (?, ?)');
  const categoryIds = new Map<string, number>();
  for (const c of seed.categories) categoryIds.set(c.slug, Number(addCategory.run(c.slug, c.name).lastInsertRowid));

  const addProduct = db.prepare(
    `INSERT INTO shop_products (id, type, name, slug, sku, description, short_description, regular_cents, sale_cents,
       featured, stock_status, stock_quantity, image, gallery, created_at, modified_at)
     VALUES (@id, @type, @name, @slug, @sku, @description, @short_description, @regular_cents, @sale_cents,
       @featured, @stock_status, @stock_quantity, @image, @gallery, @created_at, @modified_at)`,
  );
  const link = db.prepare('INSERT INTO shop_product_categories (product_id, category_id) VALUES (?, ?)');
  const addReview = db.prepare(
    'INSERT INTO shop_reviews (product_id, reviewer, reviewer_email, rating, review, date_created) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const p of seed.products) {
    addProduct.run({
      id: p.id,
      type: p.type,
      name: p.name,
      slug: p.slug,
      sku: p.sku,
      description: p.description,
      short_description: p.short_description,
      regular_cents: cents(p.regular_price, `${p.slug}.regular_price`),
      sale_cents: p.sale_price === null ? null : cents(p.sale_price, `${p.slug}.sale_price`),
      featured: p.featured ? 1 : 0,
      stock_status: p.stock_status,
      stock_quantity: p.stock_quantity,
      image: p.image,
      gallery: JSON.stringify(p.gallery),
      created_at: p.created_at,
      modified_at: p.modified_at,
    });
    for (const slug of p.categories) {
      const id = categoryIds.get(slug);
      if (id === undefined) throw new Error(`fixtures/seed/shop.json: ${p.slug} names unknown category "${slug}"`);
      link.run(p.id, id);
    }
    for (const r of p.reviews) addReview.run(p.id, r.reviewer, r.reviewer_email, r.rating, r.review, r.date_created);
  }

  const addSlide = db.prepare('INSERT INTO shop_slider (title, subtitle, link_type, link, image) VALUES (?, ?, ?, ?, ?)');
  for (const s of seed.slider) addSlide.run(s.title, s.subtitle, s.link_type, s.link, s.image);

  const addCoupon = db.prepare(
    'INSERT INTO shop_coupons (code, discount_type, amount, expires_at, usage_limit, usage_count) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const c of seed.coupons) {
    // Percent coupons keep the whole percent; fixed ones are stored in cents like every other amount.
    const amount = c.discount_type === 'percent' ? Number.parseInt(c.amount, 10) : cents(c.amount, `coupon ${c.code}`);
    addCoupon.run(c.code, c.discount_type, amount, c.expires_at, c.usage_limit, c.usage_count);
  }

  const addMethod = db.prepare('INSERT INTO shop_payment_methods (id, title, requires_card_token) VALUES (?, ?, ?)');
  for (const m of seed.payment_methods) addMethod.run(m.id, m.title, m.requires_card_token ? 1 : 0);

  const addUser = db.prepare(
    `INSERT INTO shop_users (user_login, user_email, user_pass, user_nicename, user_registered, display_name, first_name, last_name)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const u of seed.users) {
    addUser.run(
      u.user_login,
      u.user_email,
      u.password_hash,
      u.user_login.toLowerCase(),
      u.user_registered,
      `${u.first_name} ${u.last_name}`,
      u.first_name,
      u.last_name,
    );
  }
}
