import { decodeJwt, SignJWT } from 'jose';
import type { AppContext } from '../context.js';
import type { Audience } from '../tokens.js';
import type { FaultRequest } from './model.js';

/** The shared secret of the HS256 faults: the classic vendor shortcut of a symmetric key. */
const SECRET = new TextEncoder().encode('storefront-hs256-shared-secret');
/** HS256 token handed out -> the RS256 token the handlers still verify. */
const swapped = new Map<string, string>();

/** Re-signs a token with HS256 (same claims) and remembers the original, so the fault stays usable. */
export async function hs256Of(token: string): Promise<string> {
  const claims = decodeJwt(token);
  const hs = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(SECRET);
  swapped.set(hs, token);
  return hs;
}

/** Puts back the RS256 token behind an HS256 one in `header` (value with or without `Bearer `). */
export function restoreToken(req: FaultRequest, header: string): void {
  const raw = req.raw.headers[header];
  if (typeof raw !== 'string') return;
  const bare = raw.replace(/^\s*Bearer\s+/i, '').trim();
  const original = swapped.get(bare);
  if (original) req.raw.headers[header] = raw.replace(bare, original);
}

/**
 * The "token not checked" faults: a request without the header is served as the first account
 * (a default user left in from development), by handing the handler a valid token for it.
 */
export async function defaultUserToken(
  req: FaultRequest,
  ctx: AppContext,
  header: string,
  audience: Audience,
  firstIdSql: string,
  bearer = false,
): Promise<void> {
  if (req.raw.headers[header]) return;
  const row = ctx.db.prepare(firstIdSql).get() as { id: number } | undefined;
  if (!row) return;
  const token = await ctx.tokens.sign(String(row.id), audience);
  req.raw.headers[header] = bearer ? `Bearer ${token}` : token;
}
