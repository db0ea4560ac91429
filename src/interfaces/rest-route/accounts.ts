import type { Exchange } from '../../http/exchange.js';
import {
  asRecord,
  bodyOf,
  type Ctx,
  call,
  dataOf,
  HEADER_MODES,
  type HeaderMode,
  ROUTES,
  type Session,
  shown,
  succeeded,
} from './client.js';

// Accounts for the checks: register (probing the two readings of the register body, AMB-RR-03),
// log in (probing email or username, AMB-RR-01) and find the token header (AMB-RR-02).

export type Reading = 'sample' | 'table';

/** Register fields under the sample's names; `registerBody` renames them for the table reading. */
export interface RegisterFields {
  firstname: string;
  lastname: string;
  email: string;
  telephone: string;
  password: string;
  confirm: string;
  username: string;
  address: string;
  newsletter: number;
  agree: number | string;
  customer_group_id?: number | string;
}

export interface Account {
  reading: Reading;
  fields: RegisterFields;
  token: string;
  /** `data` of the register answer. */
  data: Record<string, unknown>;
  exchange: Exchange;
}

/** Fresh, run-unique fields that satisfy both readings (a 10-digit telephone fits 3 to 32 characters too). */
export function freshFields(ctx: Ctx, overrides: Partial<RegisterFields> = {}): RegisterFields {
  const password = overrides.password ?? ctx.names.password();
  return {
    firstname: 'Sfc',
    lastname: `Lst${ctx.names.username().slice(-12)}`,
    email: ctx.names.email(),
    telephone: ctx.names.phone(),
    password,
    confirm: password,
    username: ctx.names.username(),
    address: '1 Conformance Street',
    newsletter: 0,
    agree: 1,
    ...overrides,
  };
}

const TABLE_NAMES: Partial<Record<keyof RegisterFields, string[]>> = {
  firstname: ['first_name'],
  lastname: ['last_name'],
  telephone: ['phone'],
  // The table names it "confirm password"; both spellings are sent so either wire name is met.
  confirm: ['confirm', 'confirm_password'],
};
const SAMPLE_FIELDS: (keyof RegisterFields)[] = [
  'firstname',
  'lastname',
  'email',
  'telephone',
  'password',
  'confirm',
  'customer_group_id',
  'newsletter',
  'agree',
];
const TABLE_FIELDS: (keyof RegisterFields)[] = [
  'firstname',
  'lastname',
  'username',
  'password',
  'confirm',
  'email',
  'telephone',
  'address',
  'newsletter',
  'agree',
  'customer_group_id',
];

/** The register body of one reading; `drop` removes fields (by their sample names). */
export function registerBody(reading: Reading, f: RegisterFields, drop: (keyof RegisterFields)[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of reading === 'sample' ? SAMPLE_FIELDS : TABLE_FIELDS) {
    if (drop.includes(key) || f[key] === undefined) continue;
    for (const wire of reading === 'table' ? (TABLE_NAMES[key] ?? [key]) : [key]) out[wire] = f[key];
  }
  return out;
}

export const postRegister = (ctx: Ctx, reading: Reading, f: RegisterFields, drop: (keyof RegisterFields)[] = []) =>
  call(ctx, 'POST', ROUTES.register, { json: registerBody(reading, f, drop) });

export interface RegisterOutcome {
  account?: Account;
  exchanges: Exchange[];
}

/** Registers with the given reading, or probes the sample reading then the table reading. */
export async function register(ctx: Ctx, fields: RegisterFields, reading?: Reading): Promise<RegisterOutcome> {
  const exchanges: Exchange[] = [];
  for (const r of reading ? [reading] : (['sample', 'table'] as const)) {
    const ex = await postRegister(ctx, r, fields);
    exchanges.push(ex);
    const body = bodyOf(ex);
    if (body?.status === true) {
      const token = typeof body.token === 'string' ? body.token : '';
      return { account: { reading: r, fields, token, data: asRecord(body.data) ?? {}, exchange: ex }, exchanges };
    }
  }
  return { exchanges };
}

export type LoginField = 'email' | 'username';

export function postLogin(ctx: Ctx, field: LoginField, f: RegisterFields, password = f.password): Promise<Exchange> {
  return call(ctx, 'POST', ROUTES.login, { json: { [field]: f[field], password } });
}

/** Logs in by email (the sample), then by username (the table) when the account has one. */
export async function loginProbe(ctx: Ctx, account: Account): Promise<{ field?: LoginField; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  const fields: LoginField[] = account.reading === 'table' ? ['email', 'username'] : ['email'];
  for (const field of fields) {
    const ex = await postLogin(ctx, field, account.fields);
    exchanges.push(ex);
    if (succeeded(ex)) return { field, exchanges };
  }
  return { exchanges };
}

/** Every header form in which the target accepts `token` on GET account (a read that needs it). */
export async function probeHeaders(ctx: Ctx, token: string): Promise<{ accepted: HeaderMode[]; exchanges: Exchange[] }> {
  const accepted: HeaderMode[] = [];
  const exchanges: Exchange[] = [];
  for (const header of HEADER_MODES) {
    const ex = await call(ctx, 'GET', ROUTES.account, { session: { token, header } });
    exchanges.push(ex);
    if (succeeded(ex)) accepted.push(header);
  }
  return { accepted, exchanges };
}

export interface Provisioned {
  account: Account;
  session: Session;
}

/**
 * A fresh customer with a working session, for areas whose subject is not registration itself.
 * What cannot be provisioned is a skip with the reason, never a failure of the area's requirement.
 */
export async function provision(ctx: Ctx, reading?: Reading): Promise<Provisioned> {
  const out = await register(ctx, freshFields(ctx), reading);
  const last = out.exchanges[out.exchanges.length - 1];
  if (!out.account)
    ctx.skip(`could not register a customer (both register readings refused): ${last ? shown(last) : 'no exchange'}`);
  if (!out.account.token) ctx.skip('register returned no top-level token, so no authenticated call can be made');
  ctx.choose('AMB-RR-03', out.account.reading);
  const probe = await probeHeaders(ctx, out.account.token);
  const header = probe.accepted[0];
  if (!header) ctx.skip('the register token was accepted in no header form (token, Authorization: Bearer, Authorization)');
  ctx.choose('AMB-RR-02', header);
  return { account: out.account, session: { token: out.account.token, header } };
}

/**
 * Token lifetime is not shown (NS-RR-06), and a target may end an account's older tokens when it
 * issues a new one (the real module does on each login). A login the target accepted for `p`'s
 * account makes its token `p`'s session, so later checks send the newest token the account has.
 */
export function keepNewest(p: Provisioned, ex: Exchange): void {
  const body = bodyOf(ex);
  const token = body?.token;
  if (body?.status !== true || typeof token !== 'string' || token === '') return;
  // An answer naming another account must not become this one's session.
  if (String(dataOf(body).email).toLowerCase() !== p.account.fields.email.toLowerCase()) return;
  p.session = { token, header: p.session.header };
}
