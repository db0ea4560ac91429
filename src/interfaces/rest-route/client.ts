import type { CheckContext } from '../../checks/context.js';
import type { HttpRequest } from '../../http/client.js';
import { type Exchange, responseObject } from '../../http/exchange.js';

// The adapter of document 1: `{base_url}/index.php?route=<route>`, JSON bodies (the samples), and
// the token in the `token` header (parameter tables) or the `Authorization` header (samples).

/** Any area's context: the adapter never reads area state. */
export type Ctx = CheckContext<unknown>;

export const SCHEMAS = 'rest-route/schemas/';
export const schema = (name: string): string => `${SCHEMAS}${name}.schema.json`;

/** The routes of the Part 4 table. */
export const ROUTES = {
  login: 'shoprestapi/account/login',
  register: 'shoprestapi/account/register',
  address: 'shoprestapi/account/address',
  addressAdd: 'shoprestapi/account/address/add',
  addressEdit: 'shoprestapi/account/address/edit',
  addressDelete: 'shoprestapi/account/address/delete',
  account: 'shoprestapi/account/account',
  forgotten: 'shoprestapi/account/forgotten',
  updatePassword: 'shoprestapi/account/forgotten/updatepassword',
  category: 'shoprestapi/common/category',
  listing: 'shoprestapi/product/listing',
  product: 'shoprestapi/product/product',
} as const;
export type Route = (typeof ROUTES)[keyof typeof ROUTES];

/** The alternatives of AMB-RR-02, in the order they are probed (table first, then the samples). */
export const HEADER_MODES = ['token-header', 'authorization-bearer', 'authorization-raw'] as const;
export type HeaderMode = (typeof HEADER_MODES)[number];

/** A token and the header the target was found to accept it in. */
export interface Session {
  token: string;
  header: HeaderMode;
}

/** The envelope of section 1, with what the areas read. */
export interface Envelope {
  status?: unknown;
  errors?: unknown;
  message?: unknown;
  data?: unknown;
  language?: unknown;
  token?: unknown;
  [key: string]: unknown;
}

export interface CallOptions {
  session?: Session;
  json?: unknown;
  query?: HttpRequest['query'];
  headers?: Record<string, string>;
  raw?: string;
}

export function baseUrl(ctx: Ctx): string {
  const base = ctx.settings.baseUrl;
  if (!base) ctx.skip('no base URL is set (--base-url / SFC_BASE_URL)');
  return base.replace(/\/+$/, '');
}

/** The route is written raw (slashes unescaped) as in the document; other parameters are encoded. */
export const routeUrl = (ctx: Ctx, route: string): string => `${baseUrl(ctx)}/index.php?route=${route}`;

export function authHeaders(token: string, mode: HeaderMode): Record<string, string> {
  if (mode === 'token-header') return { token };
  if (mode === 'authorization-bearer') return { authorization: `Bearer ${token}` };
  return { authorization: token };
}

/** One request; never throws for what the target does. */
export function call(ctx: Ctx, method: 'GET' | 'POST', route: Route, opts: CallOptions = {}): Promise<Exchange> {
  const headers: Record<string, string> = {
    ...(opts.session ? authHeaders(opts.session.token, opts.session.header) : {}),
    ...opts.headers,
  };
  if (opts.raw !== undefined) headers['content-type'] ??= 'application/json';
  return ctx.http.send({
    method,
    url: routeUrl(ctx, route),
    headers,
    ...(opts.query ? { query: opts.query } : {}),
    ...(opts.json !== undefined ? { json: opts.json } : {}),
    ...(opts.raw !== undefined ? { raw: opts.raw } : {}),
  });
}

/** The body as an object, or undefined when it is not JSON (probes must not fail on that). */
export const bodyOf = (ex: Exchange): Envelope | undefined => responseObject(ex);

/** The target answered with success: `status` true (section 1). */
export const succeeded = (ex: Exchange): boolean => bodyOf(ex)?.status === true;

/** The body as the envelope, validated against the endpoint's response schema (which includes the envelope). */
export function envelope(ctx: Ctx, ex: Exchange, endpointId: string): Envelope {
  const body = ctx.json<Envelope>(ex);
  ctx.validate(schema(`${endpointId}.response`), body, ex);
  return body;
}

/** A plain object, or undefined. */
export function asRecord(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export const dataOf = (body: Envelope | undefined): Record<string, unknown> => asRecord(body?.data) ?? {};

/** A list of objects (products, categories, addresses): each entry as a plain object, {} where it is none; [] for no list. */
export const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map((x) => asRecord(x) ?? {}) : []);

/** A short description of what came back, for failure messages. */
export function shown(ex: Exchange): string {
  if (!ex.response) return `no response (${ex.error ?? 'unknown error'})`;
  const text = ex.response.body.length > 200 ? `${ex.response.body.slice(0, 200)}…` : ex.response.body;
  return `HTTP ${ex.response.status} ${text}`;
}

/** Which route an exchange called (the `route` query parameter), for the sweeps. */
export function routeOf(ex: Exchange): string | undefined {
  try {
    return new URL(ex.request.url).searchParams.get('route') ?? undefined;
  } catch {
    return undefined;
  }
}
