import type { CheckContext } from '../../checks/context.js';
import type { HttpRequest } from '../../http/client.js';
import { type Exchange, responseObject } from '../../http/exchange.js';

// The adapter of document 2 variant B: URLs under {api_root}, the `<vendor>_token` header,
// multipart bodies (the samples), and the probes of the method ambiguities.

/** Any area's context: the adapter never reads area state. */
export type Ctx = CheckContext<unknown>;

export const SCHEMAS = 'rest-v1-shop/schemas/';
export const schema = (name: string): string => `${SCHEMAS}${name}.schema.json`;

/** The envelope every response carries (Part 1), with the payload keys the areas read. */
export interface Envelope {
  status: boolean;
  errors: unknown[] | Record<string, unknown>;
  message: string;
  data?: unknown;
  coupon_status?: boolean;
  coupon_errors?: unknown[] | Record<string, unknown>;
  [key: string]: unknown;
}

export interface CallOptions {
  token?: string;
  form?: Record<string, string | number>;
  query?: HttpRequest['query'];
  headers?: Record<string, string>;
  raw?: string;
}

export function apiRoot(ctx: Ctx): string {
  const root = ctx.settings.shopApiRoot;
  if (!root) ctx.skip('no shop {api_root} is set (--shop-api-root / SFC_SHOP_API_ROOT)');
  return root.replace(/\/+$/, '');
}

/** The token header: `svc_token` in the document, `<vendor>_token` on a real target. */
export const tokenHeader = (ctx: Ctx): string => `${ctx.settings.vendor}_token`;

/** One request under {api_root}; never throws for what the target does. */
export function call(ctx: Ctx, method: 'GET' | 'POST', path: string, opts: CallOptions = {}): Promise<Exchange> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) headers[tokenHeader(ctx)] = opts.token;
  return ctx.http.send({
    method,
    url: `${apiRoot(ctx)}${path}`,
    headers,
    ...(opts.query ? { query: opts.query } : {}),
    ...(opts.form ? { form: opts.form } : {}),
    ...(opts.raw !== undefined ? { raw: opts.raw } : {}),
  });
}

/** The body as the envelope, validated against the endpoint's response schema (which includes the envelope). */
export function envelope(ctx: Ctx, ex: Exchange, endpointId: string): Envelope {
  const body = ctx.json<Envelope>(ex);
  conformsTo(ctx, ex, body, endpointId);
  return body;
}

/**
 * `body`, already parsed from `ex` (bareEnvelope), against the endpoint's full response schema: for
 * checks that keep what later checks read before judging the whole answer.
 */
export function conformsTo(ctx: Ctx, ex: Exchange, body: Envelope, endpointId: string): void {
  ctx.validate(schema(`${endpointId}.response`), body, ex);
}

/** The body as the envelope, checked against the shared envelope only (failure answers of any endpoint). */
export function bareEnvelope(ctx: Ctx, ex: Exchange): Envelope {
  const body = ctx.json<Envelope>(ex);
  ctx.validate(`${SCHEMAS}formats.schema.json#/$defs/envelope`, body, ex);
  return body;
}

/** The value of the `<vendor>_token` key of a login or register answer. */
export function tokenOf(ctx: Ctx, body: Envelope): string | undefined {
  const t = body[tokenHeader(ctx)];
  return typeof t === 'string' && t !== '' ? t : undefined;
}

/** The errors object (validation failures); undefined when errors is an array. */
export function errorsObject(body: Envelope): Record<string, unknown> | undefined {
  return body.errors && !Array.isArray(body.errors) ? body.errors : undefined;
}

/** Fails unless the answer is a failure (status false) whose errors object names `field`. */
export function expectFieldError(ctx: Ctx, ex: Exchange, body: Envelope, field: string, what: string): void {
  ctx.expect(body.status === false, `${what}: expected status false, got status ${String(body.status)}`, ex);
  const errors = errorsObject(body);
  ctx.expect(
    errors !== undefined && field in errors,
    `${what}: expected errors as an object keyed "${field}" (7. Errors), got errors ${JSON.stringify(body.errors)}`,
    ex,
  );
  const msg = errors[field];
  ctx.expect(
    (typeof msg === 'string' && msg !== '') || (Array.isArray(msg) && msg.length > 0),
    `${what}: errors.${field} should carry a message, got ${JSON.stringify(msg)}`,
    ex,
  );
}

/** A refusal of the token (Part 5): status false and an HTTP 401/403 or a message that names the token. */
export function isTokenRefusal(ex: Exchange, body: Envelope | undefined): boolean {
  if (body?.status !== false) return false;
  return ex.response?.status === 401 || ex.response?.status === 403 || /token/i.test(body.message);
}

/**
 * Research: proxies such as nginx drop header names with an underscore. When a request that
 * carried the token is refused as if it had none, say so in the report.
 */
export function noteDroppedHeader(ctx: Ctx, ex: Exchange, body: Envelope | undefined): void {
  if (body && isTokenRefusal(ex, body) && /header/i.test(body.message))
    ctx.note(
      `the target answered "${body.message}" to a request that carried the ${tokenHeader(ctx)} header: ` +
        'a proxy in front of it may drop header names with an underscore (nginx does unless underscores_in_headers is on)',
    );
}

/** The endpoints marked "header svc_token" in the variant B table, with a harmless request each. */
export const TOKEN_ENDPOINTS: { id: string; method: 'GET' | 'POST'; path: string; form?: Record<string, string> }[] = [
  { id: 'cart-add-item', method: 'POST', path: '/cart/add-item', form: { product_id: '1', quantity: '1' } },
  { id: 'cart', method: 'GET', path: '/cart' },
  { id: 'cart-count', method: 'GET', path: '/cart/count' },
  { id: 'cart-remove-item', method: 'POST', path: '/cart/remove-item/sfcnokey' },
  { id: 'cart-update-quantities', method: 'POST', path: '/cart/update-quantities', form: { 'cart_data[sfcnokey]': '1' } },
  { id: 'orders', method: 'GET', path: '/orders' },
  { id: 'order-create', method: 'POST', path: '/order/create', form: { first_name: 'Sfc' } },
];

/** Parses a JSON body without failing the check (for probes). */
export const tryJson = (ex: Exchange): Envelope | undefined => responseObject(ex) as Envelope | undefined;

interface Probe {
  method: 'GET' | 'POST';
  token: boolean;
  /**
   * Every reading was tried. A probe without a token cannot try the token readings, so when none of
   * the others answered, its fallback is not the answer: the next caller that has a token probes those.
   */
  settled: boolean;
}
// Per worker, and a worker runs many areas (isolate: false): what a probe finds must not depend on
// which area of the worker happened to call first (what it could try, and with which product).
// Per run too: a worker kept for several runs (the fault matrix) may meet another target on the same URL.
const probes = new Map<string, Probe>();
const probeKey = (ctx: Ctx, what: 'products' | 'product') => `${ctx.settings.runId} ${what} ${apiRoot(ctx)}`;

/**
 * GET /products (every sample) or POST (the heading), with or without the token (AMB-SHOP-01,
 * AMB-SHOP-08). Probed once per {api_root} with page=1; GET without token is the default reading.
 */
export async function listProducts(
  ctx: Ctx,
  params: Record<string, string | number>,
  token?: string,
  alwaysSendToken = false,
): Promise<Exchange> {
  let probe = probes.get(probeKey(ctx, 'products'));
  if (!probe || (!probe.settled && token !== undefined)) {
    const tries: Omit<Probe, 'settled'>[] = [
      { method: 'GET', token: false },
      { method: 'GET', token: true },
      { method: 'POST', token: false },
      { method: 'POST', token: true },
    ];
    // An unsettled probe tried every reading without the token already, and none answered.
    const left = tries.filter((t) => (t.token ? token !== undefined : !probe));
    let found: Probe | undefined;
    for (const t of left) {
      const ex = await sendProducts(ctx, t, { page: 1 }, token);
      if (tryJson(ex)?.status === true) {
        found = { ...t, settled: true };
        break;
      }
    }
    probe = found ?? { method: 'GET', token: false, settled: token !== undefined };
    probes.set(probeKey(ctx, 'products'), probe);
  }
  ctx.choose('AMB-SHOP-01', probe.method.toLowerCase());
  ctx.choose('AMB-SHOP-08', probe.token ? 'token' : 'open');
  return sendProducts(ctx, alwaysSendToken ? { ...probe, token: true } : probe, params, token);
}

/**
 * GET /products with a query string sent as written: `search=a+b` carries the form encoding's "+" for a space, which
 * `query` (always %20) never writes. Undefined when the listing answers POST only (AMB-SHOP-01): there the search is a
 * form field, where "+" is a plus sign. Sent as listProducts sends it: after the probe, with the probe's method.
 */
export async function listProductsRaw(ctx: Ctx, queryString: string): Promise<Exchange | undefined> {
  const probe = probes.get(probeKey(ctx, 'products'));
  return probe?.method === 'GET' ? call(ctx, 'GET', `/products?${queryString}`) : undefined;
}

function sendProducts(
  ctx: Ctx,
  p: Pick<Probe, 'method' | 'token'>,
  params: Record<string, string | number>,
  token?: string,
): Promise<Exchange> {
  const opts: CallOptions = p.method === 'GET' ? { query: params } : { form: params };
  if (p.token && token !== undefined) opts.token = token;
  return call(ctx, p.method, '/products', opts);
}

/** The id of the first product of listing page 1, or undefined when the listing shows none. */
async function firstListedId(ctx: Ctx, token?: string): Promise<number | string | undefined> {
  const data = tryJson(await listProducts(ctx, { page: 1 }, token))?.data as { products?: { id?: unknown }[] } | undefined;
  const id = data?.products?.[0]?.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? id : undefined;
}

/**
 * GET /product/<id> (the samples) or POST (the heading) (AMB-SHOP-02), probed once with a product
 * that exists: `id` when the caller knows it is one, else the first listed. A request for an id that
 * does not exist is refused under either method and cannot tell them apart.
 */
export async function getProduct(
  ctx: Ctx,
  id: number | string,
  opts: { known?: boolean; token?: string } = {},
): Promise<Exchange> {
  const path = `/product/${encodeURIComponent(String(id))}`;
  let method = probes.get(probeKey(ctx, 'product'))?.method;
  if (!method) {
    const known = opts.known ? id : await firstListedId(ctx, opts.token);
    if (known !== undefined) {
      const probePath = `/product/${encodeURIComponent(String(known))}`;
      const ex = await call(ctx, 'GET', probePath, opts.token ? { token: opts.token } : {});
      if (tryJson(ex)?.status === true) method = 'GET';
      else {
        const post = await call(ctx, 'POST', probePath, opts.token ? { token: opts.token } : {});
        method = tryJson(post)?.status === true ? 'POST' : 'GET';
      }
      probes.set(probeKey(ctx, 'product'), { method, token: false, settled: true });
    }
  }
  method ??= 'GET';
  ctx.choose('AMB-SHOP-02', method.toLowerCase());
  return call(ctx, method, path, opts.token ? { token: opts.token } : {});
}
