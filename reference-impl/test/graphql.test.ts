import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '#src/context.js';
import { buildServer } from '#src/server.js';

// The nine operations of document 3: success shapes and types, rule failures, tokens, own-data isolation.

const URL = '/index.php?route=svc_graphql/svc_graphql';
type Json = Record<string, unknown>;
/** A value inside a response by dotted path (`data.login.svc_token`, `errors.0.message`). */
const at = (v: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Json)[k] : undefined), v);
const list = (v: unknown, path: string): Json[] => at(v, path) as Json[];

let app: FastifyInstance;
let ctx: AppContext;
let n = 0;

beforeAll(async () => {
  ({ app, ctx } = await buildServer({ db: ':memory:', vendor: 'svc' }));
});
afterAll(async () => app.close());

async function gql(query: string, variables?: Json, token?: string): Promise<{ status: number; body: Json }> {
  const res = await app.inject({
    method: 'POST',
    url: URL,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify({ query, variables }),
  });
  return { status: res.statusCode, body: res.json() };
}

const REGISTER = 'mutation Register($input: CustomerInput) { register(input: $input) }';
const LOGIN =
  'mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { svc_token user_data { firstname lastname email } } }';
const ADD = `mutation Add($input: CartProductInput!) { addProductToCart(input: $input) {
  weight tax total subtotal coupon_discount coupon_code has_stock has_shipping has_download totals { title value }
  items { cart_id product_id name model shipping image option { option_id name value } download { download_id name }
    quantity minimum subtract stock price total reward points tax_class_id weight weight_class_id length width height length_class_id } } }`;
const COUPON =
  'mutation Coupon($code: ID!) { addCoupon(code: $code) { tax total subtotal coupon_discount coupon_code totals { title value sort_order } } }';
const UPDATE = 'mutation Update($id: ID!, $q: Int!) { updateCartProduct(cart_id: $id, quantity: $q) }';
const DELETE = 'mutation Delete($id: ID!) { deleteCartProduct(cart_id: $id) }';
const PASSWORD = 'Sfc-pass-2024!';

function customer(overrides: Json = {}): Json {
  n += 1;
  return {
    customer_group_id: 1,
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: `sfc-gql-${n}@example.test`,
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
    ...overrides,
  };
}

async function signUp(overrides: Json = {}): Promise<{ email: string; token: string }> {
  const input = customer(overrides);
  expect((await gql(REGISTER, { input })).body).toEqual({ data: { register: true } });
  const { body } = await gql(LOGIN, { email: input.email, password: PASSWORD });
  return { email: String(input.email), token: String(at(body, 'data.login.svc_token')) };
}

function expectFailure(r: { status: number; body: Json }, status = 200): void {
  expect(r.status).toBe(status);
  expect(at(r.body, 'status')).toBe(false);
  expect(Array.isArray(at(r.body, 'errors')) && list(r.body, 'errors').length > 0).toBe(true);
  expect(typeof at(r.body, 'errors.0.message')).toBe('string');
  expect(at(r.body, 'message')).toBe(at(r.body, 'errors.0.message'));
}

describe('register', () => {
  it('creates an account and answers true', async () => {
    const r = await gql(REGISTER, { input: customer() });
    expect(r).toEqual({ status: 200, body: { data: { register: true } } });
  });

  it('accepts telephone and postcode as integers (the table) or digit strings (the text)', async () => {
    const r = await gql(REGISTER, { input: customer({ telephone: 5550123, postcode: 90210 }) });
    expect(at(r.body, 'data.register')).toBe(true);
  });

  it('refuses an e-mail that is registered already, whatever its case', async () => {
    const input = customer();
    await gql(REGISTER, { input });
    const r = await gql(REGISTER, { input: { ...input, email: String(input.email).toUpperCase() } });
    expectFailure(r);
    expect(at(r.body, 'data.register')).toBe(false);
    expect(at(r.body, 'errors.0.extensions.code')).toBe('EMAIL_EXISTS');
  });

  it('names every missing or invalid field and answers false', async () => {
    const r = await gql(REGISTER, { input: { firstname: '', email: 'not-an-email', telephone: '12ab', agree: false } });
    expectFailure(r);
    expect(at(r.body, 'data.register')).toBe(false);
    const fields = list(r.body, 'errors').map((e) => at(e, 'extensions.field'));
    for (const f of ['customer_group_id', 'firstname', 'lastname', 'email', 'telephone', 'password', 'agree', 'postcode'])
      expect(fields).toContain(f);
  });

  it('refuses a confirmation that differs from the password, and a null input', async () => {
    const r = await gql(REGISTER, { input: customer({ confirm: 'Other-pass-1' }) });
    expectFailure(r);
    expect(at(r.body, 'errors.0.extensions.field')).toBe('confirm');
    const none = await gql(REGISTER, { input: null });
    expectFailure(none);
    expect(at(none.body, 'data.register')).toBe(false);
  });
});

describe('login', () => {
  it('returns an RS256 svc_token and user_data', async () => {
    const input = customer({ firstname: 'Grace', lastname: 'Hopper' });
    await gql(REGISTER, { input });
    const r = await gql(LOGIN, { email: input.email, password: PASSWORD });
    expect(r.status).toBe(200);
    expect(at(r.body, 'data.login.user_data')).toEqual({ firstname: 'Grace', lastname: 'Hopper', email: input.email });
    const [header] = String(at(r.body, 'data.login.svc_token')).split('.');
    expect(JSON.parse(Buffer.from(header as string, 'base64url').toString()).alg).toBe('RS256');
  });

  it('answers null with an error for a wrong password, an unknown e-mail or SQL-looking input', async () => {
    const { email } = await signUp();
    for (const vars of [
      { email, password: 'Wrong-pass-1' },
      { email: 'nobody@example.test', password: PASSWORD },
      { email: "' OR 1=1 --", password: "' OR '1'='1" },
    ]) {
      const r = await gql(LOGIN, vars);
      expectFailure(r);
      expect(at(r.body, 'data.login')).toBeNull();
    }
  });
});

describe('the bearer token', () => {
  const calls: Array<[string, Json]> = [
    [ADD, { input: { product_id: '40', quantity: 1, options: {} } }],
    [UPDATE, { id: '1', q: 2 }],
    [DELETE, { id: '1' }],
    [COUPON, { code: '2222' }],
    ['mutation { emptyCart }', {}],
    ['{ orders { order_id } }', {}],
    ['{ customerByEmail(email: "jane.doe@example.test") { email } }', {}],
  ];
  it.each(calls)('%s: 401 with status false and a message asking for the token', async (query, variables) => {
    for (const token of [undefined, 'not-a-jwt']) {
      const r = await gql(query, variables, token);
      expectFailure(r, 401);
      expect(at(r.body, 'message')).toMatch(/token/i);
      expect(at(r.body, 'errors.0.extensions.code')).toBe('UNAUTHENTICATED');
    }
  });

  it('is refused when issued for another interface, or for a customer that no longer exists', async () => {
    const shopToken = await ctx.tokens.sign('1', 'shop');
    expectFailure(await gql('mutation { emptyCart }', {}, shopToken), 401);
    const { email, token } = await signUp();
    ctx.db.prepare('DELETE FROM gql_customer WHERE email = ?').run(email);
    expectFailure(await gql('mutation { emptyCart }', {}, token), 401);
  });
});

describe('addProductToCart', () => {
  it('returns the cart summary with the document fields and types', async () => {
    const { token } = await signUp();
    const r = await gql(ADD, { input: { product_id: '40', quantity: 2, options: {} } }, token);
    expect(r.status).toBe(200);
    const s = at(r.body, 'data.addProductToCart') as Json;
    expect(s).toMatchObject({ tax: 0, subtotal: 200, total: 200, coupon_discount: 0, coupon_code: '', has_stock: true });
    for (const k of ['weight', 'tax', 'total', 'subtotal', 'coupon_discount']) expect(typeof s[k]).toBe('number');
    for (const k of ['has_stock', 'has_shipping', 'has_download']) expect(typeof s[k]).toBe('boolean');
    expect(s.totals).toEqual([
      { title: 'Sub-Total', value: 200 },
      { title: 'Total', value: 200 },
    ]);
    const items = list(s, 'items');
    expect(items).toHaveLength(1);
    const line = items[0] as Json;
    expect(line).toMatchObject({
      product_id: '40',
      quantity: 2,
      minimum: 1,
      price: 100,
      total: 200,
      stock: true,
      option: [],
      download: [],
    });
    for (const k of ['cart_id', 'product_id', 'name', 'model', 'image']) expect(typeof line[k]).toBe('string');
    for (const k of [
      'quantity',
      'minimum',
      'price',
      'total',
      'reward',
      'points',
      'tax_class_id',
      'weight',
      'length',
      'width',
      'height',
    ])
      expect(typeof line[k]).toBe('number');
    for (const k of ['shipping', 'subtract', 'stock']) expect(typeof line[k]).toBe('boolean');
    expect(line.image).not.toMatch(/^(https?:)?\//); // a relative path
    // The same product again joins the existing line.
    const again = await gql(ADD, { input: { product_id: 40, quantity: 1 } }, token);
    expect(at(again.body, 'data.addProductToCart.items')).toEqual([
      expect.objectContaining({ cart_id: line.cart_id, quantity: 3 }),
    ]);
  });

  it('takes options as an object keyed by option_id or as a list of {option_id, value}', async () => {
    const { token } = await signUp();
    const a = await gql(ADD, { input: { product_id: '30', quantity: 1, options: { '226': '16' } } }, token);
    expect(at(a.body, 'data.addProductToCart.items.0.option')).toEqual([{ option_id: '226', name: 'Select', value: 'Blue' }]);
    const b = await gql(ADD, { input: { product_id: '30', quantity: 1, options: [{ option_id: 226, value: 16 }] } }, token);
    const items = list(b.body, 'data.addProductToCart.items');
    expect(items).toHaveLength(1); // the same selection merges
    expect(items[0]).toMatchObject({ quantity: 2, price: 85, total: 170 }); // 80.00 + 5.00 for Blue
  });

  it('refuses a missing required option, unknown options or products, a disabled product and bad quantities', async () => {
    const { token } = await signUp();
    const bad: Json[] = [
      { product_id: '30', quantity: 1, options: {} },
      { product_id: '30', quantity: 1, options: { '226': '999' } },
      { product_id: '40', quantity: 1, options: { '9999': 'x' } },
      { product_id: '999999', quantity: 1 },
      { product_id: '35', quantity: 1 },
      { product_id: 'abc', quantity: 1 },
      { product_id: '40', quantity: 0 },
      { product_id: '40', quantity: -3 },
      { product_id: '40', quantity: 10001 },
      { product_id: '40', quantity: 1, recurring_id: '7' },
    ];
    for (const input of bad) {
      const r = await gql(ADD, { input }, token);
      expectFailure(r);
      expect(at(r.body, 'data.addProductToCart')).toBeNull();
    }
    const empty = await gql(COUPON, { code: '2222' }, token);
    expect(at(empty.body, 'data.addCoupon.subtotal')).toBe(0); // nothing was added
  });

  it('enforces the minimum quantity and reports stock, shipping and downloads', async () => {
    const { token } = await signUp();
    const min = await gql(ADD, { input: { product_id: '47', quantity: 1 } }, token);
    expectFailure(min);
    expect(at(min.body, 'errors.0.extensions.code')).toBe('MINIMUM_QUANTITY');
    expect(at((await gql(ADD, { input: { product_id: '47', quantity: 2 } }, token)).body, 'data.addProductToCart.subtotal')).toBe(
      200,
    );
    const out = await gql(ADD, { input: { product_id: '49', quantity: 1 } }, token);
    expect(at(out.body, 'data.addProductToCart.has_stock')).toBe(false);
    const dl = at((await gql(ADD, { input: { product_id: '43', quantity: 1 } }, token)).body, 'data.addProductToCart') as Json;
    expect(dl.has_download).toBe(true);
    expect(dl.has_shipping).toBe(true); // the HP monitor still ships
    const manual = list(dl, 'items').find((l) => l.product_id === '43');
    expect(manual?.download).toEqual([{ download_id: '1', name: 'MacBook manual (PDF)' }]);
    expect(manual?.shipping).toBe(false);
  });
});

describe('updateCartProduct, deleteCartProduct, emptyCart', () => {
  it('changes a quantity, removes a line and empties the cart', async () => {
    const { token } = await signUp();
    const id = at(
      (await gql(ADD, { input: { product_id: '40', quantity: 1 } }, token)).body,
      'data.addProductToCart.items.0.cart_id',
    );
    expect((await gql(UPDATE, { id, q: 4 }, token)).body).toEqual({ data: { updateCartProduct: true } });
    expect(at((await gql(COUPON, { code: '2222' }, token)).body, 'data.addCoupon.subtotal')).toBe(400);
    expect((await gql(DELETE, { id }, token)).body).toEqual({ data: { deleteCartProduct: true } });
    const gone = await gql(DELETE, { id }, token);
    expectFailure(gone);
    expect(at(gone.body, 'data.deleteCartProduct')).toBe(false);
    await gql(ADD, { input: { product_id: '40', quantity: 1 } }, token);
    expect((await gql('mutation { emptyCart }', {}, token)).body).toEqual({ data: { emptyCart: true } });
    const after = at((await gql(ADD, { input: { product_id: '43', quantity: 1 } }, token)).body, 'data.addProductToCart') as Json;
    expect(list(after, 'items')).toHaveLength(1);
    expect(after.coupon_code).toBe(''); // the coupon went with the emptied cart
  });

  it('refuses quantities below 1 or below the product minimum, and unknown lines, with false', async () => {
    const { token } = await signUp();
    const id = at(
      (await gql(ADD, { input: { product_id: '47', quantity: 2 } }, token)).body,
      'data.addProductToCart.items.0.cart_id',
    );
    for (const vars of [
      { id, q: 0 },
      { id, q: 1 },
      { id, q: -1 },
      { id: '999999', q: 2 },
      { id: 'x', q: 2 },
    ]) {
      const r = await gql(UPDATE, vars, token);
      expectFailure(r);
      expect(at(r.body, 'data.updateCartProduct')).toBe(false);
    }
  });

  it("never lets a customer see or change another customer's cart", async () => {
    const a = await signUp();
    const b = await signUp();
    const id = at(
      (await gql(ADD, { input: { product_id: '40', quantity: 1 } }, a.token)).body,
      'data.addProductToCart.items.0.cart_id',
    );
    expect(at((await gql(UPDATE, { id, q: 5 }, b.token)).body, 'data.updateCartProduct')).toBe(false);
    expect(at((await gql(DELETE, { id }, b.token)).body, 'data.deleteCartProduct')).toBe(false);
    await gql('mutation { emptyCart }', {}, b.token);
    const bCart = await gql(ADD, { input: { product_id: '43', quantity: 1 } }, b.token);
    expect(list(bCart.body, 'data.addProductToCart.items').map((l) => l.product_id)).toEqual(['43']);
    const aCart = await gql(COUPON, { code: '2222' }, a.token);
    expect(at(aCart.body, 'data.addCoupon')).toMatchObject({ subtotal: 100, coupon_discount: -10, total: 90 });
  });
});

describe('addCoupon', () => {
  it('applies 2222 as a fixed 10.00 off, with sorted totals', async () => {
    const { token } = await signUp();
    await gql(ADD, { input: { product_id: '40', quantity: 1 } }, token);
    const r = await gql(COUPON, { code: '2222' }, token);
    expect(r).toEqual({
      status: 200,
      body: {
        data: {
          addCoupon: {
            tax: 0,
            total: 90,
            subtotal: 100,
            coupon_discount: -10,
            coupon_code: '2222',
            totals: [
              { title: 'Sub-Total', value: 100, sort_order: 1 },
              { title: 'Coupon (2222)', value: -10, sort_order: 4 },
              { title: 'Total', value: 90, sort_order: 9 },
            ],
          },
        },
      },
    });
    // The cart summary shows the coupon from then on.
    const s = at((await gql(ADD, { input: { product_id: '40', quantity: 1 } }, token)).body, 'data.addProductToCart');
    expect(s).toMatchObject({ subtotal: 200, coupon_discount: -10, total: 190, coupon_code: '2222' });
  });

  it('applies a percentage coupon and never takes more than the subtotal', async () => {
    const { token } = await signUp();
    const empty = await gql(COUPON, { code: '2222' }, token);
    expect(at(empty.body, 'data.addCoupon')).toMatchObject({ subtotal: 0, coupon_discount: 0, total: 0 });
    await gql(ADD, { input: { product_id: '30', quantity: 1, options: { '226': '15' } } }, token);
    const pct = await gql(COUPON, { code: '1111' }, token);
    expect(at(pct.body, 'data.addCoupon')).toMatchObject({ subtotal: 80, coupon_discount: -8, total: 72, coupon_code: '1111' });
  });

  it('refuses expired, used-up, disabled, unknown and empty codes, and a cart below the coupon minimum', async () => {
    const { token } = await signUp();
    await gql(ADD, { input: { product_id: '40', quantity: 1 } }, token);
    for (const code of ['3333', '4444', '5555', '6666', 'NOPE', '', ' ', "2222' OR '1'='1"]) {
      const r = await gql(COUPON, { code }, token);
      expectFailure(r);
      expect(at(r.body, 'data.addCoupon')).toBeNull();
    }
    await gql(
      UPDATE,
      {
        id: at(
          (await gql(ADD, { input: { product_id: '40', quantity: 9 } }, token)).body,
          'data.addProductToCart.items.0.cart_id',
        ),
        q: 10,
      },
      token,
    );
    expect(at((await gql(COUPON, { code: '6666' }, token)).body, 'data.addCoupon.coupon_discount')).toBe(-20);
  });
});
