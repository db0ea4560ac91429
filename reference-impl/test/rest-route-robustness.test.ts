import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '#src/server.js';

// Whatever a client sends, the route-based REST interface answers in its envelope and never with a 5xx.

type Json = Record<string, unknown>;
const url = (route: string, extra = '') => `/index.php?route=shoprestapi/${route}${extra}`;

function expectEnvelope(code: number, body: Json) {
  expect(code).toBeLessThan(500);
  expect(typeof body.status).toBe('boolean');
  expect(Array.isArray(body.errors)).toBe(true);
  if (body.status === false) expect(typeof body.message).toBe('string');
}

describe('rest-route robustness', () => {
  let app: FastifyInstance;
  let token = '';

  beforeAll(async () => {
    ({ app } = await buildServer({ db: ':memory:', vendor: 'svc' }));
    const res = await app.inject({
      method: 'POST',
      url: url('account/register'),
      payload: {
        firstname: 'R',
        lastname: 'S',
        email: 'sfc-rob@example.test',
        telephone: '0123456789',
        password: 'Pass-1234',
        confirm: 'Pass-1234',
        agree: 1,
      },
    });
    token = (res.json() as Json).token as string;
  });
  afterAll(async () => app.close());

  it('malformed JSON gives the envelope with status false and a 4xx', async () => {
    const res = await app.inject({
      method: 'POST',
      url: url('account/login'),
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: false, data: [] });
  });

  it('a wrong content type, a JSON array and no body give status false, HTTP 200', async () => {
    const cases = [
      { headers: { 'content-type': 'text/plain' }, payload: 'email=a&password=b' },
      { headers: { 'content-type': 'application/json' }, payload: '[1,2,3]' },
      { headers: { 'content-type': 'application/json' }, payload: '"text"' },
      { headers: {}, payload: undefined },
    ];
    for (const c of cases)
      for (const route of ['account/login', 'account/register']) {
        const res = await app.inject({ method: 'POST', url: url(route), headers: c.headers, payload: c.payload });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ status: false });
      }
  });

  it('an unknown route gives 404 and a wrong method 405, both in the envelope', async () => {
    for (const path of [url('nothing/here'), '/index.php', '/index.php?route=other/route']) {
      const res = await app.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: false, errors: [{ code: 'error_route', message: expect.any(String) }] });
    }
    for (const [method, route] of [
      ['POST', 'account/address'],
      ['GET', 'account/address/delete'],
      ['PUT', 'account/login'],
      ['DELETE', 'account/address/add'],
    ] as const) {
      const res = await app.inject({ method, url: url(route), headers: { token } });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toMatchObject({ status: false, errors: [{ code: 'error_method' }] });
    }
  });

  it('a multipart body is read, numbers arriving as strings', async () => {
    const boundary = 'sfcboundary';
    const fields = {
      firstname: 'M',
      lastname: 'P',
      address_1: '9 Side Rd',
      city: 'Berlin',
      postcode: '10115',
      country_id: '81',
      zone_id: '1257',
    };
    const payload =
      Object.entries(fields)
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join('') + `--${boundary}--\r\n`;
    const res = await app.inject({
      method: 'POST',
      url: url('account/address/add'),
      headers: { token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.json()).toMatchObject({ status: true, data: { address_id: expect.any(Number) } });
  });

  it('oversized and SQL-looking values are refused or handled without a 5xx', async () => {
    const huge = 'x'.repeat(200_000);
    const sqlish = "' OR 1=1; DROP TABLE rr_customer; --";
    for (const [route, payload] of [
      ['account/login', { email: sqlish, password: sqlish }],
      [
        'account/register',
        { firstname: huge, lastname: sqlish, email: `${huge}@x.test`, telephone: huge, password: huge, agree: 1 },
      ],
      ['account/address/add', { firstname: huge, address_1: sqlish, country_id: sqlish }],
    ] as const) {
      const res = await app.inject({ method: 'POST', url: url(route), headers: { token }, payload });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: false });
    }
    const listing = await app.inject({
      method: 'GET',
      url: url('product/listing', `&search=${encodeURIComponent(sqlish)}&category_ids=1%20OR%201=1`),
      headers: { token },
    });
    expect(listing.json()).toMatchObject({ status: true, data: { products: [] } });
    // The customers table survived.
    const login = await app.inject({
      method: 'POST',
      url: url('account/login'),
      payload: { email: 'sfc-rob@example.test', password: 'Pass-1234' },
    });
    expect(login.json()).toMatchObject({ status: true });
  });

  it('property: any JSON object on any endpoint gives the envelope and no 5xx (fixed seed)', async () => {
    const endpoints: Array<['GET' | 'POST', string]> = [
      ['POST', 'account/login'],
      ['POST', 'account/register'],
      ['POST', 'account/address/add'],
      ['POST', 'account/address/edit'],
      ['POST', 'account/address/delete'],
      ['POST', 'account/forgotten'],
      ['POST', 'account/forgotten/updatepassword'],
      ['GET', 'product/listing'],
      ['GET', 'product/product'],
      ['GET', 'account/address/edit'],
    ];
    const fieldNames = ['email', 'username', 'password', 'confirm', 'firstname', 'lastname', 'telephone', 'agree', 'newsletter'];
    fieldNames.push(
      'customer_group_id',
      'address_1',
      'city',
      'postcode',
      'country_id',
      'zone_id',
      'address_id',
      'default',
      'otp',
    );
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
    );
    const body = fc.dictionary(fc.constantFrom(...fieldNames), value, { maxKeys: 8 });
    const query = fc.dictionary(
      fc.constantFrom('address_id', 'product_id', 'search', 'category_ids', 'sort', 'order', 'page', 'limit'),
      fc.string({ maxLength: 12 }),
      { maxKeys: 4 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints), body, query, fc.boolean(), async ([method, route], b, q, withToken) => {
        const extra = Object.entries(q)
          .map(([k, v]) => `&${k}=${encodeURIComponent(v)}`)
          .join('');
        const res = await app.inject({
          method,
          url: url(route, extra),
          headers: withToken ? { token } : {},
          payload: method === 'POST' ? b : undefined,
        });
        const parsed = res.json() as Json;
        expectEnvelope(res.statusCode, parsed);
        if (!withToken && route !== 'account/login' && route !== 'account/register') expect(res.statusCode).toBe(401);
      }),
      { seed: 20261121, numRuns: 150 },
    );
  });
});
