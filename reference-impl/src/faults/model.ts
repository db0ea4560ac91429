import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';

/** The four interfaces, named as the suite names them (the fault catalog's `interface`). */
export type FaultInterface = 'rest-route' | 'rest-v1-network' | 'rest-v1-shop' | 'graphql';

/** One request as a fault sees it: which interface and endpoint, and its mutable parts. */
export interface FaultRequest {
  raw: FastifyRequest;
  iface: FaultInterface;
  /** rest-route: the route without `shoprestapi/`; document 2: the path under {api_root}; graphql: the query text. */
  endpoint: string;
  method: string;
  query: Record<string, unknown>;
}

/** The JSON response a fault may rewrite: status code and parsed body. */
export interface FaultResponse {
  status: number;
  body: unknown;
}

/**
 * A deliberately injected vendor bug. Most faults act at the edge (rewrite the request before the
 * handler, or the JSON answer after it), so the handlers stay untouched; the few business-rule
 * faults that must act inside a handler test `ctx.fault === id` there and say so in `inHandler`.
 */
export interface Fault {
  id: string;
  iface: FaultInterface;
  before?(req: FaultRequest, ctx: AppContext): void | Promise<void>;
  after?(res: FaultResponse, req: FaultRequest, ctx: AppContext): void | Promise<void>;
  /** The module file holding the `ctx.fault === id` test. */
  inHandler?: string;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Calls `visit` on every object of a JSON tree (depth first), so a fault can rename or retype keys anywhere. */
export function eachObject(node: unknown, visit: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) for (const item of node) eachObject(item, visit);
  else if (isObject(node)) {
    visit(node);
    for (const v of Object.values(node)) eachObject(v, visit);
  }
}

/** Rewrites every value of `key` anywhere in the tree. */
export function mapKey(node: unknown, key: string, f: (v: unknown) => unknown): void {
  eachObject(node, (o) => {
    if (key in o) o[key] = f(o[key]);
  });
}

/** `YYYY-MM-DD HH:MM:SS` to ISO 8601 (the classic serializer default a vendor forgets to override). */
export function isoOf(v: unknown): unknown {
  return typeof v === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(v) && !v.startsWith('0000')
    ? `${v.replace(' ', 'T')}.000Z`
    : v;
}

/** A numeric string as a JSON number. */
export function numberOf(v: unknown): unknown {
  return typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}

/**
 * A body field whatever the encoding: JSON nests (`net_user.position`), url-encoded and multipart
 * keep bracket names (`net_user[position]`).
 */
export function bodyField(body: unknown, ...path: string[]): { value: unknown; set(v: unknown): void } {
  const none = { value: undefined, set() {} };
  if (!isObject(body)) return none;
  const flat =
    path[0] +
    path
      .slice(1)
      .map((p) => `[${p}]`)
      .join('');
  if (flat in body) return { value: body[flat], set: (v) => (body[flat] = v) };
  let node: unknown = body;
  for (const p of path.slice(0, -1)) node = isObject(node) ? node[p] : undefined;
  const last = path[path.length - 1] as string;
  if (!isObject(node)) return none;
  const holder = node;
  return { value: holder[last], set: (v) => (holder[last] = v) };
}
