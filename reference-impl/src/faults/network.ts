import type { AppContext } from '../context.js';
import { userKeyOf } from '../network/earnings.js';
import { insertUniUser, newUserKey } from '../network/placement.js';
import {
  commissionJson,
  findNetUser,
  findNetUserByName,
  findUniUser,
  findUserById,
  type NetUserRow,
  netUserJson,
  type Row,
  settingNumber,
  type UserRow,
  userJson,
} from '../network/records.js';
import { money, now } from '../network/util.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import {
  AnswerCache,
  addslashes,
  bcryptInput,
  beginRaced,
  dateFromGmt,
  htmlspecialchars,
  InFlight,
  isNumeric,
  likeRegex,
  numberFormat,
  pause,
  phpFloat,
  SITE_OFFSET_MINUTES,
  stripslashes,
  utf8mb3,
} from './emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject, isoOf, mapKey, numberOf } from './model.js';
import { defaultUserToken, hs256Of, restoreToken } from './tokens.js';

const LISTS = ['/payout_list', '/pair_commission', '/level_commission', '/bonus_commission', '/ref_commission'];
const ROOT_SQL = 'SELECT user_id AS id FROM net_net_users WHERE parent_key IS NULL ORDER BY id LIMIT 1';
const failed = (body: unknown): body is Record<string, unknown> => isObject(body) && body.status === false;

/** The token key of login and register answers is `<vendor>_token`. */
async function hs256Tokens(body: unknown, ctx: AppContext): Promise<void> {
  const key = `${ctx.vendor}_token`;
  if (isObject(body) && typeof body[key] === 'string') body[key] = await hs256Of(body[key]);
}

/**
 * Spillover instead of refusal: when the asked side under the parent is taken, walk down that
 * side's leg to the first free slot and place the newcomer there, answering success.
 */
function spillover(req: FaultRequest, ctx: AppContext, nested: boolean): void {
  const at = (field: string) => (nested ? bodyField(req.raw.body, 'net_user', field) : bodyField(req.raw.body, field));
  const parent = at('parent_name');
  const position = at('position');
  if (typeof parent.value !== 'string' || (position.value !== 'left' && position.value !== 'right')) return;
  const side = position.value;
  const byName = ctx.db.prepare('SELECT user_key, user_name FROM net_net_users WHERE user_name = ?');
  const childAt = ctx.db.prepare('SELECT user_key, user_name FROM net_net_users WHERE parent_key = ? AND position = ?');
  let node = byName.get(parent.value) as { user_key: string; user_name: string } | undefined;
  if (!node || !childAt.get(node.user_key, side)) return;
  for (let next = childAt.get(node.user_key, side) as typeof node; next; ) {
    node = next;
    next = childAt.get(node.user_key, side) as typeof node;
  }
  parent.set(node.user_name);
}

/**
 * The sponsor copied from the wrong field: the sponsor name is still checked to be a member, but the
 * placement code then takes the parent's record as the sponsor too (sponsor_key = parent_key).
 */
function sponsorFromParent(req: FaultRequest, ctx: AppContext, nested: boolean): void {
  const at = (field: string) => (nested ? bodyField(req.raw.body, 'net_user', field) : bodyField(req.raw.body, field));
  const sponsor = at('sponsor_name');
  const parent = at('parent_name');
  if (typeof sponsor.value !== 'string' || typeof parent.value !== 'string' || sponsor.value === parent.value) return;
  const member = ctx.db.prepare('SELECT 1 FROM net_net_users WHERE user_name = ?');
  if (member.get(sponsor.value) && member.get(parent.value)) sponsor.set(parent.value);
}

/** A lenient integer parse (parseInt / intval style): "12abc" reads as 12 instead of failing validation. */
function leadingDigits(query: Record<string, unknown>, field: string): void {
  const v = query[field];
  const m = typeof v === 'string' ? /^\s*(\d+)\D/.exec(v) : null;
  if (m) query[field] = m[1];
}

/**
 * Join_net checks that the asked side is free, then places through the helper register uses
 * without a position, which takes the parent's first free side: "right" lands left while left is free.
 */
function joinFirstFreeSide(req: FaultRequest, ctx: AppContext): void {
  const parent = bodyField(req.raw.body, 'parent_name');
  const position = bodyField(req.raw.body, 'position');
  if (typeof parent.value !== 'string' || typeof position.value !== 'string') return;
  const asked = position.value.trim().toLowerCase();
  if (asked !== 'right') return;
  const node = ctx.db.prepare('SELECT user_key FROM net_net_users WHERE user_name = ?').get(parent.value.trim()) as
    | { user_key: string }
    | undefined;
  const childAt = ctx.db.prepare('SELECT 1 FROM net_net_users WHERE parent_key = ? AND position = ?');
  if (node && !childAt.get(node.user_key, 'right') && !childAt.get(node.user_key, 'left')) position.set('left');
}

/** Whether a query parameter was sent with a value. */
const sent = (query: Record<string, unknown>, field: string): boolean => query[field] !== undefined && query[field] !== '';

/** A MySQL INT column in non-strict mode: a larger integer is stored as the column's maximum. */
const INT_MAX = 2147483647;

/**
 * WordPress's sanitize_text_field, as a register handler applies it to every field, password included
 * (login verifies the password as sent): tags stripped, whitespace runs folded, ends trimmed, and
 * percent-encoded octets removed.
 */
function sanitizeTextField(v: string): string {
  let out = v
    .replace(/<[^>]*>/g, '')
    .replace(/[\r\n\t ]+/g, ' ')
    .trim();
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(/%[a-f0-9]{2}/gi, '');
  }
  return out;
}

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
  for (const table of ['ref_commission', 'pair_commission', 'bonus_commission', 'level_commission'])
    body[table] = (
      ctx.db.prepare(`SELECT * FROM net_${table} WHERE user_key = ? AND payout_id = ? ORDER BY id`).all(key, row.id) as Row[]
    ).map(commissionJson);
}

/** The placement fields of a register refusal: a sponsor or parent that is no member, a side taken. */
const PLACEMENT_ERRORS = ['net_user[sponsor_name]', 'net_user[parent_name]', 'net_user[position]'];

/**
 * Register creating the WordPress user (wp_insert_user) before the binary placement is checked, and
 * returning the placement error without deleting it: the refused account can log in, and its
 * username and e-mail are taken for the corrected retry.
 */
async function keepRefusedUser(body: Record<string, unknown>, req: FaultRequest, ctx: AppContext): Promise<void> {
  const errors = isObject(body.errors) ? Object.keys(body.errors) : [];
  if (errors.length === 0 || !errors.every((k) => PLACEMENT_ERRORS.includes(k))) return;
  const field = (name: string) => {
    const v = bodyField(req.raw.body, name).value;
    return typeof v === 'string' ? v.trim() : '';
  };
  const [login, email, password] = [field('username'), field('email'), field('password')];
  const taken = ctx.db.prepare('SELECT 1 FROM net_users WHERE user_login = ? OR user_email = ?').get(login, email);
  if (!login || !email || !password || taken) return;
  const [first, last] = [field('first_name'), field('last_name')];
  ctx.db
    .prepare(
      `INSERT INTO net_users (user_login, user_pass, user_nicename, user_email, user_registered, display_name,
         first_name, last_name, phone, address) VALUES (?, ?, ?, ?, datetime('now'), ?, ?, ?, '', '')`,
    )
    .run(login, await hashPassword(password), login.toLowerCase(), email, `${first} ${last}`, first, last);
}

/** The account of the request's verified token (the handler's own check has passed when a rule refused). */
async function callerOf(req: FaultRequest, ctx: AppContext): Promise<{ ID: number; user_login: string } | undefined> {
  const token = req.raw.headers[`${ctx.vendor}_token`];
  const payload = typeof token === 'string' ? await ctx.tokens.verify(token.trim(), 'network') : null;
  if (!payload) return undefined;
  return ctx.db.prepare('SELECT ID, user_login FROM net_users WHERE ID = ?').get(Number(payload.sub)) as
    | { ID: number; user_login: string }
    | undefined;
}

/**
 * Join_net inserting the caller's binary record (sponsor set, parent and side still empty) before
 * the placement is checked, and returning the placement error without removing it: the account now
 * counts as "already a member", so its retry at a free position is refused.
 */
async function keepRefusedMember(body: Record<string, unknown>, req: FaultRequest, ctx: AppContext): Promise<void> {
  const errors = isObject(body.errors) ? Object.keys(body.errors) : [];
  if (!errors.some((k) => k === 'position' || k === 'parent_name')) return;
  const user = await callerOf(req, ctx);
  if (!user || findNetUser(ctx.db, user.ID)) return;
  const sponsor = ctx.db
    .prepare('SELECT user_key FROM net_net_users WHERE user_name = ?')
    .get(bodyField(req.raw.body, 'sponsor_name').value) as { user_key: string } | undefined;
  const uni = findUniUser(ctx.db, user.ID);
  ctx.db
    .prepare(
      `INSERT INTO net_net_users (user_id, user_name, user_key, sponsor_key, creation_date, network_row)
       VALUES (?, ?, ?, ?, datetime('now'), 0)`,
    )
    .run(user.ID, user.user_login, uni ? String(uni.user_key) : newUserKey(ctx.db), sponsor?.user_key ?? null);
}

/** bank_details_save's input fields and the record's columns they fill. */
const BANK_COLUMNS: Record<string, string> = {
  account_holder_name: 'account_holder',
  account_number: 'account_number',
  bank_name: 'bank_name',
  branch: 'branch',
  ifsc_code: 'ifsc_code',
  contact_number: 'contact_number',
};

/**
 * bank_details_save updating the saved record with each field as it reads it (update_user_meta per
 * field) and validating afterwards: a save refused for a missing or malformed field has already
 * replaced the record's other fields.
 */
async function partialBankSave(body: Record<string, unknown>, req: FaultRequest, ctx: AppContext): Promise<void> {
  const errors = isObject(body.errors) ? body.errors : undefined;
  const user = errors ? await callerOf(req, ctx) : undefined;
  const key = user ? userKeyOf(ctx.db, user.ID) : null;
  if (!errors || !key) return;
  for (const [field, column] of Object.entries(BANK_COLUMNS)) {
    const v = bodyField(req.raw.body, field).value;
    if (typeof v === 'string' && v.trim() !== '' && !(field in errors))
      ctx.db.prepare(`UPDATE net_bank_details SET ${column} = ? WHERE user_key = ?`).run(v.trim(), key);
  }
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
 * withdrawal_request validating the amount as a float and storing `(int)($amount * 100)` cents: an
 * amount whose binary value lies a hair below its decimal (1.15 is 114.999... hundredths) loses a cent.
 */
function truncateLastWithdrawal(req: FaultRequest, user: { ID: number }, ctx: AppContext): void {
  const v = bodyField(req.raw.body, 'amount').value;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim()) : Number.NaN;
  if (!Number.isFinite(n)) return;
  const row = ctx.db.prepare('SELECT id FROM net_withdrawals WHERE user_id = ? ORDER BY id DESC LIMIT 1').get(user.ID) as
    | { id: number }
    | undefined;
  if (row) ctx.db.prepare('UPDATE net_withdrawals SET amount = ? WHERE id = ?').run(Math.trunc(n * 100), row.id);
}

/**
 * How long a register or a bank save of the race faults stays in flight before its handler: the
 * vendor's window between check and write (a password hash of cost 10 to 12, six meta writes), so
 * that two requests sent at once overlap on a fast reference as they would on the vendor's host.
 */
const RACE_WINDOW_MS = 120;

/** The highest user ID when a register began: a row above it was inserted while the register was in flight. */
const REGISTER_STARTED_AFTER = new WeakMap<FaultRequest, number>();

/**
 * Register with check-then-insert and no unique key (wp_users has none on user_login): two identical
 * registers in flight together both pass the "already exists" check; the second INSERT IGNORE is
 * dropped and the account is then read back by its login, so the second answers status true with
 * the account the first created. A duplicate sent after the first has finished is still refused.
 */
async function racedRegister(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const body = res.body;
  const errors = failed(body) && isObject(body.errors) ? Object.keys(body.errors) : [];
  const startedAfter = REGISTER_STARTED_AFTER.get(req);
  if (!errors.includes('username') && !errors.includes('email')) return;
  const login = bodyField(req.raw.body, 'username').value;
  const email = bodyField(req.raw.body, 'email').value;
  if (typeof login !== 'string' || typeof email !== 'string' || startedAfter === undefined) return;
  const user = ctx.db
    .prepare('SELECT * FROM net_users WHERE user_login = ? AND user_email = ?')
    .get(login.trim(), email.trim()) as UserRow | undefined;
  if (!user || user.ID <= startedAfter) return;
  const net = findNetUser(ctx.db, user.ID);
  res.status = 200;
  res.body = {
    status: true,
    errors: [],
    message: 'Registration successful.',
    [`${ctx.vendor}_token`]: await ctx.tokens.sign(String(user.ID), 'network', { user_login: user.user_login }),
    user: userJson(user, 'register'),
    net_user: net ? netUserJson(net) : null,
  };
}

/** A bank save in flight: its caller, its fields, and whether its handler has answered. */
interface BankSave {
  key: string;
  form: Record<string, string>;
  done: boolean;
  /** Saves of the same caller that were in flight at the same time. */
  twins: Set<BankSave>;
}
const BANK_IN_FLIGHT = new InFlight<BankSave>();
const BANK_SAVES = new WeakMap<FaultRequest, BankSave>();
/** The fields update_user_meta writes last, in form order: where the earlier save's writes land after the later's. */
const BANK_LATE_FIELDS = ['branch', 'ifsc_code', 'contact_number'];

async function bankSaveBegins(req: FaultRequest, ctx: AppContext): Promise<void> {
  const user = await callerOf(req, ctx);
  const key = user ? userKeyOf(ctx.db, user.ID) : null;
  if (!key || !isObject(req.raw.body)) return;
  const form: Record<string, string> = {};
  for (const field of Object.keys(BANK_COLUMNS)) {
    const v = bodyField(req.raw.body, field).value;
    if (typeof v === 'string') form[field] = v.trim();
  }
  const save: BankSave = { key, form, done: false, twins: new Set() };
  beginRaced(BANK_IN_FLIGHT, ctx.db, key, save);
  BANK_SAVES.set(req, save);
  await pause(RACE_WINDOW_MS);
}

/**
 * bank_details_save writing the record field by field (update_user_meta per input, in form order)
 * without a lock: of two saves of one account at once, the later to answer has written its first
 * three fields before the earlier one's last three, so the record mixes the two.
 */
function bankSaveEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const save = BANK_SAVES.get(req);
  if (!save) return;
  BANK_IN_FLIGHT.end(save);
  save.done = true;
  if (!isObject(res.body) || res.body.status !== true) return;
  const earlier = [...save.twins].find((t) => t.done);
  if (!earlier) return;
  for (const field of BANK_LATE_FIELDS) {
    const v = earlier.form[field];
    if (v !== undefined)
      ctx.db.prepare(`UPDATE net_bank_details SET ${BANK_COLUMNS[field]} = ? WHERE user_key = ?`).run(v, save.key);
  }
}

/**
 * Register inserting the binary record with net_user[address] interpolated into the SQL text (no
 * prepare): an apostrophe ("St John's Road") ends the literal, the query fails and PHP answers a
 * database error with HTTP 500. The WordPress user, inserted before, stays; the binary and
 * unilevel records were never written.
 */
function addressQuoteError(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const address = bodyField(req.raw.body, 'net_user', 'address').value;
  if (!isObject(res.body) || res.body.status !== true || typeof address !== 'string' || !address.includes("'")) return;
  const user = isObject(res.body.user) ? Number(res.body.user.ID) : Number.NaN;
  if (!Number.isSafeInteger(user)) return;
  ctx.db.prepare('DELETE FROM net_net_users WHERE user_id = ?').run(user);
  ctx.db.prepare('DELETE FROM net_uni_users WHERE user_id = ?').run(user);
  res.status = 500;
  res.body = `<div id="error"><p class="wpdberror"><strong>WordPress database error:</strong> [You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 's Road')' at line 1]</p></div>`;
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

/**
 * The commission lists ordered by status alone (unpaid first) under LIMIT start, limit: the paid
 * commissions tie, and their order depends on the size of the queue (start + limit), so pages of
 * different offsets disagree, and walking them gives one commission twice and another never.
 */
async function commissionsByStatus(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const table = req.endpoint.slice(1);
  if (!isObject(res.body) || res.body.status !== true || !Array.isArray(res.body[table])) return;
  const user = await callerOf(req, ctx);
  const key = user ? userKeyOf(ctx.db, user.ID) : null;
  if (!key) return;
  const start = pageParam(req.query.start, 0);
  const limit = Math.min(pageParam(req.query.limit, 10), 100);
  const rows = ctx.db.prepare(`SELECT * FROM net_${table} WHERE user_key = ? ORDER BY id`).all(key) as Row[];
  const sorted = boundedSort(rows, start + limit, (a, b) => String(a.status).localeCompare(String(b.status)));
  res.body[table] = sorted.slice(start, start + limit).map(commissionJson);
}

/** A withdrawal amount in cents as the handler reads it (a number, or digits with up to two decimals). */
function withdrawalCents(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,12}(\.\d{1,2})?\s*$/.test(v) ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? Math.round(n * 100) : undefined;
}

/** The amount a withdrawal_request really asked for, where the handler was sent one its exact checks pass. */
const WHOLE_UNIT_AMOUNTS = new WeakMap<FaultRequest, number>();

/**
 * withdrawal_request comparing the amount with the limits and the balance through bccomp() at its
 * default scale 0, which compares the whole parts only: 1000.01 is not above a maximum of 1000, nor
 * 20.50 above a balance of 20.10. Emulated by sending the handler the nearest amount its exact
 * checks take and storing the amount asked for once it is accepted.
 */
async function wholeUnitChecks(req: FaultRequest, ctx: AppContext): Promise<void> {
  const field = bodyField(req.raw.body, 'amount');
  const cents = withdrawalCents(field.value);
  const user = cents === undefined ? undefined : await callerOf(req, ctx);
  if (cents === undefined || !user) return;
  const key = userKeyOf(ctx.db, user.ID);
  const sum = (sql: string, v: unknown) => (ctx.db.prepare(sql).get(v) as { c: number }).c;
  const earned = key ? sum('SELECT COALESCE(SUM(total_amount), 0) AS c FROM net_payouts WHERE user_key = ?', key) : 0;
  const available = earned - sum('SELECT COALESCE(SUM(amount), 0) AS c FROM net_withdrawals WHERE user_id = ?', user.ID);
  const min = Math.round(settingNumber(ctx.db, 'net_withdrawal_limit_min', 0) * 100);
  const max = Math.round(settingNumber(ctx.db, 'net_withdrawal_limit_max', Number.MAX_SAFE_INTEGER / 100) * 100);
  const whole = (c: number) => Math.trunc(c / 100);
  const exact = cents >= min && cents <= max && cents <= available;
  const scale0 = whole(cents) >= whole(min) && whole(cents) <= whole(max) && whole(cents) <= whole(available);
  const stand = Math.max(min, Math.min(cents, max, available));
  if (exact || !scale0 || stand <= 0 || stand > max || stand > available) return;
  field.set(money(stand));
  WHOLE_UNIT_AMOUNTS.set(req, cents);
}

async function wholeUnitStored(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const cents = WHOLE_UNIT_AMOUNTS.get(req);
  if (cents === undefined || !isObject(res.body) || res.body.status !== true) return;
  const user = await callerOf(req, ctx);
  const row = user
    ? (ctx.db.prepare('SELECT id FROM net_withdrawals WHERE user_id = ? ORDER BY id DESC LIMIT 1').get(user.ID) as
        | { id: number }
        | undefined)
    : undefined;
  if (row) ctx.db.prepare('UPDATE net_withdrawals SET amount = ? WHERE id = ?').run(cents, row.id);
}

/** A register in flight at one parent and side, and the registers in flight at that slot with it. */
interface SlotRegister {
  twins: Set<SlotRegister>;
}
const SLOT_IN_FLIGHT = new InFlight<SlotRegister>();
const SLOT_REGISTERS = new WeakMap<FaultRequest, SlotRegister>();

async function slotRegisterBegins(req: FaultRequest, ctx: AppContext): Promise<void> {
  const parent = bodyField(req.raw.body, 'net_user', 'parent_name').value;
  const position = bodyField(req.raw.body, 'net_user', 'position').value;
  if (typeof parent !== 'string' || typeof position !== 'string') return;
  const at: SlotRegister = { twins: new Set() };
  beginRaced(SLOT_IN_FLIGHT, ctx.db, `${parent.trim().toLowerCase()}/${position.trim().toLowerCase()}`, at);
  SLOT_REGISTERS.set(req, at);
  await pause(RACE_WINDOW_MS);
}

/**
 * Register reading "is the side free" before its insert, without a unique key on (parent, side): of
 * two registers of different accounts at one free side in flight together, each saw the side free,
 * so both are answered status true and placed there. The reference's unique key keeps one row per
 * side, so the second account is created with its unilevel record and a binary record outside the
 * tree, and answered with the binary record the vendor wrote beside the first.
 */
async function slotRegisterEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const at = SLOT_REGISTERS.get(req);
  if (!at) return;
  SLOT_IN_FLIGHT.end(at);
  const errors = failed(res.body) && isObject(res.body.errors) ? Object.keys(res.body.errors) : [];
  if (at.twins.size === 0 || errors.length !== 1 || errors[0] !== 'net_user[position]') return;
  const field = (...path: string[]) => {
    const v = bodyField(req.raw.body, ...path).value;
    return typeof v === 'string' ? v.trim() : '';
  };
  const [login, email, password] = [field('username'), field('email'), field('password')];
  const db = ctx.db;
  const parent = findNetUserByName(db, field('net_user', 'parent_name'));
  const sponsor = field('net_user', 'sponsor_name') ? findNetUserByName(db, field('net_user', 'sponsor_name')) : parent;
  const taken = db.prepare('SELECT 1 FROM net_users WHERE user_login = ? OR user_email = ?').get(login, email);
  if (!login || !email || !password || !parent || !sponsor || taken) return;
  const [first, last] = [field('first_name'), field('last_name')];
  const hash = await hashPassword(password);
  const registered = now();
  const id = Number(
    db
      .prepare(
        `INSERT INTO net_users (user_login, user_pass, user_nicename, user_email, user_registered, display_name,
           first_name, last_name, phone, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        login,
        hash,
        login.toLowerCase(),
        email,
        registered,
        `${first} ${last}`,
        first,
        last,
        field('net_user', 'phone'),
        field('net_user', 'address'),
      ).lastInsertRowid,
  );
  const who = { id, login, key: newUserKey(db), at: registered };
  insertUniUser(db, who, sponsor.user_key);
  // A member still, so that accounts can be placed below it: its row stands apart, as (parent, side) is taken.
  const row = db
    .prepare(
      `INSERT INTO net_net_users (user_id, user_name, user_key, sponsor_key, creation_date, network_row)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(id, login, who.key, sponsor.user_key, registered, parent.network_row + 1);
  const net: NetUserRow = {
    id: Number(row.lastInsertRowid),
    user_id: id,
    user_name: login,
    user_key: who.key,
    parent_key: parent.user_key,
    sponsor_key: sponsor.user_key,
    position: field('net_user', 'position').toLowerCase() === 'right' ? 'right' : 'left',
    qualified_points: 0,
    own_points: 0,
    left_points: 0,
    right_points: 0,
    creation_date: registered,
    payment_status: '0',
    payment_date: '0000-00-00 00:00:00',
    network_row: parent.network_row + 1,
  };
  res.status = 200;
  res.body = {
    status: true,
    errors: [],
    message: 'Registration successful.',
    [`${ctx.vendor}_token`]: await ctx.tokens.sign(String(id), 'network', { user_login: login }),
    user: userJson(findUserById(db, id) as UserRow, 'register'),
    net_user: netUserJson(net),
  };
}

/** The e-mail a register checked untrimmed and stored trimmed, by request. */
const UNTRIMMED_EMAILS = new WeakMap<FaultRequest, string>();

/**
 * Register checking email_exists() on the e-mail as sent and storing it through sanitize_email(),
 * which trims: "<taken e-mail> " passes the check and a second account carries the first one's
 * e-mail. The reference's e-mail is UNIQUE, so the handler is sent a stand-in, and the row then
 * holds the e-mail with one trailing space, which every answer shows trimmed as the vendor stores it.
 */
function untrimmedEmailBegins(req: FaultRequest, ctx: AppContext): void {
  const field = bodyField(req.raw.body, 'email');
  const v = field.value;
  if (typeof v !== 'string' || v === v.trim() || v.trim() === '') return;
  if (!ctx.db.prepare('SELECT 1 FROM net_users WHERE user_email = ?').get(v.trim())) return;
  field.set(`dup${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.${v.trim()}`);
  UNTRIMMED_EMAILS.set(req, v.trim());
}

function untrimmedEmailEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const email = UNTRIMMED_EMAILS.get(req);
  const user = isObject(res.body) && res.body.status === true && isObject(res.body.user) ? res.body.user : undefined;
  if (email !== undefined && user) {
    ctx.db.prepare('UPDATE net_users SET user_email = ? WHERE ID = ?').run(`${email} `, Number(user.ID));
    user.user_email = email;
  }
  mapKey(res.body, 'user_email', (e) => (typeof e === 'string' ? e.trim() : e));
}

/** A withdrawal request in flight: its caller and amount, whether it was accepted, and the requests of that caller in flight with it. */
interface LedgerWrite {
  userId: number;
  cents: number;
  done: boolean;
  accepted: boolean;
  twins: Set<LedgerWrite>;
}
const LEDGER_IN_FLIGHT = new InFlight<LedgerWrite>();
const LEDGER_WRITES = new WeakMap<FaultRequest, LedgerWrite>();
/** Cents the requested-amount ledger lost, by database and user ID. */
const LEDGER_LOST = new WeakMap<object, Map<number, number>>();

async function ledgerWriteBegins(req: FaultRequest, ctx: AppContext): Promise<void> {
  const cents = withdrawalCents(bodyField(req.raw.body, 'amount').value);
  const user = cents === undefined ? undefined : await callerOf(req, ctx);
  if (cents === undefined || !user) return;
  const write: LedgerWrite = { userId: user.ID, cents, done: false, accepted: false, twins: new Set() };
  beginRaced(LEDGER_IN_FLIGHT, ctx.db, String(user.ID), write);
  LEDGER_WRITES.set(req, write);
  await pause(RACE_WINDOW_MS);
}

/**
 * withdrawal_request keeping the caller's requested total in a user meta, read when the request
 * begins and written as read + amount when it ends, without a lock: of two requests of one account
 * accepted at the same time, the later write replaces the earlier, so the earlier one's amount is
 * lost to requested_amount and pending_withdrawal, and total_balance (earned minus that total) keeps
 * it, while all_withdrawal_data lists both records.
 */
function ledgerWriteEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const write = LEDGER_WRITES.get(req);
  if (!write) return;
  LEDGER_IN_FLIGHT.end(write);
  write.done = true;
  write.accepted = isObject(res.body) && res.body.status === true;
  if (!write.accepted) return;
  const lost = [...write.twins].filter((t) => t.done && t.accepted).reduce((sum, t) => sum + t.cents, 0);
  if (lost === 0) return;
  const byUser = LEDGER_LOST.get(ctx.db) ?? new Map<number, number>();
  LEDGER_LOST.set(ctx.db, byUser);
  byUser.set(write.userId, (byUser.get(write.userId) ?? 0) + lost);
}

/** GET /withdrawal as the ledger has it. */
async function ledgerRead(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const info = isObject(res.body) && isObject(res.body.withdrawal_info) ? res.body.withdrawal_info : undefined;
  const user = info ? await callerOf(req, ctx) : undefined;
  const lost = user ? (LEDGER_LOST.get(ctx.db)?.get(user.ID) ?? 0) : 0;
  if (!info || lost === 0) return;
  const shift = (k: string, by: number) => {
    const v = info[k];
    if (typeof v === 'string' && /^-?\d+\.\d\d$/.test(v)) info[k] = money(Math.round(Number(v) * 100) + by);
  };
  shift('requested_amount', -lost);
  shift('pending_withdrawal', -lost);
  shift('total_balance', lost);
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

/**
 * An id kept in 32 bits on its way to the query (packed with pack('N') into the lookup's cache key):
 * 4294967297 reads as 1, so an id that does not exist answers the record of its low 32 bits.
 */
function idLow32Bits(query: Record<string, unknown>, field: string): void {
  const v = query[field];
  if (typeof v === 'string' && /^\d{10,30}$/.test(v) && BigInt(v) > 0xffffffffn) query[field] = String(BigInt(v) % 0x100000000n);
}

/** GET /withdrawal answers by URL, for 5 s: the token is not part of the key. */
const WITHDRAWAL_CACHE = new AnswerCache<unknown>(5_000);

/**
 * GET /withdrawal served from a page cache keyed by its URL alone (after the token check, which
 * still refuses a missing or forged token): for five seconds every account asking for /withdrawal
 * gets the answer of the account that asked first. An accepted withdrawal_request purges it, so an
 * account reading its own withdrawals back after a request sees them.
 */
function withdrawalCache(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  if (req.endpoint === '/withdrawal_request') {
    if (isObject(res.body) && res.body.status === true) WITHDRAWAL_CACHE.purge(ctx.db);
    return;
  }
  if (req.endpoint !== '/withdrawal' || !isObject(res.body) || !isObject(res.body.withdrawal_info)) return;
  const hit = WITHDRAWAL_CACHE.get(ctx.db, req.raw.url);
  if (hit !== undefined) res.body = hit;
  else WITHDRAWAL_CACHE.put(ctx.db, req.raw.url, res.body);
}

/**
 * uni-get-user-info looks the key up with `WHERE user_key LIKE %s` through $wpdb->prepare, which quotes
 * the value but leaves LIKE's wildcards (no $wpdb->esc_like): a key holding _ or % answers the first
 * user whose key matches the pattern, case aside (the column's collation).
 */
function userKeyLike(query: Record<string, unknown>, ctx: AppContext): void {
  const key = query.user_key;
  if (typeof key !== 'string' || !/[%_]/.test(key) || (query.user_id !== undefined && query.user_id !== '')) return;
  const pattern = new RegExp(`^(?:${likeRegex(key).source})$`, 'iu');
  const keys = ctx.db.prepare('SELECT user_key FROM net_uni_users ORDER BY id').all() as { user_key: string }[];
  const first = keys.find((k) => pattern.test(k.user_key));
  if (first) query.user_key = first.user_key;
}

/** Register bodies whose username passed the pattern with a line feed at its end: the name as sent. */
const NEWLINE_USERNAMES = new WeakMap<FaultRequest, string>();

/**
 * Register checks the username with preg_match('/^[a-zA-Z0-9]+$/') and no D modifier: PCRE's $ also
 * matches before a final line feed, so "name\n" passes as letters and digits and is stored as sent,
 * line feed and all (the plugin writes its own tables from $_POST, not through sanitize_user()).
 */
function newlineUsernameBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'username');
  const v = field.value;
  if (typeof v !== 'string' || !/^[A-Za-z0-9]+\n$/.test(v)) return;
  field.set(v.slice(0, -1));
  NEWLINE_USERNAMES.set(req, v);
}

function newlineUsernameEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  storeSentUsername(res, NEWLINE_USERNAMES.get(req), ctx);
}

/** An accepted register whose handler was sent a stand-in username: the account takes `name`, the name as sent. */
function storeSentUsername(res: FaultResponse, name: string | undefined, ctx: AppContext): void {
  const body = res.body;
  if (name === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
  const id = Number(body.user.ID);
  ctx.db.prepare('UPDATE net_users SET user_login = ?, user_nicename = ? WHERE ID = ?').run(name, name.toLowerCase(), id);
  ctx.db.prepare('UPDATE net_net_users SET user_name = ? WHERE user_id = ?').run(name, id);
  ctx.db.prepare('UPDATE net_uni_users SET user_name = ? WHERE user_id = ?').run(name, id);
  body.user.user_login = name;
  body.user.user_nicename = name.toLowerCase();
  if (isObject(body.net_user)) body.net_user.user_name = name;
}

/** Register bodies whose phone passed as numeric and 10 bytes long: the phone as sent. */
const NUMERIC_PHONES = new WeakMap<FaultRequest, string>();

/**
 * Register checks "10 digits" as `is_numeric($phone) && strlen($phone) == 10`: a sign, a decimal point,
 * an exponent or a blank before or after counts among the ten, so "12345678.9" (nine digits) passes and
 * is stored as sent.
 */
function numericPhoneBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'net_user', 'phone');
  const v = field.value;
  if (typeof v !== 'string' || /^\d{10}$/.test(v) || Buffer.byteLength(v) !== 10 || !isNumeric(v)) return;
  // The handler takes an empty phone as none (optional): the one sent is written back once accepted.
  field.set('');
  NUMERIC_PHONES.set(req, v);
}

function numericPhoneEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const phone = NUMERIC_PHONES.get(req);
  const body = res.body;
  if (phone === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
  ctx.db.prepare('UPDATE net_users SET phone = ? WHERE ID = ?').run(phone, Number(body.user.ID));
}

/**
 * Login builds its user record for a page template first: first_name, last_name and display_name go
 * through esc_html() on this path only, so "O'Neil & Co" reads "O&#039;Neil &amp; Co" in the login
 * answer while the account stores, and every other answer carries, the name as registered.
 */
function loginNamesEscaped(res: FaultResponse): void {
  const user = isObject(res.body) && res.body.status === true && isObject(res.body.user) ? res.body.user : undefined;
  if (!user) return;
  for (const key of ['first_name', 'last_name', 'display_name'])
    if (typeof user[key] === 'string') user[key] = htmlspecialchars(user[key]);
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

/**
 * bcrypt reads at most 72 bytes of a password (PHP's password_hash with PASSWORD_BCRYPT, as a pluggable
 * wp_hash_password() of the "bcrypt for WordPress" kind calls it without a pre-hash): register and login
 * both see the password cut there, so a password longer than 72 bytes logs in with any tail.
 */
function passwordFirst72Bytes(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'password');
  // Only past 72 bytes: the seeded accounts' hashes were made of their passwords whole.
  if (typeof field.value === 'string' && Buffer.byteLength(field.value) > 72) field.set(bcryptInput(field.value));
}

/** Register bodies sent as JSON whose username was not letters and digits: the name as sent. */
const JSON_USERNAMES = new WeakMap<FaultRequest, string>();

/**
 * Register checks the username pattern with `isset($_POST['username']) && !ctype_alnum($_POST['username'])`
 * and reads the fields through $request->get_param(): a JSON body leaves $_POST empty, so its username
 * skips the pattern and is stored as sent (the required checks read get_param() and still hold).
 */
function jsonUsernameBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'username');
  const v = field.value;
  const json = String(req.raw.headers['content-type'] ?? '').includes('application/json');
  if (!json || typeof v !== 'string' || /^[A-Za-z0-9]+$/.test(v)) return;
  // The reference's own check would refuse it: its handler gets the letters and digits, the account the name sent.
  const standIn = v.replace(/[^A-Za-z0-9]/g, '');
  if (standIn === '') return;
  field.set(standIn);
  JSON_USERNAMES.set(req, v);
}

/**
 * bank_details_save keys a missing field by its input name, but its number check runs over the language
 * labels' keys (the same map that labels the form: holder_name, account_number, ..., contact_no): a
 * contact_number that is not a number is refused with errors keyed contact_no.
 */
function contactErrorLabelKey(res: FaultResponse, req: FaultRequest): void {
  const body = res.body;
  const sentValue = bodyField(req.raw.body, 'contact_number').value;
  if (!failed(body) || !isObject(body.errors) || typeof body.errors.contact_number !== 'string') return;
  if (typeof sentValue !== 'string' || sentValue.trim() === '') return;
  const errors: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body.errors)) errors[k === 'contact_number' ? 'contact_no' : k] = v;
  body.errors = errors;
}

/**
 * bank_details_save passes each field through sanitize_text_field(), which also drops every percent-encoded
 * octet (a "%" and two hex digits, looped until none is left) and then squeezes the blanks it leaves:
 * "St. John's 100%Cafe" is stored as "St. John's 100fe".
 */
function stripPercentOctets(v: string): string {
  let out = v;
  let found = false;
  for (let m = /%[a-f0-9]{2}/i.exec(out); m; m = /%[a-f0-9]{2}/i.exec(out)) {
    out = out.split(m[0]).join('');
    found = true;
  }
  return found ? out.replace(/ +/g, ' ').trim() : out;
}

/** Register bodies sent as JSON whose phone was not 10 digits: the phone as sent. */
const JSON_PHONES = new WeakMap<FaultRequest, string>();

/**
 * Register tests the phone with isset($_POST['net_user']['phone']) && !preg_match('/^[0-9]{10}$/', ...) but
 * reads the fields through $request->get_param(): a JSON body leaves $_POST empty, so a phone of 9 digits
 * is stored as sent. The handler takes an empty phone as none (optional): the one sent is written back.
 */
function jsonPhoneBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'net_user', 'phone');
  const v = field.value;
  const json = String(req.raw.headers['content-type'] ?? '').includes('application/json');
  if (!json || typeof v !== 'string' || v === '' || /^\d{10}$/.test(v)) return;
  field.set('');
  JSON_PHONES.set(req, v);
}

function jsonPhoneEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const phone = JSON_PHONES.get(req);
  const body = res.body;
  if (phone === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
  ctx.db.prepare('UPDATE net_users SET phone = ? WHERE ID = ?').run(phone, Number(body.user.ID));
}

/** Register bodies whose name fields came as JSON null: the fields register stores empty. */
const NULL_NAMES = new WeakMap<FaultRequest, string[]>();

/**
 * Register's required test is array_key_exists() on the decoded body: a JSON `null` is a key that exists, so
 * first_name or last_name sent as null passes, and (string) null stores it empty. A form body cannot carry a
 * null, so only JSON bodies get through. Emulated by sending a placeholder past the reference's test and
 * emptying the stored column (and the display name built from it) once register is accepted.
 */
function nullNamesBegin(req: FaultRequest): void {
  const nulls: string[] = [];
  for (const name of ['first_name', 'last_name']) {
    const field = bodyField(req.raw.body, name);
    if (field.value === null) {
      field.set('x');
      nulls.push(name);
    }
  }
  if (nulls.length > 0) NULL_NAMES.set(req, nulls);
}

function nullNamesEnd(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const nulls = NULL_NAMES.get(req);
  const body = res.body;
  if (nulls === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
  const id = Number(body.user.ID);
  for (const name of nulls) ctx.db.prepare(`UPDATE net_users SET ${name} = '' WHERE ID = ?`).run(id);
  ctx.db.prepare("UPDATE net_users SET display_name = first_name || ' ' || last_name WHERE ID = ?").run(id);
  const row = ctx.db.prepare('SELECT display_name FROM net_users WHERE ID = ?').get(id) as { display_name?: string } | undefined;
  if (row?.display_name !== undefined && 'display_name' in body.user) body.user.display_name = row.display_name;
}

/** Register bodies sent as JSON whose phone came as a JSON number: the refusal rest_validate_request_arg() gives. */
const NUMBER_PHONES = new WeakSet<FaultRequest>();

/**
 * Register declares its arguments for register_rest_route() with 'type' => 'string' for every field, the phone
 * too: WordPress validates a JSON body's values by their JSON type and coerces none to a string, so a phone sent
 * as the integer the document gives (1234567890) is refused, "net_user[phone] is not of type string.", before
 * the handler runs; the same digits as a string, or any form body (whose values are all strings), pass.
 */
function numberPhoneBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'net_user', 'phone');
  const json = String(req.raw.headers['content-type'] ?? '').includes('application/json');
  if (!json || typeof field.value !== 'number') return;
  // The reference's handler is to refuse it without a write: a phone no rule takes.
  field.set('not a phone');
  NUMBER_PHONES.add(req);
}

function numberPhoneEnds(res: FaultResponse, req: FaultRequest): void {
  if (!NUMBER_PHONES.has(req) || !isObject(res.body)) return;
  res.body = {
    status: false,
    errors: { 'net_user[phone]': 'net_user[phone] is not of type string.' },
    message: 'Invalid parameter(s): net_user[phone]',
  };
}

/**
 * withdrawal_request remembers the bank the request goes to with $wpdb->replace() on the bank details table,
 * naming only the columns it read (user_key, bank_name, account_number) and the date: REPLACE deletes the row
 * and inserts one with those columns, so account_holder, branch, ifsc_code and contact_number of the member's
 * saved bank details are emptied by every accepted withdrawal.
 */
async function withdrawalReplacesBank(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  if (!isObject(res.body) || res.body.status !== true) return;
  const user = await callerOf(req, ctx);
  const key = user ? userKeyOf(ctx.db, user.ID) : null;
  if (!key) return;
  ctx.db
    .prepare(
      `UPDATE net_bank_details SET account_holder = '', branch = '', ifsc_code = '', contact_number = '', insert_date = ?
       WHERE user_key = ?`,
    )
    .run(now(), key);
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
 * withdrawal_request refusing an amount equal to net_withdrawal_limit_min (`$amount <= $min` where `<` was
 * meant): emulated by sending the handler one cent below the minimum, which it refuses without a write.
 */
function minimumExclusive(req: FaultRequest, ctx: AppContext): void {
  const field = bodyField(req.raw.body, 'amount');
  const cents = withdrawalCents(field.value);
  const min = Math.round(settingNumber(ctx.db, 'net_withdrawal_limit_min', 0) * 100);
  if (cents !== undefined && min > 1 && cents === min) field.set(money(min - 1));
}

/**
 * GET /withdrawal reading requested_amount from a user meta that withdrawal_request overwrites with each
 * request's amount (update_user_meta($uid, 'requested_amount', $amount), where the running total was
 * meant): requested_amount shows the last request's amount, not the sum of them; the records, the balance
 * and the pending sum are read from the withdrawal table and stay right.
 */
async function requestedIsLast(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const body = res.body;
  if (!isObject(body) || body.status !== true || !isObject(body.withdrawal_info)) return;
  const user = await callerOf(req, ctx);
  if (!user) return;
  const last = ctx.db.prepare('SELECT amount FROM net_withdrawals WHERE user_id = ? ORDER BY id DESC LIMIT 1').get(user.ID) as
    | { amount: number }
    | undefined;
  body.withdrawal_info.requested_amount = money(last?.amount ?? 0);
}

/**
 * Register and Join_net resolve the sponsor after inserting the member and set it with
 * $wpdb->update($table, ['sponsor_key' => $sponsor_key], ['parent_key' => $parent_key]): the WHERE names the
 * parent column where the new member's user_key was meant, so every child of that parent, the earlier
 * sibling too, takes the newest child's sponsor.
 */
function sponsorBySiblings(res: FaultResponse, ctx: AppContext): void {
  const net = isObject(res.body) && res.body.status === true ? res.body.net_user : undefined;
  if (!isObject(net) || typeof net.parent_key !== 'string' || net.parent_key === '' || typeof net.sponsor_key !== 'string')
    return;
  ctx.db.prepare('UPDATE net_net_users SET sponsor_key = ? WHERE parent_key = ?').run(net.sponsor_key, net.parent_key);
}

/** Register and Join_net bodies whose sponsor or parent name, digits only, was read as a user ID that no user has. */
const NAMES_READ_AS_IDS = new WeakMap<FaultRequest, Map<string, string>>();

/**
 * The placement helper resolves a sponsor or parent name the way the plugin's referral links carry
 * one, as a user ID or a login: is_numeric($name) ? get_userdata($name) : get_user_by('login', $name).
 * A member whose username is digits only (letters and digits, as the document allows) is then looked
 * up by ID: the newcomer goes under the user of that ID, or, with no such user, is refused as "not a
 * member". Emulated by handing the handler the login of that ID, or a name no member has.
 */
function digitsNameAsId(req: FaultRequest, ctx: AppContext, nested: boolean): void {
  const swapped = new Map<string, string>();
  for (const name of ['sponsor_name', 'parent_name']) {
    const field = nested ? bodyField(req.raw.body, 'net_user', name) : bodyField(req.raw.body, name);
    const v = typeof field.value === 'string' ? field.value.trim() : '';
    if (!/^\d+$/.test(v)) continue;
    const id = Number(v);
    const user = Number.isSafeInteger(id) ? findUserById(ctx.db, id) : undefined;
    const stand = user ? user.user_login : `#${v}`;
    if (!user) swapped.set(stand, v);
    field.set(stand);
  }
  if (swapped.size > 0) NAMES_READ_AS_IDS.set(req, swapped);
}

/** The refusal names the name as sent, not the stand-in the handler was given. */
function digitsNameAsIdEnds(res: FaultResponse, req: FaultRequest): void {
  const swapped = NAMES_READ_AS_IDS.get(req);
  if (!swapped || !failed(res.body)) return;
  const put = (v: unknown) => {
    let out = typeof v === 'string' ? v : '';
    for (const [stand, sent] of swapped) out = out.split(stand).join(sent);
    return out;
  };
  res.body.message = put(res.body.message);
  if (isObject(res.body.errors)) for (const [k, v] of Object.entries(res.body.errors)) res.body.errors[k] = put(v);
}

/**
 * Register taking a body whose username and e-mail are an existing account's, with that account's
 * password, for a retry of a register whose answer was lost (an app's double tap, a timeout): instead
 * of "already exists" it answers status true with that account and a fresh token, as a login would.
 */
async function registerRetryAnswered(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const body = res.body;
  const errors = failed(body) && isObject(body.errors) ? Object.keys(body.errors) : [];
  if (!errors.includes('username') && !errors.includes('email')) return;
  const text = (name: string) => {
    const v = bodyField(req.raw.body, name).value;
    return typeof v === 'string' ? v.trim() : '';
  };
  const [login, email, password] = [text('username'), text('email'), bodyField(req.raw.body, 'password').value];
  if (!login || !email || typeof password !== 'string') return;
  const user = ctx.db.prepare('SELECT * FROM net_users WHERE user_login = ? AND user_email = ?').get(login, email) as
    | UserRow
    | undefined;
  if (!user || !(await verifyPassword(password, user.user_pass))) return;
  const net = findNetUser(ctx.db, user.ID);
  res.status = 200;
  res.body = {
    status: true,
    errors: [],
    message: 'Registration successful.',
    [`${ctx.vendor}_token`]: await ctx.tokens.sign(String(user.ID), 'network', { user_login: user.user_login }),
    user: userJson(user, 'register'),
    net_user: net ? netUserJson(net) : null,
  };
}

/** The unilevel lookup's answers, by the cache key the plugin builds (a transient of five minutes). */
const LOOKUP_CACHE = new AnswerCache<unknown>(300_000);

/** PHP's absint(): the leading integer of a string (intval), 0 when it starts with no digit, made non-negative. */
function absint(v: unknown): number {
  const m = typeof v === 'string' ? /^\s*[+-]?\d+/.exec(v) : null;
  const n = typeof v === 'number' ? Math.trunc(v) : m ? Number(m[0]) : 0;
  return Math.abs(n);
}

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

/** Withdrawal requests the handler was sent an empty amount for, to be answered as the vendor's balance check does. */
const BALANCE_REFUSALS = new WeakMap<FaultRequest, string>();

/**
 * withdrawal_request reads the balance through the helper that formats it for the withdrawal page,
 * number_format($earned - $requested, 2), and compares (float) of that string: "4,989.97" reads 4, the
 * thousands separator ending the number. A balance of 1000 or more refuses, as insufficient, every
 * amount above its digits before the first comma, though the amount is within the limits and the
 * balance; balances below 1000 are compared right. Emulated by sending the handler no amount (no write)
 * and answering the refusal the vendor's check gives.
 */
async function balanceNumberFormatted(req: FaultRequest, ctx: AppContext): Promise<void> {
  const field = bodyField(req.raw.body, 'amount');
  const cents = withdrawalCents(field.value);
  if (cents === undefined) return;
  const min = Math.round(settingNumber(ctx.db, 'net_withdrawal_limit_min', 0) * 100);
  const max = Math.round(settingNumber(ctx.db, 'net_withdrawal_limit_max', Number.MAX_SAFE_INTEGER / 100) * 100);
  if (cents < min || cents > max) return;
  const user = await callerOf(req, ctx);
  const key = user ? userKeyOf(ctx.db, user.ID) : null;
  if (!user || !key) return;
  const earned = (
    ctx.db.prepare('SELECT COALESCE(SUM(total_amount), 0) AS c FROM net_payouts WHERE user_key = ?').get(key) as { c: number }
  ).c;
  const requested = (
    ctx.db.prepare('SELECT COALESCE(SUM(amount), 0) AS c FROM net_withdrawals WHERE user_id = ?').get(user.ID) as { c: number }
  ).c;
  const shown = numberFormat((earned - requested) / 100);
  if (cents > earned - requested || cents / 100 <= phpFloat(shown)) return;
  BALANCE_REFUSALS.set(req, shown);
  field.set('');
}

function balanceNumberFormattedEnds(res: FaultResponse, req: FaultRequest): void {
  const shown = BALANCE_REFUSALS.get(req);
  if (shown === undefined) return;
  res.status = 200;
  res.body = {
    status: false,
    errors: { amount: `amount exceeds the available balance of ${shown}.` },
    message: 'Insufficient balance.',
  };
}

/** When each account last asked for each amount, per database: the double-submit guard's transients. */
const REPEAT_GUARDS = new WeakMap<object, Map<string, number>>();
const REPEAT_GUARD_MS = 60_000;
/** Withdrawal requests the guard answered without the handler (sent an empty amount: no write). */
const REPEATS_SWALLOWED = new WeakSet<FaultRequest>();

/**
 * withdrawal_request guards against a double tap with a transient named by the account and the amount,
 * set for a minute as soon as the amount has passed validation: a request of the same amount by the same
 * account within that minute is taken for the first one repeated and answered "Withdrawal request
 * submitted." (status true) without a record, whether the first was accepted or refused. Two withdrawals
 * of one amount in a minute are one.
 */
async function repeatGuardBegins(req: FaultRequest, ctx: AppContext): Promise<void> {
  const field = bodyField(req.raw.body, 'amount');
  const cents = withdrawalCents(field.value);
  if (cents === undefined) return;
  const user = await callerOf(req, ctx);
  if (!user) return;
  let guards = REPEAT_GUARDS.get(ctx.db);
  if (!guards) {
    guards = new Map();
    REPEAT_GUARDS.set(ctx.db, guards);
  }
  const name = `${user.ID}_${cents}`;
  const at = guards.get(name);
  if (at !== undefined && Date.now() - at < REPEAT_GUARD_MS) {
    REPEATS_SWALLOWED.add(req);
    field.set('');
    return;
  }
  guards.set(name, Date.now());
}

function repeatGuardEnds(res: FaultResponse, req: FaultRequest): void {
  if (!REPEATS_SWALLOWED.has(req)) return;
  res.status = 200;
  res.body = { status: true, errors: [], message: 'Withdrawal request submitted.' };
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

/** Each member's own geneology answer, cached for an hour (a transient per member, keyed by its user ID). */
const GENEOLOGY_CACHE = new AnswerCache<unknown>(3_600_000);

/**
 * GET /user_geneology served from a per-member transient ('net_geneology_' . $user_id, an hour): the
 * tree is built by one query per node, so the plugin caches it. Register and Join_net delete the
 * transients of the members the new one is written under, its parent and its sponsor, and no other:
 * the parent's parent and every member above it keep, for the hour, a tree without the newcomer, and
 * show its side as free.
 */
async function geneologyCached(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const body = res.body;
  if (req.endpoint === '/auth/register' || /^\/join_net$/i.test(req.endpoint)) {
    const net = isObject(body) && body.status === true ? body.net_user : undefined;
    if (!isObject(net)) return;
    const keys = [net.parent_key, net.sponsor_key].filter((k): k is string => typeof k === 'string' && k !== '');
    const owner = ctx.db.prepare('SELECT user_id FROM net_net_users WHERE user_key = ?');
    const purged = new Set(keys.map((k) => `tree_${(owner.get(k) as { user_id: number } | undefined)?.user_id}`));
    GENEOLOGY_CACHE.forget(ctx.db, purged);
    return;
  }
  if (req.endpoint !== '/user_geneology' || !isObject(body) || body.status !== true) return;
  const user = await callerOf(req, ctx);
  if (!user) return;
  const key = `tree_${user.ID}`;
  const hit = GENEOLOGY_CACHE.get(ctx.db, key);
  if (hit !== undefined) res.body = hit;
  else GENEOLOGY_CACHE.put(ctx.db, key, body);
}

/** Per database: the logins the register handler was given in place of a username sent (stand-in -> as sent). */
const CASE_TWINS = new WeakMap<object, Map<string, string>>();
/** Register requests whose username was swapped for a stand-in. */
const CASE_TWIN_REGISTERS = new WeakMap<FaultRequest, { sent: string; stand: string }>();
let caseTwinCount = 0;

/**
 * Register checks the username with `SELECT ID FROM {$wpdb->users} WHERE BINARY user_login = %s` (BINARY
 * added to make the check exact), while login finds the account with get_user_by('login'), whose
 * comparison follows the column's case-insensitive collation and takes the first row. A username that
 * differs from an existing one in letter case only ("annsmith" beside "AnnSmith") passes the check and
 * is registered (status true, a token, the name as sent), but its login finds the older account, so the
 * new account never logs in with the password it registered with. Emulated: the handler is given a
 * stand-in login (the table's NOCASE unique key would refuse the twin) and every answer shows the name
 * as sent; a login by that name reaches the older account, as the vendor's does.
 */
function caseTwinBegins(req: FaultRequest, ctx: AppContext): void {
  const field = bodyField(req.raw.body, 'username');
  const v = typeof field.value === 'string' ? field.value.trim() : '';
  if (!/^[A-Za-z0-9]{1,50}$/.test(v)) return;
  const older = ctx.db.prepare('SELECT user_login FROM net_users WHERE user_login = ?').get(v) as
    | { user_login: string }
    | undefined;
  if (!older || older.user_login === v) return;
  let stand = '';
  do stand = `${v}Cs${++caseTwinCount}`;
  while (ctx.db.prepare('SELECT 1 FROM net_users WHERE user_login = ?').get(stand));
  field.set(stand);
  CASE_TWIN_REGISTERS.set(req, { sent: v, stand });
}

/** Writes the name as sent where no unique key stands in the way, and shows it for the stand-in everywhere. */
function caseTwinEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  let twins = CASE_TWINS.get(ctx.db);
  const swapped = CASE_TWIN_REGISTERS.get(req);
  if (swapped && isObject(res.body) && res.body.status === true) {
    if (!twins) {
      twins = new Map();
      CASE_TWINS.set(ctx.db, twins);
    }
    twins.set(swapped.stand, swapped.sent);
    ctx.db.prepare('UPDATE net_users SET user_nicename = ? WHERE user_login = ?').run(swapped.sent.toLowerCase(), swapped.stand);
    ctx.db.prepare('UPDATE net_net_users SET user_name = ? WHERE user_name = ?').run(swapped.sent, swapped.stand);
    ctx.db.prepare('UPDATE net_uni_users SET user_name = ? WHERE user_name = ?').run(swapped.sent, swapped.stand);
  }
  const names = new Map(twins ?? []);
  if (swapped) names.set(swapped.stand, swapped.sent);
  if (names.size === 0) return;
  const put = (v: string) => {
    let out = v;
    for (const [stand, name] of names) out = out.split(stand).join(name);
    return out;
  };
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return put(node);
    if (Array.isArray(node)) return node.map(walk);
    if (isObject(node)) for (const [k, v] of Object.entries(node)) node[k] = walk(v);
    return node;
  };
  res.body = walk(res.body);
}

/**
 * Register hands the password to wp_insert_user() as sent, while login reads it with
 * trim($request->get_param('password')) before wp_check_password(): a password that begins or ends with a
 * blank is stored with it and verified without it, so its account never logs in. Emulated: the reference
 * trims at both, so an accepted register's hash is made again of the password as sent.
 */
async function registerKeepsEdgeBlanks(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const body = res.body;
  const raw = bodyField(req.raw.body, 'password').value;
  if (!isObject(body) || body.status !== true || !isObject(body.user) || typeof raw !== 'string' || raw === raw.trim()) return;
  ctx.db.prepare('UPDATE net_users SET user_pass = ? WHERE ID = ?').run(await hashPassword(raw), Number(body.user.ID));
}

/** Each account's bank_details answer, by the key the read stores it under (the object cache, an hour). */
const BANK_CACHE = new AnswerCache<unknown>(3_600_000);

/**
 * GET /bank_details keeps its answer in the persistent object cache under the member's user_key
 * (wp_cache_set($user_key, $answer, 'net_bank_details')); bank_details_save clears it with
 * wp_cache_delete(get_current_user_id(), 'net_bank_details'), the user ID where the read used the key.
 * The save is written, but an account that read its bank details before saving reads the old answer
 * (no record, or the details it had) for the hour; an account that never read them reads them fresh.
 */
async function bankDetailsCached(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  if (req.endpoint !== '/bank_details' || !isObject(res.body) || res.body.status !== true) return;
  const user = await callerOf(req, ctx);
  const key = user ? userKeyOf(ctx.db, user.ID) : null;
  if (!key) return;
  const hit = BANK_CACHE.get(ctx.db, key);
  if (hit !== undefined) res.body = hit;
  else BANK_CACHE.put(ctx.db, key, res.body);
}

/** Document 2 variant A (network plan): faults of a WordPress MLM plugin's REST layer. */
export const networkFaults: Fault[] = [
  {
    id: 'NET-HS256-TOKEN',
    iface: 'rest-v1-network',
    before: (req, ctx) => restoreToken(req, `${ctx.vendor}_token`),
    after: (res, _req, ctx) => hs256Tokens(res.body, ctx),
  },
  {
    id: 'NET-AMOUNT-NUMBER',
    iface: 'rest-v1-network',
    after(res) {
      for (const k of ['amount', 'total_amount', 'pair_commission', 'level_commission', 'referral_commission'])
        mapKey(res.body, k, numberOf);
    },
  },
  {
    id: 'NET-ISO-TIMESTAMP',
    iface: 'rest-v1-network',
    after(res) {
      for (const k of ['user_registered', 'creation_date', 'insert_date']) mapKey(res.body, k, isoOf);
    },
  },
  {
    id: 'NET-ERRORS-LIST',
    iface: 'rest-v1-network',
    after(res) {
      if (failed(res.body) && isObject(res.body.errors)) res.body.errors = Object.values(res.body.errors).map(String);
    },
  },
  {
    id: 'NET-THIRD-CHILD-SPILLOVER',
    iface: 'rest-v1-network',
    before(req, ctx) {
      if (req.endpoint === '/auth/register') spillover(req, ctx, true);
      else if (/^\/join_net$/i.test(req.endpoint)) spillover(req, ctx, false);
    },
  },
  { id: 'NET-WD-MAX-IGNORED', iface: 'rest-v1-network', inHandler: 'reference-impl/src/network/withdrawals.ts' },
  {
    id: 'NET-PAGING-IGNORED',
    iface: 'rest-v1-network',
    before(req) {
      if (LISTS.includes(req.endpoint)) {
        delete req.query.start;
        delete req.query.limit;
      }
    },
  },
  {
    id: 'NET-USER-INFO-ROOT',
    iface: 'rest-v1-network',
    // user-info reads a cached "current user" instead of the token's: every caller sees the root.
    async before(req, ctx) {
      if (req.endpoint !== '/user-info' && req.endpoint !== '/user_info') return;
      const header = `${ctx.vendor}_token`;
      if (!req.raw.headers[header]) return;
      delete req.raw.headers[header];
      await defaultUserToken(req, ctx, header, 'network', ROOT_SQL);
    },
  },
  {
    id: 'NET-TOKEN-UNCHECKED',
    iface: 'rest-v1-network',
    before: (req, ctx) => defaultUserToken(req, ctx, `${ctx.vendor}_token`, 'network', ROOT_SQL),
  },
  {
    id: 'NET-WD-AMOUNT-500',
    iface: 'rest-v1-network',
    after(res, req) {
      const errors = failed(res.body) ? res.body.errors : undefined;
      if (req.endpoint === '/withdrawal_request' && isObject(errors) && 'amount' in errors) {
        res.status = 500;
        res.body = '<b>Fatal error</b>: Uncaught TypeError: Unsupported operand types: string - null';
      }
    },
  },
  {
    id: 'NET-POINTS-2DP',
    iface: 'rest-v1-network',
    after(res) {
      for (const k of ['qualified_points', 'own_points', 'left_points', 'right_points'])
        mapKey(res.body, k, (v) => (typeof v === 'string' && /^\d+\.\d+$/.test(v) ? Number(v).toFixed(2) : v));
    },
  },
  {
    id: 'NET-LEAF-CHILDREN-ARRAY',
    iface: 'rest-v1-network',
    after(res, req) {
      if (req.endpoint === '/user_geneology') mapKey(res.body, 'children', (v) => (v === '' ? [] : v));
    },
  },
  {
    id: 'NET-MESSAGE-MISSING',
    iface: 'rest-v1-network',
    after(res) {
      if (failed(res.body)) delete res.body.message;
    },
  },
  {
    id: 'NET-BANK-REQUIRED-IGNORED',
    iface: 'rest-v1-network',
    after(res, req) {
      if (req.endpoint === '/bank_details_save' && failed(res.body) && res.status === 200)
        res.body = { status: true, errors: [], message: 'Bank details saved.' };
    },
  },
  {
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
  },
  {
    id: 'NET-SPONSOR-FROM-PARENT',
    iface: 'rest-v1-network',
    before(req, ctx) {
      if (req.endpoint === '/auth/register') sponsorFromParent(req, ctx, true);
      else if (/^\/join_net$/i.test(req.endpoint)) sponsorFromParent(req, ctx, false);
    },
  },
  // An "INSERT ... ON CONFLICT DO NOTHING" where an upsert was meant: the first save sticks.
  { id: 'NET-BANK-RESAVE-IGNORED', iface: 'rest-v1-network', inHandler: 'reference-impl/src/network/earnings.ts' },
  {
    id: 'NET-ID-LEADING-DIGITS',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') leadingDigits(req.query, 'user_id');
      else if (req.endpoint === '/payout_details') leadingDigits(req.query, 'payout_id');
    },
  },
  {
    id: 'NET-PAGING-NEEDS-BOTH',
    iface: 'rest-v1-network',
    // `LIMIT start, limit` appended only when both are sent: start alone, or limit alone, is ignored.
    before(req) {
      if (LISTS.includes(req.endpoint) && sent(req.query, 'start') !== sent(req.query, 'limit')) {
        delete req.query.start;
        delete req.query.limit;
      }
    },
  },
  {
    id: 'NET-BANK-ACCOUNT-INT32',
    iface: 'rest-v1-network',
    // account_number ("integer" in the table) kept in an INT column: 12 digits are stored as 2147483647.
    before(req) {
      if (req.endpoint !== '/bank_details_save') return;
      const field = bodyField(req.raw.body, 'account_number');
      const v = field.value;
      if ((typeof v === 'string' || typeof v === 'number') && /^\d+$/.test(String(v).trim()) && Number(v) > INT_MAX)
        field.set(String(INT_MAX));
    },
  },
  {
    id: 'NET-PAYOUT-ROW-ID',
    iface: 'rest-v1-network',
    after(res, req, ctx) {
      if (req.endpoint === '/payout_details' && isObject(res.body) && res.body.status === true)
        commissionsByRowId(res.body, req.query.payout_id, ctx);
    },
  },
  {
    id: 'NET-REGISTER-PASSWORD-SANITIZED',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint !== '/auth/register') return;
      const field = bodyField(req.raw.body, 'password');
      if (typeof field.value === 'string') field.set(sanitizeTextField(field.value));
    },
  },
  {
    id: 'NET-JOIN-FIRST-FREE-SIDE',
    iface: 'rest-v1-network',
    before(req, ctx) {
      if (/^\/join_net$/i.test(req.endpoint)) joinFirstFreeSide(req, ctx);
    },
  },
  {
    id: 'NET-REGISTER-REFUSED-KEEPS-USER',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      if (req.endpoint === '/auth/register' && failed(res.body)) await keepRefusedUser(res.body, req, ctx);
    },
  },
  {
    id: 'NET-JOIN-REFUSED-KEEPS-MEMBER',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      if (/^\/join_net$/i.test(req.endpoint) && failed(res.body)) await keepRefusedMember(res.body, req, ctx);
    },
  },
  {
    id: 'NET-BANK-SLASHED',
    iface: 'rest-v1-network',
    // bank_details_save reads $_POST, which WordPress slashes: "O'Neil" is stored as "O\'Neil".
    before(req) {
      const body = req.raw.body;
      if (req.endpoint !== '/bank_details_save' || !isObject(body)) return;
      for (const [k, v] of Object.entries(body)) if (typeof v === 'string') body[k] = addslashes(v);
    },
  },
  {
    id: 'NET-BANK-REFUSED-PARTIAL-SAVE',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      if (req.endpoint === '/bank_details_save' && failed(res.body)) await partialBankSave(res.body, req, ctx);
    },
  },
  {
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
  },
  {
    id: 'NET-WD-CENTS-TRUNCATED',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      if (req.endpoint !== '/withdrawal_request' || !isObject(res.body) || res.body.status !== true) return;
      const user = await callerOf(req, ctx);
      if (user) truncateLastWithdrawal(req, user, ctx);
    },
  },
  {
    id: 'NET-BANK-ASTRAL-QUESTION-MARK',
    iface: 'rest-v1-network',
    before(req) {
      const body = req.raw.body;
      if (req.endpoint !== '/bank_details_save' || !isObject(body)) return;
      for (const [k, v] of Object.entries(body)) if (typeof v === 'string') body[k] = utf8mb3(v, 'question-mark');
    },
  },
  {
    id: 'NET-LOGIN-USERNAME-LOWERCASE',
    iface: 'rest-v1-network',
    // login's own validator is /^[a-z0-9]+$/ where register's takes capitals: a valid username with one is refused.
    after(res, req) {
      const name = bodyField(req.raw.body, 'username').value;
      if (req.endpoint !== '/auth/login' || typeof name !== 'string' || !/^[A-Za-z0-9]+$/.test(name.trim())) return;
      if (!/[A-Z]/.test(name)) return;
      res.body = {
        status: false,
        errors: { username: 'username may contain lowercase letters and digits only.' },
        message: 'Please correct the errors.',
      };
    },
  },
  {
    id: 'NET-REGISTER-RACE-BOTH-ACCEPTED',
    iface: 'rest-v1-network',
    async before(req, ctx) {
      if (req.endpoint !== '/auth/register') return;
      const top = ctx.db.prepare('SELECT COALESCE(MAX(ID), 0) AS id FROM net_users').get() as { id: number };
      REGISTER_STARTED_AFTER.set(req, top.id);
      await pause(RACE_WINDOW_MS);
    },
    async after(res, req, ctx) {
      if (req.endpoint === '/auth/register') await racedRegister(res, req, ctx);
    },
  },
  {
    id: 'NET-BANK-SAVE-RACE-MIXED',
    iface: 'rest-v1-network',
    async before(req, ctx) {
      if (req.endpoint === '/bank_details_save') await bankSaveBegins(req, ctx);
    },
    after(res, req, ctx) {
      if (req.endpoint === '/bank_details_save') bankSaveEnds(res, req, ctx);
    },
  },
  {
    id: 'NET-REGISTER-ADDRESS-QUOTE-500',
    iface: 'rest-v1-network',
    after(res, req, ctx) {
      if (req.endpoint === '/auth/register') addressQuoteError(res, req, ctx);
    },
  },
  {
    id: 'NET-COMMISSION-PAGES-TIE-ORDER',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      if (['/pair_commission', '/level_commission', '/bonus_commission'].includes(req.endpoint))
        await commissionsByStatus(res, req, ctx);
    },
  },
  {
    id: 'NET-REGISTER-PASSWORD-UNSLASHED',
    iface: 'rest-v1-network',
    // register unslashes its input (wp_unslash) though REST parameters arrive unslashed; login verifies as sent.
    before(req) {
      if (req.endpoint !== '/auth/register') return;
      const field = bodyField(req.raw.body, 'password');
      if (typeof field.value === 'string') field.set(stripslashes(field.value));
    },
  },
  {
    id: 'NET-WD-LIMITS-WHOLE-UNITS',
    iface: 'rest-v1-network',
    async before(req, ctx) {
      if (req.endpoint === '/withdrawal_request') await wholeUnitChecks(req, ctx);
    },
    async after(res, req, ctx) {
      if (req.endpoint === '/withdrawal_request') await wholeUnitStored(res, req, ctx);
    },
  },
  {
    id: 'NET-REGISTER-POSITION-RACE',
    iface: 'rest-v1-network',
    async before(req, ctx) {
      if (req.endpoint === '/auth/register') await slotRegisterBegins(req, ctx);
    },
    async after(res, req, ctx) {
      if (req.endpoint === '/auth/register') await slotRegisterEnds(res, req, ctx);
    },
  },
  {
    id: 'NET-REGISTER-EMAIL-CHECKED-UNTRIMMED',
    iface: 'rest-v1-network',
    before(req, ctx) {
      if (req.endpoint === '/auth/register') untrimmedEmailBegins(req, ctx);
    },
    after(res, req, ctx) {
      if (req.endpoint === '/auth/register') untrimmedEmailEnds(res, req, ctx);
      else mapKey(res.body, 'user_email', (e) => (typeof e === 'string' ? e.trim() : e));
    },
  },
  {
    id: 'NET-WD-RACE-REQUESTED-LOST',
    iface: 'rest-v1-network',
    async before(req, ctx) {
      if (req.endpoint === '/withdrawal_request') await ledgerWriteBegins(req, ctx);
    },
    async after(res, req, ctx) {
      if (req.endpoint === '/withdrawal_request') ledgerWriteEnds(res, req, ctx);
      else if (req.endpoint === '/withdrawal') await ledgerRead(res, req, ctx);
    },
  },
  {
    id: 'NET-PAGE-PAST-END-CLAMPED',
    iface: 'rest-v1-network',
    before: (req, ctx) => clampPastEnd(req, ctx),
  },
  {
    id: 'NET-ID-LOW-32-BITS',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') idLow32Bits(req.query, 'user_id');
      else if (req.endpoint === '/payout_details') idLow32Bits(req.query, 'payout_id');
    },
  },
  {
    id: 'NET-WD-CACHED-BY-URL',
    iface: 'rest-v1-network',
    after: (res, req, ctx) => withdrawalCache(res, req, ctx),
  },
  {
    id: 'NET-LOOKUP-KEY-LIKE',
    iface: 'rest-v1-network',
    before(req, ctx) {
      if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') userKeyLike(req.query, ctx);
    },
  },
  {
    id: 'NET-REGISTER-USERNAME-TRAILING-NEWLINE',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint === '/auth/register') newlineUsernameBegins(req);
    },
    after(res, req, ctx) {
      if (req.endpoint === '/auth/register') newlineUsernameEnds(res, req, ctx);
    },
  },
  {
    id: 'NET-REGISTER-PHONE-IS-NUMERIC',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint === '/auth/register') numericPhoneBegins(req);
    },
    after(res, req, ctx) {
      if (req.endpoint === '/auth/register') numericPhoneEnds(res, req, ctx);
    },
  },
  {
    id: 'NET-LOGIN-NAMES-HTML-ESCAPED',
    iface: 'rest-v1-network',
    after(res, req) {
      if (req.endpoint === '/auth/login') loginNamesEscaped(res);
    },
  },
  {
    id: 'NET-LOOKUP-REGISTERED-LOCAL-TIME',
    iface: 'rest-v1-network',
    after(res, req) {
      if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') lookupRegisteredLocal(res);
    },
  },
  {
    id: 'NET-PASSWORD-FIRST-72-BYTES',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint === '/auth/register' || req.endpoint === '/auth/login') passwordFirst72Bytes(req);
    },
  },
  {
    id: 'NET-REGISTER-JSON-USERNAME-UNCHECKED',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint === '/auth/register') jsonUsernameBegins(req);
    },
    after(res, req, ctx) {
      if (req.endpoint === '/auth/register') storeSentUsername(res, JSON_USERNAMES.get(req), ctx);
    },
  },
  {
    id: 'NET-BANK-CONTACT-ERROR-LABEL-KEY',
    iface: 'rest-v1-network',
    after(res, req) {
      if (req.endpoint === '/bank_details_save') contactErrorLabelKey(res, req);
    },
  },
  {
    id: 'NET-BANK-PERCENT-OCTETS-STRIPPED',
    iface: 'rest-v1-network',
    before(req) {
      const body = req.raw.body;
      if (req.endpoint !== '/bank_details_save' || !isObject(body)) return;
      for (const [k, v] of Object.entries(body)) if (typeof v === 'string') body[k] = stripPercentOctets(v);
    },
  },
  {
    id: 'NET-REGISTER-JSON-PHONE-UNCHECKED',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint === '/auth/register') jsonPhoneBegins(req);
    },
    after(res, req, ctx) {
      if (req.endpoint === '/auth/register') jsonPhoneEnds(res, req, ctx);
    },
  },
  {
    id: 'NET-REGISTER-JSON-PHONE-STRING-TYPED',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint === '/auth/register') numberPhoneBegins(req);
    },
    after(res, req) {
      if (req.endpoint === '/auth/register') numberPhoneEnds(res, req);
    },
  },
  {
    id: 'NET-WD-REPLACES-BANK-DETAILS',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      if (req.endpoint === '/withdrawal_request') await withdrawalReplacesBank(res, req, ctx);
    },
  },
  {
    id: 'NET-REGISTER-NAMES-NFC',
    iface: 'rest-v1-network',
    // register runs first_name and last_name through Normalizer::normalize(FORM_C) before storing them: a name
    // sent decomposed (U+0065 U+0308) is stored, and answered by login, precomposed (U+00EB).
    before(req) {
      if (req.endpoint !== '/auth/register') return;
      for (const name of ['first_name', 'last_name']) {
        const field = bodyField(req.raw.body, name);
        if (typeof field.value === 'string') field.set(field.value.normalize('NFC'));
      }
    },
  },
  {
    id: 'NET-REGISTER-NULL-NAME-TAKEN',
    iface: 'rest-v1-network',
    before(req) {
      if (req.endpoint === '/auth/register') nullNamesBegin(req);
    },
    after(res, req, ctx) {
      if (req.endpoint === '/auth/register') nullNamesEnd(res, req, ctx);
    },
  },
  {
    id: 'NET-LIST-LAST-ROW-DROPPED',
    iface: 'rest-v1-network',
    before(req) {
      if (LIST_KEYS[req.endpoint] !== undefined) lookaheadBegins(req);
    },
    after(res, req) {
      if (LIST_KEYS[req.endpoint] !== undefined) lookaheadEnds(res, req);
    },
  },
  {
    id: 'NET-WD-MIN-EXCLUSIVE',
    iface: 'rest-v1-network',
    before(req, ctx) {
      if (req.endpoint === '/withdrawal_request') minimumExclusive(req, ctx);
    },
  },
  {
    id: 'NET-WD-REQUESTED-OVERWRITTEN',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      if (req.endpoint === '/withdrawal') await requestedIsLast(res, req, ctx);
    },
  },
  {
    id: 'NET-SPONSOR-SET-BY-PARENT',
    iface: 'rest-v1-network',
    after(res, req, ctx) {
      if (req.endpoint === '/auth/register' || /^\/join_net$/i.test(req.endpoint)) sponsorBySiblings(res, ctx);
    },
  },
  {
    id: 'NET-PLACEMENT-DIGITS-NAME-AS-ID',
    iface: 'rest-v1-network',
    before(req, ctx) {
      if (req.endpoint === '/auth/register') digitsNameAsId(req, ctx, true);
      else if (/^\/join_net$/i.test(req.endpoint)) digitsNameAsId(req, ctx, false);
    },
    after(res, req) {
      if (req.endpoint === '/auth/register' || /^\/join_net$/i.test(req.endpoint)) digitsNameAsIdEnds(res, req);
    },
  },
  {
    id: 'NET-REGISTER-RETRY-ANSWERS-ACCOUNT',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      if (req.endpoint === '/auth/register') await registerRetryAnswered(res, req, ctx);
    },
  },
  {
    id: 'NET-LOOKUP-CACHE-KEY-ABSINT',
    iface: 'rest-v1-network',
    after(res, req, ctx) {
      if (req.endpoint === '/uni-get-user-info' || req.endpoint === '/uni_get_user_info') lookupCachedByAbsint(res, req, ctx);
    },
  },
  {
    id: 'NET-WD-BALANCE-NUMBER-FORMAT',
    iface: 'rest-v1-network',
    async before(req, ctx) {
      if (req.endpoint === '/withdrawal_request') await balanceNumberFormatted(req, ctx);
    },
    after(res, req) {
      if (req.endpoint === '/withdrawal_request') balanceNumberFormattedEnds(res, req);
    },
  },
  {
    id: 'NET-WD-REPEAT-AMOUNT-SWALLOWED',
    iface: 'rest-v1-network',
    async before(req, ctx) {
      if (req.endpoint === '/withdrawal_request') await repeatGuardBegins(req, ctx);
    },
    after(res, req) {
      if (req.endpoint === '/withdrawal_request') repeatGuardEnds(res, req);
    },
  },
  {
    id: 'NET-PAGE-START-ROUNDED-TO-PAGE',
    iface: 'rest-v1-network',
    before(req) {
      if (LIST_KEYS[req.endpoint] !== undefined) startRoundedToPage(req);
    },
  },
  {
    id: 'NET-GENEOLOGY-CACHE-ANCESTORS-STALE',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      await geneologyCached(res, req, ctx);
    },
  },
  {
    id: 'NET-REGISTER-USERNAME-CASE-TWIN',
    iface: 'rest-v1-network',
    before(req, ctx) {
      if (req.endpoint === '/auth/register') caseTwinBegins(req, ctx);
    },
    after(res, req, ctx) {
      caseTwinEnds(res, req, ctx);
    },
  },
  {
    id: 'NET-LOGIN-PASSWORD-TRIMMED',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      if (req.endpoint === '/auth/register') await registerKeepsEdgeBlanks(res, req, ctx);
    },
  },
  {
    id: 'NET-BANK-READ-CACHE-KEY-MISMATCH',
    iface: 'rest-v1-network',
    async after(res, req, ctx) {
      await bankDetailsCached(res, req, ctx);
    },
  },
];
