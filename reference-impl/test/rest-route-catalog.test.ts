import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '#src/server.js';

// Categories, product listing and product detail of the route-based REST interface (document 1, endpoints 15 to 17).

type Json = Record<string, unknown>;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('rest-route catalog', () => {
  let app: FastifyInstance;
  let token = '';
  const get = async (route: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    const qs = new URLSearchParams({ route: `shoprestapi/${route}`, ...query });
    const res = await app.inject({ method: 'GET', url: `/index.php?${qs}`, headers: { token, ...headers } });
    return { code: res.statusCode, body: res.json() as Json };
  };
  const products = async (query: Record<string, string> = {}) =>
    ((await get('product/listing', query)).body.data as { products: Json[] }).products;

  beforeAll(async () => {
    ({ app } = await buildServer({ db: ':memory:', vendor: 'svc' }));
    const res = await app.inject({
      method: 'POST',
      url: '/index.php?route=shoprestapi/account/register',
      payload: {
        firstname: 'C',
        lastname: 'D',
        email: 'sfc-cat@example.test',
        telephone: '0123456789',
        password: 'Pass-1234',
        confirm: 'Pass-1234',
        agree: 1,
      },
    });
    token = (res.json() as Json).token as string;
  });
  afterAll(async () => app.close());

  it('GET common/category gives a tree of Category records with children arrays', async () => {
    const res = await get('common/category');
    expect(res.body.status).toBe(true);
    const cats = (res.body.data as { categories: Json[] }).categories;
    expect(cats.length).toBeGreaterThan(1);
    const check = (c: Json, parent: string) => {
      for (const k of ['category_id', 'parent_id', 'top', 'column', 'sort_order', 'status', 'language_id', 'store_id'])
        expect(c[k], k).toMatch(/^\d+$/);
      for (const k of ['name', 'description', 'meta_title', 'meta_description', 'meta_keyword'])
        expect(typeof c[k]).toBe('string');
      expect(c.parent_id).toBe(parent);
      expect(c.date_added).toMatch(TIMESTAMP);
      expect(c.date_modified).toMatch(TIMESTAMP);
      expect(c.image === '' || /^https?:\/\//.test(String(c.image))).toBe(true);
      expect(c.icon).toMatch(/^https?:\/\//);
      expect(Array.isArray(c.children)).toBe(true);
      for (const child of c.children as Json[]) check(child, String(c.category_id));
    };
    for (const c of cats) check(c, '0');
    expect(cats.some((c) => (c.children as Json[]).length > 0)).toBe(true);
    expect(cats.some((c) => (c.children as Json[]).length === 0)).toBe(true);
    expect(cats.some((c) => String(c.description).includes('<'))).toBe(true);
  });

  it('GET product/listing gives Product summaries with the documented types and the sort options', async () => {
    const res = await get('product/listing');
    expect(res.body.status).toBe(true);
    const d = res.body.data as { products: Json[]; sorts: Json[] };
    expect(d.products.length).toBeGreaterThanOrEqual(12);
    expect(new Set(d.products.map((p) => p.name)).size).toBe(d.products.length);
    for (const p of d.products) {
      for (const k of ['product_id', 'thumb', 'name', 'model', 'description', 'price', 'special', 'tax', 'minimum', 'reviews'])
        expect(typeof p[k], k).toBe('string');
      expect(Number.isInteger(p.rating)).toBe(true);
      for (const k of ['wishlist_status', 'is_options', 'is_recuring_product']) expect(typeof p[k], k).toBe('boolean');
      expect(p.thumb).toMatch(/^https?:\/\//);
      expect(p.price).toMatch(/^\$[\d,]+\.\d{2}$/);
      expect(String(p.description).length).toBeLessThanOrEqual(102);
      expect(String(p.description)).not.toMatch(/</);
    }
    expect(d.products.some((p) => p.special !== '')).toBe(true);
    expect(d.products.some((p) => p.is_options === true)).toBe(true);
    expect(d.products.some((p) => p.is_recuring_product === true)).toBe(true);
    expect(d.products.some((p) => (p.rating as number) > 0)).toBe(true);
    const values = d.sorts.map((s) => s.value);
    for (const v of ['p.sort_order-ASC', 'pd.name-ASC', 'pd.name-DESC', 'p.price-ASC', 'p.price-DESC'])
      expect(values).toContain(v);
    for (const s of d.sorts) expect(s.value).toBe(`${s.sort}-${s.order}`);
    expect(typeof res.body.language).toBe('object');
  });

  it('category_ids narrows the listing to products of that category (checked against the detail)', async () => {
    const cats = ((await get('common/category')).body.data as { categories: Json[] }).categories;
    const parent = cats.find((c) => (c.children as Json[]).length > 0);
    const child = (parent?.children as Json[] | undefined)?.[0] ?? {};
    const list = await products({ category_ids: String(child.category_id) });
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThan((await products()).length);
    for (const p of list) {
      const detail = (await get('product/product', { product_id: String(p.product_id) })).body.data as Json;
      expect(detail.categories).toContain(String(child.category_id));
    }
    expect(await products({ category_ids: '999999' })).toEqual([]);
  });

  it('search matches product names case-insensitively; nothing matches gives []', async () => {
    const list = await products({ search: 'SHIRT' });
    expect(list.map((p) => p.name)).toEqual(['Classic Oxford Shirt']);
    expect(await products({ search: "'; DROP TABLE rr_product; --" })).toEqual([]);
    expect((await products()).length).toBeGreaterThanOrEqual(12);
  });

  it('sort, order, page and limit (not shown in the document) order and page the listing', async () => {
    const byName = (await products({ sort: 'pd.name', order: 'ASC' })).map((p) => String(p.name).toLowerCase());
    expect(byName).toEqual([...byName].sort((a, b) => a.localeCompare(b)));
    // Taxes differ per product, so compare the ex-tax amount (the `tax` field, special included).
    const exTax = (await products({ sort: 'p.price', order: 'DESC' })).map((p) => Number(String(p.tax).replace(/[^\d.]/g, '')));
    expect(exTax).toEqual([...exTax].sort((a, b) => b - a));
    const all = await products();
    const page2 = await products({ limit: '5', page: '2' });
    expect(page2.map((p) => p.product_id)).toEqual(all.slice(5, 10).map((p) => p.product_id));
  });

  it('specials follow their dates; prices are formatted in the chosen currency', async () => {
    const all = await products();
    const chinos = all.find((p) => p.name === 'Slim Fit Chinos') as Json;
    expect(chinos.special).toBe('$52.80');
    expect(chinos.tax).toBe('$44.00');
    const expired = all.find((p) => p.name === 'Student Laptop 15') as Json;
    expect(expired.special).toBe('');
    const laptop = all.find((p) => p.name === 'Ultrabook 14 Pro') as Json;
    expect(laptop.price).toBe('$1,558.80');
    const euro = (await products({ currency: 'EUR', search: 'skillet' }))[0] as Json;
    expect(euro.price).toBe('27.26€');
    const cookie = (await get('product/listing', { search: 'skillet' }, { cookie: 'OCSESSID=x; currency=GBP' })).body.data as {
      products: Json[];
    };
    expect(cookie.products[0]?.price).toBe('£21.32');
  });

  it('GET product/product gives a detail for a product_id, and status false without one or for an unknown one', async () => {
    const res = await get('product/product', { product_id: '44' });
    expect(res.body.status).toBe(true);
    const d = res.body.data as Json;
    expect(d).toMatchObject({ product_id: '44', name: 'Nimbus X Smartphone', is_options: true });
    expect((d.options as Json[])[0]).toMatchObject({ name: 'Storage', required: '1' });
    expect((d.review_list as Json[]).length).toBe(3);
    for (const query of <Array<Record<string, string>>>[
      {},
      { product_id: 'abc' },
      { product_id: '999999' },
      { product_id: '55' },
    ]) {
      const bad = await get('product/product', query);
      expect(bad.code).toBe(200);
      expect(bad.body.status).toBe(false);
      expect(bad.body.data).toEqual([]);
    }
    // A disabled product is not listed either.
    expect((await products()).some((p) => p.product_id === '55')).toBe(false);
  });

  it('catalog endpoints require the token', async () => {
    for (const route of ['common/category', 'product/listing', 'product/product']) {
      const res = await get(route, { product_id: '44' }, { token: '' });
      expect(res.code).toBe(401);
      expect(res.body.status).toBe(false);
    }
  });
});
