import type { CheckContext } from '../../checks/context.js';
import { freshFields, type Provisioned, provision, register } from './accounts.js';
import { asRecord, bodyOf, call, dataOf, ROUTES, type Session, shown } from './client.js';

// Shared set-up of the property, model and robustness areas: one customer provisioned once per
// area (probing the ambiguities once), the country and zone to file addresses under, and fresh
// accounts for runs that must start from an empty book (one register call each, no probing).

export interface PropState {
  a: Provisioned;
  /** A country that has zones, and one of its zones. */
  countryId: number;
  zoneId: number;
  /** A country without zones, when the target lists one. */
  zonelessCountryId: number;
}
export type PC = CheckContext<PropState>;

/** Provisions the area's customer and finds a country with zones, once per area; skips with the reason otherwise. */
export async function ready(ctx: PC): Promise<Provisioned> {
  if (ctx.state.a && ctx.state.countryId !== undefined) return ctx.state.a;
  const a = ctx.state.a ?? (await provision(ctx));
  ctx.state.a = a;
  const ex = await call(ctx, 'GET', ROUTES.addressAdd, { session: a.session });
  const states = asRecord(dataOf(bodyOf(ex)).states) ?? {};
  for (const [country, zones] of Object.entries(states)) {
    if (!Array.isArray(zones)) continue;
    if (zones.length === 0 && ctx.state.zonelessCountryId === undefined) ctx.state.zonelessCountryId = Number(country);
    const zone = asRecord(zones[0]);
    if (zone && ctx.state.countryId === undefined) {
      ctx.state.countryId = Number(country);
      ctx.state.zoneId = Number(zone.zone_id);
    }
  }
  if (ctx.state.countryId === undefined)
    ctx.skip(`GET address/add lists no country with zones, so no address can be filed: ${shown(ex)}`);
  return a;
}

/** A fresh customer in the register reading and token header already found (one request). */
export async function freshSession(ctx: PC): Promise<Session> {
  const a = await ready(ctx);
  const out = await register(ctx, freshFields(ctx), a.account.reading);
  const last = out.exchanges[out.exchanges.length - 1];
  if (!out.account?.token) ctx.skip(`could not register a fresh customer for the run: ${last ? shown(last) : 'no exchange'}`);
  return { token: out.account.token, header: a.session.header };
}

/** A valid address body for the area's country and zone, with `overrides` applied. */
export function validAddress(ctx: PC, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstname: 'Ada',
    lastname: 'Sfc',
    company: 'Conformance Ltd',
    address_1: '1 Limit Street',
    address_2: 'Floor 2',
    city: 'Testville',
    postcode: 'AB123',
    country_id: ctx.state.countryId,
    zone_id: ctx.state.zoneId,
    ...overrides,
  };
}

/**
 * Runs of a property whose every run registers an account (a password hash each): the run's
 * `--runs` up to 20, then a tenth of it, so `--runs 1000` stays within minutes.
 */
export const registerRuns = (ctx: PC): number => Math.min(ctx.settings.runs, Math.max(20, Math.ceil(ctx.settings.runs / 10)));

/** Runs of a model-based property (a registration and up to a dozen steps each): a twentieth past 10. */
export const modelRuns = (ctx: PC): number => Math.min(ctx.settings.runs, Math.max(10, Math.ceil(ctx.settings.runs / 20)));
