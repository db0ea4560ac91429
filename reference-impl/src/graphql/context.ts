import type Database from 'better-sqlite3';
import { GraphQLError, type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import type { TokenService } from '../tokens.js';

/** Per request: who is signed in (from the bearer token) and the errors reported beside a `false` result. */
export interface GqlContext {
  db: Database.Database;
  tokens: TokenService;
  vendor: string;
  customerId: number | null;
  /** Why there is no customer: no Authorization header, or a token that does not verify. */
  authProblem: 'missing' | 'invalid' | null;
  /** Errors of operations that answer `false` rather than null (register, updateCartProduct, deleteCartProduct). */
  softErrors: GraphQLError[];
}

export const UNAUTHENTICATED = 'UNAUTHENTICATED';

/** Why a request has no customer (no token, or a bad one): the error that the handler turns into HTTP 401. */
export function unauthenticated(ctx: Pick<GqlContext, 'authProblem'>): GraphQLError {
  const message =
    ctx.authProblem === 'invalid'
      ? 'The bearer token is invalid or expired. Log in again and send header Authorization: Bearer <token>.'
      : 'This operation requires a token: send header Authorization: Bearer <token> (from the login mutation).';
  return new GraphQLError(message, { extensions: { code: UNAUTHENTICATED } });
}

/** The signed-in customer, or the unauthenticated error. */
export function requireCustomer(ctx: GqlContext): number {
  if (ctx.customerId !== null) return ctx.customerId;
  throw unauthenticated(ctx);
}

/** A rule failure: the field becomes null and the message goes into `errors`. */
export function userError(message: string, code = 'BAD_USER_INPUT', extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extra } });
}

/** Records a rule failure for an operation whose answer is a Boolean, and answers `false`. */
export function softFail(
  ctx: GqlContext,
  info: GraphQLResolveInfo,
  message: string,
  code = 'BAD_USER_INPUT',
  extra: Record<string, unknown> = {},
): false {
  ctx.softErrors.push(new GraphQLError(message, { path: responsePathAsArray(info.path), extensions: { code, ...extra } }));
  return false;
}

/** A positive integer id from an `ID` value (`"40"` or `40`), else null. */
export function idOf(v: unknown): number | null {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^[1-9]\d{0,14}$/.test(s)) return null;
  return Number.parseInt(s, 10);
}

export const money = (cents: number): number => Math.round(cents) / 100 || 0;

/** A prepared statement; openDatabase (db.ts) keeps one per SQL text, so this is a plain prepare. */
export function stmt(db: Database.Database, sql: string): Database.Statement {
  return db.prepare(sql);
}
