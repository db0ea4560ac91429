import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '#src/context.js';
import { buildServer } from '#src/server.js';

// A multipart body that cannot be parsed (no boundary, a boundary the parser refuses, a part cut
// short) is the client's fault: 400 in the interface's own envelope, on every path, and nothing changes.

type Json = Record<string, unknown>;
const SHOP = '/shop/wp-json/svc/v1';
const NETWORK = '/network/wp-json/svc/v1';
const REST = (route: string) => `/index.php?route=shoprestapi/${route}`;
const GRAPHQL = '/index.php?route=svc_graphql/svc_graphql';

const UNPARSEABLE: Array<[string, string, string]> = [
  ['no boundary', 'multipart/form-data', 'product_id=101&quantity=1'],
  ['no boundary, no body', 'multipart/form-data', ''],
  ['a boundary over 256 characters', `multipart/form-data; boundary=${'b'.repeat(300)}`, 'x'],
  [
    'a file part cut short',
    'multipart/form-data; boundary=b',
    '--b\r\nContent-Disposition: form-data; name="f"; filename="x.txt"\r\n\r\nabc',
  ],
];

/** The failure envelope of each interface, as its invalid-JSON answer has it. */
const shapes: Array<[string, string, (body: Json) => void]> = [
  ['shop', `${SHOP}/cart/add-item`, (b) => expect(b).toMatchObject({ status: false, errors: [], message: expect.any(String) })],
  ['shop, unknown path', `${SHOP}/no-such-endpoint`, (b) => expect(b).toMatchObject({ status: false, errors: [] })],
  [
    'network',
    `${NETWORK}/auth/login`,
    (b) => expect(b).toMatchObject({ status: false, errors: [], message: expect.any(String) }),
  ],
  ['network, unknown path', `${NETWORK}/no-such-endpoint`, (b) => expect(b).toMatchObject({ status: false, errors: [] })],
  [
    'rest-route',
    REST('account/login'),
    (b) => expect(b).toMatchObject({ status: false, errors: [{ code: 'error_request', message: expect.any(String) }], data: [] }),
  ],
  [
    'rest-route, unknown path',
    '/nowhere',
    (b) => expect(b).toMatchObject({ status: false, errors: [{ code: 'error_request' }] }),
  ],
  [
    'graphql',
    GRAPHQL,
    (b) => expect(b).toMatchObject({ status: false, errors: [{ message: expect.any(String) }], message: expect.any(String) }),
  ],
];

let app: FastifyInstance;
let ctx: AppContext;
let token = '';
const cart = () => ctx.db.prepare('SELECT user_id, item_key, quantity FROM shop_cart_items ORDER BY rowid').all();

beforeAll(async () => {
  ({ app, ctx } = await buildServer({ db: ':memory:', vendor: 'svc' }));
  await app.ready();
  const reg = await app.inject({
    method: 'POST',
    url: `${SHOP}/auth/register`,
    payload: { username: 'multi', first_name: 'M', last_name: 'P', password: 'Multi-pass-1', email: 'multi@example.test' },
  });
  token = String((reg.json() as Json).svc_token);
});
afterAll(async () => app.close());

describe('an unparseable multipart body', () => {
  it.each(shapes)('%s: 400 in the envelope', async (_name, url, shape) => {
    for (const [what, contentType, payload] of UNPARSEABLE) {
      const before = cart();
      const res = await app.inject({ method: 'POST', url, headers: { 'content-type': contentType, svc_token: token }, payload });
      expect(res.statusCode, what).toBe(400);
      const body = res.json() as Json;
      shape(body);
      expect(String(body.message), what).not.toMatch(/internal/i);
      expect(cart(), what).toEqual(before);
    }
  });

  it('a well-formed multipart body is still read: fields, repeated fields and a file part', async () => {
    const part = (name: string, value: string, file = '') =>
      `--b\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n\r\n${value}\r\n`;
    const payload = `${part('product_id', '101')}${part('quantity', '2')}${part('coupons[]', 'SAVE10')}${part('coupons[]', 'NOPE')}${part('note', 'hello', 'note.txt')}--b--\r\n`;
    const res = await app.inject({
      method: 'POST',
      url: `${SHOP}/cart/add-item`,
      headers: { 'content-type': 'multipart/form-data; boundary=b', svc_token: token },
      payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: true, coupon_status: false, data: { cart_item_count: 2 } });
    expect((res.json() as { coupon_errors: string[] }).coupon_errors).toHaveLength(1);
  });
});
