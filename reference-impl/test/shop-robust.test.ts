import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '#src/context.js';
import { buildServer } from '#src/server.js';
import { BILLING } from './shop-helpers.js';

// Hostile input, framework-level failures, vendor segment and persistence of the shop variant.
const ROOT = '/shop/wp-json/svc/v1';
type Json = Record<string, unknown>;

function expectEnvelope(res: { statusCode: number; body: string }, what: string) {
  expect(res.statusCode, what).toBeLessThan(500);
  const body = JSON.parse(res.body) as Json;
  expect(typeof body.status, what).toBe('boolean');
  expect(typeof body.message, what).toBe('string');
  expect(Array.isArray(body.errors) || typeof body.errors === 'object', what).toBe(true);
  return body;
}

let app: FastifyInstance;
let ctx: AppContext;
let token: string;
beforeAll(async () => {
  ({ app, ctx } = await buildServer({ db: ':memory:', vendor: 'svc' }));
  await app.ready();
  const reg = await app.inject({
    method: 'POST',
    url: `${ROOT}/auth/register`,
    payload: { username: 'robust', first_name: 'R', last_name: 'O', password: 'Robust-pass-1', email: 'robust@example.test' },
  });
  token = String((reg.json() as Json).svc_token);
  await app.inject({
    method: 'POST',
    url: `${ROOT}/cart/add-item`,
    headers: { svc_token: token },
    payload: { product_id: 101, quantity: 1 },
  });
});
afterAll(async () => app.close());

const POSTS = [
  '/auth/login',
  '/auth/register',
  '/cart/add-item',
  '/cart/update-quantities',
  '/cart/remove-item/x',
  '/order/create',
  '/products',
];

describe('framework-level failures come back in the envelope', () => {
  it('malformed JSON, an empty JSON body, a wrong content type and no body never give a 5xx', async () => {
    for (const path of POSTS) {
      const headers = { svc_token: token };
      const bad = await app.inject({
        method: 'POST',
        url: ROOT + path,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '{"a":',
      });
      expect(expectEnvelope(bad, `bad JSON ${path}`).status).toBe(false);
      const empty = await app.inject({
        method: 'POST',
        url: ROOT + path,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '',
      });
      expect(expectEnvelope(empty, `empty JSON ${path}`).status).toBe(false);
      const text = await app.inject({
        method: 'POST',
        url: ROOT + path,
        headers: { ...headers, 'content-type': 'text/plain' },
        payload: 'x=1',
      });
      expectEnvelope(text, `text ${path}`);
      const none = await app.inject({ method: 'POST', url: ROOT + path, headers });
      expectEnvelope(none, `no body ${path}`);
      const array = await app.inject({
        method: 'POST',
        url: ROOT + path,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '[1,2]',
      });
      expectEnvelope(array, `array ${path}`);
    }
  });

  it('answers an unknown path or method with the envelope and 404, and ignores trailing or doubled slashes', async () => {
    const unknown = await app.inject({ method: 'GET', url: `${ROOT}/no-such-endpoint` });
    expect(unknown.statusCode).toBe(404);
    expect(expectEnvelope(unknown, 'unknown').status).toBe(false);
    expect((await app.inject({ method: 'GET', url: `${ROOT}/auth/login` })).statusCode).toBe(404);
    const slashes = await app.inject({ method: 'GET', url: '/shop//wp-json/svc/v1/cart/count/', headers: { svc_token: token } });
    expect(expectEnvelope(slashes, 'slashes').status).toBe(true);
  });

  it('refuses a body over the size limit with the envelope', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `${ROOT}/auth/login`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'a'.repeat(2 * 1024 * 1024), password: 'x' }),
    });
    expect(res.statusCode).toBe(413);
    expect(expectEnvelope(res, 'too large').status).toBe(false);
  });

  it('takes SQL-looking and huge strings as plain data', async () => {
    const sql = "x' OR '1'='1'; DROP TABLE shop_products; --";
    const login = expectEnvelope(
      await app.inject({ method: 'POST', url: `${ROOT}/auth/login`, payload: { username: sql, password: sql } }),
      'sql login',
    );
    expect(login.status).toBe(false);
    const search = await app.inject({
      method: 'GET',
      url: `${ROOT}/products?page=1&search=${encodeURIComponent(sql)}&categories=${encodeURIComponent(sql)}`,
    });
    expect(expectEnvelope(search, 'sql search').status).toBe(false);
    const huge = 'z'.repeat(100_000);
    const reg = await app.inject({
      method: 'POST',
      url: `${ROOT}/auth/register`,
      payload: { username: huge, first_name: huge, last_name: huge, password: huge, email: `${huge}@example.test` },
    });
    expect(expectEnvelope(reg, 'huge').status).toBe(false);
    const list = await app.inject({ method: 'GET', url: `${ROOT}/products?page=1` });
    expect(((list.json() as Json).data as { total_pages: number }).total_pages).toBe(3);
  });
});

describe('a malformed coupons value', () => {
  // Everything a refused request could have changed: cart lines, orders, stock and coupon use.
  const state = () => ({
    cart: ctx.db.prepare('SELECT user_id, item_key, quantity FROM shop_cart_items ORDER BY rowid').all(),
    orders: ctx.db.prepare('SELECT COUNT(*) AS n FROM shop_orders').get(),
    stock: ctx.db.prepare('SELECT SUM(stock_quantity) AS n FROM shop_products').get(),
    coupons: ctx.db.prepare('SELECT code, usage_count FROM shop_coupons ORDER BY code').all(),
  });
  const deep = (depth: number) => `${'['.repeat(depth)}"SAVE10"${']'.repeat(depth)}`;
  const json = (fields: string, coupons: string) => ({
    headers: { svc_token: token, 'content-type': 'application/json' },
    payload: `{${fields},"coupons":${coupons}}`,
  });
  const form = (fields: string, couponKey: string) => ({
    headers: { svc_token: token, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `${fields}&${couponKey}=SAVE10`,
  });
  const itemKey = () =>
    (ctx.db.prepare('SELECT item_key FROM shop_cart_items ORDER BY rowid LIMIT 1').get() as { item_key: string }).item_key;
  const orderFields = JSON.stringify(BILLING).slice(1, -1);
  const orderForm = new URLSearchParams(BILLING).toString();

  it('is refused like any bad field (status false, errors.coupons), before anything is written', async () => {
    const cases: Array<[string, string, { headers: Record<string, string>; payload: string }]> = [
      ['add-item, JSON nested 5000 deep', '/cart/add-item', json('"product_id":101,"quantity":1', deep(5000))],
      [
        'add-item, form coupons[][]... 5000 deep',
        '/cart/add-item',
        form('product_id=101&quantity=1', `coupons${'[]'.repeat(5000)}`),
      ],
      ['add-item, a list in a list', '/cart/add-item', json('"product_id":101,"quantity":1', '[["SAVE10"]]')],
      ['add-item, a boolean', '/cart/add-item', json('"product_id":101,"quantity":1', 'true')],
      ['update-quantities, JSON nested 5000 deep', '/cart/update-quantities', json(`"cart_data":{"${itemKey()}":3}`, deep(5000))],
      [
        'update-quantities, form nested 5000 deep',
        '/cart/update-quantities',
        form(`cart_data[${itemKey()}]=3`, `coupons${'[]'.repeat(5000)}`),
      ],
      ['order/create, JSON nested 5000 deep', '/order/create', json(orderFields, deep(5000))],
      ['order/create, form nested 5000 deep', '/order/create', form(orderForm, `coupons${'[]'.repeat(5000)}`)],
    ];
    for (const [what, path, request] of cases) {
      const before = state();
      const res = await app.inject({ method: 'POST', url: ROOT + path, ...request });
      expect(res.statusCode, what).toBe(200);
      const body = expectEnvelope(res, what);
      expect(body.status, what).toBe(false);
      expect(typeof (body.errors as Json).coupons, what).toBe('string');
      expect(state(), what).toEqual(before);
    }
  });

  it('still takes a code, a list of codes, coupons[0]=A and null', async () => {
    for (const coupons of ['"SAVE10"', '["SAVE10"]', '{"0":"SAVE10"}', '"SAVE10,SAVE10"']) {
      const res = await app.inject({
        method: 'POST',
        url: `${ROOT}/cart/add-item`,
        ...json('"product_id":101,"quantity":1', coupons),
      });
      expect(res.json(), coupons).toMatchObject({ status: true, coupon_status: true });
    }
    const indexed = await app.inject({
      method: 'POST',
      url: `${ROOT}/cart/add-item`,
      ...form('product_id=101&quantity=1', 'coupons[0]'),
    });
    expect(indexed.json()).toMatchObject({ status: true, coupon_status: true });
    const none = await app.inject({
      method: 'POST',
      url: `${ROOT}/cart/add-item`,
      ...json('"product_id":101,"quantity":1', 'null'),
    });
    expect(none.json()).toMatchObject({ status: true, coupon_status: false, coupon_errors: [] });
  });
});

describe('arbitrary input (fast-check, fixed seed)', () => {
  const value = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
  );
  const fields = [
    'username',
    'password',
    'email',
    'first_name',
    'last_name',
    'product_id',
    'quantity',
    'cart_data',
    'coupons',
    'page',
    'postcode',
    'phone',
    'payment_method',
    'card_provider_card_token',
  ];
  const body = fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 10 })), value, { maxKeys: 8 });

  it('every POST endpoint answers any JSON object with the envelope and no 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POSTS), body, async (path, payload) => {
        const res = await app.inject({ method: 'POST', url: ROOT + path, headers: { svc_token: token }, payload });
        expectEnvelope(res, `${path} ${JSON.stringify(payload)}`);
      }),
      { seed: 20261121, numRuns: 150 },
    );
  });

  it('the listing and the cart answer any query string with the envelope and no 5xx', async () => {
    const key = fc.constantFrom(
      'page',
      'categories',
      'search',
      'featured',
      'instock',
      'price_from',
      'price_to',
      'sort_by',
      'sort_order',
      'coupons[]',
      'start',
      'limit',
    );
    const query = fc.array(fc.tuple(key, fc.string({ maxLength: 12 })), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/products', '/cart', '/orders', '/product/101'), query, async (path, pairs) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const res = await app.inject({ method: 'GET', url: `${ROOT}${path}?${qs}`, headers: { svc_token: token } });
        expectEnvelope(res, `${path}?${qs}`);
      }),
      { seed: 20261122, numRuns: 150 },
    );
  });
});

describe('vendor segment and persistence', () => {
  it('uses the vendor for the namespace, the token header and the login key', async () => {
    const { app: other } = await buildServer({ db: ':memory:', vendor: 'letscms' });
    try {
      const root = '/shop/wp-json/letscms/v1';
      const login = (
        await other.inject({
          method: 'POST',
          url: `${root}/auth/login`,
          payload: { username: 'demoshopper', password: 'Demo-pass-2024' },
        })
      ).json() as Json;
      expect(login.status).toBe(true);
      expect(typeof login.letscms_token).toBe('string');
      expect(login).not.toHaveProperty('svc_token');
      const count = await other.inject({
        method: 'GET',
        url: `${root}/cart/count`,
        headers: { letscms_token: String(login.letscms_token) },
      });
      expect(count.statusCode).toBe(200);
      expect(
        (await other.inject({ method: 'GET', url: `${root}/cart/count`, headers: { svc_token: String(login.letscms_token) } }))
          .statusCode,
      ).toBe(401);
      expect((await other.inject({ method: 'GET', url: `${ROOT}/products?page=1` })).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('keeps accounts, tokens and carts across a restart on the same database file, and seeds once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sfc-shop-'));
    const file = join(dir, 'shop.db');
    try {
      const first = await buildServer({ db: file, vendor: 'svc' });
      const reg = (
        await first.app.inject({
          method: 'POST',
          url: `${ROOT}/auth/register`,
          payload: {
            username: 'keeper',
            first_name: 'K',
            last_name: 'P',
            password: 'Keeper-pass-1',
            email: 'keeper@example.test',
          },
        })
      ).json() as Json;
      const saved = String(reg.svc_token);
      const added = await first.app.inject({
        method: 'POST',
        url: `${ROOT}/cart/add-item`,
        headers: { svc_token: saved },
        payload: { product_id: 109, quantity: 2 },
      });
      expect((added.json() as Json).status).toBe(true);
      await first.app.close();

      const second = await buildServer({ db: file, vendor: 'svc' });
      try {
        const count = (
          await second.app.inject({ method: 'GET', url: `${ROOT}/cart/count`, headers: { svc_token: saved } })
        ).json() as Json;
        expect(count.data).toEqual({ cart_item_count: 2 });
        const login = (
          await second.app.inject({
            method: 'POST',
            url: `${ROOT}/auth/login`,
            payload: { username: 'keeper', password: 'Keeper-pass-1' },
          })
        ).json() as Json;
        expect(login.status).toBe(true);
        const n = second.ctx.db.prepare('SELECT COUNT(*) AS n FROM shop_products').get() as { n: number };
        expect(n.n).toBe(30);
      } finally {
        await second.app.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
