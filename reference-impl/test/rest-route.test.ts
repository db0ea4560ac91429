import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '#src/server.js';

// Accounts, tokens, forgotten password, concurrency and persistence of the route-based REST interface (document 1).

type Json = Record<string, unknown>;
interface Sent {
  query?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  token?: string;
  headers?: Record<string, string>;
}

function caller(app: FastifyInstance) {
  return async (method: 'GET' | 'POST', route: string, sent: Sent = {}) => {
    const qs = new URLSearchParams({ route: `shoprestapi/${route}`, ...sent.query });
    const headers: Record<string, string> = { ...sent.headers };
    if (sent.token) headers.token = sent.token;
    let payload: string | undefined;
    if (sent.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(sent.json);
    } else if (sent.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(sent.form).toString();
    }
    const res = await app.inject({ method, url: `/index.php?${qs}`, headers, payload });
    return { code: res.statusCode, body: res.json() as Json };
  };
}

let counter = 0;
function newCustomer(extra: Json = {}): Json {
  counter += 1;
  return {
    firstname: 'Ann',
    lastname: 'Lee',
    email: `sfc-acct-${counter}@example.test`,
    telephone: '0123456789',
    password: 'Pass-1234',
    confirm: 'Pass-1234',
    customer_group_id: 1,
    newsletter: 0,
    agree: 1,
    ...extra,
  };
}

const codes = (body: Json) => (body.errors as Array<{ code: string }>).map((e) => e.code);

describe('rest-route accounts', () => {
  let app: FastifyInstance;
  let api: ReturnType<typeof caller>;
  let token = '';
  let email = '';

  beforeAll(async () => {
    ({ app } = await buildServer({ db: ':memory:', vendor: 'svc' }));
    api = caller(app);
    const reg = await api('POST', 'account/register', { json: newCustomer() });
    token = reg.body.token as string;
    email = (reg.body.data as Json).email as string;
  });
  afterAll(async () => app.close());

  it('POST register returns the register form of Customer and a top-level token', async () => {
    const res = await api('POST', 'account/register', { json: newCustomer({ newsletter: 1 }) });
    expect(res.code).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.errors).toEqual([]);
    expect(typeof res.body.token).toBe('string');
    const d = res.body.data as Json;
    for (const k of ['customer_id', 'customer_group_id', 'store_id', 'language_id', 'newsletter', 'address_id', 'safe', 'status'])
      expect(d[k], k).toMatch(/^\d+$/);
    expect(d.newsletter).toBe('1');
    expect(d.cart).toBeNull();
    expect(d.wishlist).toBeNull();
    expect(d.token).toBe('');
    expect(d.code).toBe('');
    expect(typeof d.password).toBe('string');
    expect(d.password).not.toBe('Pass-1234');
    expect(typeof d.salt).toBe('string');
    expect(d.date_added).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(typeof d.ip).toBe('string');
  });

  it('POST register also reads the parameter table spellings, and login then works by username', async () => {
    const res = await api('POST', 'account/register', {
      json: {
        first_name: 'Bo',
        last_name: 'Ng',
        username: 'tableUser1',
        email: 'sfc-table@example.test',
        phone: 9876543210,
        password: 'Secret#99',
        confirm_password: 'Secret#99',
        address: '1 Road',
        newsletter: true,
        agree: true,
      },
    });
    expect(res.body.status).toBe(true);
    expect((res.body.data as Json).telephone).toBe('9876543210');
    const login = await api('POST', 'account/login', { json: { username: 'tableuser1', password: 'Secret#99' } });
    expect(login.body.status, JSON.stringify(login.body)).toBe(true);
  });

  it('POST register accepts a url-encoded form whose numbers are strings', async () => {
    const c = newCustomer({ customer_group_id: '2', newsletter: '1', agree: '1' });
    const form = Object.fromEntries(Object.entries(c).map(([k, v]) => [k, String(v)]));
    const res = await api('POST', 'account/register', { form });
    expect(res.body.status).toBe(true);
    expect((res.body.data as Json).customer_group_id).toBe('2');
  });

  it.each([
    ['error_firstname', { firstname: 'x'.repeat(33) }],
    ['error_firstname', { firstname: '' }],
    ['error_lastname', { lastname: 'y'.repeat(33) }],
    ['error_email', { email: 'not-an-email' }],
    ['error_telephone', { telephone: '12' }],
    ['error_telephone', { telephone: '1'.repeat(33) }],
    ['error_required_telephone', { telephone: '' }],
    ['error_password', { password: 'abc', confirm: 'abc' }],
    ['error_confirm', { confirm: 'Other-1234' }],
    ['error_agree', { agree: 0 }],
    ['error_username', { username: 'has space!' }],
    ['error_customer_group', { customer_group_id: 999 }],
  ])('POST register rejects with %s (HTTP 200, status false)', async (code, change) => {
    const res = await api('POST', 'account/register', { json: newCustomer(change) });
    expect(res.code).toBe(200);
    expect(res.body.status).toBe(false);
    expect(codes(res.body)).toContain(code);
    expect(res.body.token).toBeUndefined();
  });

  it('POST register refuses an e-mail already registered, whatever its case (error_exists)', async () => {
    const res = await api('POST', 'account/register', { json: newCustomer({ email: email.toUpperCase() }) });
    expect(res.body.status).toBe(false);
    expect(codes(res.body)).toEqual(['error_exists']);
  });

  it('POST login by e-mail returns the login form of Customer and a token', async () => {
    const res = await api('POST', 'account/login', { json: { email, password: 'Pass-1234' } });
    expect(res.body.status).toBe(true);
    expect(typeof res.body.token).toBe('string');
    const d = res.body.data as Json;
    expect(d.email).toBe(email);
    expect(d.cart).toBe('');
    expect(d.wishlist).toBe('');
    expect(d).not.toHaveProperty('password');
    expect(d).not.toHaveProperty('salt');
    expect(res.body).not.toHaveProperty('language');
  });

  it('POST login fails cleanly for a wrong password, an unknown user, missing or non-string fields', async () => {
    for (const json of [
      { email, password: 'wrong-pass' },
      { email: 'nobody@example.test', password: 'Pass-1234' },
      {},
      { email: [email], password: { p: 1 } },
    ]) {
      const res = await api('POST', 'account/login', { json });
      expect(res.code).toBe(200);
      expect(res.body.status).toBe(false);
      expect(codes(res.body)).toEqual(['error_login']);
    }
  });

  it('GET login carries data [] and the language object with settings and label keys, including every Part 7 error key', async () => {
    const res = await api('GET', 'account/login', { token });
    expect(res.body.status).toBe(true);
    expect(res.body.data).toEqual([]);
    const lang = res.body.language as Json;
    for (const k of [
      'code',
      'direction',
      'date_format_short',
      'date_format_long',
      'time_format',
      'datetime_format',
      'decimal_point',
      'thousand_point',
    ])
      expect(typeof lang[k], k).toBe('string');
    expect(lang.direction).toBe('ltr');
    for (const k of ['heading_title', 'datepicker', 'message_success_cart']) expect(typeof lang[k]).toBe('string');
    const part7 = ['error_exists', 'error_firstname', 'error_lastname', 'error_email', 'error_telephone', 'error_custom_field'];
    part7.push('error_required_telephone', 'error_address_1', 'error_postcode', 'error_city', 'error_country', 'error_zone');
    part7.push('error_delete', 'error_default', 'error_minimum_quantity', 'error_coupon_coupon', 'error_wishlist_login');
    for (const k of part7) expect(typeof lang[k], k).toBe('string');
    for (const prefix of ['text_', 'button_', 'entry_']) expect(Object.keys(lang).some((k) => k.startsWith(prefix))).toBe(true);
  });

  it('requires the token: none or a bad one gives 401 with status false; header token and Authorization both work', async () => {
    for (const headers of <Array<Record<string, string>>>[{}, { token: 'garbage' }, { authorization: 'Bearer abc.def.ghi' }]) {
      const res = await api('GET', 'account/account', { headers });
      expect(res.code).toBe(401);
      expect(res.body.status).toBe(false);
      expect(codes(res.body)).toEqual(['error_token']);
      expect(String(res.body.message)).toMatch(/token/i);
    }
    expect((await api('GET', 'account/account', { headers: { authorization: `Bearer ${token}` } })).body.status).toBe(true);
    expect((await api('GET', 'account/account', { headers: { authorization: token } })).body.status).toBe(true);
    expect((await api('GET', 'account/account', { headers: { token: `"${token}"` } })).body.status).toBe(true);
  });

  it('refuses a well-formed token signed by another server', async () => {
    const other = await buildServer({ db: ':memory:', vendor: 'svc' });
    const foreign = (await caller(other.app)('POST', 'account/register', { json: newCustomer() })).body.token as string;
    await other.app.close();
    expect((await api('GET', 'account/address', { token: foreign })).code).toBe(401);
  });

  it('GET register gives customer groups and the agreement link', async () => {
    const res = await api('GET', 'account/register', { token });
    const d = res.body.data as { customer_groups: Json[]; text_agree: Json };
    expect(d.customer_groups.length).toBeGreaterThan(0);
    for (const g of d.customer_groups)
      for (const k of ['customer_group_id', 'approval', 'sort_order', 'language_id', 'name', 'description'])
        expect(typeof g[k]).toBe('string');
    expect(typeof d.text_agree.information_id).toBe('string');
    expect(typeof d.text_agree.title).toBe('string');
    expect(typeof res.body.language).toBe('object');
  });

  it('GET account gives the store info', async () => {
    const res = await api('GET', 'account/account', { token });
    const d = res.body.data as Json;
    expect(d.logo).toMatch(/^http:\/\//);
    expect(d.icon).toMatch(/^http:\/\//);
    expect(typeof d.store_name).toBe('string');
    expect(typeof d.telephone).toBe('string');
    for (const l of d.languages as Json[]) expect(Object.keys(l).sort()).toEqual(['code', 'name']);
    for (const c of d.currencies as Json[])
      expect(Object.keys(c).sort()).toEqual(['code', 'symbol_left', 'symbol_right', 'title']);
  });

  it('forgotten password: GET gives data [], POST the one-time code, update-password changes only the own password', async () => {
    const mine = newCustomer();
    const reg = await api('POST', 'account/register', { json: mine });
    const myToken = reg.body.token as string;
    expect((await api('GET', 'account/forgotten', { token: myToken })).body.data).toEqual([]);

    const otpRes = await api('POST', 'account/forgotten', { token: myToken, json: { email: mine.email } });
    expect(otpRes.body.status).toBe(true);
    const d = otpRes.body.data as Json;
    expect(Number.isInteger(d.otp)).toBe(true);
    expect(d.email).toBe(mine.email);

    // Another customer's e-mail, an invalid e-mail, a wrong one-time code: refused.
    expect((await api('POST', 'account/forgotten', { token: myToken, json: { email } })).body.status).toBe(false);
    expect(codes((await api('POST', 'account/forgotten', { token: myToken, json: { email: 'bad' } })).body)).toEqual([
      'error_email',
    ]);
    const upd = (json: Json) => api('POST', 'account/forgotten/updatepassword', { token: myToken, json });
    expect((await upd({ email, password: 'Hijack-123' })).body.status).toBe(false);
    expect(codes((await upd({ email: mine.email, password: 'New-pass-1', otp: (d.otp as number) + 1 })).body)).toEqual([
      'error_otp',
    ]);
    expect(codes((await upd({ email: mine.email, password: 'x' })).body)).toEqual(['error_password']);

    const ok = await upd({ email: mine.email, password: 'New-pass-1' });
    expect(ok.body).toMatchObject({ status: true, errors: [], data: [] });
    expect((await api('POST', 'account/login', { json: { email: mine.email, password: 'Pass-1234' } })).body.status).toBe(false);
    expect((await api('POST', 'account/login', { json: { email: mine.email, password: 'New-pass-1' } })).body.status).toBe(true);
    // The other account's password is untouched.
    expect((await api('POST', 'account/login', { json: { email, password: 'Pass-1234' } })).body.status).toBe(true);
  });

  it('50 parallel registrations of one username create exactly one account', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api('POST', 'account/register', { json: newCustomer({ username: 'racer42', email: `sfc-race-${i}@example.test` }) }),
      ),
    );
    expect(results.every((r) => r.code === 200)).toBe(true);
    expect(results.filter((r) => r.body.status === true)).toHaveLength(1);
    for (const r of results.filter((x) => x.body.status === false)) expect(codes(r.body)).toEqual(['error_username_exists']);
  });

  it('50 parallel registrations of one e-mail create exactly one account', async () => {
    const same = newCustomer();
    const results = await Promise.all(Array.from({ length: 50 }, () => api('POST', 'account/register', { json: same })));
    expect(results.filter((r) => r.body.status === true)).toHaveLength(1);
    for (const r of results.filter((x) => x.body.status === false)) expect(codes(r.body)).toEqual(['error_exists']);
  });
});

describe('rest-route persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sfc-rr-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a restart on the same database file keeps accounts, addresses and issued tokens', async () => {
    const file = join(dir, 'reference.db');
    const first = await buildServer({ db: file, vendor: 'svc' });
    const api1 = caller(first.app);
    const c = newCustomer();
    const token = (await api1('POST', 'account/register', { json: c })).body.token as string;
    const address = {
      firstname: 'Ann',
      lastname: 'Lee',
      address_1: '1 High St',
      city: 'London',
      postcode: 'SW1A',
      country_id: 222,
      zone_id: 3563,
    };
    expect((await api1('POST', 'account/address/add', { token, json: address })).body.status).toBe(true);
    await first.app.close();

    const second = await buildServer({ db: file, vendor: 'svc' });
    const api2 = caller(second.app);
    expect((await api2('POST', 'account/login', { json: { email: c.email, password: c.password } })).body.status).toBe(true);
    const list = await api2('GET', 'account/address', { token });
    expect(list.code).toBe(200);
    expect((list.body.data as { addresses: unknown[] }).addresses).toHaveLength(1);
    // The seed ran once: the catalog is not duplicated.
    const cats = await api2('GET', 'common/category', { token });
    const ids = (cats.body.data as { categories: Json[] }).categories.map((x) => x.category_id);
    expect(new Set(ids).size).toBe(ids.length);
    await second.app.close();
  });
});
