import { type FaultRequest, isObject } from '../model.js';

export const failed = (body: unknown): body is Record<string, unknown> => isObject(body) && body.status === false;

/** A listing parameter dropped wherever it was sent (query or body). */
export function ignoreParam(req: FaultRequest, name: string, replacement?: string): void {
  if (req.endpoint !== '/products') return;
  for (const holder of [req.query, req.raw.body]) {
    if (!isObject(holder) || !(name in holder)) continue;
    if (replacement === undefined) delete holder[name];
    else holder[name] = replacement;
  }
}

/** The errors object of a refused request whose keys all lie in `fields` (a validation refusal of those fields only). */
export function refusedFor(body: unknown, fields: readonly string[]): boolean {
  if (!failed(body) || !isObject(body.errors)) return false;
  const keys = Object.keys(body.errors);
  return keys.length > 0 && keys.every((k) => fields.includes(k));
}

/** PHP's empty() of a request value: true for a missing value, "", "0", 0 (what a `! empty()` guard passes over). */
export const phpEmpty = (v: unknown): boolean => v === undefined || v === null || v === '' || v === '0' || v === 0 || v === false;

/** The marker of a listing the emulation asks of the reference itself, which the fault leaves alone. */
export const INNER_LISTING = 'x-sfc-fault-inner';
