import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { int, str } from '../http/body.js';

export { originOf } from '../http/origin.js';

export type Json = Record<string, unknown>;
export type FieldErrors = Record<string, string>;

/** The document's envelope: status, errors (array, or object keyed by field), message, then payload keys. */
export function ok(message: string, payload: Json = {}): Json {
  return { status: true, errors: [], message, ...payload };
}

export function fail(message: string, errors: FieldErrors | string[] = [], payload: Json = {}): Json {
  return { status: false, errors, message, ...payload };
}

export const unreadableBody = (): Json => fail('The request body could not be read; send JSON, multipart or url-encoded fields.');

/** Document timestamps: `YYYY-MM-DD HH:MM:SS` (UTC). */
export function now(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

/** Cents to the document's decimal string, e.g. 500000 -> "5000.00". */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Thousandths to "decimals with 3 places as strings". */
export function points(milli: number): string {
  const abs = Math.abs(milli);
  return `${milli < 0 ? '-' : ''}${Math.floor(abs / 1000)}.${String(abs % 1000).padStart(3, '0')}`;
}

/** Every scalar of the document is a string unless a type is given; SQLite gives numbers and nulls. */
export function s(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

export function queryOf(request: FastifyRequest): Record<string, unknown> {
  const q = request.query;
  return q && typeof q === 'object' ? (q as Record<string, unknown>) : {};
}

export interface Paging {
  start: number;
  limit: number;
}

/** Default page when start/limit are omitted; the real unilevel add-on pages 10 by default. */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

/** `start` and `limit` (integers, optional). Anything else is a validation failure keyed by the field. */
export function paging(query: Record<string, unknown>): { page: Paging } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const read = (name: 'start' | 'limit', fallback: number): number => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    const n = int(raw);
    if (n === undefined || n < 0) {
      errors[name] = `${name} must be a non-negative integer.`;
      return fallback;
    }
    return n;
  };
  const start = read('start', 0);
  const limit = Math.min(read('limit', DEFAULT_LIMIT), MAX_LIMIT);
  return Object.keys(errors).length > 0 ? { errors } : { page: { start, limit } };
}

export interface Caller {
  userId: number;
  login: string;
}

/**
 * The caller named by the `<vendor>_token` header. Missing or bad tokens get 401 with status false
 * and a message asking for the token; the reply is sent here and null returned.
 * Public client apps send the string "null" when logged out and sometimes wrap the token in quotes.
 */
export async function authenticate(request: FastifyRequest, reply: FastifyReply, ctx: AppContext): Promise<Caller | null> {
  const header = `${ctx.vendor}_token`;
  const raw = request.headers[header];
  const token = (typeof raw === 'string' ? raw : Array.isArray(raw) ? raw[0] : undefined)?.trim().replace(/^"(.*)"$/, '$1');
  if (!token || token === 'null' || token === 'undefined') {
    reply.code(401).send(fail(`Token is missing. Please send the token in the ${header} header.`));
    return null;
  }
  const payload = await ctx.tokens.verify(token, 'network');
  const userId = payload ? Number.parseInt(payload.sub, 10) : Number.NaN;
  const row = Number.isSafeInteger(userId)
    ? (ctx.db.prepare('SELECT ID, user_login FROM net_users WHERE ID = ?').get(userId) as
        | { ID: number; user_login: string }
        | undefined)
    : undefined;
  if (!row) {
    reply.code(401).send(fail(`Invalid or expired token. Please send a valid token in the ${header} header.`));
    return null;
  }
  return { userId: row.ID, login: row.user_login };
}

/** A required string field: trimmed, non-empty, bounded. Records an error keyed by `field` otherwise. */
export function required(errors: FieldErrors, field: string, value: unknown, max = 200): string {
  const v = str(value);
  if (v === undefined || v === '') {
    errors[field] = `${field} is required.`;
    return '';
  }
  if (v.length > max) {
    errors[field] = `${field} must be at most ${max} characters.`;
    return '';
  }
  return v;
}

/** A digits-only field ("integer" in the document): numbers or strings of digits. */
export function digits(errors: FieldErrors, field: string, value: unknown, min: number, max: number): string {
  const v = required(errors, field, value, 64);
  if (errors[field]) return '';
  if (!/^\d+$/.test(v) || v.length < min || v.length > max) {
    errors[field] =
      min === max ? `${field} must be exactly ${min} digits.` : `${field} must be a number of ${min} to ${max} digits.`;
    return '';
  }
  return v;
}

export const hasErrors = (errors: FieldErrors): boolean => Object.keys(errors).length > 0;
