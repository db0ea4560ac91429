import type { CheckSpec } from '../../../../checks/model.js';
import { ADDRESS_ERROR_KEYS, type AddressState, type C, list, listedAddr1, session } from '../../address-ops.js';
import { asRecord, bodyOf, call, ROUTES, records } from '../../client.js';

// What the list composes from an added address (the full address, its zone and country), and the
// language labels of the address forms: read-only, on the addresses add.ts filed.

export const listedAddressChecks: CheckSpec<AddressState>[] = [
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
      const zone = records(zones).find((z) => String(z.zone_id) === String(ctx.state.zoneId));
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
      const parts = (['zone', 'country'] as const).filter((k) => typeof found[k] === 'string' && String(found[k]).trim() !== '');
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
];
