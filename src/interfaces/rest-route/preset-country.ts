import type { CheckSpec } from '../../checks/model.js';
import { type AddressState, add, addBody, type C, del, idOf } from './address-ops.js';
import { asRecord, bodyOf, dataOf } from './client.js';
import { expectRefused } from './refusals.js';

// The address book's check of an add that leaves country_id out while its zone_id names a region of the
// country GET address/add preselects (row 6's country_id): one request, and a delete if it was filed.

export const presetCountryChecks: CheckSpec<AddressState>[] = [
  {
    // RR-ADDR-10's add leaves zone_id out too, so it is refused for its region as well: a module that fills
    // a missing country_id in with the country the add form preselects (the store's, as the web form does)
    // was refused all the same, naming error_zone. Here zone_id is a region of that country.
    id: 'RR-ADDR-10',
    title: "an address without country_id is refused even when its zone_id is a region of the add form's country_id",
    needs: ['a', 'countryId', 'addr1', 'statesEx'],
    run: async (ctx: C) => {
      const preset = String(dataOf(bodyOf(ctx.state.statesEx as AddressState['statesEx'])).country_id ?? '');
      const zones = ctx.state.states?.[preset];
      const zone = Array.isArray(zones) ? asRecord(zones[0]) : undefined;
      const zoneId = Number(zone?.zone_id ?? ctx.state.zoneId);
      const body = addBody(ctx, { zone_id: zoneId });
      delete body.country_id;
      const ex = await add(ctx, body);
      const filed = bodyOf(ex)?.status === true ? idOf(ex) : undefined;
      if (filed) await del(ctx, filed);
      expectRefused(
        ctx,
        ex,
        `add without country_id, with zone_id ${zoneId} (a region of country ${zone ? preset : ctx.state.countryId})`,
        ['error_country', 'country_id', 'country'],
      );
    },
  },
];
