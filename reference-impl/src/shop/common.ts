import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { str } from '../http/body.js';

/** The document's envelope (Part 1): status, errors, message, then the endpoint's payload keys. */
export type Envelope = { status: boolean; errors: unknown[] | Record<string, string>; message: string; [key: string]: unknown };

export function ok(message: string, extra: Record<string, unknown> = {}): Envelope {
  return { status: true, errors: [], message, ...extra };
}

/** A validation or rule failure: errors is an object keyed by field when fields are at fault (Part 7). */
export function fail(
  message: string,
  errors: Record<string, string> | unknown[] = [],
  extra: Record<string, unknown> = {},
): Envelope {
  return { status: false, errors, message, ...extra };
}

export interface ShopUser {
  id: number;
  user_login: string;
  user_email: string;
  user_pass: string;
  user_nicename: string;
  user_url: string;
  user_registered: string;
  user_activation_key: string;
  user_status: number;
  display_name: string;
  first_name: string;
  last_name: string;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the document's timestamp form (Part 2). */
export function now(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

/** Cents to the decimal string the document's money fields carry ("18.00"). */
export function money(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A decimal amount ("12", "12.5", 12.5) to cents; undefined when it is not a plain non-negative amount. */
export function toCents(v: unknown): number | undefined {
  const s = str(v);
  if (s === undefined || !/^\d{1,9}(\.\d{1,2})?$/.test(s)) return undefined;
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** A value that should be a short text: trimmed, non-empty and at most `max` characters, else undefined. */
export function text(v: unknown, max = 200): string | undefined {
  const s = str(v);
  return s !== undefined && s !== '' && s.length <= max ? s : undefined;
}

/** Flags whose meaning the document leaves "not shown": a set flag ("1", "true", "yes", "on") filters. */
export function flag(v: unknown): boolean {
  const s = str(v)?.toLowerCase();
  return s === '1' || s === 'true' || s === 'yes' || s === 'on';
}

/** Query parameters and body fields as one record (body wins): /products is documented as both GET and POST. */
export function params(request: FastifyRequest, body: Record<string, unknown>): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return { ...query, ...body };
}

/**
 * The token from header `<vendor>_token` (Part 5). Real clients send it wrapped in quotes or with
 * a `Bearer ` prefix, and send "null" when logged out: those are read as no token.
 */
function tokenFrom(request: FastifyRequest, ctx: AppContext): string | undefined {
  const raw = request.headers[`${ctx.vendor}_token`];
  let token = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (token.length >= 2 && token.startsWith('"') && token.endsWith('"')) token = token.slice(1, -1).trim();
  if (/^bearer\s+/i.test(token)) token = token.replace(/^bearer\s+/i, '');
  return token === '' || token === 'null' || token === 'undefined' ? undefined : token;
}

/** The signed-in customer, or the 401 envelope (missing or bad token) to send instead. */
export async function identify(request: FastifyRequest, ctx: AppContext): Promise<ShopUser | Envelope> {
  const header = `${ctx.vendor}_token`;
  const token = tokenFrom(request, ctx);
  if (!token) return fail(`Token is missing: send the token in the ${header} header.`);
  const payload = await ctx.tokens.verify(token, 'shop');
  const id = payload && /^\d+$/.test(payload.sub) ? Number(payload.sub) : undefined;
  const user =
    id === undefined ? undefined : (ctx.db.prepare('SELECT * FROM shop_users WHERE id = ?').get(id) as ShopUser | undefined);
  if (!user) return fail(`Invalid or expired token: log in again and send the new token in the ${header} header.`);
  return user;
}

/** Wraps a handler that needs a customer: without a valid token it answers 401 with status false. */
export function authed(
  ctx: AppContext,
  handler: (request: FastifyRequest, user: ShopUser, reply: FastifyReply) => Envelope | Promise<Envelope>,
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<Envelope> => {
    const who = await identify(request, ctx);
    if ('status' in who) {
      reply.code(401);
      return who;
    }
    return handler(request, who, reply);
  };
}

export function setting(ctx: AppContext, name: string, fallback: string): string {
  const row = ctx.db.prepare('SELECT value FROM shop_settings WHERE name = ?').get(name) as { value: string } | undefined;
  return row?.value ?? fallback;
}

/** Currency symbol shown by the cart, listing and orders (the cart's `currency (symbol)`). */
export function currencySymbol(ctx: AppContext): string {
  return setting(ctx, 'currency_symbol', '$');
}

export function currencyCode(ctx: AppContext): string {
  return setting(ctx, 'currency_code', 'USD');
}
