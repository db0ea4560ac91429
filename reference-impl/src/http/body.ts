import type { FastifyRequest } from 'fastify';

export type BodyValue = string | number | boolean | null | BodyValue[] | { [key: string]: BodyValue };
export type Body = { [key: string]: BodyValue };

/**
 * The request body as one nested object, whatever the encoding: JSON as sent; multipart and
 * url-encoded fields with bracket names (`net_user[phone]`, `cart_data[<key>]`, `coupons[]`)
 * unfolded into objects and arrays, values as the strings they arrived as. Anything that is
 * not an object (no body, a JSON array or scalar, an unparsed text) gives `{}` plus `valid: false`.
 */
export function bodyOf(request: FastifyRequest): { body: Body; valid: boolean } {
  const raw = request.body as unknown;
  if (raw === undefined || raw === null || raw === '') return { body: {}, valid: true };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { body: {}, valid: false };
  const contentType = String(request.headers['content-type'] ?? '');
  if (contentType.includes('application/json')) return { body: raw as Body, valid: true };
  const out: Body = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    for (const v of Array.isArray(value) ? value : [value]) assign(out, name, fieldValue(v));
  }
  return { body: out, valid: true };
}

function fieldValue(v: unknown): BodyValue {
  // @fastify/multipart with attachFieldsToBody: 'keyValues' gives strings; files become Buffers.
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return String(v);
}

/** `a[b][c]` -> out.a.b.c; `a[]` appends to an array. Keys `__proto__`/`constructor`/`prototype` are dropped. */
function assign(out: Body, name: string, value: BodyValue): void {
  const parts = name.match(/^([^[\]]+)((?:\[[^[\]]*\])*)$/);
  const path = parts
    ? [parts[1] as string, ...[...(parts[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string)]
    : [name];
  if (path.some((p) => p === '__proto__' || p === 'constructor' || p === 'prototype')) return;
  let node: Body | BodyValue[] = out;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string;
    const last = i === path.length - 1;
    if (Array.isArray(node)) {
      if (last) node.push(value);
      else {
        const next: Body = {};
        node.push(next);
        node = next;
      }
      continue;
    }
    if (last) {
      node[key] = value;
      break;
    }
    const wantArray = path[i + 1] === '';
    const existing: BodyValue | undefined = node[key];
    if (existing === undefined || typeof existing !== 'object' || existing === null) {
      node[key] = wantArray ? [] : {};
    }
    node = node[key] as Body | BodyValue[];
  }
}

/** A query or body value as a trimmed string, or undefined when absent or not a scalar. */
export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** An integer from a number or a string of digits (optionally signed), else undefined. */
export function int(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d{1,15}\s*$/.test(v)) return Number.parseInt(v, 10);
  return undefined;
}
