import type { AppContext } from '../../context.js';
import { tokenOf } from '../../rest-route/core.js';
import { type FaultRequest, type FaultResponse, isObject } from '../model.js';

export const ok = (res: FaultResponse): res is FaultResponse & { body: Record<string, unknown> } =>
  isObject(res.body) && res.body.status === true;

export const data = (res: FaultResponse): Record<string, unknown> | undefined =>
  isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;

/** A rule error as the handlers build it: the error_* key, the field and the label text (`%s` filled in when given). */
export function labelError(ctx: AppContext, code: string, field: string, fill?: string): Record<string, string> {
  const row = ctx.db.prepare("SELECT value FROM rr_label WHERE key = ? ORDER BY page = '*' LIMIT 1").get(code) as
    | { value: string }
    | undefined;
  const message = row?.value ?? code;
  return { code, field, message: fill === undefined ? message : message.replace('%s', fill) };
}

/** A refusal in the handlers' envelope carrying `errors`, in place of whatever the handler answered. */
export function refuse(res: FaultResponse, errors: Record<string, string>[]): void {
  res.status = 200;
  res.body = { status: false, errors, message: errors.map((e) => e.message).join(' '), data: [] };
}

/** The address fields of rows 7 and 9 that are stored as text. */
export const ADDRESS_TEXT_FIELDS = [
  'firstname',
  'first_name',
  'lastname',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'postcode',
];

/** Whether a request is a POST of address/add or address/edit whose body is a JSON object. */
export const addressWrite = (
  req: FaultRequest,
  which: 'add' | 'edit' | 'both',
): req is FaultRequest & { raw: { body: Record<string, unknown> } } =>
  req.method === 'POST' &&
  (which === 'both'
    ? req.endpoint === 'account/address/add' || req.endpoint === 'account/address/edit'
    : req.endpoint === `account/address/${which}`) &&
  isObject(req.raw.body);

/** Requests a fault let past one rule so that the handler writes: the error_* key the answer must still carry. */
export const FORCED = new WeakMap<object, string>();

/** An id as the handlers read one (an integer, or a string of digits); undefined for anything else. */
export const idValue = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v)
    ? v
    : typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v)
      ? Number(v)
      : undefined;

/**
 * RR-CATEGORY-FILTER-KEYS-KEPT, RR-CATEGORY-IDS-STRPOS, RR-SEARCH-MODEL-OR-UNGROUPED: the category ids a listing
 * request named, taken out before the handler so the fault applies them its own way (one fault is on at a time).
 */
export const CATEGORY_FILTER = new WeakMap<object, string>();

/** The category parameter of a listing request (the names the handler reads), or undefined when none is given. */
export const categoryParam = (req: FaultRequest): string | undefined => {
  const v = req.query.category_ids ?? req.query.category_id ?? req.query.path;
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
};

/** The customer id of the request's token (the handlers' own header reading), or undefined. */
export async function tokenCustomer(req: FaultRequest, ctx: AppContext): Promise<number | undefined> {
  const token = tokenOf(req.raw);
  const payload = token ? await ctx.tokens.verify(token, 'rest-route') : null;
  return payload && /^\d{1,15}$/.test(payload.sub) ? Number(payload.sub) : undefined;
}

/** Takes the category parameter out of a listing request before the handler, kept in CATEGORY_FILTER. */
export const takeCategory = (req: FaultRequest, category: string): void => {
  CATEGORY_FILTER.set(req.raw, category);
  for (const k of ['category_ids', 'category_id', 'path']) delete req.query[k];
};

/** The category ids of a product, as the module's getCategories() reads them (strings, as mysqli gives every column). */
export const categoryIdsOf = (ctx: AppContext, productId: number): string[] =>
  (
    ctx.db.prepare('SELECT category_id FROM rr_product_category WHERE product_id = ?').all(productId) as Array<{
      category_id: number;
    }>
  ).map((r) => String(r.category_id));
