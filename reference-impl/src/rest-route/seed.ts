import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../context.js';

/** Shape of `fixtures/seed/rest-route.json`. */
interface SeedCategory {
  category_id: number;
  name: string;
  image?: string;
  icon?: string;
  description?: string;
  sort_order?: number;
  column?: number;
  top?: number;
  date_added: string;
  children?: SeedCategory[];
}
interface SeedProduct {
  product_id: number;
  name: string;
  model: string;
  description?: string;
  image?: string;
  price: number;
  tax_rate?: number;
  quantity?: number;
  minimum?: number;
  sort_order?: number;
  status?: number;
  recurring?: number;
  date_added?: string;
  categories: number[];
  specials?: Array<{ customer_group_id: number; price: number; priority?: number; date_start?: string; date_end?: string }>;
  reviews?: Array<{ author: string; text: string; rating: number }>;
  options?: Array<{ name: string; type: string; required?: number; values: Array<{ name: string; price?: number }> }>;
}
interface SeedFile {
  store: Record<string, string | number>;
  languages: Array<{ language_id: number; name: string; code: string; sort_order?: number }>;
  currencies: Array<{
    code: string;
    title: string;
    symbol_left: string;
    symbol_right: string;
    decimal_place: number;
    value: number;
  }>;
  language: { settings: Record<string, string>; labels: Record<string, Record<string, string>> };
  customer_groups: Array<{ customer_group_id: number; approval: number; sort_order: number; name: string; description: string }>;
  information: Array<{ information_id: number; title: string; description: string }>;
  countries: Array<{
    country_id: number;
    name: string;
    iso_code_2: string;
    iso_code_3: string;
    postcode_required?: number;
    zones: Array<{ zone_id: number; name: string; code: string }>;
  }>;
  categories: SeedCategory[];
  products: SeedProduct[];
}

/** Loads the seed file; runs once per database inside the server's transaction. */
export function seed(ctx: AppContext): void {
  const data = JSON.parse(readFileSync(join(ctx.fixturesDir, 'rest-route.json'), 'utf8')) as SeedFile;
  const db = ctx.db;

  const setting = db.prepare('INSERT INTO rr_setting (key, value) VALUES (?, ?)');
  for (const [k, v] of Object.entries(data.store)) setting.run(`store.${k}`, String(v));
  for (const [k, v] of Object.entries(data.language.settings)) setting.run(`language.${k}`, v);

  const label = db.prepare('INSERT INTO rr_label (page, key, value) VALUES (?, ?, ?)');
  for (const [page, labels] of Object.entries(data.language.labels))
    for (const [k, v] of Object.entries(labels)) label.run(page, k, v);

  const language = db.prepare('INSERT INTO rr_language (language_id, name, code, sort_order) VALUES (?, ?, ?, ?)');
  for (const l of data.languages) language.run(l.language_id, l.name, l.code, l.sort_order ?? 0);

  const currency = db.prepare(
    'INSERT INTO rr_currency (code, title, symbol_left, symbol_right, decimal_place, value) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const c of data.currencies) currency.run(c.code, c.title, c.symbol_left, c.symbol_right, c.decimal_place, c.value);

  const group = db.prepare(
    'INSERT INTO rr_customer_group (customer_group_id, approval, sort_order, name, description) VALUES (?, ?, ?, ?, ?)',
  );
  for (const g of data.customer_groups) group.run(g.customer_group_id, g.approval, g.sort_order, g.name, g.description);

  const info = db.prepare('INSERT INTO rr_information (information_id, title, description) VALUES (?, ?, ?)');
  for (const i of data.information) info.run(i.information_id, i.title, i.description);

  const country = db.prepare(
    'INSERT INTO rr_country (country_id, name, iso_code_2, iso_code_3, postcode_required) VALUES (?, ?, ?, ?, ?)',
  );
  const zone = db.prepare('INSERT INTO rr_zone (zone_id, country_id, name, code) VALUES (?, ?, ?, ?)');
  for (const c of data.countries) {
    country.run(c.country_id, c.name, c.iso_code_2, c.iso_code_3, c.postcode_required ?? 0);
    for (const z of c.zones) zone.run(z.zone_id, c.country_id, z.name, z.code);
  }

  const category = db.prepare(
    `INSERT INTO rr_category (category_id, parent_id, image, icon, top, "column", sort_order, date_added, date_modified,
       name, description, meta_title, meta_description, meta_keyword)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const addCategory = (c: SeedCategory, parentId: number) => {
    const plain = (c.description ?? '').replace(/<[^>]*>/g, '');
    category.run(
      c.category_id,
      parentId,
      c.image ?? '',
      c.icon ?? '',
      c.top ?? 0,
      c.column ?? 1,
      c.sort_order ?? 0,
      c.date_added,
      c.date_added,
      c.name,
      c.description ?? '',
      c.name,
      plain,
      c.name.toLowerCase(),
    );
    for (const child of c.children ?? []) addCategory(child, c.category_id);
  };
  for (const c of data.categories) addCategory(c, 0);

  const product = db.prepare(
    `INSERT INTO rr_product (product_id, name, model, description, image, price, tax_rate, quantity, minimum, sort_order,
       status, recurring, date_added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const productCategory = db.prepare('INSERT INTO rr_product_category (product_id, category_id) VALUES (?, ?)');
  const special = db.prepare(
    'INSERT INTO rr_product_special (product_id, customer_group_id, priority, price, date_start, date_end) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const review = db.prepare('INSERT INTO rr_review (product_id, author, text, rating, date_added) VALUES (?, ?, ?, ?, ?)');
  const option = db.prepare('INSERT INTO rr_product_option (product_id, name, type, required) VALUES (?, ?, ?, ?)');
  const optionValue = db.prepare('INSERT INTO rr_product_option_value (product_option_id, name, price) VALUES (?, ?, ?)');
  for (const p of data.products) {
    const added = p.date_added ?? '2024-02-01 08:00:00';
    product.run(
      p.product_id,
      p.name,
      p.model,
      p.description ?? '',
      p.image ?? '',
      p.price,
      p.tax_rate ?? 0,
      p.quantity ?? 0,
      p.minimum ?? 1,
      p.sort_order ?? 0,
      p.status ?? 1,
      p.recurring ?? 0,
      added,
    );
    for (const c of p.categories) productCategory.run(p.product_id, c);
    for (const s of p.specials ?? [])
      special.run(p.product_id, s.customer_group_id, s.priority ?? 1, s.price, s.date_start ?? '', s.date_end ?? '');
    for (const r of p.reviews ?? []) review.run(p.product_id, r.author, r.text, r.rating, added);
    for (const o of p.options ?? []) {
      const id = option.run(p.product_id, o.name, o.type, o.required ?? 0).lastInsertRowid;
      for (const v of o.values) optionValue.run(id, v.name, v.price ?? 0);
    }
  }
}
