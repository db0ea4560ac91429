import fc from 'fast-check';
import { limitCase, ofLength } from '../../../arbitraries/rr-fields.js';
import type { AreaSpec, CheckSpec } from '../../../checks/model.js';
import { checkProperty } from '../../../checks/properties.js';
import type { Exchange } from '../../../http/exchange.js';
import { bodyOf, call, dataOf, ROUTES } from '../client.js';
import { type PC, type PropState, ready, validAddress } from '../prop-setup.js';
import { expectAccepted, expectRefused } from '../refusals.js';
import { sweepChecks } from '../sweep.js';

// Boundary properties of the address limits (document 1, Parts 7 and 8): lengths drawn with the
// run's seed around each limit, one POST address/add per run. Inside the limit the add succeeds;
// past it the add is refused (MUST) and the refusal is logged with the field's error_* key, so the
// sweep's RR-ERR-02 (SHOULD: the error mapping is not shown) checks that it names the field.

/** Removes an address a property added, so the book stays small; the default one stays (error_default). */
async function cleanup(ctx: PC, ex: Exchange): Promise<void> {
  const id = dataOf(bodyOf(ex)).address_id;
  if (bodyOf(ex)?.status === true && (typeof id === 'number' || typeof id === 'string'))
    await call(ctx, 'POST', ROUTES.addressDelete, { session: ctx.state.a?.session, json: { address_id: id } });
}

async function addAddress(ctx: PC, body: Record<string, unknown>): Promise<Exchange> {
  return call(ctx, 'POST', ROUTES.addressAdd, { session: ctx.state.a?.session, json: body });
}

/** Every other field inside its limit, drawn too, so a property does not test one fixed body. */
const otherFields = fc.record({
  firstname: fc.integer({ min: 1, max: 32 }).chain((n) => ofLength(n)),
  lastname: fc.integer({ min: 1, max: 32 }).chain((n) => ofLength(n)),
  address_1: fc.integer({ min: 3, max: 128 }).chain((n) => ofLength(n)),
  city: fc.integer({ min: 2, max: 128 }).chain((n) => ofLength(n)),
  postcode: fc.integer({ min: 2, max: 10 }).chain((n) => ofLength(n)),
});

function lengthProperty(id: string, field: string, errorKey: string, min: number, max: number): CheckSpec<PropState> {
  return {
    id,
    title: `address ${field}: seeded lengths around ${min} to ${max} are accepted exactly inside the limit, refused past it`,
    run: async (ctx: PC) => {
      await ready(ctx);
      await checkProperty(
        ctx,
        `rest-route/boundaries/address-${field}`,
        fc.tuple(limitCase({ min, max }), otherFields),
        async ([c, others]) => {
          const ex = await addAddress(ctx, validAddress(ctx, { ...others, [field]: c.value }));
          const what = `add with a ${c.length}-character ${field}`;
          if (c.valid) {
            expectAccepted(ctx, ex, what);
            await cleanup(ctx, ex);
          } else expectRefused(ctx, ex, what, [errorKey, field]);
        },
      );
    },
  };
}

type Choice = 'valid' | 'missing' | 'empty';
const choice = fc.constantFrom<Choice>('valid', 'missing', 'empty');

/** Applies a choice to a body: the valid id, the key left out, or an empty string (nothing chosen). */
function applyChoice(body: Record<string, unknown>, key: string, c: Choice): Record<string, unknown> {
  const out = { ...body };
  if (c === 'missing') delete out[key];
  if (c === 'empty') out[key] = '';
  return out;
}

export const boundariesArea: AreaSpec<PropState> = {
  interface: 'rest-route',
  name: 'boundaries',
  checks: [
    lengthProperty('RR-ADDR-06', 'firstname', 'error_firstname', 1, 32),
    lengthProperty('RR-ADDR-06', 'lastname', 'error_lastname', 1, 32),
    lengthProperty('RR-ADDR-07', 'address_1', 'error_address_1', 3, 128),
    lengthProperty('RR-ADDR-08', 'postcode', 'error_postcode', 2, 10),
    lengthProperty('RR-ADDR-09', 'city', 'error_city', 2, 128),
    {
      id: 'RR-ADDR-10',
      title: 'country: an address whose country_id is missing or empty is refused; a listed country is accepted',
      run: async (ctx: PC) => {
        await ready(ctx);
        await checkProperty(ctx, 'rest-route/boundaries/country', fc.tuple(choice, otherFields), async ([c, others]) => {
          // Without a country the zone means nothing: it goes the same way.
          const body = applyChoice(applyChoice(validAddress(ctx, others), 'country_id', c), 'zone_id', c);
          const ex = await addAddress(ctx, body);
          if (c === 'valid') {
            expectAccepted(ctx, ex, 'add with a listed country and zone');
            await cleanup(ctx, ex);
          } else expectRefused(ctx, ex, `add with country_id ${c}`, ['error_country', 'country_id', 'country']);
        });
      },
    },
    {
      id: 'RR-PROP-01',
      title: 'zone: for a country that has zones, an address whose zone_id is missing or empty is refused',
      run: async (ctx: PC) => {
        await ready(ctx);
        await checkProperty(ctx, 'rest-route/boundaries/zone', fc.tuple(choice, otherFields), async ([c, others]) => {
          const ex = await addAddress(ctx, applyChoice(validAddress(ctx, others), 'zone_id', c));
          if (c === 'valid') {
            expectAccepted(ctx, ex, 'add with a zone of the country');
            await cleanup(ctx, ex);
          } else expectRefused(ctx, ex, `add with zone_id ${c}`, ['error_zone', 'zone_id', 'zone']);
        });
      },
    },
    ...sweepChecks<PropState>(),
  ],
};
