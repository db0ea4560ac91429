import type { AppContext } from '../../context.js';
import { type FaultRequest, isObject } from '../model.js';

export const failed = (body: unknown): body is Record<string, unknown> => isObject(body) && body.status === false;

/** The account of the request's verified token (the handler's own check has passed when a rule refused). */
export async function callerOf(req: FaultRequest, ctx: AppContext): Promise<{ ID: number; user_login: string } | undefined> {
  const token = req.raw.headers[`${ctx.vendor}_token`];
  const payload = typeof token === 'string' ? await ctx.tokens.verify(token.trim(), 'network') : null;
  if (!payload) return undefined;
  return ctx.db.prepare('SELECT ID, user_login FROM net_users WHERE ID = ?').get(Number(payload.sub)) as
    | { ID: number; user_login: string }
    | undefined;
}

/**
 * How long a register or a bank save of the race faults stays in flight before its handler: the
 * vendor's window between check and write (a password hash of cost 10 to 12, six meta writes), so
 * that two requests sent at once overlap on a fast reference as they would on the vendor's host.
 */
export const RACE_WINDOW_MS = 120;
