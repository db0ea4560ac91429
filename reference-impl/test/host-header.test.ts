import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '#src/server.js';
import { ROOT } from './network-helpers.js';

// The Host header is copied into the URLs of answers (product thumbs, the store logo, avatars and
// profile links). A value that is no host is the client's error: 400 in the interface's envelope.

type Json = Record<string, unknown>;
const SHOP = '/shop/wp-json/svc/v1';
const NETWORK = '/network/wp-json/svc/v1';
const LISTING = '/index.php?route=shoprestapi/product/listing';

const BAD_HOSTS = [
  'evil.example/<script>',
  'evil.example"onmouseover="x',
  'a b',
  'user@evil.example',
  'evil.example:80:80',
  'evil.example:port',
  '[::1',
  `${'a'.repeat(254)}`,
];

let app: FastifyInstance;
let origin = '';
let token = '';

beforeAll(async () => {
  ({ app } = await buildServer({ db: ':memory:', vendor: 'svc' }));
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const res = await app.inject({
    method: 'POST',
    url: '/index.php?route=shoprestapi/account/register',
    payload: {
      firstname: 'H',
      lastname: 'H',
      email: 'sfc-host@example.test',
      telephone: '0123456789',
      password: 'Pass-1234',
      confirm: 'Pass-1234',
      agree: 1,
    },
  });
  token = String((res.json() as Json).token);
});
afterAll(async () => app.close());

describe('the Host header', () => {
  it.each([
    ['rest-route', LISTING, (b: Json) => expect(b).toMatchObject({ status: false, errors: [{ code: 'error_request' }] })],
    ['network', `${NETWORK}/auth/login`, (b: Json) => expect(b).toMatchObject({ status: false, errors: [] })],
    ['shop', `${SHOP}/products`, (b: Json) => expect(b).toMatchObject({ status: false, errors: [] })],
    [
      'graphql',
      '/index.php?route=svc_graphql/svc_graphql',
      (b: Json) => expect(b).toMatchObject({ status: false, errors: [{ message: expect.any(String) }] }),
    ],
  ])('%s: a value that is no host gets 400 in the envelope, naming the header', async (_name, url, shape) => {
    for (const host of BAD_HOSTS) {
      const res = await app.inject({ method: 'GET', url, headers: { host } });
      expect(res.statusCode, host).toBe(400);
      shape(res.json() as Json);
      expect(res.body, host).toContain('Host header');
      expect(res.body, host).not.toContain('evil');
    }
  });

  it('a host name, an address or a bracketed IPv6 address, with or without a port, is taken and used in URLs', async () => {
    for (const host of ['shop.example', 'shop.example:8443', '10.0.0.7:8080', '[::1]:8080', 'my_host.local']) {
      const res = await app.inject({ method: 'GET', url: LISTING, headers: { host, token } });
      expect(res.statusCode, host).toBe(200);
      const products = (res.json() as { data: { products: Json[] } }).data.products;
      expect(products[0]?.thumb, host).toMatch(new RegExp(`^http://${host.replace(/[.[\]]/g, '\\$&')}/image/`));
    }
    const login = await app.inject({
      method: 'POST',
      url: `${NETWORK}/auth/login`,
      headers: { host: 'net.example' },
      payload: ROOT,
    });
    const netToken = String((login.json() as Json).svc_token);
    const tree = await app.inject({
      method: 'GET',
      url: `${NETWORK}/user_geneology`,
      headers: { host: 'net.example', svc_token: netToken },
    });
    expect(tree.statusCode).toBe(200);
    expect(JSON.stringify(tree.json())).toContain('http://net.example/network/images/avatar.png');
  });

  it('HTTP/1.0 without a Host header: URLs name the address the connection came in on', async () => {
    const { port } = new URL(origin);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET ${LISTING} HTTP/1.0\r\ntoken: ${token}\r\n\r\n`));
      let text = '';
      socket.on('data', (c) => {
        text += c;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw.split('\r\n')[0]).toMatch(/^HTTP\/1\.[01] 200 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { data: { products: Json[] } };
    expect(body.data.products[0]?.thumb).toMatch(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/image/`));
  });
});
