import type { AppContext } from '../../context.js';
import { AnswerCache, absint, dateFromGmt, likeWhole, SITE_OFFSET_MINUTES } from '../emulation.js';
import { type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { callerOf } from './shared.js';

/** A lenient integer parse (parseInt / intval style): "12abc" reads as 12 instead of failing validation. */
function leadingDigits(query: Record<string, unknown>, field: string): void {
  const v = query[field];
  const m = typeof v === 'string' ? /^\s*(\d+)\D/.exec(v) : null;
  if (m) query[field] = m[1];
}

/**
 * An id kept in 32 bits on its way to the query (packed with pack('N') into the lookup's cache key):
 * 4294967297 reads as 1, so an id that does not exist answers the record of its low 32 bits.
 */
function idLow32Bits(query: Record<string, unknown>, field: string): void {
  const v = query[field];
  if (typeof v === 'string' && /^\d{10,30}$/.test(v) && BigInt(v) > 0xffffffffn) query[field] = String(BigInt(v) % 0x100000000n);
}

/**
 * uni-get-user-info looks the key up with `WHERE user_key LIKE %s` through $wpdb->prepare, which quotes
 * the value but leaves LIKE's wildcards (no $wpdb->esc_like): a key holding _ or % answers the first
 * user whose key matches the pattern, case aside (the column's collation).
 */
function userKeyLike(query: Record<string, unknown>, ctx: AppContext): void {
  const key = query.user_key;
  if (typeof key !== 'string' || !/[%_]/.test(key) || (query.user_id !== undefined && query.user_id !== '')) return;
  const pattern = likeWhole(key);
  const keys = ctx.db.prepare('SELECT user_key FROM net_uni_users ORDER BY id').all() as { user_key: string }[];
  const first = keys.find((k) => pattern.test(k.user_key));
  if (first) query.user_key = first.user_key;
}

/**
 * The unilevel lookup is the plugin's public profile: it formats user_registered for display through
 * get_date_from_gmt(), so that one answer reads the registration time in the site's zone (Asia/Kolkata,
 * +05:30, no daylight saving) while login and user-info answer it as stored, in the same form.
 */
function lookupRegisteredLocal(res: FaultResponse): void {
  const user = isObject(res.body) && res.body.status === true && isObject(res.body.user) ? res.body.user : undefined;
  if (user && typeof user.user_registered === 'string')
    user.user_registered = dateFromGmt(user.user_registered, SITE_OFFSET_MINUTES);
}

/** The unilevel lookup's answers, by the cache key the plugin builds (a transient of five minutes). */
const LOOKUP_CACHE = new AnswerCache<unknown>(300_000);

/**
 * uni-get-user-info caches its answer under 'uni_user_' . absint($user_id ?? $user_key), a key made for the
 * user_id lookup and reused when the user_key one was added: absint() of a key that starts with a letter is
 * 0, so every such key shares one entry, and for five minutes after one key was looked up every other key
 * (one of another user, one of no user) answers that user. Validation runs first; a lookup by user_id reads
 * and fills its own ID's entry, as meant.
 */
function lookupCachedByAbsint(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const body = res.body;
  if (!isObject(body) || (body.status === false && isObject(body.errors))) return;
  const id = req.query.user_id;
  const key = `uni_user_${absint(id !== undefined && id !== '' ? id : req.query.user_key)}`;
  const hit = LOOKUP_CACHE.get(ctx.db, key);
  if (hit !== undefined) res.body = hit;
  else if (body.status === true) LOOKUP_CACHE.put(ctx.db, key, body);
}

export const idLeadingDigits: Fault = {
  id: 'NET-ID-LEADING-DIGITS',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') leadingDigits(req.query, 'user_id');
    else if (req.endpoint === '/payout_details') leadingDigits(req.query, 'payout_id');
  },
};

export const idsLow32Bits: Fault = {
  id: 'NET-ID-LOW-32-BITS',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') idLow32Bits(req.query, 'user_id');
    else if (req.endpoint === '/payout_details') idLow32Bits(req.query, 'payout_id');
  },
};

export const lookupKeyLike: Fault = {
  id: 'NET-LOOKUP-KEY-LIKE',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') userKeyLike(req.query, ctx);
  },
};

export const lookupRegisteredLocalTime: Fault = {
  id: 'NET-LOOKUP-REGISTERED-LOCAL-TIME',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') lookupRegisteredLocal(res);
  },
};

export const lookupCacheKeyAbsint: Fault = {
  id: 'NET-LOOKUP-CACHE-KEY-ABSINT',
  iface: 'rest-v1-network',
  after(res, req, ctx) {
    if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') lookupCachedByAbsint(res, req, ctx);
  },
};

/**
 * uni-get-user-info also serves the app's own profile screen: it starts from get_current_user_id() and
 * reads user_id / user_key only when no one is logged in. A request carrying a valid token (an app that
 * sends its header on every call) answers the token holder's user and uni_user, whoever it asked for.
 */
async function tokenHolderWins(req: FaultRequest, ctx: AppContext): Promise<void> {
  const user = await callerOf(req, ctx);
  if (!user) return;
  for (const field of Object.keys(req.query)) delete req.query[field];
  req.query.user_id = String(user.ID);
}

export const lookupTokenHolderWins: Fault = {
  id: 'NET-LOOKUP-TOKEN-HOLDER-WINS',
  iface: 'rest-v1-network',
  async before(req, ctx) {
    if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') await tokenHolderWins(req, ctx);
  },
};

/**
 * uni-get-user-info and payout_details read their id with absint() ("a positive integer", as the
 * WordPress codex advises for ids) after a numeric test that lets a sign through: "-12" reads as 12,
 * so a negative id, which names no user and no payout, answers user 12 or payout 12.
 */
function idAbsint(query: Record<string, unknown>, field: string): void {
  const v = query[field];
  if (typeof v === 'string' && /^\s*-\d{1,15}\s*$/.test(v)) query[field] = String(absint(v));
}

export const idsAbsint: Fault = {
  id: 'NET-ID-ABSINT',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') idAbsint(req.query, 'user_id');
    else if (req.endpoint === '/payout_details') idAbsint(req.query, 'payout_id');
  },
};
