import type Database from 'better-sqlite3';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { bodyOf, int } from '../http/body.js';
import { bankJson, commissionJson, payoutJson, type Row } from './records.js';
import {
  authenticate,
  type Caller,
  digits,
  type FieldErrors,
  fail,
  hasErrors,
  type Json,
  now,
  ok,
  paging,
  queryOf,
  required,
  unreadableBody,
} from './util.js';

/** The member key of an account: binary and unilevel records share it; null for an account in neither. */
export function userKeyOf(db: Database.Database, userId: number): string | null {
  const row = db
    .prepare(
      `SELECT user_key FROM net_net_users WHERE user_id = ?
       UNION ALL SELECT user_key FROM net_uni_users WHERE user_id = ? LIMIT 1`,
    )
    .get(userId, userId) as { user_key: string } | undefined;
  return row?.user_key ?? null;
}

type Handler = (request: FastifyRequest, caller: Caller, key: string | null, ctx: AppContext) => Json | Promise<Json>;

/** Every endpoint here needs the token; the handler sees only the caller's own key. */
export function withCaller(handler: Handler) {
  return async (request: FastifyRequest, reply: FastifyReply, ctx: AppContext): Promise<Json | undefined> => {
    const caller = await authenticate(request, reply, ctx);
    if (!caller) return undefined;
    return handler(request, caller, userKeyOf(ctx.db, caller.userId), ctx);
  };
}

const BANK_LABELS = {
  holder_name: 'Account Holder Name',
  account_number: 'Account Number',
  bank_name: 'Bank Name',
  branch: 'Branch',
  ifsc_code: 'IFSC Code',
  contact_no: 'Contact Number',
};

export const bankDetails = withCaller((_request, _caller, key, ctx) => {
  const rows = key ? (ctx.db.prepare('SELECT * FROM net_bank_details WHERE user_key = ?').all(key) as Row[]) : [];
  return ok(rows.length > 0 ? 'Bank details.' : 'No bank details saved yet.', {
    bank_details: rows.map(bankJson),
    language: BANK_LABELS,
  });
});

/** Saves (creates or replaces) the caller's one bank record. */
export const bankDetailsSave = withCaller((request, _caller, key, ctx) => {
  const { body, valid } = bodyOf(request);
  if (!valid) return unreadableBody();
  const errors: FieldErrors = {};
  // The record field is account_holder; the table's input is account_holder_name. Either is read.
  const holder = required(errors, 'account_holder_name', body.account_holder_name ?? body.account_holder, 100);
  const accountNumber = digits(errors, 'account_number', body.account_number, 1, 30);
  const bankName = required(errors, 'bank_name', body.bank_name, 100);
  const branch = required(errors, 'branch', body.branch, 100);
  const ifsc = required(errors, 'ifsc_code', body.ifsc_code, 30);
  const contact = digits(errors, 'contact_number', body.contact_number, 1, 20);
  if (hasErrors(errors)) return fail('Please correct the errors.', errors);
  if (!key) return fail('Join the network before saving bank details.');
  // Fault catalog NET-BANK-RESAVE-IGNORED: a vendor's INSERT IGNORE, so only the first save is stored.
  if (ctx.fault === 'NET-BANK-RESAVE-IGNORED' && ctx.db.prepare('SELECT 1 FROM net_bank_details WHERE user_key = ?').get(key))
    return ok('Bank details saved.');
  ctx.db
    .prepare(
      `INSERT INTO net_bank_details (user_key, account_holder, account_number, bank_name, branch, ifsc_code, contact_number, insert_date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_key) DO UPDATE SET account_holder = excluded.account_holder, account_number = excluded.account_number,
         bank_name = excluded.bank_name, branch = excluded.branch, ifsc_code = excluded.ifsc_code,
         contact_number = excluded.contact_number, insert_date = excluded.insert_date`,
    )
    .run(key, holder, accountNumber, bankName, branch, ifsc, contact, now());
  return ok('Bank details saved.');
});

/** A paged list of the caller's rows of one table, ordered by id so pages never overlap. */
function pagedList(table: string, payloadKey: string, render: (r: Row) => Json, label: string) {
  return withCaller((request, _caller, key, ctx) => {
    const paged = paging(queryOf(request));
    if ('errors' in paged) return fail('Please correct the errors.', paged.errors);
    const { page } = paged;
    const rows = key
      ? (ctx.db
          .prepare(`SELECT * FROM ${table} WHERE user_key = ? ORDER BY id LIMIT ? OFFSET ?`)
          .all(key, page.limit, page.start) as Row[])
      : [];
    return ok(rows.length > 0 ? `${label} list.` : `No ${label.toLowerCase()} found.`, { [payloadKey]: rows.map(render) });
  });
}

export const payoutList = pagedList('net_payouts', 'payout', payoutJson, 'Payout');
export const pairCommission = pagedList('net_pair_commission', 'pair_commission', commissionJson, 'Pair commission');
export const levelCommission = pagedList('net_level_commission', 'level_commission', commissionJson, 'Level commission');
export const bonusCommission = pagedList('net_bonus_commission', 'bonus_commission', commissionJson, 'Bonus commission');
/** Not in the table ("path and response: not shown"); offered under the record's own name for completeness. */
export const refCommission = pagedList('net_ref_commission', 'ref_commission', commissionJson, 'Referral commission');

/** One of the caller's payouts with the commissions paid in it; another member's payout is "not found". */
export const payoutDetails = withCaller((request, _caller, key, ctx) => {
  const raw = queryOf(request).payout_id;
  const payoutId = int(raw);
  if (raw === undefined || raw === '') return fail('Please correct the errors.', { payout_id: 'payout_id is required.' });
  if (payoutId === undefined || payoutId < 0) {
    return fail('Please correct the errors.', { payout_id: 'payout_id must be an integer.' });
  }
  const db = ctx.db;
  const payout = key
    ? db.prepare('SELECT 1 FROM net_payouts WHERE user_key = ? AND payout_id = ?').get(key, payoutId)
    : undefined;
  if (!payout || !key) return fail('Payout not found.');
  const of = (table: string) =>
    (db.prepare(`SELECT * FROM ${table} WHERE user_key = ? AND payout_id = ? ORDER BY id`).all(key, payoutId) as Row[]).map(
      commissionJson,
    );
  return ok('Payout details.', {
    user_key: key,
    ref_commission: of('net_ref_commission'),
    pair_commission: of('net_pair_commission'),
    bonus_commission: of('net_bonus_commission'),
    level_commission: of('net_level_commission'),
  });
});
