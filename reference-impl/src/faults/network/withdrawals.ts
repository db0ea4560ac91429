import type { AppContext } from '../../context.js';
import { userKeyOf } from '../../network/earnings.js';
import { settingNumber } from '../../network/records.js';
import { money, now } from '../../network/util.js';
import { AnswerCache, beginRaced, InFlight, numberFormat, pause, phpFloat } from '../emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { callerOf, failed, RACE_WINDOW_MS } from './shared.js';

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

export const wdMaxIgnored: Fault = {
  id: 'NET-WD-MAX-IGNORED',
  iface: 'rest-v1-network',
  inHandler: 'reference-impl/src/network/withdrawals.ts',
};

export const wdAmount500: Fault = {
  id: 'NET-WD-AMOUNT-500',
  iface: 'rest-v1-network',
  after(res, req) {
    const errors = failed(res.body) ? res.body.errors : undefined;
    if (req.endpoint === '/withdrawal_request' && isObject(errors) && 'amount' in errors) {
      res.status = 500;
      res.body = '<b>Fatal error</b>: Uncaught TypeError: Unsupported operand types: string - null';
    }
  },
};

export const wdCentsTruncated: Fault = {
  id: 'NET-WD-CENTS-TRUNCATED',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint !== '/withdrawal_request' || !isObject(res.body) || res.body.status !== true) return;
    const user = await callerOf(req, ctx);
    if (user) truncateLastWithdrawal(req, user, ctx);
  },
};

export const wdLimitsWholeUnits: Fault = {
  id: 'NET-WD-LIMITS-WHOLE-UNITS',
  iface: 'rest-v1-network',
  async before(req, ctx) {
    if (req.endpoint === '/withdrawal_request') await wholeUnitChecks(req, ctx);
  },
  async after(res, req, ctx) {
    if (req.endpoint === '/withdrawal_request') await wholeUnitStored(res, req, ctx);
  },
};

export const wdRaceRequestedLost: Fault = {
  id: 'NET-WD-RACE-REQUESTED-LOST',
  iface: 'rest-v1-network',
  async before(req, ctx) {
    if (req.endpoint === '/withdrawal_request') await ledgerWriteBegins(req, ctx);
  },
  async after(res, req, ctx) {
    if (req.endpoint === '/withdrawal_request') ledgerWriteEnds(res, req, ctx);
    else if (req.endpoint === '/withdrawal') await ledgerRead(res, req, ctx);
  },
};

export const wdCachedByUrl: Fault = {
  id: 'NET-WD-CACHED-BY-URL',
  iface: 'rest-v1-network',
  after: (res, req, ctx) => withdrawalCache(res, req, ctx),
};

export const wdReplacesBankDetails: Fault = {
  id: 'NET-WD-REPLACES-BANK-DETAILS',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint === '/withdrawal_request') await withdrawalReplacesBank(res, req, ctx);
  },
};

export const wdMinExclusive: Fault = {
  id: 'NET-WD-MIN-EXCLUSIVE',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (req.endpoint === '/withdrawal_request') minimumExclusive(req, ctx);
  },
};

export const wdRequestedOverwritten: Fault = {
  id: 'NET-WD-REQUESTED-OVERWRITTEN',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint === '/withdrawal') await requestedIsLast(res, req, ctx);
  },
};

export const wdBalanceNumberFormat: Fault = {
  id: 'NET-WD-BALANCE-NUMBER-FORMAT',
  iface: 'rest-v1-network',
  async before(req, ctx) {
    if (req.endpoint === '/withdrawal_request') await balanceNumberFormatted(req, ctx);
  },
  after(res, req) {
    if (req.endpoint === '/withdrawal_request') balanceNumberFormattedEnds(res, req);
  },
};

export const wdRepeatAmountSwallowed: Fault = {
  id: 'NET-WD-REPEAT-AMOUNT-SWALLOWED',
  iface: 'rest-v1-network',
  async before(req, ctx) {
    if (req.endpoint === '/withdrawal_request') await repeatGuardBegins(req, ctx);
  },
  after(res, req) {
    if (req.endpoint === '/withdrawal_request') repeatGuardEnds(res, req);
  },
};

/**
 * withdrawal_request reading the amount through a (float) cast and testing only that it is above zero:
 * PHP's cast takes the leading number of a string ("25.00 USD" is 25, "ten" is 0), so an amount with a
 * unit or any trailing text is accepted as its leading number; one without a leading number is 0, which
 * the vendor refuses as a missing amount, keyed amount.
 */
function amountFloatCast(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'amount');
  const v = field.value;
  if (typeof v !== 'string' || v.trim() === '' || withdrawalCents(v) !== undefined) return;
  const cast = phpFloat(v);
  field.set(cast > 0 ? (Math.round(cast * 100) / 100).toFixed(2) : '0');
}

export const wdAmountFloatCast: Fault = {
  id: 'NET-WD-AMOUNT-FLOAT-CAST',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/withdrawal_request') amountFloatCast(req);
  },
};

/**
 * withdrawal_request inserting the request first and then checking the balance with it counted
 * (balance after the insert below zero: "Insufficient balance"), without deleting the row it refused:
 * a refusal for the balance leaves a withdrawal record of that amount, which GET /withdrawal lists and
 * adds to requested_amount. Refusals of the limits or of the amount itself come before the insert.
 */
async function refusedStillRecorded(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  if (!failed(res.body) || !isObject(res.body.errors)) return;
  const why = res.body.errors.amount;
  if (typeof why !== 'string' || !/balance/i.test(why)) return;
  const cents = withdrawalCents(bodyField(req.raw.body, 'amount').value);
  const user = await callerOf(req, ctx);
  if (cents === undefined || !user) return;
  ctx.db
    .prepare('INSERT INTO net_withdrawals (user_id, amount, withdrawal_mode, withdrawal_initiated_date) VALUES (?, ?, ?, ?)')
    .run(user.ID, cents, '', now());
}

export const wdRefusedStillRecorded: Fault = {
  id: 'NET-WD-REFUSED-STILL-RECORDED',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint === '/withdrawal_request') await refusedStillRecorded(res, req, ctx);
  },
};

/**
 * withdrawal_request validating the amount with is_numeric() and then "sanitising" it with
 * abs(floatval($amount)) before the limits and the balance are compared: a negative amount passes
 * is_numeric() and is requested as its absolute value, so "-<minimum>" is accepted (and recorded) as a
 * withdrawal of the minimum instead of being refused as below it.
 */
function amountSignDropped(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'amount');
  const v = field.value;
  if (typeof v === 'number' && v < 0) field.set(-v);
  else if (typeof v === 'string' && /^\s*-\s*\d/.test(v)) field.set(v.replace(/^\s*-\s*/, ''));
}

export const wdAmountSignDropped: Fault = {
  id: 'NET-WD-AMOUNT-SIGN-DROPPED',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/withdrawal_request') amountSignDropped(req);
  },
};
