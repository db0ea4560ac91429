import type Database from 'better-sqlite3';
import { bodyOf } from '../http/body.js';
import { withCaller } from './earnings.js';
import { generalSetting, type Row, settingNumber, withdrawalJson } from './records.js';
import { fail, type Json, money, now, ok, originOf, unreadableBody } from './util.js';

const LABELS = {
  total_balance: 'Total Balance',
  requested_amount: 'Requested Amount',
  pending_withdrawal: 'Pending Withdrawal',
  amount: 'Amount',
  withdrawal_fee: 'Withdrawal Fee',
  witholding_tax: 'Withholding Tax',
  withdrawal_initiated_date: 'Requested On',
  payment_processed: 'Processed',
  payment_processed_date: 'Processed On',
  transaction_id: 'Transaction ID',
  submit: 'Request Withdrawal',
};

interface Balance {
  /** Earned (payout totals) minus every withdrawal requested, processed or not: what can still be requested. */
  available: number;
  /** Sum of every withdrawal requested. */
  requested: number;
  /** Sum of requests not yet processed. */
  pending: number;
}

function balanceOf(db: Database.Database, userId: number, key: string | null): Balance {
  const earned = key
    ? (db.prepare('SELECT COALESCE(SUM(total_amount), 0) AS c FROM net_payouts WHERE user_key = ?').get(key) as { c: number }).c
    : 0;
  const w = db
    .prepare(
      `SELECT COALESCE(SUM(amount), 0) AS requested,
              COALESCE(SUM(CASE WHEN payment_processed = '0' THEN amount ELSE 0 END), 0) AS pending
       FROM net_withdrawals WHERE user_id = ?`,
    )
    .get(userId) as { requested: number; pending: number };
  return { available: earned - w.requested, requested: w.requested, pending: w.pending };
}

/** GET /withdrawal: balance, limits, labels and the caller's history (status true: the request succeeded). */
export const withdrawalInfo = withCaller((request, caller, key, ctx) => {
  const b = balanceOf(ctx.db, caller.userId, key);
  const rows = ctx.db.prepare('SELECT * FROM net_withdrawals WHERE user_id = ? ORDER BY id').all(caller.userId) as Row[];
  return ok('Withdrawal information.', {
    withdrawal_info: {
      user_key: key ?? '',
      total_balance: money(b.available),
      requested_amount: money(b.requested),
      pending_withdrawal: money(b.pending),
    },
    general_setting: generalSetting(ctx.db, originOf(request)),
    language: LABELS,
    all_withdrawal_data: rows.map(withdrawalJson),
  });
});

/** A positive decimal with at most two places, from a number or a numeric string; else undefined. */
function amountCents(v: unknown): number | undefined {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*\d{1,12}(\.\d+)?\s*$/.test(v)) n = Number(v);
  else return undefined;
  if (!Number.isFinite(n) || n < 0 || n > 1e12) return undefined;
  const cents = Math.round(n * 100);
  return Math.abs(cents - n * 100) < 1e-6 ? cents : undefined;
}

/**
 * POST /withdrawal_request: amount within [net_withdrawal_limit_min, net_withdrawal_limit_max] and
 * within the balance. The balance check and the insert share one transaction, so parallel requests
 * can never together overdraw the balance.
 */
export const withdrawalRequest = withCaller((request, caller, key, ctx): Json => {
  const { body, valid } = bodyOf(request);
  if (!valid) return unreadableBody();
  const raw = body.amount;
  if (raw === undefined || raw === null || raw === '') {
    return fail('Please correct the errors.', { amount: 'amount is required.' });
  }
  const cents = amountCents(raw);
  if (cents === undefined) {
    return fail('Please correct the errors.', { amount: 'amount must be a positive number with at most two decimals.' });
  }
  if (cents <= 0) return fail('Please correct the errors.', { amount: 'amount must be greater than zero.' });
  const db = ctx.db;
  const min = Math.round(settingNumber(db, 'net_withdrawal_limit_min', 0) * 100);
  const max = Math.round(settingNumber(db, 'net_withdrawal_limit_max', Number.MAX_SAFE_INTEGER / 100) * 100);
  if (cents < min) return fail('Amount is below the minimum withdrawal.', { amount: `amount must be at least ${money(min)}.` });
  // Fault catalog NET-WD-MAX-IGNORED: a vendor that checks the minimum only.
  if (cents > max && ctx.fault !== 'NET-WD-MAX-IGNORED')
    return fail('Amount is above the maximum withdrawal.', { amount: `amount must be at most ${money(max)}.` });
  return db.transaction((): Json => {
    const b = balanceOf(db, caller.userId, key);
    if (cents > b.available) {
      return fail('Insufficient balance.', { amount: `amount exceeds the available balance of ${money(b.available)}.` });
    }
    const bank = key
      ? (db.prepare('SELECT bank_name, account_number FROM net_bank_details WHERE user_key = ?').get(key) as
          | { bank_name: string; account_number: string }
          | undefined)
      : undefined;
    db.prepare(
      `INSERT INTO net_withdrawals (user_id, amount, withdrawal_mode, withdrawal_initiated_date, user_bank_name, user_bank_account_no)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(caller.userId, cents, bank ? 'bank' : '', now(), bank?.bank_name ?? '', bank?.account_number ?? '');
    return ok('Withdrawal request submitted.');
  })();
});
