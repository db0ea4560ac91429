import fc from 'fast-check';
import type { CheckContext } from '../../checks/context.js';
import type { Exchange } from '../../http/exchange.js';
import type { Provisioned } from './accounts.js';
import { bodyOf, call, dataOf, ROUTES, records, type Session } from './client.js';
import { expectAccepted, expectRefused } from './refusals.js';

// The address-book area's state and calls: add, list and delete for one of its two customers,
// and the limit checks of section 8 built from one pattern.

export interface AddressState {
  a: Provisioned;
  b: Provisioned;
  countryId: number;
  zoneId: number;
  addr1: string;
  addr2: string;
  sent1: Record<string, unknown>;
  /** The fields RR-ADDR-13's edit gave addr2, once the list showed them. */
  edited2: Record<string, string>;
  /**
   * addr2 as the list showed it after RR-ADDR-14 moved it to another region (of another country when
   * states has one), and the country_id the edit sent.
   */
  movedRegion: { ex: Exchange; found: Record<string, unknown>; country: string };
  /** The address RR-ADDR-15 deleted, once the list no longer showed it. */
  deleted: string;
  /** GET address/add as the area's first check read it: countries and their zones. */
  states: Record<string, unknown>;
  statesEx: Exchange;
}
export type C = CheckContext<AddressState>;

export const ADDRESS_ERROR_KEYS = [
  'error_firstname',
  'error_lastname',
  'error_address_1',
  'error_city',
  'error_postcode',
  'error_country',
  'error_zone',
];

export function addBody(ctx: C, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstname: 'Ada',
    lastname: 'Sfc',
    company: 'Conformance Ltd',
    address_1: `${ctx.names.label('street')}`.slice(0, 40),
    address_2: 'Floor 2',
    city: 'Testville',
    postcode: 'AB12 3CD',
    country_id: ctx.state.countryId,
    zone_id: ctx.state.zoneId,
    ...overrides,
  };
}

export const session = (ctx: C, who: 'a' | 'b' = 'a'): Session => (ctx.state[who] as Provisioned).session;

export async function list(ctx: C, who: 'a' | 'b' = 'a'): Promise<{ ex: Exchange; addresses: Record<string, unknown>[] }> {
  const ex = await call(ctx, 'GET', ROUTES.address, { session: session(ctx, who) });
  return { ex, addresses: records(dataOf(bodyOf(ex)).addresses) };
}

/** Address `id` as GET address lists it; a check fails when it is not listed (`evidence`: what led there). */
export async function listedAddress(
  ctx: C,
  id: string | undefined,
  ...evidence: Exchange[]
): Promise<{ ex: Exchange; found: Record<string, unknown> }> {
  const { ex, addresses } = await list(ctx);
  const found = addresses.find((a) => String(a.address_id) === id);
  ctx.expect(found, `address ${id} is not in the list`, ...evidence, ex);
  return { ex, found };
}

/** The area's first address (addr1) as GET address lists it. */
export const listedAddr1 = (ctx: C) => listedAddress(ctx, ctx.state.addr1);

export async function add(ctx: C, body: Record<string, unknown>): Promise<Exchange> {
  const ex = await call(ctx, 'POST', ROUTES.addressAdd, { session: session(ctx), json: body });
  const id = idOf(ex);
  // Best effort cleanup; the last address of a book cannot be deleted (error_delete) and stays.
  if (bodyOf(ex)?.status === true && id) ctx.onTeardown(async () => void (await del(ctx, id)));
  return ex;
}
export const del = (ctx: C, id: string | number, who: 'a' | 'b' = 'a') =>
  call(ctx, 'POST', ROUTES.addressDelete, { session: session(ctx, who), json: { address_id: id } });
export const idOf = (ex: Exchange): string | undefined => {
  const id = dataOf(bodyOf(ex)).address_id;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined;
};

/** An edit the limits must refuse: its overrides and the names of its error. */
export interface RefusedEdit {
  what: string;
  overrides: Record<string, unknown>;
  names: string[];
}

/**
 * Adds an address the limits must accept, then removes it again so the book stays small. With
 * `edit`, the address is first edited with a body of the same overrides: the limits of section 8
 * hold for the edit (row 9: the same fields as row 7), which no other check pushes to its edges.
 * With `refused`, an edit of the address past the limit follows, which must be refused.
 */
export async function acceptedAdd(
  ctx: C,
  what: string,
  overrides: Record<string, unknown>,
  { edit = false, refused }: { edit?: boolean; refused?: RefusedEdit } = {},
): Promise<void> {
  const ex = await add(ctx, addBody(ctx, overrides));
  expectAccepted(ctx, ex, what);
  const id = idOf(ex);
  const editWith = (o: Record<string, unknown>) =>
    call(ctx, 'POST', ROUTES.addressEdit, { session: session(ctx), query: { address_id: id }, json: addBody(ctx, o) });
  if (id && edit) expectAccepted(ctx, await editWith(overrides), what.replace(/^add/, 'edit of the added address'));
  if (id && refused) expectRefused(ctx, await editWith(refused.overrides), refused.what, refused.names);
  if (id) await del(ctx, id);
}

export async function refusedAdd(ctx: C, what: string, names: string[], overrides: Record<string, unknown>): Promise<void> {
  const ex = await add(ctx, addBody(ctx, overrides));
  expectRefused(ctx, ex, what, names);
  const id = idOf(ex);
  if (bodyOf(ex)?.status === true && id) await del(ctx, id);
}

/**
 * `over`: the value one past the maximum that the add must refuse (default max + 1 letters). A limit
 * counts every character: the postcode's holds a space, which a rule counting the code without its
 * spaces ("SW1A 1AA" as seven) lets through. `atMax`: the value of exactly the maximum that the add and
 * an edit must accept (default max letters); address_1's holds an &, which a rule counting the value
 * HTML-escaped (&amp;, five characters) refuses.
 */
export function limitCheck(
  id: string,
  field: string,
  errorKey: string,
  min: number,
  max: number,
  over = 'a'.repeat(max + 1),
  atMax = 'a'.repeat(max),
) {
  return {
    id,
    title: `${field}: ${min} and ${max} characters accepted (by the add and by an edit), ${min - 1} and ${max + 1} refused`,
    needs: ['a', 'countryId', 'addr1'] as (keyof AddressState)[],
    run: async (ctx: C) => {
      const names = [errorKey, field];
      await acceptedAdd(ctx, `add with a ${min}-character ${field}`, { [field]: 'a'.repeat(min) }, { edit: true });
      // The edit has the add's limits too (row 9), and no other check sent it a field past one.
      await acceptedAdd(
        ctx,
        `add with a ${max}-character ${field}${atMax === 'a'.repeat(max) ? '' : ` (${JSON.stringify(atMax.slice(-12))} at its end)`}`,
        { [field]: atMax },
        {
          edit: true,
          refused: {
            what: `edit of the added address to a ${max + 1}-character ${field}`,
            overrides: { [field]: 'a'.repeat(max + 1) },
            names,
          },
        },
      );
      if (min > 0) await refusedAdd(ctx, `add with a ${min - 1}-character ${field}`, names, { [field]: 'a'.repeat(min - 1) });
      await refusedAdd(ctx, `add with a ${[...over].length}-character ${field} (${JSON.stringify(over)})`, names, {
        [field]: over,
      });
    },
  };
}

/**
 * The same limit as a property: lengths drawn with the run's seed (so a run replays), biased to the
 * edges; an address is accepted exactly when every length is inside the limit.
 */
export function limitProperty(id: string, field: string, errorKey: string, min: number, max: number) {
  return {
    id,
    title: `${field}: seeded random lengths are accepted exactly inside ${min} to ${max}`,
    needs: ['a', 'countryId', 'addr1'] as (keyof AddressState)[],
    run: async (ctx: C) => {
      const runs = Math.max(4, Math.min(ctx.settings.runs, 25));
      const lengths = fc.sample(
        fc.oneof(
          fc.integer({ min: 0, max: max + 10 }),
          fc.constantFrom(min - 1, min, max, max + 1).filter((n) => n >= 0),
        ),
        { seed: ctx.settings.seed, numRuns: runs },
      );
      for (const [i, len] of lengths.entries()) {
        const what = `add with a ${len}-character ${field} (seed ${ctx.settings.seed}, case ${i})`;
        if (len >= min && len <= max) await acceptedAdd(ctx, what, { [field]: 'b'.repeat(len) });
        else await refusedAdd(ctx, what, [errorKey, field], { [field]: 'b'.repeat(len) });
      }
    },
  };
}
