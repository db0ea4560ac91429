import type { CheckSpec } from '../../checks/model.js';
import type { AddressState, C } from './address-ops.js';
import { asRecord, bodyOf, dataOf } from './client.js';

// The address book's checks of the address RR-ADDR-14 moved to another region (of another country when
// states has one): what the list, read right after that edit, names for it. No requests of their own.

export const movedRegionChecks: CheckSpec<AddressState>[] = [
  {
    // RR-ADDR-20 read the full address of the first (default) address only, so a list that fills every
    // address's text with the default address's region and country showed nowhere: addr2 is now elsewhere.
    id: 'RR-ADDR-20',
    title: 'an address of another region than the default one holds its own zone and country in its address field',
    needs: ['movedRegion'],
    run: async (ctx: C) => {
      const { ex, found } = ctx.state.movedRegion as AddressState['movedRegion'];
      const full = String(found.address ?? '');
      const parts = (['zone', 'country'] as const).filter((k) => typeof found[k] === 'string' && String(found[k]).trim() !== '');
      if (parts.length === 0) ctx.skip('the listed address names no zone and no country (RR-ADDR-19) to look for');
      const lacking = parts.filter((k) => !full.includes(String(found[k]).trim()));
      ctx.expect(
        lacking.length === 0,
        `address ${String(found.address_id)}, edited to another region than the default address, lists ${lacking.map((k) => `${k} ${JSON.stringify(found[k])}`).join(', ')}, but its address field is ${JSON.stringify(full)}`,
        ex,
      );
    },
  },
  {
    // RR-ADDR-14 read back the zone of the moved address only, so an edit whose UPDATE stores zone_id but
    // not country_id (the list then names the new region in the old country) showed nowhere. No request:
    // the list RR-ADDR-14 read, where addr1 still lies in the country addr2 was moved out of.
    id: 'RR-ADDR-19',
    title: 'an address edited to a region of another country no longer lists the country of the address left there',
    needs: ['movedRegion', 'addr1'],
    run: async (ctx: C) => {
      const { ex, found, country } = ctx.state.movedRegion as AddressState['movedRegion'];
      if (country === String(ctx.state.countryId))
        ctx.skip('states lists no zone of another country, so RR-ADDR-14 moved the address within its country');
      const listed = dataOf(bodyOf(ex)).addresses;
      const stayed = (Array.isArray(listed) ? listed : [])
        .map((a) => asRecord(a))
        .find((a) => String(a?.address_id) === ctx.state.addr1);
      const named = (a: Record<string, unknown> | undefined) =>
        typeof a?.country === 'string' && a.country.trim() !== '' ? a.country : undefined;
      const left = named(stayed);
      const moved = named(found);
      if (!left || !moved) ctx.skip('the list names no country for one of the two addresses (RR-ADDR-19 judges that)');
      ctx.expect(
        moved !== left,
        `address ${String(found.address_id)} was edited to country_id "${country}" and the edit succeeded, yet the list names its country ${JSON.stringify(moved)}, the country of address ${ctx.state.addr1} (country_id ${ctx.state.countryId}): the list does not show the edit's country`,
        ex,
      );
    },
  },
];
