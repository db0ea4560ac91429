import type { CheckSpec } from '../../../../checks/model.js';
import type { Exchange } from '../../../../http/exchange.js';
import {
  type AddressState,
  acceptedAdd,
  add,
  addBody,
  type C,
  del,
  idOf,
  limitCheck,
  limitProperty,
  list,
  refusedAdd,
  session,
} from '../../address-ops.js';
import { asRecord, bodyOf, call, ROUTES, shown } from '../../client.js';
import { presetCountryChecks } from '../../preset-country.js';
import { expectAccepted, expectRefused } from '../../refusals.js';

// The rules an add must keep: the field limits of section 8, the country and region, oversized and
// malformed input; a refused add must file nothing.

export const addRefusalChecks: CheckSpec<AddressState>[] = [
  {
    id: 'RR-ADDR-06',
    title: 'address firstname and lastname: 32 accepted (by the add and by an edit), 33 and empty refused',
    needs: ['a', 'countryId', 'addr1'],
    run: async (ctx: C) => {
      await acceptedAdd(
        ctx,
        'add with 32-character names',
        { firstname: 'F'.repeat(32), lastname: 'L'.repeat(32) },
        { edit: true },
      );
      await refusedAdd(ctx, 'add with a 33-character firstname', ['error_firstname', 'firstname'], {
        firstname: 'F'.repeat(33),
      });
      await refusedAdd(ctx, 'add with a 33-character lastname', ['error_lastname', 'lastname'], { lastname: 'L'.repeat(33) });
      await refusedAdd(ctx, 'add with an empty firstname', ['error_firstname', 'firstname'], { firstname: '' });
    },
  },
  // Every address_1 at its limit was letters only, so a module counting the value HTML-escaped (its
  // validator run on the platform's cleaned request, & as &amp;) showed nowhere: a street line holds an &.
  limitCheck('RR-ADDR-07', 'address_1', 'error_address_1', 3, 128, undefined, `${'a'.repeat(117)} Smith & Co`),
  limitCheck('RR-ADDR-08', 'postcode', 'error_postcode', 2, 10, 'AB12 3CDEFG'),
  limitCheck('RR-ADDR-09', 'city', 'error_city', 2, 128),
  limitProperty('RR-ADDR-07', 'address_1', 'error_address_1', 3, 128),
  limitProperty('RR-ADDR-08', 'postcode', 'error_postcode', 2, 10),
  limitProperty('RR-ADDR-09', 'city', 'error_city', 2, 128),
  {
    id: 'RR-ADDR-10',
    title: 'an address without country_id is refused (error_country)',
    needs: ['a', 'countryId', 'addr1'],
    run: async (ctx: C) => {
      const body = addBody(ctx);
      delete body.country_id;
      delete body.zone_id;
      const ex = await add(ctx, body);
      expectRefused(ctx, ex, 'add without country_id', ['error_country', 'country_id', 'country']);
    },
  },
  ...presetCountryChecks,
  {
    // The zone refusals were judged by their answer alone, so an add that files the address
    // before it checks the region, and then answers error_zone, showed nowhere.
    id: 'RR-PROP-01',
    title: 'an add without a region (zone_id left out, or empty) for a country with zones is refused and files nothing',
    needs: ['a', 'countryId', 'addr1'],
    run: async (ctx: C) => {
      const left = addBody(ctx);
      delete left.zone_id;
      const sent: Array<[string, Record<string, unknown>]> = [
        ['zone_id left out', left],
        ['an empty zone_id', addBody(ctx, { zone_id: '' })],
      ];
      const refusals: Exchange[] = [];
      for (const [how, body] of sent) {
        const ex = await add(ctx, body);
        expectRefused(ctx, ex, `add in country ${ctx.state.countryId} (it has zones) with ${how}`, [
          'error_zone',
          'zone_id',
          'zone',
        ]);
        refusals.push(ex);
      }
      const { ex, addresses } = await list(ctx);
      const filed = sent.filter(([, body]) => addresses.some((a) => a.address_1 === body.address_1)).map(([how]) => how);
      ctx.expect(
        filed.length === 0,
        `the adds with ${filed.join(' and with ')} were refused, yet the list holds the address they sent: a refused add filed it`,
        ...refusals,
        ex,
      );
    },
  },
  {
    // Found by mutation testing: no check ever filed an address in a country without zones.
    id: 'RR-ADDR-21',
    title: 'an address in a country without zones is accepted without zone_id',
    needs: ['a', 'countryId', 'addr1'],
    run: async (ctx: C) => {
      const zoneless = Object.entries(ctx.state.states ?? {}).find(([, z]) => Array.isArray(z) && z.length === 0)?.[0];
      if (zoneless === undefined) ctx.skip('states shows no country without zones');
      const body = addBody(ctx, { country_id: Number(zoneless) });
      delete body.zone_id;
      const ex = await add(ctx, body);
      expectAccepted(ctx, ex, `add in country ${zoneless} (no zones in states) without zone_id`);
      const id = idOf(ex);
      if (id) await del(ctx, id);
    },
  },
  {
    // Found by mutation testing: a country_id naming no country was accepted when zone_id was absent.
    id: 'RR-ADDR-22',
    title: 'an address whose country_id names no country of states is refused (error_country)',
    needs: ['a', 'countryId', 'addr1'],
    run: async (ctx: C) => {
      const known = Object.keys(ctx.state.states ?? {}).map((k) => Number(k) || 0);
      const unknown = Math.max(0, ...known) + 100_000;
      // No zone_id: a country that does not exist has no region to choose.
      const body = addBody(ctx, { country_id: unknown });
      delete body.zone_id;
      const ex = await add(ctx, body);
      expectRefused(ctx, ex, `add with country_id ${unknown}, which states does not list`, [
        'error_country',
        'country_id',
        'country',
      ]);
    },
  },
  {
    // Every region the checks sent was a zone of the country, left out or empty, so a module that
    // checks zone_id as set and numeric only (the storefront form's rule), and never looks it up in
    // the country, showed nowhere. A zone of another country (an id no zone has, where states lists
    // one country only) names no region of this one.
    id: 'RR-ADDR-24',
    title: "an address whose zone_id names no zone of its country (another country's zone) is refused (error_zone)",
    needs: ['a', 'countryId', 'addr1'],
    run: async (ctx: C) => {
      const states = ctx.state.states ?? {};
      const zoneIds = (list: unknown) =>
        (Array.isArray(list) ? list : []).map((z) => Number(asRecord(z)?.zone_id)).filter(Number.isSafeInteger);
      const own = new Set(zoneIds(states[String(ctx.state.countryId)]));
      const others = Object.entries(states)
        .filter(([country]) => country !== String(ctx.state.countryId))
        .flatMap(([, list]) => zoneIds(list))
        .filter((z) => !own.has(z));
      const foreign = others[0] ?? Math.max(0, ...own, ...others) + 100_000;
      const ex = await add(ctx, addBody(ctx, { zone_id: foreign }));
      expectRefused(
        ctx,
        ex,
        `add in country ${ctx.state.countryId} with zone_id ${foreign}, which states lists ${others.length > 0 ? 'under another country' : 'under no country'}`,
        ['error_zone', 'zone_id', 'zone'],
      );
      const id = idOf(ex);
      if (bodyOf(ex)?.status === true && id) await del(ctx, id);
    },
  },
  {
    id: 'RR-SEC-07',
    title: 'oversized and SQL-looking address fields are answered in the envelope without a 5xx',
    needs: ['a', 'countryId', 'addr1'],
    run: async (ctx: C) => {
      const ex = await add(ctx, addBody(ctx, { address_1: 'x'.repeat(20_000), city: "' OR '1'='1" }));
      ctx.expect((ex.response?.status ?? 0) < 500, `oversized input got ${shown(ex)}`, ex);
      expectRefused(ctx, ex, 'add with a 20000-character address_1');
    },
  },
  {
    id: 'RR-ERR-05',
    title: 'a malformed JSON body to POST address/add is refused in the envelope',
    needs: ['a'],
    run: async (ctx: C) => {
      const ex = await call(ctx, 'POST', ROUTES.addressAdd, { session: session(ctx), raw: '{"firstname": [' });
      ctx.expect((ex.response?.status ?? 0) < 500, `malformed JSON got ${shown(ex)}`, ex);
      ctx.validate('rest-route/schemas/failure.schema.json', ctx.json(ex), ex, 'answer to malformed JSON');
    },
  },
];
