import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '#src/context.js';
import { buildServer } from '#src/server.js';
import { BILLING } from './shop-helpers.js';

// Cart, coupons, orders and own-data isolation of the shop variant (document 2, B).
const ROOT = '/shop/wp-json/svc/v1';
type Json = Record<string, unknown>;
type Reply = { code: number; body: Json };

async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  path: string,
  opts: { token?: string; json?: unknown; form?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (opts.token !== undefined) headers.svc_token = opts.token;
  let payload: string | undefined;
  if (opts.form) {
    const boundary = '----sfcshopcart';
    payload = Object.entries(opts.form)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('');
    payload += `--${boundary}--\r\n`;
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
  } else if (opts.json !== undefined) {
    payload = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  const res = await app.inject({ method, url: `${ROOT}${path}`, headers, ...(payload === undefined ? {} : { payload }) });
  return { code: res.statusCode, body: res.json() as Json };
}

function envelope(r: Reply, status: boolean) {
  expect(r.code).toBe(200);
  expect(r.body.status).toBe(status);
  expect(typeof r.body.message).toBe('string');
}

/** The add-item / remove-item / update-quantities shape. */
function mutation(r: Reply, status: boolean, count: number) {
  envelope(r, status);
  expect(typeof r.body.coupon_status).toBe('boolean');
  expect(Array.isArray(r.body.coupon_errors)).toBe(true);
  expect(r.body.data).toEqual({ cart_item_count: count });
}

let app: FastifyInstance;
let ctx: AppContext;
let seq = 0;
async function customer(): Promise<string> {
  seq += 1;
  const name = `buyer${seq}`;
  const r = await call(app, 'POST', '/auth/register', {
    json: { username: name, first_name: 'B', last_name: 'Uyer', password: 'Buyer-pass-1', email: `${name}@example.test` },
  });
  return String(r.body.svc_token);
}
type CartData = {
  cart_items: Json[];
  cart_totals: Record<string, unknown>;
  coupon_discount_totals: Record<string, number>;
  currency: string;
};
const cartOf = async (token: string, query = '') => {
  const r = await call(app, 'GET', `/cart${query}`, { token });
  return { r, data: r.body.data as CartData };
};

beforeAll(async () => {
  ({ app, ctx } = await buildServer({ db: ':memory:', vendor: 'svc' }));
  await app.ready();
});
afterAll(async () => app.close());

describe('cart', () => {
  it('adds items (multipart strings and JSON numbers), merges lines and counts quantities', async () => {
    const t = await customer();
    mutation(await call(app, 'POST', '/cart/add-item', { token: t, form: { product_id: '101', quantity: '2' } }), true, 2);
    mutation(await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 101, quantity: 1 } }), true, 3);
    mutation(await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: '102', quantity: '1' } }), true, 4);
    const count = await call(app, 'GET', '/cart/count', { token: t });
    envelope(count, true);
    expect(count.body.data).toEqual({ cart_item_count: 4 });
    const { r, data } = await cartOf(t);
    envelope(r, true);
    expect(data.cart_items).toHaveLength(2);
    expect(data.currency).toBe('$');
    const line = data.cart_items[0] as Json;
    expect(line).toMatchObject({
      product_id: '101',
      quantity: '3',
      variation_id: 0,
      variation: [],
      product_name: 'Cotton T-Shirt',
      product_price: '18.00',
    });
    for (const k of ['line_subtotal', 'line_subtotal_tax', 'line_total', 'line_tax']) expect(typeof line[k]).toBe('number');
    expect(line.line_tax_data).toEqual({ subtotal: [], total: [] });
    expect(data.cart_totals).toMatchObject({ subtotal: '89.00', discount_total: '0.00', shipping_total: '0.00', total: '89.00' });
    for (const k of ['shipping_taxes', 'cart_contents_taxes', 'fee_taxes']) expect(data.cart_totals[k]).toEqual([]);
  });

  it('refuses bad add-item input with errors keyed by field', async () => {
    const t = await customer();
    const missing = await call(app, 'POST', '/cart/add-item', { token: t, json: {} });
    mutation(missing, false, 0);
    expect(missing.body.errors).toHaveProperty('product_id');
    expect(missing.body.errors).toHaveProperty('quantity');
    for (const body of [
      { product_id: 101, quantity: 0 },
      { product_id: 101, quantity: 2.5 },
      { product_id: 101, quantity: [1] },
    ])
      expect((await call(app, 'POST', '/cart/add-item', { token: t, json: body })).body.errors).toHaveProperty('quantity');
    const gone = await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 99999, quantity: 1 } });
    mutation(gone, false, 0);
    expect(gone.body.message).toMatch(/does not exist/i);
    const outOfStock = await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 105, quantity: 1 } });
    mutation(outOfStock, false, 0);
    const tooMany = await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 117, quantity: 6 } });
    mutation(tooMany, false, 0);
    expect(tooMany.body.errors).toHaveProperty('quantity');
  });

  it('says an empty cart is empty (status false)', async () => {
    const { r, data } = await cartOf(await customer());
    envelope(r, false);
    expect(r.body.message).toMatch(/empty/i);
    expect(data.cart_items).toEqual([]);
  });

  it('removes an item by key and refuses an unknown key', async () => {
    const t = await customer();
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 103, quantity: 1 } });
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 104, quantity: 2 } });
    const key = String(((await cartOf(t)).data.cart_items[0] as Json).key);
    mutation(await call(app, 'POST', `/cart/remove-item/${key}`, { token: t }), true, 2);
    const again = await call(app, 'POST', `/cart/remove-item/${key}`, { token: t });
    mutation(again, false, 2);
    expect(again.body.message).toMatch(/invalid cart item key/i);
    mutation(await call(app, 'POST', '/cart/remove-item/', { token: t }), false, 2);
  });

  it('updates quantities (JSON numbers, multipart strings); 0 removes; errors keyed by cart item key, all or nothing', async () => {
    const t = await customer();
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 106, quantity: 1 } });
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 107, quantity: 1 } });
    const [a, b] = (await cartOf(t)).data.cart_items.map((l) => String(l.key)) as [string, string];
    mutation(await call(app, 'POST', '/cart/update-quantities', { token: t, json: { cart_data: { [a]: 3 } } }), true, 4);
    mutation(await call(app, 'POST', '/cart/update-quantities', { token: t, form: { [`cart_data[${b}]`]: '2' } }), true, 5);
    const bad = await call(app, 'POST', '/cart/update-quantities', {
      token: t,
      json: { cart_data: { [a]: 1, nokey: 1, [b]: -1 } },
    });
    mutation(bad, false, 5);
    expect(Object.keys(bad.body.errors as Json).sort()).toEqual([b, 'nokey'].sort());
    const none = await call(app, 'POST', '/cart/update-quantities', { token: t, json: { cart_data: [] } });
    expect(none.body.errors).toHaveProperty('cart_data');
    mutation(await call(app, 'POST', '/cart/update-quantities', { token: t, json: { cart_data: { [a]: 0 } } }), true, 2);
    const last = await call(app, 'POST', '/cart/update-quantities', { token: t, json: { cart_data: { [b]: '0' } } });
    mutation(last, true, 0);
    expect(last.body.message).toMatch(/removed/i);
    envelope((await cartOf(t)).r, false);
  });
});

describe('coupons', () => {
  it('applies SAVE10 as 10 percent and reports the others in coupon_errors by code; totals add up', async () => {
    const t = await customer();
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 108, quantity: 1 } }); // 45.00
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 121, quantity: 3 } }); // 3 x 19.99
    const ok = await cartOf(t, '?coupons[]=SAVE10');
    envelope(ok.r, true);
    expect(ok.r.body.coupon_status).toBe(true);
    expect(ok.r.body.coupon_errors).toEqual({});
    expect(ok.data.coupon_discount_totals).toEqual({ SAVE10: 10.5 });
    expect(ok.data.cart_totals).toMatchObject({
      subtotal: '104.97',
      discount_total: '10.50',
      cart_contents_total: '94.47',
      total: '94.47',
    });
    const lineTotal = ok.data.cart_items.reduce((s, l) => s + Math.round(Number(l.line_total) * 100), 0);
    expect(lineTotal).toBe(9447);
    const mixed = await cartOf(t, '?coupons[]=SAVE10&coupons[]=EXPIRED5&coupons[]=USEDUP&coupons[]=NOPE&coupons[]=');
    envelope(mixed.r, true);
    expect(mixed.r.body.coupon_status).toBe(false);
    expect(Object.keys(mixed.r.body.coupon_errors as Json).sort()).toEqual(['EXPIRED5', 'NOPE', 'USEDUP']);
    expect(mixed.data.coupon_discount_totals).toEqual({ SAVE10: 10.5 });
    const none = await cartOf(t);
    expect(none.data.cart_totals.discount_total).toBe('0.00');
  });

  it('reports coupons of a cart mutation in coupon_errors as an array', async () => {
    const t = await customer();
    const r = await call(app, 'POST', '/cart/add-item?coupons[]=EXPIRED5', { token: t, json: { product_id: 101, quantity: 1 } });
    mutation(r, true, 1);
    expect(r.body.coupon_status).toBe(false);
    expect((r.body.coupon_errors as string[])[0]).toMatch(/expired/i);
  });
});

describe('orders', () => {
  it('creates an order from the cart (with a coupon), empties the cart and lists it', async () => {
    const t = await customer();
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 124, quantity: 2 } }); // 2 x 12.00
    const created = await call(app, 'POST', '/order/create', {
      token: t,
      json: { ...BILLING, coupons: ['SAVE10'], company: 'ACME' },
    });
    envelope(created, true);
    const order = created.body.data as Json;
    expect(Number.isInteger(order.order_id)).toBe(true);
    expect(order.total).toBe('21.60');
    envelope((await cartOf(t)).r, false);
    const list = await call(app, 'GET', '/orders', { token: t });
    envelope(list, true);
    const data = list.body.data as { orders: Json[]; currency: string };
    expect(data.currency).toBe('$');
    expect(data.orders).toHaveLength(1);
    const o = data.orders[0] as Json;
    expect(o).toMatchObject({ order_id: order.order_id, payment_method: 'cod', billing_country: 'US', total: '21.60' });
    for (const k of ['order_status', 'currency', 'payment_title']) expect(typeof o[k]).toBe('string');
    for (const k of ['date_created', 'date_modified']) {
      const d = o[k] as Json;
      expect(d.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(Number.isInteger(d.timezone_type)).toBe(true);
      expect(typeof d.timezone).toBe('string');
    }
    expect(o.items).toEqual([{ item_name: 'Ceramic Mug', quantity: '2' }]);
  });

  it('validates the order fields, the card token rule, coupons and an empty cart', async () => {
    const t = await customer();
    const empty = await call(app, 'POST', '/order/create', { token: t, json: BILLING });
    envelope(empty, false);
    expect(empty.body.message).toMatch(/empty/i);
    const missing = await call(app, 'POST', '/order/create', { token: t, json: {} });
    envelope(missing, false);
    for (const f of [
      'first_name',
      'last_name',
      'country',
      'city',
      'state',
      'postcode',
      'phone',
      'email',
      'payment_method',
      'payment_method_title',
      'address_1',
    ])
      expect(missing.body.errors).toHaveProperty(f);
    const shapes = await call(app, 'POST', '/order/create', {
      token: t,
      json: { ...BILLING, postcode: 'AB1', phone: '123', email: 'x', payment_method: 'gold' },
    });
    expect(Object.keys(shapes.body.errors as Json).sort()).toEqual(['email', 'payment_method', 'phone', 'postcode']);
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 125, quantity: 1 } });
    const card = await call(app, 'POST', '/order/create', { token: t, form: { ...BILLING, payment_method: 'card_provider' } });
    envelope(card, false);
    expect(card.body.errors).toHaveProperty('card_provider_card_token');
    const used = await call(app, 'POST', '/order/create', { token: t, form: { ...BILLING, 'coupons[]': 'USEDUP' } });
    envelope(used, false);
    expect(used.body.errors).toHaveProperty('coupons');
    const paid = await call(app, 'POST', '/order/create', {
      token: t,
      form: { ...BILLING, payment_method: 'card_provider', card_provider_card_token: 'tok_test_1' },
    });
    envelope(paid, true);
    expect((paid.body.data as Json).payment_method).toBe('card_provider');
  });

  it('pages the order list with start and limit, newest first', async () => {
    const t = await customer();
    const ids: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 127, quantity: 1 } });
      ids.push(((await call(app, 'POST', '/order/create', { token: t, json: BILLING })).body.data as Json).order_id);
    }
    const page = await call(app, 'GET', '/orders?start=1&limit=1', { token: t });
    envelope(page, true);
    expect((page.body.data as { orders: Json[] }).orders.map((o) => o.order_id)).toEqual([ids[1]]);
    const bad = await call(app, 'GET', '/orders?start=-1&limit=x', { token: t });
    envelope(bad, false);
    expect(Object.keys(bad.body.errors as Json).sort()).toEqual(['limit', 'start']);
  });

  it('counts coupon usage: a coupon with a limit of one serves one order only', async () => {
    ctx.db
      .prepare("INSERT INTO shop_coupons (code, discount_type, amount, usage_limit) VALUES ('ONCE', 'fixed_cart', 500, 1)")
      .run();
    const t = await customer();
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 126, quantity: 1 } }); // 11.00
    const first = await call(app, 'POST', '/order/create', { token: t, json: { ...BILLING, coupons: 'ONCE' } });
    envelope(first, true);
    expect((first.body.data as Json).total).toBe('6.00');
    await call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 126, quantity: 1 } });
    const second = await call(app, 'POST', '/order/create', { token: t, json: { ...BILLING, coupons: ['ONCE'] } });
    envelope(second, false);
    expect(String((second.body.errors as Json).coupons)).toMatch(/limit/i);
  });
});

describe('concurrency', () => {
  it('counts 20 parallel add-item calls exactly and turns one cart into one order under 5 parallel creates', async () => {
    const t = await customer();
    const adds = await Promise.all(
      Array.from({ length: 20 }, () => call(app, 'POST', '/cart/add-item', { token: t, json: { product_id: 129, quantity: 1 } })),
    );
    expect(adds.every((r) => r.body.status === true)).toBe(true);
    expect((await call(app, 'GET', '/cart/count', { token: t })).body.data).toEqual({ cart_item_count: 20 });
    const creates = await Promise.all(
      Array.from({ length: 5 }, () => call(app, 'POST', '/order/create', { token: t, json: BILLING })),
    );
    expect(creates.filter((r) => r.body.status === true)).toHaveLength(1);
    for (const r of creates.filter((x) => x.body.status === false)) expect(r.body.message).toMatch(/empty/i);
    const orders = ((await call(app, 'GET', '/orders', { token: t })).body.data as { orders: Json[] }).orders;
    expect(orders).toHaveLength(1);
    expect(orders[0]?.items).toEqual([{ item_name: 'Plant Pot', quantity: '20' }]);
  });
});

describe('own data only', () => {
  it('keeps carts and orders per customer', async () => {
    const alice = await customer();
    const bob = await customer();
    await call(app, 'POST', '/cart/add-item', { token: alice, json: { product_id: 101, quantity: 1 } });
    await call(app, 'POST', '/cart/add-item', { token: bob, json: { product_id: 101, quantity: 1 } });
    const aliceKey = String(((await cartOf(alice)).data.cart_items[0] as Json).key);
    const bobKey = String(((await cartOf(bob)).data.cart_items[0] as Json).key);
    expect(aliceKey).not.toBe(bobKey);
    mutation(await call(app, 'POST', `/cart/remove-item/${aliceKey}`, { token: bob }), false, 1);
    const upd = await call(app, 'POST', '/cart/update-quantities', { token: bob, json: { cart_data: { [aliceKey]: 5 } } });
    expect(upd.body.errors).toHaveProperty(aliceKey);
    expect((await call(app, 'GET', '/cart/count', { token: alice })).body.data).toEqual({ cart_item_count: 1 });
    envelope(await call(app, 'POST', '/order/create', { token: alice, json: BILLING }), true);
    expect(((await call(app, 'GET', '/orders', { token: bob })).body.data as { orders: unknown[] }).orders).toEqual([]);
    expect((await call(app, 'GET', '/cart/count', { token: bob })).body.data).toEqual({ cart_item_count: 1 });
  });

  it('requires the token on every customer endpoint (401, status false)', async () => {
    const paths: Array<['GET' | 'POST', string]> = [
      ['POST', '/cart/add-item'],
      ['GET', '/cart'],
      ['GET', '/cart/count'],
      ['POST', '/cart/remove-item/abc'],
      ['POST', '/cart/update-quantities'],
      ['GET', '/orders'],
      ['POST', '/order/create'],
    ];
    for (const [method, path] of paths) {
      const r = await call(app, method, path);
      expect(r.code, path).toBe(401);
      expect(r.body.status).toBe(false);
      expect(String(r.body.message)).toMatch(/token/);
    }
  });
});
