import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '#src/server.js';

// Address book of the route-based REST interface (document 1, endpoints 5 to 10): shapes, Part 7/8 rules, own-data isolation.

type Json = Record<string, unknown>;

function caller(app: FastifyInstance) {
  return async (method: 'GET' | 'POST', route: string, token: string, json?: unknown, query: Record<string, string> = {}) => {
    const qs = new URLSearchParams({ route: `shoprestapi/${route}`, ...query });
    const headers: Record<string, string> = { token };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await app.inject({
      method,
      url: `/index.php?${qs}`,
      headers,
      payload: json === undefined ? undefined : JSON.stringify(json),
    });
    return { code: res.statusCode, body: res.json() as Json };
  };
}

const codes = (body: Json) => (body.errors as Array<{ code: string }>).map((e) => e.code);
const LONDON = {
  firstname: 'Ann',
  lastname: 'Lee',
  address_1: '1 High St',
  city: 'London',
  postcode: 'SW1A 1AA',
  country_id: 222,
  zone_id: 3563,
};

describe('rest-route address book', () => {
  let app: FastifyInstance;
  let api: ReturnType<typeof caller>;
  let alice = '';
  let bob = '';

  const register = async (email: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/index.php?route=shoprestapi/account/register',
      payload: {
        firstname: 'A',
        lastname: 'B',
        email,
        telephone: '0123456789',
        password: 'Pass-1234',
        confirm: 'Pass-1234',
        agree: 1,
      },
    });
    return (res.json() as Json).token as string;
  };
  const addresses = async (token: string) =>
    ((await api('GET', 'account/address', token)).body.data as { addresses: Json[] }).addresses;

  beforeAll(async () => {
    ({ app } = await buildServer({ db: ':memory:', vendor: 'svc' }));
    api = caller(app);
    alice = await register('sfc-alice@example.test');
    bob = await register('sfc-bob@example.test');
  });
  afterAll(async () => app.close());

  it('GET address/add gives the store country and every country zones, [] for a country without zones', async () => {
    const res = await api('GET', 'account/address/add', alice);
    expect(res.body.status).toBe(true);
    const d = res.body.data as { country_id: string; states: Record<string, Json[]> };
    expect(d.states[String(d.country_id)]?.length).toBeGreaterThan(0);
    expect(Object.values(d.states).some((zones) => zones.length === 0)).toBe(true);
    for (const [countryId, zones] of Object.entries(d.states))
      for (const z of zones) {
        expect(Object.keys(z).sort()).toEqual(['code', 'country_id', 'name', 'status', 'zone_id']);
        expect(z.country_id).toBe(countryId);
      }
    expect(typeof res.body.language).toBe('object');
  });

  it('GET address starts empty', async () => {
    expect(await addresses(alice)).toEqual([]);
  });

  it('POST address/add returns an integer address_id; the first address becomes the default', async () => {
    const res = await api('POST', 'account/address/add', alice, { ...LONDON, company: 'Acme', address_2: 'Flat 2' });
    expect(res.body.status).toBe(true);
    const d = res.body.data as Json;
    expect(Number.isInteger(d.address_id)).toBe(true);
    expect(typeof d.success).toBe('string');
    const list = await addresses(alice);
    expect(list).toHaveLength(1);
    const a = list[0] as Json;
    expect(a.address_id).toBe(String(d.address_id));
    expect(a.default).toBe(1);
    expect(a).toMatchObject({
      zone: 'Greater London',
      zone_code: 'GTL',
      country: 'United Kingdom',
      company: 'Acme',
      address_2: 'Flat 2',
    });
    expect(String(a.address).split('\n')).toEqual([
      'Ann Lee',
      'Acme',
      '1 High St',
      'Flat 2',
      'London SW1A 1AA',
      'Greater London',
      'United Kingdom',
    ]);
  });

  it.each([
    ['error_firstname', { firstname: '' }],
    ['error_lastname', { lastname: 'z'.repeat(33) }],
    ['error_address_1', { address_1: 'ab' }],
    ['error_address_1', { address_1: 'a'.repeat(129) }],
    ['error_city', { city: 'L' }],
    ['error_postcode', { postcode: '1' }],
    ['error_postcode', { postcode: '12345678901' }],
    ['error_country', { country_id: 999999 }],
    ['error_country', { country_id: 'abc' }],
    ['error_zone', { zone_id: 3613 }],
    ['error_zone', { zone_id: undefined }],
  ])('POST address/add rejects with %s', async (code, change) => {
    const res = await api('POST', 'account/address/add', alice, { ...LONDON, ...change });
    expect(res.code).toBe(200);
    expect(res.body.status).toBe(false);
    expect(codes(res.body)).toEqual([code]);
  });

  it('POST address/add accepts a country without zones and ids sent as strings', async () => {
    const aruba = await api('POST', 'account/address/add', alice, {
      ...LONDON,
      country_id: '12',
      zone_id: '0',
      city: 'Oranjestad',
    });
    expect(aruba.body.status).toBe(true);
    const us = await api('POST', 'account/address/add', alice, { ...LONDON, country_id: '223', zone_id: '3613', city: 'Fresno' });
    expect(us.body.status).toBe(true);
    const list = await addresses(alice);
    expect(list).toHaveLength(3);
    expect(list.filter((a) => a.default === 1)).toHaveLength(1);
    expect(list.find((a) => a.city === 'Oranjestad')).toMatchObject({ zone: '', country: 'Aruba' });
  });

  it('GET address/edit needs an own address_id', async () => {
    expect((await api('GET', 'account/address/edit', alice)).body.status).toBe(false);
    const own = (await addresses(alice))[0] as Json;
    const res = await api('GET', 'account/address/edit', alice, undefined, { address_id: String(own.address_id) });
    expect(res.body.status).toBe(true);
    expect((res.body.data as { address: Json }).address).toMatchObject({
      address_id: own.address_id,
      country_id: '222',
      zone_id: '3563',
    });
    const foreign = await api('GET', 'account/address/edit', bob, undefined, { address_id: String(own.address_id) });
    expect(foreign.body.status).toBe(false);
    expect(codes(foreign.body)).toEqual(['error_address_id']);
  });

  it('POST address/edit returns address_id as a string, changes the address, and default=1 moves the default', async () => {
    const list = await addresses(alice);
    const second = list[1] as Json;
    const res = await api(
      'POST',
      'account/address/edit',
      alice,
      { ...LONDON, city: 'Leeds', zone_id: '3608', country_id: '222', default: 1 },
      { address_id: String(second.address_id) },
    );
    expect(res.body.status).toBe(true);
    expect(res.body.data).toMatchObject({ address_id: String(second.address_id) });
    const after = await addresses(alice);
    expect(after.find((a) => a.address_id === second.address_id)).toMatchObject({
      city: 'Leeds',
      zone: 'West Yorkshire',
      default: 1,
    });
    expect(after.filter((a) => a.default === 1)).toHaveLength(1);
    const invalid = await api(
      'POST',
      'account/address/edit',
      alice,
      { ...LONDON, postcode: 'X' },
      { address_id: String(second.address_id) },
    );
    expect(codes(invalid.body)).toEqual(['error_postcode']);
  });

  it('another customer can neither see, edit nor delete an address', async () => {
    const target = (await addresses(alice))[0] as Json;
    expect(await addresses(bob)).toEqual([]);
    const edit = await api(
      'POST',
      'account/address/edit',
      bob,
      { ...LONDON, city: 'Hacked' },
      { address_id: String(target.address_id) },
    );
    expect(edit.body.status).toBe(false);
    const del = await api('POST', 'account/address/delete', bob, { address_id: target.address_id });
    expect(del.body.status).toBe(false);
    expect((await addresses(alice)).find((a) => a.address_id === target.address_id)?.city).not.toBe('Hacked');
    expect(await addresses(alice)).toHaveLength(3);
  });

  it('POST address/delete: the default address cannot go (error_default), another can; the last one never (error_delete)', async () => {
    const list = await addresses(alice);
    const def = list.find((a) => a.default === 1) as Json;
    const others = list.filter((a) => a.default !== 1);
    expect(codes((await api('POST', 'account/address/delete', alice, { address_id: def.address_id })).body)).toEqual([
      'error_default',
    ]);
    for (const o of others) {
      const res = await api('POST', 'account/address/delete', alice, { address_id: Number(o.address_id) });
      expect(res.body.status).toBe(true);
      expect(typeof (res.body.data as Json).success).toBe('string');
    }
    expect(await addresses(alice)).toHaveLength(1);
    expect(codes((await api('POST', 'account/address/delete', alice, { address_id: def.address_id })).body)).toEqual([
      'error_delete',
    ]);
    expect(codes((await api('POST', 'account/address/delete', alice, {})).body)).toEqual(['error_address_id']);
  });
});
