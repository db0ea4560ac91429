import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import { provision } from '../accounts.js';
import {
  ADDRESS_ERROR_KEYS,
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
  listedAddr1,
  listedAddress,
  refusedAdd,
  session,
} from '../address-ops.js';
import { asRecord, bodyOf, call, dataOf, envelope, ROUTES, shown } from '../client.js';
import { movedRegionChecks } from '../moved-region.js';
import { presetCountryChecks } from '../preset-country.js';
import { expectAccepted, expectRefused } from '../refusals.js';
import { sweepChecks } from '../sweep.js';

// The address book (rows 5 to 10): add, list, edit, delete, the limits of section 8, the two
// delete refusals of section 7, and that one customer cannot touch another's addresses.

export const addressBookArea: AreaSpec<AddressState> = {
  interface: 'rest-route',
  name: 'address-book',
  checks: [
    {
      id: 'RR-ADDR-02',
      title: 'GET address/add answers with country_id and states mapping countries to zones',
      run: async (ctx: C) => {
        ctx.state.a = await provision(ctx);
        ctx.state.b = await provision(ctx, ctx.state.a.account.reading);
        const ex = await call(ctx, 'GET', ROUTES.addressAdd, { session: session(ctx) });
        // State first: a shape failure here must not hide every address check behind it.
        const states = asRecord(dataOf(bodyOf(ex)).states) ?? {};
        ctx.state.states = states;
        ctx.state.statesEx = ex;
        const withZones = Object.entries(states).find(([, z]) => Array.isArray(z) && z.length > 0);
        if (withZones) {
          const zone = asRecord((withZones[1] as unknown[])[0]) ?? {};
          ctx.state.countryId = Number(withZones[0]);
          ctx.state.zoneId = Number(zone.zone_id);
        }
        envelope(ctx, ex, 'account-address-add.get');
        if (!withZones) ctx.skip('no country with zones in states: addresses cannot be added');
      },
    },
    {
      id: 'RR-ADDR-03',
      title: 'a country without zones maps to an empty array in states',
      needs: ['states', 'statesEx'],
      run: async (ctx: C) => {
        const { states, statesEx: ex } = ctx.state as AddressState;
        const bad = Object.entries(states).filter(([, z]) => !Array.isArray(z));
        ctx.expect(bad.length === 0, `states of ${bad.map(([k]) => k).join(', ')} are not arrays`, ex);
        if (!Object.values(states).some((z) => Array.isArray(z) && z.length === 0))
          ctx.skip('states shows no country without zones, so the empty-array rule cannot be seen');
      },
    },
    {
      id: 'RR-ADDR-04',
      title: 'POST address/add succeeds with an integer address_id and a success message',
      needs: ['a', 'countryId'],
      run: async (ctx: C) => {
        const sent = addBody(ctx);
        const ex = await add(ctx, sent);
        ctx.state.addr1 = idOf(ex);
        ctx.state.sent1 = sent;
        envelope(ctx, ex, 'account-address-add.post');
      },
    },
    {
      // Row 7 marks company and address_2 optional: every other check sends them, so a target that
      // breaks when they are left out showed nowhere.
      id: 'RR-ADDR-04',
      title: 'POST address/add without the optional company and address_2 succeeds',
      needs: ['a', 'countryId', 'addr1'],
      run: async (ctx: C) => {
        const body = addBody(ctx);
        delete body.company;
        delete body.address_2;
        const ex = await add(ctx, body);
        expectAccepted(ctx, ex, 'add without company and address_2');
        envelope(ctx, ex, 'account-address-add.post');
        const id = idOf(ex);
        if (id) await del(ctx, id);
      },
    },
    {
      id: 'RR-ADDR-01',
      title: 'GET address lists the addresses (address_id a string, default 1 or 0) with language',
      needs: ['addr1'],
      run: async (ctx: C) => {
        const { ex } = await list(ctx);
        envelope(ctx, ex, 'account-address.get');
      },
    },
    {
      id: 'RR-ADDR-05',
      title: 'the added address appears in the list with the fields sent',
      needs: ['addr1', 'sent1'],
      run: async (ctx: C) => {
        const { ex, found } = await listedAddr1(ctx);
        for (const k of ['firstname', 'lastname', 'company', 'address_1', 'address_2', 'city', 'postcode'])
          ctx.expect(
            found[k] === ctx.state.sent1?.[k],
            `listed ${k} is ${JSON.stringify(found[k])}, sent ${JSON.stringify(ctx.state.sent1?.[k])}`,
            ex,
          );
      },
    },
    {
      // Every address the checks sent was ASCII, so a store that keeps 3-byte UTF-8 only (a
      // character outside the BMP saved as "?") showed nowhere. One code point each, precomposed.
      // The names, company and address_2 stay inside their limits under any counting of characters
      // or bytes; address_1 and city are 128 characters, the limit (Part 8), and over 128 bytes, so a
      // store that fits them to their columns with a byte count (PHP's substr()) shows a shortened
      // field. The apostrophe and the ampersand of everyday names show a list that answers them HTML-escaped.
      id: 'RR-ADDR-05',
      title:
        "an address with characters outside the BMP, accented letters, ' and &, address_1 and city of 128 characters, is listed with the fields sent",
      needs: ['a', 'countryId', 'addr1'],
      run: async (ctx: C) => {
        /** `start`, a space, then accented letters (2 bytes each) up to `length` characters. */
        const accented = (start: string, length: number) => `${start} ${'\u00e9'.repeat(length - [...start].length - 1)}`;
        const sent = addBody(ctx, {
          firstname: 'Zo\u00eb \u{1F33B}',
          lastname: "O'\u00d8rsted \u{1D11E}",
          company: 'Caf\u00e9 \u{1F375} & Sons',
          address_1: accented(`${ctx.names.label('street').slice(0, 40)} \u{1F3E0}`, 128),
          address_2: '\u{20BB7} Floor 2',
          city: accented('K\u00f6ln \u{1F30D}', 128),
        });
        const ex = await add(ctx, sent);
        expectAccepted(ctx, ex, 'add with characters outside the BMP and a 128-character address_1 and city');
        const id = idOf(ex);
        if (!id) return;
        const { ex: lex, found } = await listedAddress(ctx, id, ex);
        const wrong = ['firstname', 'lastname', 'company', 'address_1', 'address_2', 'city'].filter((k) => found[k] !== sent[k]);
        const chars = (v: unknown) => (typeof v === 'string' ? ` (${[...v].length} characters)` : '');
        ctx.expect(
          wrong.length === 0,
          `address ${id} lists ${wrong.map((k) => `${k} ${JSON.stringify(found[k])}${chars(found[k])}`).join(', ')}; sent ${wrong.map((k) => `${JSON.stringify(sent[k])}${chars(sent[k])}`).join(', ')}`,
          ex,
          lex,
        );
        await del(ctx, id);
      },
    },
    {
      // Every field the checks sent was printable, so an add that drops control characters (a sanitizer
      // of FILTER_FLAG_STRIP_LOW) showed nowhere. Which characters a field may hold is not stated, so a
      // refusal is a skip; an accepted add must list the fields as sent.
      id: 'RR-ADDR-05',
      title: 'an address with a tab and a line feed inside its fields is listed with the fields sent',
      needs: ['a', 'countryId', 'addr1'],
      run: async (ctx: C) => {
        const sent = addBody(ctx, { company: 'Conformance\tLtd', address_2: 'Floor 2\nRear' });
        const ex = await add(ctx, sent);
        const id = idOf(ex);
        if (bodyOf(ex)?.status !== true || !id)
          ctx.skip(`an add with a tab in company and a line feed in address_2 was not accepted: ${shown(ex)}`);
        const { ex: lex, found } = await listedAddress(ctx, id, ex);
        await del(ctx, id);
        const wrong = ['company', 'address_2'].filter((k) => found[k] !== sent[k]);
        ctx.expect(
          wrong.length === 0,
          `address ${id} lists ${wrong.map((k) => `${k} ${JSON.stringify(found[k])}`).join(', ')}; sent ${wrong.map((k) => JSON.stringify(sent[k])).join(', ')}`,
          ex,
          lex,
        );
      },
    },
    {
      // No add carried a field row 7 does not name, so a module that merges the body over the token's
      // account (array_merge(['customer_id' => ...], $post): a customer_id in the body wins) showed nowhere.
      // An unknown field may be refused (RR-NEG-05 asks the envelope only, so a refusal is not judged); an
      // accepted add is the token holder's, and the list of that token shows it. Three requests.
      id: 'RR-ADDR-05',
      title: "an add whose body also carries another customer's customer_id is listed in the token holder's book",
      needs: ['a', 'b', 'countryId', 'addr1'],
      run: async (ctx: C) => {
        const other = ctx.state.b?.account.data.customer_id;
        if (typeof other !== 'string' && typeof other !== 'number')
          ctx.skip("the second customer's register answer names no customer_id to send");
        const sent = addBody(ctx);
        const ex = await add(ctx, { ...sent, customer_id: /^\d{1,15}$/.test(String(other)) ? Number(other) : other });
        const id = idOf(ex);
        if (bodyOf(ex)?.status !== true || !id)
          ctx.skip(`an add carrying customer_id ${String(other)} (not a field of row 7) was not accepted: ${shown(ex)}`);
        const { ex: lex, addresses } = await list(ctx);
        const found = addresses.find((a) => String(a.address_id) === id);
        if (found) await del(ctx, id);
        ctx.expect(
          found,
          `the add with customer_id ${String(other)} (another customer's) in its body answered success with address_id ${id}, yet the list of the token that added it does not show that address`,
          ex,
          lex,
        );
        const wrong = ['firstname', 'lastname', 'address_1', 'city', 'postcode'].filter((k) => found[k] !== sent[k]);
        ctx.expect(
          wrong.length === 0,
          `address ${id} lists ${wrong.map((k) => `${k} ${JSON.stringify(found[k])}`).join(', ')}; sent ${wrong.map((k) => JSON.stringify(sent[k])).join(', ')}`,
          ex,
          lex,
        );
      },
    },
    {
      id: 'RR-ADDR-18',
      title: 'the address field is the full address, holding address_1 and city',
      needs: ['addr1', 'sent1'],
      run: async (ctx: C) => {
        const { ex, found } = await listedAddr1(ctx);
        const full = String(found.address ?? '');
        for (const k of ['address_1', 'city'])
          ctx.expect(full.includes(String(ctx.state.sent1?.[k])), `address ${JSON.stringify(full)} lacks the ${k} sent`, ex);
      },
    },
    {
      // Found by mutation testing: a list that left zone, zone_code and country empty survived the suite.
      id: 'RR-ADDR-19',
      title: 'the listed address names its zone (name and code, as states gives them) and a country',
      needs: ['addr1', 'sent1'],
      run: async (ctx: C) => {
        const zones = ctx.state.states?.[String(ctx.state.countryId)];
        const zone = (Array.isArray(zones) ? zones : [])
          .map((z) => asRecord(z) ?? {})
          .find((z) => String(z.zone_id) === String(ctx.state.zoneId));
        if (!zone) ctx.skip(`GET address/add did not list zone ${ctx.state.zoneId} of country ${ctx.state.countryId}`);
        const { ex, found } = await listedAddr1(ctx);
        ctx.expect(
          String(found.zone_code ?? '') === String(zone.code ?? '') && String(found.zone ?? '') === String(zone.name ?? ''),
          `address ${ctx.state.addr1} was added with zone_id ${ctx.state.zoneId} (${JSON.stringify(zone.name)}, code ${JSON.stringify(zone.code)}); the list shows zone ${JSON.stringify(found.zone)}, zone_code ${JSON.stringify(found.zone_code)}`,
          ex,
          ...(ctx.state.statesEx ? [ctx.state.statesEx] : []),
        );
        ctx.expect(
          typeof found.country === 'string' && found.country.trim() !== '',
          `address ${ctx.state.addr1} was added with country_id ${ctx.state.countryId}; the list shows country ${JSON.stringify(found.country)}`,
          ex,
        );
      },
    },
    {
      // Found by mutation testing: an `address` string that left out the region or the country survived the suite.
      id: 'RR-ADDR-20',
      title: 'the address field is a multi-line string that also holds the zone and the country',
      needs: ['addr1', 'sent1'],
      run: async (ctx: C) => {
        const { ex, found } = await listedAddr1(ctx);
        const full = String(found.address ?? '');
        ctx.expect(/\r?\n/.test(full.trim()), `address ${JSON.stringify(full)} is not a multi-line string`, ex);
        const parts = (['zone', 'country'] as const).filter(
          (k) => typeof found[k] === 'string' && String(found[k]).trim() !== '',
        );
        if (parts.length === 0) ctx.skip('the listed address names no zone and no country (RR-ADDR-19) to look for');
        for (const k of parts)
          ctx.expect(
            full.includes(String(found[k]).trim()),
            `address ${JSON.stringify(full)} lacks the ${k} ${JSON.stringify(found[k])} of the same record`,
            ex,
          );
      },
    },
    {
      id: 'RR-LANG-03',
      title: 'the address forms carry the address error_* labels in language',
      needs: ['a'],
      run: async (ctx: C) => {
        const exs = [await list(ctx).then((r) => r.ex), await call(ctx, 'GET', ROUTES.addressAdd, { session: session(ctx) })];
        const keys = new Set(exs.flatMap((ex) => Object.keys(asRecord(bodyOf(ex)?.language) ?? {})));
        const missing = ADDRESS_ERROR_KEYS.filter((k) => !keys.has(k));
        ctx.expect(
          missing.length === 0,
          `the language objects of GET address and GET address/add lack ${missing.join(', ')}`,
          ...exs,
        );
      },
    },
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
    {
      id: 'RR-ADDR-11',
      title: 'GET address/edit without address_id returns an error',
      needs: ['a'],
      run: async (ctx: C) => {
        const ex = await call(ctx, 'GET', ROUTES.addressEdit, { session: session(ctx) });
        expectRefused(ctx, ex, 'GET address/edit without address_id');
      },
    },
    {
      id: 'RR-ADDR-12',
      title: 'GET address/edit with an own address_id answers in the envelope',
      needs: ['addr1'],
      run: async (ctx: C) => {
        const ex = await call(ctx, 'GET', ROUTES.addressEdit, { session: session(ctx), query: { address_id: ctx.state.addr1 } });
        envelope(ctx, ex, 'account-address-edit.get');
      },
    },
    {
      // Found by mutation testing: a GET address/edit that refused every address_id survived the suite.
      id: 'RR-ADDR-23',
      title: 'GET address/edit with an own address_id succeeds with non-empty data',
      needs: ['addr1'],
      run: async (ctx: C) => {
        const ex = await call(ctx, 'GET', ROUTES.addressEdit, { session: session(ctx), query: { address_id: ctx.state.addr1 } });
        const data = bodyOf(ex)?.data;
        ctx.expect(
          bodyOf(ex)?.status === true && data !== null && typeof data === 'object' && Object.keys(data).length > 0,
          `GET address/edit of own address ${ctx.state.addr1}: expected success with non-empty data, got ${shown(ex)}`,
          ex,
        );
      },
    },
    {
      id: 'RR-ADDR-13',
      title: 'POST address/edit succeeds with address_id (string) and the list shows the change',
      needs: ['addr1', 'countryId'],
      run: async (ctx: C) => {
        const added = await add(ctx, addBody(ctx));
        expectAccepted(ctx, added, 'add a second address');
        ctx.state.addr2 = idOf(added);
        const city = 'Editedtown';
        const ex = await call(ctx, 'POST', ROUTES.addressEdit, {
          session: session(ctx),
          query: { address_id: ctx.state.addr2 },
          json: addBody(ctx, { city, address_1: '2 Edited Road' }),
        });
        envelope(ctx, ex, 'account-address-edit.post');
        const { ex: lex, addresses } = await list(ctx);
        const found = addresses.find((a) => String(a.address_id) === ctx.state.addr2);
        ctx.expect(
          found?.city === city && found.address_1 === '2 Edited Road',
          `the list does not show the edit: ${shown(lex)}`,
          lex,
        );
        ctx.state.edited2 = { address_1: '2 Edited Road', city };
      },
    },
    {
      // Every edit sent company and address_2 filled in, so an edit that keeps an optional field it
      // was sent empty (an UPDATE of the non-empty fields only) showed nowhere.
      id: 'RR-ADDR-13',
      title: 'an edit that sends company and address_2 empty empties them in the list',
      needs: ['addr2', 'edited2'],
      run: async (ctx: C) => {
        const ex = await call(ctx, 'POST', ROUTES.addressEdit, {
          session: session(ctx),
          query: { address_id: ctx.state.addr2 },
          json: addBody(ctx, { ...ctx.state.edited2, company: '', address_2: '' }),
        });
        expectAccepted(ctx, ex, `edit of address ${ctx.state.addr2} with company and address_2 empty`);
        const { ex: lex, found } = await listedAddress(ctx, ctx.state.addr2, ex);
        const kept = ['company', 'address_2'].filter((k) => String(found[k] ?? '') !== '');
        ctx.expect(
          kept.length === 0,
          `address ${ctx.state.addr2} was edited with ${kept.join(' and ')} empty and the edit succeeded; the list still shows ${kept.map((k) => `${k} ${JSON.stringify(found[k])}`).join(', ')}`,
          ex,
          lex,
        );
      },
    },
    {
      // The other address checks read the full address of an address never edited, so a full address
      // kept from the add (not rebuilt by the edit) showed nowhere.
      id: 'RR-ADDR-18',
      title: 'after an edit, the address field holds the new address_1 and city',
      needs: ['addr2', 'edited2'],
      run: async (ctx: C) => {
        const { ex, found } = await listedAddress(ctx, ctx.state.addr2);
        const full = String(found.address ?? '');
        for (const [k, v] of Object.entries(ctx.state.edited2 ?? {}))
          ctx.expect(
            full.includes(v),
            `address ${ctx.state.addr2} was edited to ${k} ${JSON.stringify(v)}, which the list shows, but its address field is ${JSON.stringify(full)}`,
            ex,
          );
      },
    },
    {
      // Every refused edit the checks sent broke a length limit; none was refused for its region, so
      // an edit that saves its text fields before it checks the zone (answering error_zone with the
      // fields kept) showed nowhere. Whether such an edit is refused is RR-PROP-01's rule; a refused
      // one must have changed nothing.
      id: 'RR-STATE-01',
      title: 'an edit refused for an empty zone_id leaves the fields of the address as they were',
      needs: ['addr2', 'edited2'],
      run: async (ctx: C) => {
        const city = 'Refusedtown';
        const ex = await call(ctx, 'POST', ROUTES.addressEdit, {
          session: session(ctx),
          query: { address_id: ctx.state.addr2 },
          json: addBody(ctx, { ...ctx.state.edited2, city, zone_id: '' }),
        });
        if (bodyOf(ex)?.status === true)
          ctx.skip(
            `an edit of address ${ctx.state.addr2} with an empty zone_id in country ${ctx.state.countryId} (it has zones) was accepted, so no refusal is judged: ${shown(ex)}`,
          );
        const { ex: lex, found } = await listedAddress(ctx, ctx.state.addr2, ex);
        ctx.expect(
          found.city !== city,
          `an edit of address ${ctx.state.addr2} to city ${JSON.stringify(city)} with an empty zone_id was refused (${shown(ex)}), yet the list shows city ${JSON.stringify(found.city)}: the refused edit saved its fields`,
          ex,
          lex,
        );
      },
    },
    {
      id: 'RR-ADDR-14',
      title: 'POST address/edit accepts country_id and zone_id as strings',
      needs: ['addr2'],
      run: async (ctx: C) => {
        // Another region than the address has (of another country when states has one), so an edit
        // that answers success for string ids but keeps the stored region shows in the list.
        const zones = Object.entries(ctx.state.states ?? {}).flatMap(([country, list]) =>
          (Array.isArray(list) ? list : []).map((z) => ({ country, zone: asRecord(z) ?? {} })),
        );
        const others = zones.filter((z) => String(z.zone.zone_id) !== String(ctx.state.zoneId));
        const next = others.find((z) => z.country !== String(ctx.state.countryId)) ??
          others[0] ?? {
            country: String(ctx.state.countryId),
            zone: { zone_id: ctx.state.zoneId } as Record<string, unknown>,
          };
        const ex = await call(ctx, 'POST', ROUTES.addressEdit, {
          session: session(ctx),
          query: { address_id: ctx.state.addr2 },
          json: addBody(ctx, { country_id: String(next.country), zone_id: String(next.zone.zone_id) }),
        });
        envelope(ctx, ex, 'account-address-edit.post');
        if (others.length === 0) {
          ctx.note('states lists a single zone, so whether the string ids are applied is not judged');
          return;
        }
        const { ex: lex, addresses } = await list(ctx);
        const found = addresses.find((a) => String(a.address_id) === ctx.state.addr2) ?? {};
        if (found.address_id !== undefined) ctx.state.movedRegion = { ex: lex, found, country: String(next.country) };
        const old = zones.find((z) => String(z.zone.zone_id) === String(ctx.state.zoneId))?.zone ?? {};
        const names = (z: Record<string, unknown>) =>
          String(found.zone_code ?? '') === String(z.code ?? '') && String(found.zone ?? '') === String(z.name ?? '');
        // The list names the region by zone and zone_code (RR-ADDR-19, a SHOULD): judged here only
        // when it names the old or the new one, so a target that names none is not failed twice.
        if (!names(next.zone) && !names(old)) {
          ctx.note(`the list names neither the old nor the new zone of address ${ctx.state.addr2} (RR-ADDR-19 judges that)`);
          return;
        }
        ctx.expect(
          names(next.zone),
          `address ${ctx.state.addr2} was edited to country_id "${next.country}", zone_id "${next.zone.zone_id}" (${JSON.stringify(next.zone.name)}, code ${JSON.stringify(next.zone.code)}), sent as strings, and the edit succeeded; the list still shows its old zone ${JSON.stringify(found.zone)}, zone_code ${JSON.stringify(found.zone_code)}`,
          ex,
          lex,
        );
      },
    },
    ...movedRegionChecks,
    {
      // Every address_id the checks sent fitted in 32 bits, so a module that reads an integer id through a
      // 32-bit cast (4294967296 + N read as N) showed nowhere: its delete of an id no address has removes
      // address N. Row 10 gives no range for the integer; an id no address has must not name one.
      id: 'RR-STATE-01',
      title: 'a delete of address_id 4294967296 + N, which no address has, leaves address N in the list',
      needs: ['addr2', 'edited2'],
      run: async (ctx: C) => {
        const kept = ctx.state.addr2 as string;
        if (!/^\d{1,15}$/.test(kept))
          ctx.skip(`address_id ${JSON.stringify(kept)} is not a decimal integer, so no id 2^32 past it can be written`);
        const wide = 2 ** 32 + Number(kept);
        const ex = await del(ctx, wide);
        const { ex: lex, addresses } = await list(ctx);
        ctx.expect(
          addresses.some((a) => String(a.address_id) === kept),
          `a delete of address_id ${wide}, which no address has, answered ${shown(ex)}; address ${kept} (${wide} - 2^32) left the list`,
          ex,
          lex,
        );
      },
    },
    {
      id: 'RR-SEC-02',
      title: "another customer cannot read, edit or delete the first customer's address",
      needs: ['b', 'addr1', 'addr2'],
      run: async (ctx: C) => {
        const target = ctx.state.addr2 as string;
        const { ex: la0, addresses: before } = await list(ctx);
        const street = before.find((a) => String(a.address_id) === target)?.address_1;
        ctx.expect(typeof street === 'string' && street.length >= 3, `A's address ${target} is not in A's list`, la0);
        const { ex: lb, addresses } = await list(ctx, 'b');
        ctx.expect(!addresses.some((a) => String(a.address_id) === target), "B's list shows A's address", lb);
        const read = await call(ctx, 'GET', ROUTES.addressEdit, { session: session(ctx, 'b'), query: { address_id: target } });
        ctx.expect(!read.response?.body.includes(street), "B's GET address/edit shows A's street", read);
        const edit = await call(ctx, 'POST', ROUTES.addressEdit, {
          session: session(ctx, 'b'),
          query: { address_id: target },
          json: addBody(ctx, { city: 'Hijacked' }),
        });
        const gone = await del(ctx, target, 'b');
        const { ex: la, addresses: mine } = await list(ctx);
        const still = mine.find((a) => String(a.address_id) === target);
        ctx.expect(still, "B's delete removed A's address", gone, la);
        ctx.expect(still.city !== 'Hijacked', "B's edit changed A's address", edit, la);
      },
    },
    {
      id: 'RR-ADDR-17',
      title: 'the default address cannot be deleted while others remain (error_default)',
      needs: ['addr1', 'addr2'],
      run: async (ctx: C) => {
        const { ex: lex, addresses } = await list(ctx);
        const def = addresses.find((a) => a.default === 1);
        if (!def) ctx.skip(`no address of the list is marked default: 1, so the rule cannot be exercised (${shown(lex)})`);
        ctx.expect(addresses.length >= 2, 'expected two addresses in the book', lex);
        const ex = await del(ctx, String(def.address_id));
        expectRefused(ctx, ex, 'delete the default address', ['error_default', 'default']);
        // Row 10 takes address_id as an integer or a string, so the rule holds for both spellings. A
        // target of the string reading (AMB-RR-07) refuses the integer for that reason: no error key is asked.
        const asInteger = await del(ctx, Number(def.address_id));
        expectRefused(ctx, asInteger, 'delete the default address with an integer address_id');
        const { ex: after, addresses: now } = await list(ctx);
        ctx.expect(
          now.some((a) => String(a.address_id) === String(def.address_id)),
          'the default address left the list',
          ex,
          asInteger,
          after,
        );
      },
    },
    {
      id: 'RR-ADDR-15',
      title: 'POST address/delete of a non-default address succeeds (integer and string ids; AMB-RR-07)',
      needs: ['addr1', 'addr2'],
      run: async (ctx: C) => {
        const { addresses } = await list(ctx);
        const victim = addresses.find((a) => a.default !== 1 && String(a.address_id) !== '');
        ctx.expect(victim, 'no non-default address to delete');
        const ex = await del(ctx, Number(victim.address_id));
        const intOk = bodyOf(ex)?.status === true;
        let last = ex;
        if (!intOk) {
          last = await del(ctx, String(victim.address_id));
          ctx.expect(
            bodyOf(last)?.status === true,
            `delete refused with an integer and a string address_id: ${shown(last)}`,
            ex,
            last,
          );
        }
        ctx.choose('AMB-RR-07', intOk ? 'integer' : 'string');
        envelope(ctx, last, 'account-address-delete.post');
        const { ex: after, addresses: now } = await list(ctx);
        ctx.expect(
          !now.some((a) => String(a.address_id) === String(victim.address_id)),
          'the deleted address is still listed',
          after,
        );
        ctx.state.deleted = String(victim.address_id);
        // The other spelling of address_id must work too (row 10: integer or string).
        const extra = await add(ctx, addBody(ctx));
        const extraId = idOf(extra);
        if (!extraId)
          ctx.skip(
            `the ${intOk ? 'integer' : 'string'} address_id was accepted, but adding another address to delete with the ${intOk ? 'string' : 'integer'} one failed, so that spelling is not judged: ${shown(extra)}`,
          );
        const other = await del(ctx, intOk ? extraId : Number(extraId));
        expectAccepted(ctx, other, `delete with a ${intOk ? 'string' : 'integer'} address_id`);
        const { ex: later, addresses: rest } = await list(ctx);
        ctx.expect(
          !rest.some((a) => String(a.address_id) === String(extraId)),
          `the address deleted with a ${intOk ? 'string' : 'integer'} address_id is still listed`,
          later,
        );
      },
    },
    {
      // Every delete was followed by reads alone, so a delete that a later edit of the same address_id
      // undoes (a soft delete whose edit writes the row back) showed nowhere. The edit's answer is not
      // judged: whether editing a deleted address is refused is not stated; that it stays deleted is.
      id: 'RR-STATE-01',
      title: 'an edit of a deleted address does not bring it back into the list',
      needs: ['deleted', 'countryId'],
      run: async (ctx: C) => {
        const gone = ctx.state.deleted as string;
        const ex = await call(ctx, 'POST', ROUTES.addressEdit, {
          session: session(ctx),
          query: { address_id: gone },
          json: addBody(ctx, { city: 'Revivedtown' }),
        });
        const { ex: lex, addresses } = await list(ctx);
        ctx.expect(
          !addresses.some((a) => String(a.address_id) === gone),
          `address ${gone} was deleted and left the list (RR-ADDR-15); an edit of it answered ${shown(ex)}, and the list shows it again`,
          ex,
          lex,
        );
      },
    },
    {
      id: 'RR-ADDR-16',
      title: 'deleting the only remaining address is refused (error_delete)',
      needs: ['addr1'],
      run: async (ctx: C) => {
        const { ex: lex, addresses } = await list(ctx);
        const keep = addresses.find((x) => x.default === 1) ?? addresses[0];
        for (const a of addresses.filter((x) => x !== keep)) await del(ctx, String(a.address_id));
        const { addresses: now } = await list(ctx);
        if (now.length !== 1) ctx.skip(`could not bring the book down to one address (${now.length} remain): ${shown(lex)}`);
        const only = String(now[0]?.address_id);
        const ex = await del(ctx, only);
        expectRefused(ctx, ex, 'delete the only address', ['error_delete', 'error_default', 'address_id']);
        const { ex: after, addresses: left } = await list(ctx);
        ctx.expect(left.length === 1, 'the only address left the book', after);
      },
    },
    ...sweepChecks<AddressState>(),
  ],
};
