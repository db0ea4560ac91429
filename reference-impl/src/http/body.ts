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
  // multipartFields (below) gives strings, JSON-typed fields parsed, files as Buffers.
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

/** Code of the error for a body that cannot be parsed (the interfaces' error handlers answer 400). */
export const UNPARSEABLE_BODY = 'SFC_ERR_UNPARSEABLE_BODY';

/**
 * The fields of a multipart body, name -> value, a repeated name as a list of values (what
 * @fastify/multipart's `attachFieldsToBody: 'keyValues'` gives). The plugin's own 4xx errors
 * (limits 413, prototype names 400, bad JSON fields 406) pass through; any other parse failure
 * (no or bad boundary, a part cut short) is the client's body, so it becomes a 400 with code
 * UNPARSEABLE_BODY instead of reaching the error handlers as a 500.
 */
export async function multipartFields(request: FastifyRequest): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) {
      const value = part.type === 'file' ? await part.toBuffer() : part.value;
      const existing = fields[part.fieldname];
      if (existing === undefined) fields[part.fieldname] = value;
      else if (Array.isArray(existing)) existing.push(value);
      else fields[part.fieldname] = [existing, value];
    }
  } catch (e) {
    const status = (e as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw e;
    throw Object.assign(new Error('The request body is not valid multipart/form-data.'), {
      statusCode: 400,
      code: UNPARSEABLE_BODY,
      cause: e,
    });
  }
  return fields;
}
