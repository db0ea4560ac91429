import type { AppContext } from '../../context.js';
import { type FaultRequest, type FaultResponse, isObject } from '../model.js';

/** The request's variables object, when the client sent one (the suite's operations use variables). */
export function variables(req: FaultRequest): Record<string, unknown> | undefined {
  const body = req.raw.body;
  if (!isObject(body)) return undefined;
  if (!isObject(body.variables)) return undefined;
  return body.variables;
}

/** The result object of `field` in `data`, if the operation returned one. */
export function result(res: FaultResponse, field: string): Record<string, unknown> | undefined {
  const data = isObject(res.body) ? res.body.data : undefined;
  const r = isObject(data) ? data[field] : undefined;
  return isObject(r) ? r : undefined;
}

/** A cart_id the handler would take (digits, as ID string or number); undefined for anything else. */
export function cartIdOf(v: unknown): number | undefined {
  const text = typeof v === 'number' || typeof v === 'string' ? String(v).trim() : '';
  return /^[1-9]\d{0,14}$/.test(text) ? Number(text) : undefined;
}

/** The customer of the request's bearer token, as the handler will authenticate it; undefined without one. */
export async function bearerCustomer(req: FaultRequest, ctx: AppContext): Promise<number | undefined> {
  const header = req.raw.headers.authorization;
  const token = typeof header === 'string' ? /^\s*Bearer\s+(\S+)/i.exec(header)?.[1] : undefined;
  const payload = token ? await ctx.tokens.verify(token, 'graphql') : null;
  const id = payload ? Number(payload.sub) : Number.NaN;
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** Whether the answer carries no error (a fault acts only on operations the handler carried out). */
export const clean = (res: FaultResponse) =>
  isObject(res.body) && !(Array.isArray(res.body.errors) && res.body.errors.length > 0);

export const has = (req: FaultRequest, field: string) => new RegExp(`\\b${field}\\b`).test(req.endpoint);

export const CART_FIELDS = ['addProductToCart', 'addCoupon'];

/** register's CustomerInput, when the request is a register with a string e-mail and password (what these faults store). */
export function registerInput(req: FaultRequest): Record<string, unknown> | undefined {
  const input = variables(req)?.input;
  if (!has(req, 'register') || !isObject(input) || typeof input.email !== 'string' || typeof input.password !== 'string')
    return undefined;
  return input;
}

/** Stores a register's account under `email` as register's handler would: for the faults that keep an account it refused. */
export function insertCustomer(ctx: AppContext, input: Record<string, unknown>, email: string, hash: string): void {
  ctx.db
    .prepare(
      `INSERT OR IGNORE INTO gql_customer (customer_group_id, firstname, lastname, email, telephone, fax, company, address_1,
         address_2, city, postcode, country_id, zone_id, password_hash, agree, date_added)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
    )
    .run(
      input.customer_group_id,
      trimmed(input.firstname),
      trimmed(input.lastname),
      email,
      trimmed(input.telephone),
      trimmed(input.fax),
      trimmed(input.company),
      trimmed(input.address_1),
      trimmed(input.address_2),
      trimmed(input.city),
      trimmed(input.postcode),
      input.country_id,
      input.zone_id,
      hash,
      new Date().toISOString(),
    );
}

export const trimmed = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** Copies into an answered cart summary the values of `fresh` (the cart as stored) for the fields it holds. */
export function refreshSummary(r: Record<string, unknown>, fresh: Record<string, unknown>): void {
  const freshItems = (fresh.items ?? []) as Record<string, unknown>[];
  const freshTotals = (fresh.totals ?? []) as Record<string, unknown>[];
  for (const [k, v] of Object.entries(r)) {
    if (k === 'items' && Array.isArray(v)) {
      for (const line of v) {
        if (!isObject(line)) continue;
        const f = freshItems.find((x) =>
          'cart_id' in line ? String(x.cart_id) === String(line.cart_id) : String(x.product_id) === String(line.product_id),
        );
        if (f) for (const key of Object.keys(line)) if (typeof f[key] === 'number') line[key] = f[key];
      }
    } else if (k === 'totals' && Array.isArray(v)) {
      for (const t of v) {
        const f = isObject(t) ? freshTotals.find((x) => x.title === t.title) : undefined;
        if (isObject(t) && f && 'value' in t) t.value = f.value;
      }
    } else if (typeof fresh[k] === 'number' || typeof fresh[k] === 'boolean') r[k] = fresh[k];
  }
}
