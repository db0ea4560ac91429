import type Database from 'better-sqlite3';

/**
 * Tables of the route-based REST interface (document 1). Foreign keys and UNIQUE constraints
 * carry the rules the handlers rely on: one account per e-mail and per username (even under
 * parallel registrations), zones belong to a country, an address belongs to one customer.
 */
export function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS rr_setting (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS rr_label (
      page TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (page, key)
    );
    CREATE TABLE IF NOT EXISTS rr_language (
      language_id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      code TEXT NOT NULL UNIQUE,
      sort_order INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS rr_currency (
      code TEXT PRIMARY KEY CHECK (length(code) = 3),
      title TEXT NOT NULL,
      symbol_left TEXT NOT NULL DEFAULT '',
      symbol_right TEXT NOT NULL DEFAULT '',
      decimal_place INTEGER NOT NULL DEFAULT 2,
      value REAL NOT NULL CHECK (value > 0)
    );
    CREATE TABLE IF NOT EXISTS rr_customer_group (
      customer_group_id INTEGER PRIMARY KEY,
      approval INTEGER NOT NULL DEFAULT 0 CHECK (approval IN (0, 1)),
      sort_order INTEGER NOT NULL DEFAULT 0,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE IF NOT EXISTS rr_information (
      information_id INTEGER PRIMARY KEY,
      title TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE IF NOT EXISTS rr_country (
      country_id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      iso_code_2 TEXT NOT NULL,
      iso_code_3 TEXT NOT NULL,
      postcode_required INTEGER NOT NULL DEFAULT 0,
      status INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE IF NOT EXISTS rr_zone (
      zone_id INTEGER PRIMARY KEY,
      country_id INTEGER NOT NULL REFERENCES rr_country(country_id),
      name TEXT NOT NULL,
      code TEXT NOT NULL,
      status INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX IF NOT EXISTS rr_zone_country ON rr_zone(country_id);
    CREATE TABLE IF NOT EXISTS rr_customer (
      customer_id INTEGER PRIMARY KEY AUTOINCREMENT,
      customer_group_id INTEGER NOT NULL REFERENCES rr_customer_group(customer_group_id),
      store_id INTEGER NOT NULL DEFAULT 0,
      language_id INTEGER NOT NULL DEFAULT 1,
      firstname TEXT NOT NULL,
      lastname TEXT NOT NULL,
      email TEXT NOT NULL COLLATE NOCASE UNIQUE,
      username TEXT COLLATE NOCASE UNIQUE,
      telephone TEXT NOT NULL,
      fax TEXT NOT NULL DEFAULT '',
      password TEXT NOT NULL,
      salt TEXT NOT NULL,
      cart TEXT NOT NULL DEFAULT '',
      wishlist TEXT NOT NULL DEFAULT '',
      newsletter INTEGER NOT NULL DEFAULT 0 CHECK (newsletter IN (0, 1)),
      address_id INTEGER NOT NULL DEFAULT 0,
      custom_field TEXT NOT NULL DEFAULT '',
      ip TEXT NOT NULL DEFAULT '',
      status INTEGER NOT NULL DEFAULT 1,
      safe INTEGER NOT NULL DEFAULT 0,
      date_added TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS rr_address (
      address_id INTEGER PRIMARY KEY AUTOINCREMENT,
      customer_id INTEGER NOT NULL REFERENCES rr_customer(customer_id) ON DELETE CASCADE,
      firstname TEXT NOT NULL,
      lastname TEXT NOT NULL,
      company TEXT NOT NULL DEFAULT '',
      address_1 TEXT NOT NULL,
      address_2 TEXT NOT NULL DEFAULT '',
      city TEXT NOT NULL,
      postcode TEXT NOT NULL,
      country_id INTEGER NOT NULL REFERENCES rr_country(country_id),
      zone_id INTEGER NOT NULL DEFAULT 0,
      custom_field TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX IF NOT EXISTS rr_address_customer ON rr_address(customer_id);
    CREATE TABLE IF NOT EXISTS rr_password_reset (
      customer_id INTEGER PRIMARY KEY REFERENCES rr_customer(customer_id) ON DELETE CASCADE,
      otp INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS rr_category (
      category_id INTEGER PRIMARY KEY,
      parent_id INTEGER NOT NULL DEFAULT 0,
      image TEXT NOT NULL DEFAULT '',
      icon TEXT NOT NULL DEFAULT '',
      top INTEGER NOT NULL DEFAULT 0,
      "column" INTEGER NOT NULL DEFAULT 1,
      sort_order INTEGER NOT NULL DEFAULT 0,
      status INTEGER NOT NULL DEFAULT 1,
      date_added TEXT NOT NULL,
      date_modified TEXT NOT NULL,
      language_id INTEGER NOT NULL DEFAULT 1,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      meta_title TEXT NOT NULL DEFAULT '',
      meta_description TEXT NOT NULL DEFAULT '',
      meta_keyword TEXT NOT NULL DEFAULT '',
      store_id INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS rr_product (
      product_id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      model TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      image TEXT NOT NULL DEFAULT '',
      price REAL NOT NULL CHECK (price >= 0),
      tax_rate REAL NOT NULL DEFAULT 0,
      quantity INTEGER NOT NULL DEFAULT 0,
      minimum INTEGER NOT NULL DEFAULT 1 CHECK (minimum >= 1),
      sort_order INTEGER NOT NULL DEFAULT 0,
      status INTEGER NOT NULL DEFAULT 1,
      recurring INTEGER NOT NULL DEFAULT 0,
      date_added TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS rr_product_category (
      product_id INTEGER NOT NULL REFERENCES rr_product(product_id) ON DELETE CASCADE,
      category_id INTEGER NOT NULL REFERENCES rr_category(category_id) ON DELETE CASCADE,
      PRIMARY KEY (product_id, category_id)
    );
    CREATE TABLE IF NOT EXISTS rr_product_special (
      product_special_id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id INTEGER NOT NULL REFERENCES rr_product(product_id) ON DELETE CASCADE,
      customer_group_id INTEGER NOT NULL REFERENCES rr_customer_group(customer_group_id),
      priority INTEGER NOT NULL DEFAULT 1,
      price REAL NOT NULL CHECK (price >= 0),
      date_start TEXT NOT NULL DEFAULT '',
      date_end TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE IF NOT EXISTS rr_product_option (
      product_option_id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id INTEGER NOT NULL REFERENCES rr_product(product_id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      required INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS rr_product_option_value (
      product_option_value_id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_option_id INTEGER NOT NULL REFERENCES rr_product_option(product_option_id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      price REAL NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS rr_review (
      review_id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id INTEGER NOT NULL REFERENCES rr_product(product_id) ON DELETE CASCADE,
      author TEXT NOT NULL,
      text TEXT NOT NULL,
      rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
      status INTEGER NOT NULL DEFAULT 1,
      date_added TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS rr_wishlist (
      customer_id INTEGER NOT NULL REFERENCES rr_customer(customer_id) ON DELETE CASCADE,
      product_id INTEGER NOT NULL REFERENCES rr_product(product_id) ON DELETE CASCADE,
      PRIMARY KEY (customer_id, product_id)
    );
  `);
}
