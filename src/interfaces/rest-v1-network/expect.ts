import type { CheckContext } from '../../checks/context.js';
import type { CheckSpec } from '../../checks/model.js';
import { type Call, isObject, type Json, responseSchema, SCHEMAS } from './client.js';

/** Assertions shared by the areas: the envelope, success and refusal, and field-keyed errors. */

type Ctx = CheckContext<unknown>;

/** A short account of what came back, for failure messages. */
export function described(call: Call): string {
  const res = call.ex.response;
  if (!res) return `no response (${call.ex.error ?? 'unknown error'})`;
  const b = call.body;
  const msg = typeof b.message === 'string' ? `, message ${JSON.stringify(b.message.slice(0, 120))}` : '';
  const errs = b.errors !== undefined ? `, errors ${JSON.stringify(b.errors).slice(0, 160)}` : '';
  return `HTTP ${res.status}, status ${JSON.stringify(b.status)}${msg}${errs}`;
}

/** The body is JSON and carries the envelope of Part 1 (status, errors, message). */
export function envelope(ctx: Ctx, call: Call, what: string): Json {
  const body = ctx.json<unknown>(call.ex);
  ctx.validate(`${SCHEMAS}envelope.schema.json`, body, call.ex, `${what} response`);
  return body as Json;
}

/** Status true, else a failure naming what was expected and what came back. */
export function succeeded(ctx: Ctx, call: Call, what: string): Json {
  const body = envelope(ctx, call, what);
  ctx.expect(body.status === true, `${what}: expected status true, got ${described(call)}`, call.ex);
  return body;
}

/** Status false (the document: failures use status false); any HTTP status code is accepted. */
export function refused(ctx: Ctx, call: Call, what: string): Json {
  const body = envelope(ctx, call, what);
  ctx.expect(body.status === false, `${what}: expected a refusal (status false), got ${described(call)}`, call.ex);
  return body;
}

/**
 * Errors as an object keyed by the field name (Part 7). A nested form field such as
 * `net_user[address]` may be keyed `address`, `net_user[address]` or `net_user.address`.
 */
export function keyedBy(errors: unknown, field: string): boolean {
  if (!isObject(errors)) return false;
  return Object.keys(errors).some((k) => k === field || k.endsWith(`[${field}]`) || k.endsWith(`.${field}`));
}

export function refusedWithFieldError(ctx: Ctx, call: Call, field: string, what: string): Json {
  const body = refused(ctx, call, what);
  ctx.expect(
    keyedBy(body.errors, field),
    `${what}: expected errors as an object keyed by "${field}" (a validation failure), got ${described(call)}`,
    call.ex,
  );
  return body;
}

/** The fields that place a member in the binary tree, at register (net_user[x]) and at /Join_net. */
export const PLACEMENT_FIELDS = ['sponsor_name', 'parent_name', 'position'] as const;

/**
 * NET-REG-14: a placement refusal (unknown sponsor or parent, position taken) that carries errors as
 * an object keys it by a placement field; errors as an array (no field error) is accepted too.
 */
export function placementRefusalKeyed(ctx: Ctx, call: Call, what: string): void {
  const errors = call.body.errors;
  if (Array.isArray(errors)) return;
  ctx.expect(
    PLACEMENT_FIELDS.some((f) => keyedBy(errors, f)),
    `${what}: errors is an object but names none of ${PLACEMENT_FIELDS.join(', ')} (as x, net_user[x] or net_user.x), got ${described(call)}`,
    call.ex,
  );
}

/** The endpoint's response schema (envelope + payload on success). */
export function conforms(ctx: Ctx, call: Call, endpointId: string): Json {
  const body = ctx.json<unknown>(call.ex);
  ctx.validate(responseSchema(endpointId), body, call.ex, `${endpointId} response`);
  return body as Json;
}

/** A list payload key as an array (after `conforms`), or a failure. */
export function listOf(ctx: Ctx, call: Call, key: string): Json[] {
  const v = call.body[key];
  ctx.expect(Array.isArray(v), `expected "${key}" to be an array, got ${JSON.stringify(v)?.slice(0, 80)}`, call.ex);
  return (v as unknown[]).filter(isObject);
}

/** A money-like string as a number (NaN when it is not one). */
export const num = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?[0-9]+(\.[0-9]+)?\s*$/.test(v) ? Number(v) : Number.NaN;

/** NET-ENV-05 for one request: whatever the answer, it is not an HTTP 5xx (or no answer at all). */
export function noServerError(ctx: Ctx, call: Call, what: string): void {
  const status = call.ex.response?.status;
  ctx.expect(status !== undefined && status < 500, `${what}: expected no HTTP 5xx, got ${described(call)}`, call.ex);
}

/**
 * NET-ENV-05 over every request an area sent so far: nothing a client sends gets an HTTP 5xx. The
 * checks of an area judge the envelope (status false also comes with a 500), so a handler that
 * crashes on one input goes unseen there. Run last in an area.
 */
export function noServerErrorCheck<S>(): CheckSpec<S> {
  return {
    id: 'NET-ENV-05',
    title: 'no request of this area got an HTTP 5xx',
    async run(ctx) {
      const c = ctx as Ctx;
      const all = c.http.exchanges;
      if (all.length === 0) c.skip('no requests were sent in this area');
      // A request without a response is no 5xx, but no answer either: only the answered ones are judged.
      const answered = all.filter((ex) => ex.response !== undefined);
      if (answered.length === 0) c.skip(`none of the ${all.length} request(s) of this area got a response`);
      if (answered.length < all.length)
        c.note(`${all.length - answered.length} of ${all.length} request(s) got no response (not judged)`);
      const bad = answered.filter((ex) => (ex.response?.status ?? 0) >= 500);
      const first = bad[0];
      if (first)
        c.fail(
          `${bad.length} of ${answered.length} answered request(s) got an HTTP 5xx, e.g. HTTP ${first.response?.status} to ${first.request.method} ${first.request.url}`,
          ...bad.slice(0, 3),
        );
    },
  };
}
