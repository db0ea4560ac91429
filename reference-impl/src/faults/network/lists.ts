import type { AppContext } from '../../context.js';
import { userKeyOf } from '../../network/earnings.js';
import { commissionJson, payoutJson, type Row } from '../../network/records.js';
import { type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { callerOf, failed } from './shared.js';

/** The four commission arrays of a payout_details answer, each named after its table. */
const DETAIL_TABLES = ['ref_commission', 'pair_commission', 'bonus_commission', 'level_commission'];

/** Whether a query parameter was sent with a value. */
const sent = (query: Record<string, unknown>, field: string): boolean => query[field] !== undefined && query[field] !== '';

const LISTS = ['/payout_list', '/pair_commission', '/level_commission', '/bonus_commission', '/ref_commission'];

/**
 * payout_details reading the commissions by the payout row's primary key (id) where payout_id was
 * meant: the two coincide for a member's first payout row only when no one else's row came before.
 */
function commissionsByRowId(body: Record<string, unknown>, payoutId: unknown, ctx: AppContext): void {
  const key = body.user_key;
  const row = ctx.db.prepare('SELECT id FROM net_payouts WHERE user_key = ? AND payout_id = ?').get(key, Number(payoutId)) as
    | { id: number }
    | undefined;
  if (!row) return;
  for (const table of DETAIL_TABLES)
    body[table] = (
      ctx.db.prepare(`SELECT * FROM net_${table} WHERE user_key = ? AND payout_id = ? ORDER BY id`).all(key, row.id) as Row[]
    ).map(commissionJson);
}

/**
 * payout_details finding the payout by payout_id alone (the first row with that id, whoever owns it)
 * and reading the commissions by that row's user_key: a member's payout id, asked with another
 * account's token, answers that member's commissions where the caller has no such payout.
 */
function anyOwnerDetails(body: Record<string, unknown>, payoutId: unknown, ctx: AppContext): Record<string, unknown> | undefined {
  // Only where the handler found no payout of the caller's: its own payouts are answered as before.
  if (!failed(body) || body.message !== 'Payout not found.' || typeof payoutId !== 'string' || !/^\d+$/.test(payoutId))
    return undefined;
  const row = ctx.db.prepare('SELECT user_key FROM net_payouts WHERE payout_id = ? ORDER BY id LIMIT 1').get(Number(payoutId)) as
    | { user_key: string }
    | undefined;
  if (!row) return undefined;
  const of = (table: string) =>
    (
      ctx.db
        .prepare(`SELECT * FROM net_${table} WHERE user_key = ? AND payout_id = ? ORDER BY id`)
        .all(row.user_key, Number(payoutId)) as Row[]
    ).map(commissionJson);
  return {
    status: true,
    errors: [],
    message: 'Payout details.',
    user_key: row.user_key,
    ref_commission: of('ref_commission'),
    pair_commission: of('pair_commission'),
    bonus_commission: of('bonus_commission'),
    level_commission: of('level_commission'),
  };
}

/**
 * MySQL's ORDER BY ... LIMIT n through a priority queue of n rows (filesort's bounded queue): rows
 * are fed in storage order, one replaces the queue's top only when it sorts strictly before it, and
 * the queue is emptied top first. Rows that tie on the key come out in an order that depends on n.
 */
function boundedSort<T>(rows: T[], n: number, cmp: (a: T, b: T) => number): T[] {
  const heap: T[] = [];
  const at = (i: number) => heap[i] as T;
  const swap = (i: number, j: number) => {
    [heap[i], heap[j]] = [at(j), at(i)];
  };
  const up = (i: number) => {
    for (let c = i; c > 0 && cmp(at(c), at((c - 1) >> 1)) > 0; c = (c - 1) >> 1) swap(c, (c - 1) >> 1);
  };
  const down = (i: number) => {
    for (let c = i; ; ) {
      const [l, r] = [2 * c + 1, 2 * c + 2];
      let m = c;
      if (l < heap.length && cmp(at(l), at(m)) > 0) m = l;
      if (r < heap.length && cmp(at(r), at(m)) > 0) m = r;
      if (m === c) return;
      swap(c, m);
      c = m;
    }
  };
  for (const row of rows) {
    if (heap.length < n) {
      heap.push(row);
      up(heap.length - 1);
    } else if (n > 0 && cmp(row, at(0)) < 0) {
      heap[0] = row;
      down(0);
    }
  }
  const out: T[] = [];
  while (heap.length > 0) {
    out.push(at(0));
    const last = heap.pop() as T;
    if (heap.length > 0) {
      heap[0] = last;
      down(0);
    }
  }
  return out.reverse();
}

/** A paging parameter as the handler reads it (validation has passed when the list answered). */
const pageParam = (v: unknown, fallback: number): number =>
  typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v) ? Number.parseInt(v, 10) : fallback;

/** The commission lists whose rows carry a status (paid, unpaid, cancelled). */
const STATUS_LISTS = ['/pair_commission', '/level_commission', '/bonus_commission'];

/**
 * A commission list with a status the handler answered (its table, the caller's user_key, and the page asked for),
 * for the faults that answer it again their own way; undefined for another endpoint, when the handler refused, or
 * when the caller has no key.
 */
async function commissionPage(
  res: FaultResponse,
  req: FaultRequest,
  ctx: AppContext,
): Promise<{ body: Record<string, unknown>; table: string; key: string; start: number; limit: number } | undefined> {
  if (!STATUS_LISTS.includes(req.endpoint)) return undefined;
  const table = req.endpoint.slice(1);
  if (!isObject(res.body) || res.body.status !== true || !Array.isArray(res.body[table])) return undefined;
  const user = await callerOf(req, ctx);
  const key = user ? userKeyOf(ctx.db, user.ID) : null;
  if (!key) return undefined;
  const body = res.body;
  return { body, table, key, start: pageParam(req.query.start, 0), limit: Math.min(pageParam(req.query.limit, 10), 100) };
}

/**
 * The commission lists ordered by status alone (unpaid first) under LIMIT start, limit: the paid
 * commissions tie, and their order depends on the size of the queue (start + limit), so pages of
 * different offsets disagree, and walking them gives one commission twice and another never.
 */
async function commissionsByStatus(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const page = await commissionPage(res, req, ctx);
  if (!page) return;
  const { body, table, key, start, limit } = page;
  const rows = ctx.db.prepare(`SELECT * FROM net_${table} WHERE user_key = ? ORDER BY id`).all(key) as Row[];
  const sorted = boundedSort(rows, start + limit, (a, b) => String(a.status).localeCompare(String(b.status)));
  body[table] = sorted.slice(start, start + limit).map(commissionJson);
}

/** The table behind each paged list endpoint. */
const LIST_TABLES: Record<string, string> = {
  '/payout_list': 'net_payouts',
  '/pair_commission': 'net_pair_commission',
  '/level_commission': 'net_level_commission',
  '/bonus_commission': 'net_bonus_commission',
  '/ref_commission': 'net_ref_commission',
};

/**
 * The lists clamp an offset past the end to the last page ("never show an empty page"): start at or
 * past the caller's total becomes max(0, total - limit), so paging on until a page is empty repeats
 * the last page for ever, and start=total answers items the client already has.
 */
async function clampPastEnd(req: FaultRequest, ctx: AppContext): Promise<void> {
  const table = LIST_TABLES[req.endpoint];
  if (!table || !sent(req.query, 'start')) return;
  const start = pageParam(req.query.start, -1);
  const user = start > 0 ? await callerOf(req, ctx) : undefined;
  const key = user ? userKeyOf(ctx.db, user.ID) : null;
  if (!key) return;
  const { total } = ctx.db.prepare(`SELECT COUNT(*) AS total FROM ${table} WHERE user_key = ?`).get(key) as { total: number };
  const limit = Math.min(pageParam(req.query.limit, 10), 100);
  if (total > 0 && start >= total) req.query.start = String(Math.max(0, total - limit));
}

/** The paged lists' payload keys: the record name, or `payout` for payout_list. */
const LIST_KEYS: Record<string, string> = {
  '/payout_list': 'payout',
  '/pair_commission': 'pair_commission',
  '/level_commission': 'level_commission',
  '/bonus_commission': 'bonus_commission',
  '/ref_commission': 'ref_commission',
};

/** List requests whose limit was raised by one, to see whether a next page exists. */
const LOOKAHEAD = new WeakSet<FaultRequest>();

/**
 * The paged lists fetch one row more than the page (LIMIT start, limit + 1) to tell whether a next page
 * exists, then array_pop() the extra row whether or not it came: a page that reaches the end of the
 * holder's list loses its last record, so the last record of every list never shows, on any page.
 */
function lookaheadBegins(req: FaultRequest): void {
  const raw = req.query.limit;
  if (raw !== undefined && raw !== '' && !(typeof raw === 'string' && /^\s*\d{1,15}\s*$/.test(raw))) return;
  req.query.limit = String(pageParam(raw, 10) + 1);
  LOOKAHEAD.add(req);
}

function lookaheadEnds(res: FaultResponse, req: FaultRequest): void {
  const key = LIST_KEYS[req.endpoint];
  if (!LOOKAHEAD.has(req) || key === undefined || !isObject(res.body) || res.body.status !== true) return;
  const list = res.body[key];
  if (Array.isArray(list)) list.pop();
}

/**
 * The list endpoints hand start and limit to the plugin's admin list helper, which takes a page number:
 * paged = intdiv(start, limit) + 1, offset = (paged - 1) * limit. start is rounded down to a multiple of
 * limit (of the default 10 when limit is not sent), so start=1&limit=2 answers the first page again and
 * start=1 alone begins with the first item; an offset that is a multiple of limit is untouched.
 */
function startRoundedToPage(req: FaultRequest): void {
  if (!sent(req.query, 'start')) return;
  const start = pageParam(req.query.start, -1);
  const limit = Math.min(pageParam(req.query.limit, 10), 100);
  if (start > 0 && limit > 0) req.query.start = String(Math.floor(start / limit) * limit);
}

export const pagingIgnored: Fault = {
  id: 'NET-PAGING-IGNORED',
  iface: 'rest-v1-network',
  before(req) {
    if (LISTS.includes(req.endpoint)) {
      delete req.query.start;
      delete req.query.limit;
    }
  },
};

export const commissionsAllUsers: Fault = {
  id: 'NET-COMMISSIONS-ALL-USERS',
  iface: 'rest-v1-network',
  // A list query without the user_key condition: another member's records come along.
  after(res, req, ctx) {
    const key = req.endpoint.slice(1);
    const list = isObject(res.body) ? res.body[key] : undefined;
    if (!['pair_commission', 'level_commission', 'bonus_commission'].includes(key) || !Array.isArray(list)) return;
    const first = list[0];
    if (!isObject(first)) return;
    const other = ctx.db.prepare('SELECT user_key FROM net_net_users WHERE user_key != ? LIMIT 1').get(first.user_key) as
      | { user_key: string }
      | undefined;
    if (other) list.push({ ...first, id: String(Number(first.id) + 100000), user_key: other.user_key });
  },
};

export const pagingNeedsBoth: Fault = {
  id: 'NET-PAGING-NEEDS-BOTH',
  iface: 'rest-v1-network',
  // `LIMIT start, limit` appended only when both are sent: start alone, or limit alone, is ignored.
  before(req) {
    if (LISTS.includes(req.endpoint) && sent(req.query, 'start') !== sent(req.query, 'limit')) {
      delete req.query.start;
      delete req.query.limit;
    }
  },
};

export const payoutRowId: Fault = {
  id: 'NET-PAYOUT-ROW-ID',
  iface: 'rest-v1-network',
  after(res, req, ctx) {
    if (req.endpoint === '/payout_details' && isObject(res.body) && res.body.status === true)
      commissionsByRowId(res.body, req.query.payout_id, ctx);
  },
};

export const payoutDetailsAnyOwner: Fault = {
  id: 'NET-PAYOUT-DETAILS-ANY-OWNER',
  iface: 'rest-v1-network',
  after(res, req, ctx) {
    const details =
      req.endpoint === '/payout_details'
        ? anyOwnerDetails(res.body as Record<string, unknown>, req.query.payout_id, ctx)
        : undefined;
    if (details) {
      res.status = 200;
      res.body = details;
    }
  },
};

export const commissionPagesTieOrder: Fault = {
  id: 'NET-COMMISSION-PAGES-TIE-ORDER',
  iface: 'rest-v1-network',
  after: commissionsByStatus,
};

export const pagePastEndClamped: Fault = {
  id: 'NET-PAGE-PAST-END-CLAMPED',
  iface: 'rest-v1-network',
  before: (req, ctx) => clampPastEnd(req, ctx),
};

export const listLastRowDropped: Fault = {
  id: 'NET-LIST-LAST-ROW-DROPPED',
  iface: 'rest-v1-network',
  before(req) {
    if (LIST_KEYS[req.endpoint] !== undefined) lookaheadBegins(req);
  },
  after(res, req) {
    if (LIST_KEYS[req.endpoint] !== undefined) lookaheadEnds(res, req);
  },
};

export const pageStartRoundedToPage: Fault = {
  id: 'NET-PAGE-START-ROUNDED-TO-PAGE',
  iface: 'rest-v1-network',
  before(req) {
    if (LIST_KEYS[req.endpoint] !== undefined) startRoundedToPage(req);
  },
};

/**
 * The paged lists built as `LIMIT %d, %d` with the arguments in the order the endpoint names them
 * ($limit, $start), where MySQL's LIMIT takes the offset first: limit becomes the offset and start the
 * row count. A list read without start (start 0) answers no rows at all, and start=2&limit=1 answers
 * two rows from the second on; start=1&limit=1 reads the same either way.
 */
function limitArgsSwapped(req: FaultRequest): void {
  const start = sent(req.query, 'start') ? pageParam(req.query.start, -1) : 0;
  const limit = sent(req.query, 'limit') ? pageParam(req.query.limit, -1) : 10;
  if (start < 0 || limit < 0) return; // refused by the validation as it is
  req.query.start = String(limit);
  req.query.limit = String(start);
}

export const listLimitArgsSwapped: Fault = {
  id: 'NET-LIST-LIMIT-ARGS-SWAPPED',
  iface: 'rest-v1-network',
  before(req) {
    if (LIST_KEYS[req.endpoint] !== undefined) limitArgsSwapped(req);
  },
};

/**
 * payout_details checks that the payout is the holder's, then reads each commission table with
 * $wpdb->get_results("SELECT * FROM {$table} WHERE payout_id = %d"), the user_key condition left out:
 * a payout run's id is shared by every member paid in that run, so the details list every member's
 * commissions of that run, under the holder's user_key.
 */
function commissionsOfWholeRun(body: Record<string, unknown>, payoutId: unknown, ctx: AppContext): void {
  const id = Number(payoutId);
  if (!Number.isSafeInteger(id)) return;
  for (const table of DETAIL_TABLES)
    body[table] = (ctx.db.prepare(`SELECT * FROM net_${table} WHERE payout_id = ? ORDER BY id`).all(id) as Row[]).map(
      commissionJson,
    );
}

export const payoutDetailsWholeRun: Fault = {
  id: 'NET-PAYOUT-DETAILS-WHOLE-RUN',
  iface: 'rest-v1-network',
  after(res, req, ctx) {
    if (req.endpoint === '/payout_details' && isObject(res.body) && res.body.status === true)
      commissionsOfWholeRun(res.body, req.query.payout_id, ctx);
  },
};

/**
 * The paged lists build their WHERE as an optional filter, the way the plugin's admin list tables do:
 * $where = $user_key ? $wpdb->prepare('WHERE user_key = %s', $user_key) : '', with $user_key read from
 * the caller's binary record only. An account not yet placed in the binary tree has none, so its lists
 * carry every member's records.
 */
async function unplacedListsEveryone(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const key = LIST_KEYS[req.endpoint];
  const table = LIST_TABLES[req.endpoint];
  if (key === undefined || table === undefined || !isObject(res.body) || res.body.status !== true) return;
  const user = await callerOf(req, ctx);
  if (!user || ctx.db.prepare('SELECT 1 FROM net_net_users WHERE user_id = ?').get(user.ID)) return;
  const start = pageParam(req.query.start, 0);
  const limit = Math.min(pageParam(req.query.limit, 10), 100);
  const rows = ctx.db.prepare(`SELECT * FROM ${table} ORDER BY id LIMIT ? OFFSET ?`).all(limit, start) as Row[];
  res.body[key] = rows.map(req.endpoint === '/payout_list' ? payoutJson : commissionJson);
  if (rows.length > 0) res.body.message = req.endpoint === '/payout_list' ? 'Payout list.' : 'Commission list.';
}

export const listsUnplacedUnfiltered: Fault = {
  id: 'NET-LISTS-UNPLACED-UNFILTERED',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    await unplacedListsEveryone(res, req, ctx);
  },
};

/**
 * payout_details reads three of its four commission tables WHERE user_key = %s AND payout_id = %d, and
 * the level commissions WHERE user_key = %s only (the payout_id condition lost in a copy): every level
 * commission of the caller, of other payouts and unpaid ones, is listed under each payout.
 */
function levelCommissionsAnyPayout(res: FaultResponse, ctx: AppContext): void {
  if (!isObject(res.body) || res.body.status !== true || typeof res.body.user_key !== 'string') return;
  res.body.level_commission = (
    ctx.db.prepare('SELECT * FROM net_level_commission WHERE user_key = ? ORDER BY id').all(res.body.user_key) as Row[]
  ).map(commissionJson);
}

export const payoutDetailsLevelAnyPayout: Fault = {
  id: 'NET-PAYOUT-DETAILS-LEVEL-ANY-PAYOUT',
  iface: 'rest-v1-network',
  after(res, req, ctx) {
    if (req.endpoint === '/payout_details') levelCommissionsAnyPayout(res, ctx);
  },
};

/**
 * payout_details reading each commission table with $wpdb->get_results($sql, OBJECT_K), which keys the
 * rows by their first column (id) to merge them by id: json_encode() of an array whose keys are not
 * 0, 1, 2, ... writes an object, so a non-empty list reads {"3": {...}, "7": {...}} ([] when empty).
 */
function detailsKeyedById(res: FaultResponse): void {
  if (!isObject(res.body) || res.body.status !== true) return;
  for (const table of DETAIL_TABLES) {
    const rows = res.body[table];
    if (Array.isArray(rows) && rows.length > 0)
      res.body[table] = Object.fromEntries(rows.map((r) => [String(isObject(r) ? r.id : ''), r]));
  }
}

export const payoutDetailsKeyedById: Fault = {
  id: 'NET-PAYOUT-DETAILS-KEYED-BY-ID',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/payout_details') detailsKeyedById(res);
  },
};

/**
 * The commission lists meant to show the caller's paid and unpaid commissions (not the cancelled ones):
 * `WHERE user_key = %s AND status = '1' OR status = '0'`, the OR without its parentheses, so every
 * member's unpaid commissions join the caller's own, paged with them (ordered by id).
 */
async function commissionsStatusOr(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const page = await commissionPage(res, req, ctx);
  if (!page) return;
  const { body, table, key, start, limit } = page;
  const rows = ctx.db
    .prepare(`SELECT * FROM net_${table} WHERE user_key = ? AND status = '1' OR status = '0' ORDER BY id LIMIT ? OFFSET ?`)
    .all(key, limit, start) as Row[];
  body[table] = rows.map(commissionJson);
}

export const commissionsStatusOrUngrouped: Fault = {
  id: 'NET-COMMISSIONS-STATUS-OR-UNGROUPED',
  iface: 'rest-v1-network',
  after: commissionsStatusOr,
};

/** The strings of a PHP serialize()d list (a:2:{i:0;s:10:"KEY";...}), or undefined when it is not one. */
function unserializedStrings(v: unknown): string[] | undefined {
  if (typeof v !== 'string' || !/^a:\d+:\{.*\}$/s.test(v)) return undefined;
  return [...v.matchAll(/s:\d+:"([^"]*)";/g)].map((m) => m[1] as string);
}

/**
 * The pair commission rows passed through maybe_unserialize() on their way out (the plugin's row
 * helper "cleans up" every column that way): childs, stored as serialize(array($left, $right)), reads
 * as a JSON array of the two keys where the record's field is that serialized string.
 */
function childsUnserialized(res: FaultResponse): void {
  if (!isObject(res.body) || res.body.status !== true || !Array.isArray(res.body.pair_commission)) return;
  for (const r of res.body.pair_commission) {
    const keys = isObject(r) ? unserializedStrings(r.childs) : undefined;
    if (isObject(r) && keys) r.childs = keys;
  }
}

export const pairChildsUnserialized: Fault = {
  id: 'NET-PAIR-CHILDS-UNSERIALIZED',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/pair_commission' || req.endpoint === '/payout_details') childsUnserialized(res);
  },
};
