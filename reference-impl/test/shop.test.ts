import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '#src/context.js';
import { buildServer } from '#src/server.js';

// Accounts and catalog of the shop variant (document 2, B).
const ROOT = '/shop/wp-json/svc/v1';
type Json = Record<string, unknown>;
type Reply = { code: number; body: Json };

function multipart(fields: Record<string, string>) {
  const boundary = '----sfcshoptest';
  let payload = '';
  for (const [k, v] of Object.entries(fields))
    payload += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  return { payload: `${payload}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  path: string,
  opts: {
    token?: string;
    json?: unknown;
    form?: Record<string, string>;
    raw?: string;
    type?: string;
    root?: string;
    header?: string;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (opts.token !== undefined) headers[opts.header ?? 'svc_token'] = opts.token;
  let payload: string | undefined;
  if (opts.form) {
    const m = multipart(opts.form);
    payload = m.payload;
    Object.assign(headers, m.headers);
  } else if (opts.json !== undefined) {
    payload = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  } else if (opts.raw !== undefined) {
    payload = opts.raw;
    headers['content-type'] = opts.type ?? 'text/plain';
  }
  const res = await app.inject({
    method,
    url: `${opts.root ?? ROOT}${path}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
  return { code: res.statusCode, body: res.json() as Json };
}

function envelope(r: Reply, status: boolean) {
  expect(r.code).toBeLessThan(500);
  expect(r.body.status).toBe(status);
  expect(typeof r.body.message).toBe('string');
  expect(Array.isArray(r.body.errors) || (typeof r.body.errors === 'object' && r.body.errors !== null)).toBe(true);
}

const person = (name: string) => ({
  username: name,
  first_name: 'Ada',
  last_name: 'Lovelace',
  password: 'Secret-pass1',
  email: `${name}@example.test`,
});

let app: FastifyInstance;
let ctx: AppContext;
beforeAll(async () => {
  ({ app, ctx } = await buildServer({ db: ':memory:', vendor: 'svc' }));
  await app.ready();
});
afterAll(async () => app.close());

describe('auth/register and auth/login', () => {
  it('registers (multipart) and returns the token and the user record', async () => {
    const r = await call(app, 'POST', '/auth/register', { form: person('regone') });
    envelope(r, true);
    expect(r.body.svc_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const header = JSON.parse(Buffer.from(String(r.body.svc_token).split('.')[0] as string, 'base64url').toString()) as Json;
    expect(header.alg).toBe('RS256');
    const user = r.body.user as Json;
    for (const k of [
      'ID',
      'user_login',
      'user_nicename',
      'user_email',
      'user_url',
      'user_registered',
      'user_activation_key',
      'user_status',
      'display_name',
    ])
      expect(typeof user[k]).toBe('string');
    expect(user.user_login).toBe('regone');
    expect(user.user_registered).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(user).not.toHaveProperty('user_pass');
  });

  it('logs in by username (JSON) or e-mail (url-encoded); first_name and last_name on login', async () => {
    await call(app, 'POST', '/auth/register', { json: person('logme') });
    const a = await call(app, 'POST', '/auth/login', { json: { username: 'logme', password: 'Secret-pass1' } });
    envelope(a, true);
    expect((a.body.user as Json).first_name).toBe('Ada');
    expect((a.body.user as Json).last_name).toBe('Lovelace');
    const b = await call(app, 'POST', '/auth/login', {
      raw: 'username=logme%40example.test&password=Secret-pass1',
      type: 'application/x-www-form-urlencoded',
    });
    envelope(b, true);
    const cart = await call(app, 'GET', '/cart/count', { token: String(b.body.svc_token) });
    envelope(cart, true);
  });

  it('logs in with the password exactly as registered, spaces at its ends included', async () => {
    await call(app, 'POST', '/auth/register', { json: { ...person('spaced'), password: ' Secret-pass1 ' } });
    envelope(await call(app, 'POST', '/auth/login', { json: { username: 'spaced', password: ' Secret-pass1 ' } }), true);
    envelope(await call(app, 'POST', '/auth/login', { json: { username: 'spaced', password: 'Secret-pass1' } }), false);
  });

  it('rejects bad logins with status false and errors keyed by field', async () => {
    const missing = await call(app, 'POST', '/auth/login', { json: {} });
    envelope(missing, false);
    expect(missing.body.errors).toHaveProperty('username');
    expect(missing.body.errors).toHaveProperty('password');
    const wrong = await call(app, 'POST', '/auth/login', { json: { username: 'logme', password: 'nope-nope-nope' } });
    envelope(wrong, false);
    expect(wrong.body.message).toMatch(/invalid login details/i);
    expect(wrong.body).not.toHaveProperty('svc_token');
    const unknown = await call(app, 'POST', '/auth/login', { form: { username: 'nosuchuser', password: 'whatever1' } });
    envelope(unknown, false);
  });

  it('enforces the register rules', async () => {
    await call(app, 'POST', '/auth/register', { json: person('taken') });
    const cases: Array<[Json, string]> = [
      [{ ...person('taken2'), username: 'TAKEN' }, 'username'],
      [{ ...person('other'), email: 'TAKEN@example.test' }, 'email'],
      [{ ...person('x'), username: 'bad name!' }, 'username'],
      [{ ...person('x'), username: 'admin' }, 'username'],
      [{ ...person('shortpw'), password: 'short' }, 'password'],
      [{ ...person('bademail'), email: 'not-an-email' }, 'email'],
      [{ ...person('nofirst'), first_name: '' }, 'first_name'],
      [{ username: 'only' }, 'last_name'],
    ];
    for (const [body, field] of cases) {
      const r = await call(app, 'POST', '/auth/register', { json: body });
      envelope(r, false);
      expect(r.body.errors, JSON.stringify(body)).toHaveProperty(field);
    }
  });

  it('creates exactly one account from 50 parallel registrations of one username', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(app, 'POST', '/auth/register', { json: { ...person('racer'), email: `racer${i}@example.test` } }),
      ),
    );
    for (const r of results) expect(r.code).toBe(200);
    expect(results.filter((r) => r.body.status === true)).toHaveLength(1);
    const failed = results.filter((r) => r.body.status === false);
    expect(failed).toHaveLength(49);
    for (const r of failed) expect(r.body.errors).toHaveProperty('username');
  });

  it('answers 401 with status false for missing, "null", forged or foreign tokens', async () => {
    const reg = await call(app, 'POST', '/auth/register', { json: person('tokcheck') });
    const good = String(reg.body.svc_token);
    const [h, p] = good.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: '1', aud: 'shop', iss: 'storefront-reference' })).toString('base64url')}.${good.split('.')[2]}`;
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    for (const token of [undefined, '', 'null', 'garbage', forged, none]) {
      const r = await call(app, 'GET', '/cart', token === undefined ? {} : { token });
      expect(r.code).toBe(401);
      envelope(r, false);
      expect(r.body.message).toMatch(/svc_token/);
    }
    // Quoted tokens and a Bearer prefix, as public apps send them, still identify the customer.
    for (const token of [`"${good}"`, `Bearer ${good}`])
      expect((await call(app, 'GET', '/cart/count', { token })).code).toBe(200);
    // The token travels in svc_token only; a token of another interface (audience) is refused.
    expect((await call(app, 'GET', '/cart/count', { token: good, header: 'authorization' })).code).toBe(401);
    const foreign = await ctx.tokens.sign(String((reg.body.user as Json).ID), 'network');
    expect((await call(app, 'GET', '/cart/count', { token: foreign })).code).toBe(401);
  });
});

describe('products and product', () => {
  type Summary = {
    id: number;
    type: string;
    name: string;
    image: string;
    price: string;
    regular_price: string;
    sale_price: string;
    sku: string;
  };
  const list = async (query: string, method: 'GET' | 'POST' = 'GET') => call(app, method, `/products?${query}`);
  const products = (r: Reply) => (r.body.data as { products: Summary[] }).products;
  const pages = (r: Reply) => (r.body.data as { total_pages: number }).total_pages;

  it('lists 10 per page with slider, currency and total_pages; summaries typed as the document says', async () => {
    const r = await list('page=1');
    envelope(r, true);
    const data = r.body.data as Json;
    expect(pages(r)).toBe(3);
    expect(data.currency).toBe('$');
    expect((data.slider as Json[]).length).toBeGreaterThan(0);
    for (const s of data.slider as Json[])
      for (const k of ['title', 'subtitle', 'link_type', 'link', 'image']) expect(typeof s[k]).toBe('string');
    expect(products(r)).toHaveLength(10);
    for (const p of products(r)) {
      expect(Number.isInteger(p.id)).toBe(true);
      for (const k of ['type', 'name', 'image', 'price', 'regular_price', 'sale_price', 'sku'] as const)
        expect(typeof p[k]).toBe('string');
      expect(p.image).toMatch(/^https?:\/\//);
    }
    const all = [...products(r), ...products(await list('page=2')), ...products(await list('page=3'))];
    expect(new Set(all.map((p) => p.id)).size).toBe(30);
  });

  it('answers a page past the end and a listing with no match with the no-products message and total_pages 0', async () => {
    for (const q of ['page=4', 'page=1&search=zzzznothing', 'page=1&categories=nosuchcat']) {
      const r = await list(q);
      envelope(r, false);
      expect(r.body.message).toMatch(/no products/i);
      expect(pages(r)).toBe(0);
      expect(products(r)).toEqual([]);
    }
  });

  it('requires page', async () => {
    for (const q of ['', 'page=0', 'page=abc', 'page=-1']) {
      const r = await list(q);
      envelope(r, false);
      expect(r.body.errors).toHaveProperty('page');
    }
  });

  it('filters by category slug (or name), search, featured, instock and price', async () => {
    const clothing = await list('page=1&categories=clothing');
    expect(pages(clothing)).toBe(2);
    const byName = await list('page=1&categories=Clothing,electronics');
    expect(pages(byName)).toBe(2);
    expect(products(await list('page=1&search=shirt')).map((p) => p.name)).toEqual([
      'Cotton T-Shirt',
      'Linen Shirt',
      'Hooded Sweatshirt',
      'Polo Shirt',
    ]);
    expect(products(await list('page=1&search=SHIRT linen')).map((p) => p.name)).toEqual(['Linen Shirt']);
    const featured = products(await list('page=1&featured=1'));
    expect(featured).toHaveLength(6);
    for (const p of featured) expect(((await call(app, 'GET', `/product/${p.id}`)).body.data as Json).featured).toBe(true);
    const instock = await list('page=1&instock=1');
    expect(pages(instock)).toBe(3);
    const all = [...products(instock), ...products(await list('page=2&instock=1')), ...products(await list('page=3&instock=1'))];
    expect(all).toHaveLength(26);
    const range = products(await list('page=1&price_from=20&price_to=30'));
    expect(range.length).toBeGreaterThan(0);
    for (const p of range) expect(Number(p.price) >= 20 && Number(p.price) <= 30).toBe(true);
    const bad = await list('page=1&price_from=cheap');
    envelope(bad, false);
    expect(bad.body.errors).toHaveProperty('price_from');
  });

  it('sorts by price and by modified, in either direction, and serves POST like GET', async () => {
    const asc = products(await list('page=1&sort_by=price&sort_order=asc')).map((p) => Number(p.price));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = products(await list('page=1&sort_by=price&sort_order=desc')).map((p) => Number(p.price));
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const modified = products(await list('page=1&sort_by=modified&sort_order=desc'));
    const dates = await Promise.all(
      modified.map(async (p) => ((await call(app, 'GET', `/product/${p.id}`)).body.data as Json).date_modified as string),
    );
    expect(dates).toEqual([...dates].sort().reverse());
    const posted = await call(app, 'POST', '/products', { form: { page: '2', categories: 'clothing' } });
    envelope(posted, true);
    expect(products(posted)).toEqual(products(await list('page=2&categories=clothing')));
  });

  it('marks sale prices: price is the sale price, sale_price empty when not on sale', async () => {
    const all = [1, 2, 3].map((n) => list(`page=${n}`));
    const items = (await Promise.all(all)).flatMap(products);
    const onSale = items.filter((p) => p.sale_price !== '');
    expect(onSale.length).toBeGreaterThanOrEqual(3);
    for (const p of onSale) expect(p.price).toBe(p.sale_price);
    for (const p of items.filter((x) => x.sale_price === '')) expect(p.price).toBe(p.regular_price);
  });

  it('returns one product with id, type, name, slug and more; unknown or malformed ids fail cleanly', async () => {
    const r = await call(app, 'GET', '/product/119');
    envelope(r, true);
    const d = r.body.data as Json;
    expect(d.id).toBe(119);
    for (const k of ['type', 'name', 'slug', 'sku', 'description', 'stock_status']) expect(typeof d[k]).toBe('string');
    expect(Array.isArray(d.gallery_images) && Array.isArray(d.reviews)).toBe(true);
    expect(d.review_count).toBe((d.reviews as unknown[]).length);
    expect((await call(app, 'POST', '/product/119')).body.status).toBe(true);
    for (const id of ['99999', 'abc', "1'%20OR%20'1'='1", '']) {
      const bad = await call(app, 'GET', `/product/${id}`);
      envelope(bad, false);
      expect(bad.body.message).toMatch(/does not exist/i);
    }
  });
});
