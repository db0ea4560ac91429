import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '#src/context.js';
import { buildServer } from '#src/server.js';

// Document 3 beyond the happy path: orders paging and customer lookup, the vendor segment,
// malformed requests, concurrency, and a restart on the same database file.

const URL = '/index.php?route=svc_graphql/svc_graphql';
type Json = Record<string, unknown>;
const at = (v: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Json)[k] : undefined), v);
const SEEDED = { email: 'jane.doe@example.test', password: 'Customer-pass-2024' };
const OTHER = { email: 'john.roe@example.test', password: 'Customer-pass-2024' };
const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { svc_token } }';
const REGISTER = 'mutation($input: CustomerInput) { register(input: $input) }';
const ADD = 'mutation($input: CartProductInput!) { addProductToCart(input: $input) { subtotal items { cart_id quantity } } }';
const PASSWORD = 'Sfc-pass-2024!';

let app: FastifyInstance;
let ctx: AppContext;
beforeAll(async () => {
  ({ app, ctx } = await buildServer({ db: ':memory:', vendor: 'svc' }));
});
afterAll(async () => app.close());

async function post(server: FastifyInstance, payload: string | undefined, headers: Record<string, string> = {}, url = URL) {
  const res = await server.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload }) });
  return { status: res.statusCode, body: res.json() as Json };
}
const gql = (query: string, variables?: unknown, token?: string, server = app) =>
  post(server, JSON.stringify({ query, variables }), {
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
async function tokenOf(who: { email: string; password: string }, server = app): Promise<string> {
  return String(at((await gql(LOGIN, who, undefined, server)).body, 'data.login.svc_token'));
}
const input = (email: string): Json => ({
  customer_group_id: 1,
  firstname: 'Ada',
  lastname: 'Lovelace',
  email,
  telephone: '0123456789',
  address_1: '1 Test Street',
  address_2: '',
  city: 'London',
  country_id: 222,
  zone_id: 3513,
  password: PASSWORD,
  confirm: PASSWORD,
  agree: true,
  fax: '',
  company: '',
  postcode: '12345',
});
function expectEnvelope(r: { status: number; body: Json }, status?: number): void {
  expect(r.status).toBeLessThan(500);
  if (status !== undefined) expect(r.status).toBe(status);
  expect(r.body.status).toBe(false);
  expect(typeof at(r.body, 'errors.0.message')).toBe('string');
}

describe('orders', () => {
  it('pages the signed-in customer’s orders, newest first, with start and limit', async () => {
    const token = await tokenOf(SEEDED);
    const page = async (start?: number, limit?: number) => {
      const r = await gql('query($s: Int, $l: Int) { orders(start: $s, limit: $l) { order_id } }', { s: start, l: limit }, token);
      expect(r.status).toBe(200);
      return (at(r.body, 'data.orders') as Json[]).map((o) => o.order_id);
    };
    expect(await page()).toEqual(['106', '105', '104', '103', '102', '101']);
    expect(await page(0, 2)).toEqual(['106', '105']);
    expect(await page(2, 2)).toEqual(['104', '103']);
    expect(await page(4, 10)).toEqual(['102', '101']);
    expect(await page(50, 10)).toEqual([]);
    const other = await gql('{ orders { order_id status total } }', {}, await tokenOf(OTHER));
    expect(at(other.body, 'data.orders')).toEqual([
      { order_id: '202', status: 'Complete', total: 80 },
      { order_id: '201', status: 'Complete', total: 100 },
    ]);
  });

  it('refuses a negative start and a limit below 1', async () => {
    const token = await tokenOf(SEEDED);
    for (const args of ['start: -1', 'limit: 0']) {
      const r = await gql(`{ orders(${args}) { order_id } }`, {}, token);
      expectEnvelope(r, 200);
      expect(at(r.body, 'data.orders')).toBeNull();
    }
  });
});

describe('customerByEmail', () => {
  it('returns the signed-in customer’s own record and null for anyone else', async () => {
    const token = await tokenOf(SEEDED);
    const q = 'query($e: String!) { customerByEmail(email: $e) { firstname lastname email } }';
    expect((await gql(q, { e: 'JANE.DOE@example.test' }, token)).body).toEqual({
      data: { customerByEmail: { firstname: 'Jane', lastname: 'Doe', email: 'jane.doe@example.test' } },
    });
    expect((await gql(q, { e: OTHER.email }, token)).body).toEqual({ data: { customerByEmail: null } });
  });
});

describe('vendor segment', () => {
  it('serves <vendor>_graphql/<vendor>_graphql and returns <vendor>_token', async () => {
    const { app: acme } = await buildServer({ db: ':memory:', vendor: 'acme' });
    try {
      const r = await post(
        acme,
        JSON.stringify({
          query: 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { acme_token } }',
          variables: { e: SEEDED.email, p: SEEDED.password },
        }),
        { 'content-type': 'application/json' },
        '/index.php?route=acme_graphql/acme_graphql',
      );
      expect(r.status).toBe(200);
      expect(String(at(r.body, 'data.login.acme_token')).split('.')).toHaveLength(3);
    } finally {
      await acme.close();
    }
  });
});

describe('malformed requests get the envelope and never a 5xx', () => {
  const json = { 'content-type': 'application/json' };
  it.each([
    ['invalid JSON', '{"query": ', json],
    ['a JSON array', '[1, 2]', json],
    ['plain text', 'hello', { 'content-type': 'text/plain' }],
    ['no body', undefined, {}],
    ['no query', '{"variables": {}}', json],
    ['a query that is not a string', '{"query": 42}', json],
    ['variables that are a list', '{"query": "{ orders { order_id } }", "variables": [1]}', json],
    [
      'variables that are not JSON',
      'query=%7B%20orders%20%7B%20order_id%20%7D%20%7D&variables=%7Bbad',
      { 'content-type': 'application/x-www-form-urlencoded' },
    ],
  ] as Array<[string, string | undefined, Record<string, string>]>)('%s: 4xx envelope', async (_name, payload, headers) => {
    const r = await post(app, payload, headers);
    expectEnvelope(r);
    expect(r.status).toBeGreaterThanOrEqual(400);
  });

  it('answers a body over the size limit with 413 and the envelope', async () => {
    const big = JSON.stringify({ query: '{ orders { order_id } }', variables: { pad: 'x'.repeat(1_100_000) } });
    expectEnvelope(await post(app, big, json), 413);
  });

  it('takes a query sent as application/graphql text, and a coupon code sent as a number', async () => {
    const token = await tokenOf(SEEDED);
    const r = await post(app, '{ orders(limit: 1) { order_id } }', {
      'content-type': 'application/graphql',
      authorization: `Bearer ${token}`,
    });
    expect(r).toEqual({ status: 200, body: { data: { orders: [{ order_id: '106' }] } } });
    const c = await gql('mutation($c: ID!) { addCoupon(code: $c) { coupon_code } }', { c: 2222 }, token);
    expect(c.body).toEqual({ data: { addCoupon: { coupon_code: '2222' } } });
  });

  it('answers GET with 405 and the envelope', async () => {
    const res = await app.inject({ method: 'GET', url: `${URL}&query=%7Borders%7Border_id%7D%7D` });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toMatchObject({ status: false, errors: [{ message: expect.any(String) }] });
  });

  it.each([
    ['a syntax error', '{ orders { order_id }'],
    ['an unknown field', '{ secrets }'],
    ['a subscription', 'subscription { orders { order_id } }'],
    [
      'too many root fields',
      `mutation { ${Array.from({ length: 21 }, (_, i) => `l${i}: login(email: "a@b.c", password: "x") { svc_token }`).join(' ')} }`,
    ],
    ['too many tokens', `{ ${'orders { order_id } '.repeat(2000)} }`],
    ['an input list where an object is due', 'mutation { register(input: []) }'],
    ['an unknown input field', 'mutation { register(input: { nope: 1 }) }'],
  ])('%s: 200 with errors', async (_name, query) => {
    expectEnvelope(await gql(query), 200);
  });

  it('rejects wrongly typed variables and oversize values cleanly', async () => {
    const token = await tokenOf(SEEDED);
    expectEnvelope(await gql(ADD, { input: { product_id: '40', quantity: 'abc' } }, token), 200);
    expectEnvelope(await gql(ADD, { input: [] }, token), 200);
    expectEnvelope(await gql(ADD, { input: { product_id: '40', options: 'red' } }, token), 200);
    const huge = await gql(REGISTER, { input: { ...input('huge@example.test'), firstname: 'x'.repeat(200_000) } });
    expectEnvelope(huge, 200);
    expect(at(huge.body, 'data.register')).toBe(false);
  });

  it('never answers 5xx to arbitrary variables (property, fixed seed)', async () => {
    const token = await tokenOf(SEEDED);
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom(REGISTER, ADD), async (value, query) => {
        const r = await gql(query, { input: value }, token);
        expect(r.status).toBeLessThan(500);
        expect('data' in r.body || 'errors' in r.body).toBe(true);
      }),
      { seed: 20261121, numRuns: 60 },
    );
  });
});

describe('the bearer token is decided before any field executes', () => {
  const MIXED = 'mutation($i: CustomerInput) { register(input: $i) emptyCart }';
  const rows = (email: string) => ctx.db.prepare('SELECT COUNT(*) AS n FROM gql_customer WHERE email = ?').get(email);

  it('refuses a request that mixes a public field with one needing a token, without running either', async () => {
    const cases: Array<[string, string, Json]> = [
      ['both at the root', MIXED, {}],
      [
        'through a fragment and an inline fragment',
        'mutation($i: CustomerInput) { ...F } fragment F on Mutation { register(input: $i) ... { emptyCart } }',
        {},
      ],
      [
        'the protected field included by a variable',
        'mutation($i: CustomerInput, $yes: Boolean!) { register(input: $i) emptyCart @include(if: $yes) }',
        { yes: true },
      ],
    ];
    let n = 0;
    for (const [what, query, extra] of cases)
      for (const token of [undefined, 'not-a-jwt']) {
        const email = `sfc-mixed-${++n}@example.test`;
        const r = await gql(query, { i: input(email), ...extra }, token);
        expectEnvelope(r, 401);
        expect(at(r.body, 'errors.0.extensions.code'), what).toBe('UNAUTHENTICATED');
        expect(at(r.body, 'data.register'), what).toBeUndefined();
        expect(rows(email), what).toEqual({ n: 0 });
      }
  });

  it('runs a public field whose protected neighbour is skipped, and everything with a valid token', async () => {
    const skipped = await gql('mutation($i: CustomerInput, $s: Boolean!) { register(input: $i) emptyCart @skip(if: $s) }', {
      i: input('sfc-skipped@example.test'),
      s: true,
    });
    expect(skipped).toEqual({ status: 200, body: { data: { register: true } } });
    const token = await tokenOf(SEEDED);
    const both = await gql(MIXED, { i: input('sfc-mixed-token@example.test') }, token);
    expect(both).toEqual({ status: 200, body: { data: { register: true, emptyCart: true } } });
    expect(rows('sfc-mixed-token@example.test')).toEqual({ n: 1 });
  });
});

describe('a bad option value is described briefly', () => {
  it('answers a value nested 100,000 deep or 100 KB long as bad input, with a short message, and adds nothing', async () => {
    const token = await tokenOf(OTHER);
    const lines = () => ctx.db.prepare('SELECT cart_id, quantity FROM gql_cart ORDER BY cart_id').all();
    const deep = `${'['.repeat(100_000)}"16"${']'.repeat(100_000)}`;
    const long = JSON.stringify('1'.repeat(100_000));
    for (const value of [deep, long, '{"a":{"b":[1,2,3]}}']) {
      const before = lines();
      const payload = `{"query":${JSON.stringify(ADD)},"variables":{"input":{"product_id":"30","quantity":1,"options":{"226":${value}}}}}`;
      const r = await post(app, payload, { 'content-type': 'application/json', authorization: `Bearer ${token}` });
      expectEnvelope(r, 200);
      expect(at(r.body, 'data.addProductToCart')).toBeNull();
      expect(at(r.body, 'errors.0.extensions.code')).toBe('INVALID_OPTION');
      expect(String(at(r.body, 'errors.0.message')).length).toBeLessThan(120);
      expect(lines()).toEqual(before);
    }
  });
});

describe('concurrency', () => {
  it('50 parallel registrations of one e-mail create exactly one account', async () => {
    const email = 'sfc-gql-race@example.test';
    const results = await Promise.all(Array.from({ length: 50 }, () => gql(REGISTER, { input: input(email) })));
    const wins = results.filter((r) => at(r.body, 'data.register') === true);
    expect(wins).toHaveLength(1);
    for (const r of results) expect(r.status).toBe(200);
    for (const r of results.filter((x) => x !== wins[0])) expectEnvelope(r, 200);
    expect(ctx.db.prepare('SELECT COUNT(*) AS n FROM gql_customer WHERE email = ?').get(email)).toEqual({ n: 1 });
  });

  it('the UNIQUE e-mail constraint itself refuses a second account, whatever the case', () => {
    const row = ctx.db.prepare('SELECT * FROM gql_customer WHERE email = ?').get(SEEDED.email) as Json;
    const copy = { ...row, customer_id: null, email: SEEDED.email.toUpperCase() };
    const cols = Object.keys(copy);
    const insert = ctx.db.prepare(
      `INSERT INTO gql_customer (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`,
    );
    expect(() => insert.run(copy)).toThrow(/UNIQUE/);
  });

  it('50 parallel adds of one product end in one line holding all 50', async () => {
    const email = 'sfc-gql-cart-race@example.test';
    await gql(REGISTER, { input: input(email) });
    const token = await tokenOf({ email, password: PASSWORD });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => gql(ADD, { input: { product_id: '40', quantity: 1 } }, token)),
    );
    for (const r of results) expect(r.status).toBe(200);
    const last = await gql(ADD, { input: { product_id: '40', quantity: 1 } }, token);
    expect(at(last.body, 'data.addProductToCart.items.0.quantity')).toBe(51);
  });
});

describe('restart', () => {
  it('keeps accounts, carts and issued tokens on the same database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sfc-gql-'));
    const file = join(dir, 'reference.db');
    try {
      const first = await buildServer({ db: file, vendor: 'svc' });
      const email = 'sfc-gql-restart@example.test';
      expect(at((await gql(REGISTER, { input: input(email) }, undefined, first.app)).body, 'data.register')).toBe(true);
      const token = await tokenOf({ email, password: PASSWORD }, first.app);
      await gql(ADD, { input: { product_id: '40', quantity: 3 } }, token, first.app);
      await first.app.close();

      const second = await buildServer({ db: file, vendor: 'svc' });
      try {
        const again = await gql(ADD, { input: { product_id: '40', quantity: 1 } }, token, second.app);
        expect(at(again.body, 'data.addProductToCart.items.0.quantity')).toBe(4);
        expect(await tokenOf({ email, password: PASSWORD }, second.app)).toMatch(/^ey/);
        // Seeding ran once: the seeded customers are not duplicated.
        expect(second.ctx.db.prepare('SELECT COUNT(*) AS n FROM gql_customer WHERE email = ?').get(SEEDED.email)).toEqual({
          n: 1,
        });
      } finally {
        await second.app.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
