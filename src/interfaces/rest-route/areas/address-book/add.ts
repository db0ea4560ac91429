import type { CheckSpec } from '../../../../checks/model.js';
import { provision } from '../../accounts.js';
import {
  type AddressState,
  add,
  addBody,
  type C,
  del,
  idOf,
  list,
  listedAddr1,
  listedAddress,
  session,
} from '../../address-ops.js';
import { asRecord, bodyOf, call, dataOf, envelope, ROUTES, shown } from '../../client.js';
import { expectAccepted } from '../../refusals.js';

// First: it provisions both customers and reads the countries and zones every later add sends; then the
// add itself, and that the list shows each address with the fields sent.

export const addChecks: CheckSpec<AddressState>[] = [
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
];
