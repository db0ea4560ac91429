import type Database from 'better-sqlite3';

/**
 * Tables of the shop variant (document 2, B). Money is stored in integer cents so totals add up
 * exactly; UNIQUE constraints carry the uniqueness rules (username, e-mail, one cart line per
 * product) so that concurrent requests cannot break them.
 */
export function migrateShop(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS shop_settings (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS shop_users (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_login TEXT NOT NULL UNIQUE COLLATE NOCASE,
      user_email TEXT NOT NULL UNIQUE COLLATE NOCASE,
      user_pass TEXT NOT NULL,
      user_nicename TEXT NOT NULL,
      user_url TEXT NOT NULL DEFAULT '',
      user_registered TEXT NOT NULL,
      user_activation_key TEXT NOT NULL DEFAULT '',
      user_status INTEGER NOT NULL DEFAULT 0,
      display_name TEXT NOT NULL,
      first_name TEXT NOT NULL,
      last_name TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS shop_categories (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      slug TEXT NOT NULL UNIQUE COLLATE NOCASE,
      name TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS shop_products (
      id INTEGER PRIMARY KEY,
      type TEXT NOT NULL DEFAULT 'simple',
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      sku TEXT NOT NULL UNIQUE,
      description TEXT NOT NULL DEFAULT '',
      short_description TEXT NOT NULL DEFAULT '',
      regular_cents INTEGER NOT NULL CHECK (regular_cents >= 0),
      sale_cents INTEGER CHECK (sale_cents IS NULL OR sale_cents >= 0),
      featured INTEGER NOT NULL DEFAULT 0 CHECK (featured IN (0, 1)),
      stock_status TEXT NOT NULL CHECK (stock_status IN ('instock', 'outofstock')),
      stock_quantity INTEGER CHECK (stock_quantity IS NULL OR stock_quantity >= 0),
      image TEXT NOT NULL,
      gallery TEXT NOT NULL DEFAULT '[]',
      created_at TEXT NOT NULL,
      modified_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS shop_product_categories (
      product_id INTEGER NOT NULL REFERENCES shop_products(id) ON DELETE CASCADE,
      category_id INTEGER NOT NULL REFERENCES shop_categories(id) ON DELETE CASCADE,
      PRIMARY KEY (product_id, category_id)
    );
    CREATE TABLE IF NOT EXISTS shop_reviews (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id INTEGER NOT NULL REFERENCES shop_products(id) ON DELETE CASCADE,
      reviewer TEXT NOT NULL,
      reviewer_email TEXT NOT NULL,
      rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
      review TEXT NOT NULL,
      date_created TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS shop_slider (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      title TEXT NOT NULL,
      subtitle TEXT NOT NULL,
      link_type TEXT NOT NULL,
      link TEXT NOT NULL,
      image TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS shop_coupons (
      code TEXT PRIMARY KEY COLLATE NOCASE,
      discount_type TEXT NOT NULL CHECK (discount_type IN ('percent', 'fixed_cart')),
      -- percent: whole percent; fixed_cart: cents
      amount INTEGER NOT NULL CHECK (amount >= 0),
      expires_at TEXT,
      usage_limit INTEGER,
      usage_count INTEGER NOT NULL DEFAULT 0,
      CHECK (usage_limit IS NULL OR usage_count <= usage_limit)
    );
    CREATE TABLE IF NOT EXISTS shop_payment_methods (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      requires_card_token INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS shop_cart_items (
      user_id INTEGER NOT NULL REFERENCES shop_users(id) ON DELETE CASCADE,
      item_key TEXT NOT NULL,
      product_id INTEGER NOT NULL REFERENCES shop_products(id),
      variation_id INTEGER NOT NULL DEFAULT 0,
      quantity INTEGER NOT NULL CHECK (quantity > 0),
      added_at TEXT NOT NULL,
      PRIMARY KEY (user_id, item_key),
      UNIQUE (user_id, product_id, variation_id)
    );
    CREATE TABLE IF NOT EXISTS shop_orders (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL REFERENCES shop_users(id),
      status TEXT NOT NULL,
      currency TEXT NOT NULL,
      payment_method TEXT NOT NULL REFERENCES shop_payment_methods(id),
      payment_title TEXT NOT NULL,
      billing TEXT NOT NULL,
      subtotal_cents INTEGER NOT NULL,
      discount_cents INTEGER NOT NULL,
      shipping_cents INTEGER NOT NULL,
      total_cents INTEGER NOT NULL,
      date_created TEXT NOT NULL,
      date_modified TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS shop_order_items (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      order_id INTEGER NOT NULL REFERENCES shop_orders(id) ON DELETE CASCADE,
      product_id INTEGER NOT NULL REFERENCES shop_products(id),
      item_name TEXT NOT NULL,
      quantity INTEGER NOT NULL CHECK (quantity > 0),
      subtotal_cents INTEGER NOT NULL,
      total_cents INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS shop_order_coupons (
      order_id INTEGER NOT NULL REFERENCES shop_orders(id) ON DELETE CASCADE,
      code TEXT NOT NULL REFERENCES shop_coupons(code),
      discount_cents INTEGER NOT NULL,
      PRIMARY KEY (order_id, code)
    );
    CREATE INDEX IF NOT EXISTS shop_orders_user ON shop_orders(user_id, id);
  `);
}
