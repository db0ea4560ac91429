import type { Exchange } from '../../http/exchange.js';
import { asRecord, bodyOf, type Ctx, shown } from './client.js';

// Refusals: a request the document says must fail. The error response shape is "not shown"
// (section 7), so a refusal is `status` not true; where it names its error is recorded (AMB-RR-05).

export interface Refusal {
  what: string;
  exchange: Exchange;
  /** The error_* keys and field names any of which would name this error. */
  names: string[];
}

export type NamedWhere = 'errors-key' | 'errors-element' | 'message';

// Keyed by the area's shared state object, so every area keeps its own log without typing it.
const logs = new WeakMap<object, Refusal[]>();

export function refusalLog(ctx: Ctx): Refusal[] {
  const key = ctx.state as object;
  let log = logs.get(key);
  if (!log) {
    log = [];
    logs.set(key, log);
  }
  return log;
}

/** Fails the check unless the target refused; logs the refusal for the naming check (RR-ERR-02). */
export function expectRefused(ctx: Ctx, ex: Exchange, what: string, names: string[] = []): void {
  const body = bodyOf(ex);
  ctx.expect(ex.response, `${what}: expected a refusal, got ${shown(ex)}`, ex);
  ctx.expect(
    body?.status !== true,
    `${what}: expected a refusal (status not true), but the target accepted it: ${shown(ex)}`,
    ex,
  );
  if (names.length > 0) refusalLog(ctx).push({ what, exchange: ex, names });
}

/** Fails the check unless the target accepted (status true). */
export function expectAccepted(ctx: Ctx, ex: Exchange, what: string): void {
  ctx.expect(bodyOf(ex)?.status === true, `${what}: expected success (status true), got ${shown(ex)}`, ex);
}

function mentions(v: unknown, names: string[]): boolean {
  if (typeof v === 'string') {
    const low = v.toLowerCase();
    return names.some((n) => low.includes(n.toLowerCase()));
  }
  if (Array.isArray(v)) return v.some((x) => mentions(x, names));
  const rec = asRecord(v);
  if (rec) return Object.entries(rec).some(([k, x]) => mentions(k, names) || mentions(x, names));
  return false;
}

/**
 * Where the refusal names one of `names`: as a key of an errors object, in an element of an
 * errors array, or in any other string of the body (message). The `language` object is left out:
 * it carries every error_* label on success too. `labels` are the label texts (language values)
 * of the keys, so a message that is the label text counts as naming the key.
 */
export function whereNamed(ex: Exchange, names: string[], labels: string[] = []): NamedWhere | undefined {
  const body = bodyOf(ex);
  if (!body) return undefined;
  const errors = body.errors;
  const rec = asRecord(errors);
  if (rec && Object.keys(rec).some((k) => mentions(k, names))) return 'errors-key';
  if (rec && mentions(rec, [...names, ...labels])) return 'errors-element';
  if (Array.isArray(errors) && mentions(errors, [...names, ...labels])) return 'errors-element';
  const rest = Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'language' && k !== 'errors'));
  if (mentions(rest, [...names, ...labels])) return 'message';
  return undefined;
}
