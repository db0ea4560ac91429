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

/**
 * Page `page` of the request's listing asked of the reference itself (marked with INNER_LISTING, so the faults leave
 * it alone), with the request's token and filters but those named in `drop`: its data, or undefined.
 */
export async function innerListing(
  req: FaultRequest,
  page: number,
  drop: readonly string[] = [],
): Promise<{ products?: unknown[]; total_pages?: number } | undefined> {
  const url = new URL(req.raw.url, 'http://reference');
  for (const name of drop) url.searchParams.delete(name);
  if (req.method === 'GET') url.searchParams.set('page', String(page));
  const body: Record<string, unknown> = isObject(req.raw.body) ? { ...req.raw.body } : {};
  for (const name of drop) delete body[name];
  const inner = await req.raw.server.inject({
    method: req.method as 'GET' | 'POST',
    url: `${url.pathname}${url.search}`,
    headers: {
      ...(Object.fromEntries(Object.entries(req.raw.headers).filter(([k]) => k.endsWith('_token'))) as Record<string, string>),
      [INNER_LISTING]: '1',
    },
    ...(req.method === 'GET' ? {} : { payload: { ...body, page: String(page) } }),
  });
  return (JSON.parse(inner.body) as { data?: { products?: unknown[]; total_pages?: number } }).data;
}
