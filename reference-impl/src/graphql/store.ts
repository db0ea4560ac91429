import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { hashPasswordSync } from '../passwords.js';

/**
 * Tables of the GraphQL interface (prefix `gql_`). Money is kept in integer cents so totals never
 * drift; the rules the document implies (one account per e-mail, one line per product and option
 * set, positive quantities) are constraints, so they hold under concurrent requests too.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS gql_customer (
  customer_id INTEGER PRIMARY KEY AUTOINCREMENT,
  customer_group_id INTEGER NOT NULL CHECK (customer_group_id > 0),
  firstname TEXT NOT NULL, lastname TEXT NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  telephone TEXT NOT NULL, fax TEXT NOT NULL DEFAULT '', company TEXT NOT NULL DEFAULT '',
  address_1 TEXT NOT NULL, address_2 TEXT NOT NULL DEFAULT '', city TEXT NOT NULL, postcode TEXT NOT NULL,
  country_id INTEGER NOT NULL CHECK (country_id > 0), zone_id INTEGER NOT NULL CHECK (zone_id >= 0),
  password_hash TEXT NOT NULL, agree INTEGER NOT NULL CHECK (agree = 1),
  date_added TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS gql_product (
  product_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL, model TEXT NOT NULL,
  price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
  quantity INTEGER NOT NULL, minimum INTEGER NOT NULL CHECK (minimum >= 1),
  subtract INTEGER NOT NULL, shipping INTEGER NOT NULL, image TEXT NOT NULL,
  weight REAL NOT NULL, weight_class_id INTEGER NOT NULL,
  length REAL NOT NULL, width REAL NOT NULL, height REAL NOT NULL, length_class_id INTEGER NOT NULL,
  tax_class_id INTEGER NOT NULL, reward INTEGER NOT NULL, points INTEGER NOT NULL,
  status INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS gql_product_option (
  option_id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES gql_product(product_id) ON DELETE CASCADE,
  name TEXT NOT NULL, type TEXT NOT NULL CHECK (type IN ('select', 'text')), required INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS gql_product_option_value (
  option_value_id INTEGER PRIMARY KEY,
  option_id INTEGER NOT NULL REFERENCES gql_product_option(option_id) ON DELETE CASCADE,
  name TEXT NOT NULL, price_cents INTEGER NOT NULL, weight REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS gql_product_download (
  download_id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES gql_product(product_id) ON DELETE CASCADE,
  name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS gql_coupon (
  coupon_id INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('F', 'P')),
  discount REAL NOT NULL CHECK (discount >= 0),
  total_cents INTEGER NOT NULL DEFAULT 0,
  date_start TEXT NOT NULL, date_end TEXT NOT NULL,
  uses_total INTEGER NOT NULL DEFAULT 0, times_used INTEGER NOT NULL DEFAULT 0,
  status INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS gql_cart (
  cart_id INTEGER PRIMARY KEY AUTOINCREMENT,
  customer_id INTEGER NOT NULL REFERENCES gql_customer(customer_id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL REFERENCES gql_product(product_id),
  recurring_id INTEGER NOT NULL DEFAULT 0,
  options TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10000),
  date_added TEXT NOT NULL,
  UNIQUE (customer_id, product_id, recurring_id, options)
);
CREATE TABLE IF NOT EXISTS gql_cart_coupon (
  customer_id INTEGER PRIMARY KEY REFERENCES gql_customer(customer_id) ON DELETE CASCADE,
  coupon_id INTEGER NOT NULL REFERENCES gql_coupon(coupon_id)
);
CREATE TABLE IF NOT EXISTS gql_order (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES gql_customer(customer_id) ON DELETE CASCADE,
  status TEXT NOT NULL, total_cents INTEGER NOT NULL, currency_code TEXT NOT NULL,
  products INTEGER NOT NULL, date_added TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS gql_order_customer ON gql_order (customer_id, order_id);
`;

export function migrate(db: Database.Database): void {
  db.exec(DDL);
}

export const toCents = (amount: number): number => Math.round(amount * 100);

interface SeedFile {
  products: Array<{
    product_id: number;
    name: string;
    model: string;
    price: number;
    quantity: number;
    minimum: number;
    subtract: boolean;
    shipping: boolean;
    image: string;
    weight: number;
    weight_class_id: number;
    length: number;
    width: number;
    height: number;
    length_class_id: number;
    tax_class_id: number;
    reward: number;
    points: number;
    status: boolean;
    options: Array<{
      option_id: number;
      name: string;
      type: 'select' | 'text';
      required: boolean;
      values: Array<{ option_value_id: number; name: string; price: number; weight: number }>;
    }>;
    downloads: Array<{ download_id: number; name: string }>;
  }>;
  coupons: Array<{
    code: string;
    name: string;
    type: 'F' | 'P';
    discount: number;
    total: number;
    date_start: string;
    date_end: string;
    uses_total: number;
    times_used: number;
    status: boolean;
  }>;
  customers: Array<{
    customer_id: number;
    customer_group_id: number;
    firstname: string;
    lastname: string;
    email: string;
    telephone: string;
    fax: string;
    company: string;
    address_1: string;
    address_2: string;
    city: string;
    postcode: string;
    country_id: number;
    zone_id: number;
    password: string;
    date_added: string;
    orders: Array<{
      order_id: number;
      status: string;
      total: number;
      currency_code: string;
      products: number;
      date_added: string;
    }>;
  }>;
}

/** Loads `graphql.json` from the fixtures folder; the caller (server.ts) wraps it in a transaction. */
export function seed(db: Database.Database, fixturesDir: string): void {
  const data = JSON.parse(readFileSync(join(fixturesDir, 'graphql.json'), 'utf8')) as SeedFile;
  const b = (v: boolean) => (v ? 1 : 0);
  const product = db.prepare(
    `INSERT INTO gql_product (product_id, name, model, price_cents, quantity, minimum, subtract, shipping, image, weight,
       weight_class_id, length, width, height, length_class_id, tax_class_id, reward, points, status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const option = db.prepare(
    'INSERT INTO gql_product_option (option_id, product_id, name, type, required) VALUES (?, ?, ?, ?, ?)',
  );
  const value = db.prepare(
    'INSERT INTO gql_product_option_value (option_value_id, option_id, name, price_cents, weight) VALUES (?, ?, ?, ?, ?)',
  );
  const download = db.prepare('INSERT INTO gql_product_download (download_id, product_id, name) VALUES (?, ?, ?)');
  for (const p of data.products) {
    product.run(
      p.product_id,
      p.name,
      p.model,
      toCents(p.price),
      p.quantity,
      p.minimum,
      b(p.subtract),
      b(p.shipping),
      p.image,
      p.weight,
      p.weight_class_id,
      p.length,
      p.width,
      p.height,
      p.length_class_id,
      p.tax_class_id,
      p.reward,
      p.points,
      b(p.status),
    );
    for (const o of p.options) {
      option.run(o.option_id, p.product_id, o.name, o.type, b(o.required));
      for (const v of o.values) value.run(v.option_value_id, o.option_id, v.name, toCents(v.price), v.weight);
    }
    for (const d of p.downloads) download.run(d.download_id, p.product_id, d.name);
  }
  const coupon = db.prepare(
    `INSERT INTO gql_coupon (code, name, type, discount, total_cents, date_start, date_end, uses_total, times_used, status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const c of data.coupons)
    coupon.run(
      c.code,
      c.name,
      c.type,
      c.discount,
      toCents(c.total),
      c.date_start,
      c.date_end,
      c.uses_total,
      c.times_used,
      b(c.status),
    );
  const customer = db.prepare(
    `INSERT INTO gql_customer (customer_id, customer_group_id, firstname, lastname, email, telephone, fax, company, address_1,
       address_2, city, postcode, country_id, zone_id, password_hash, agree, date_added)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
  );
  const order = db.prepare(
    `INSERT INTO gql_order (order_id, customer_id, status, total_cents, currency_code, products, date_added)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const c of data.customers) {
    customer.run(
      c.customer_id,
      c.customer_group_id,
      c.firstname,
      c.lastname,
      c.email,
      c.telephone,
      c.fax,
      c.company,
      c.address_1,
      c.address_2,
      c.city,
      c.postcode,
      c.country_id,
      c.zone_id,
      hashPasswordSync(c.password),
      c.date_added,
    );
    for (const o of c.orders)
      order.run(o.order_id, c.customer_id, o.status, toCents(o.total), o.currency_code, o.products, o.date_added);
  }
}
