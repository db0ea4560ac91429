import type Database from 'better-sqlite3';
import { type Json, money, points, s } from './util.js';

/** Row types and their shapes in the document (Part 2). Every scalar is rendered as a string. */

export interface UserRow {
  ID: number;
  user_login: string;
  user_pass: string;
  user_nicename: string;
  user_email: string;
  user_url: string;
  user_registered: string;
  user_activation_key: string;
  user_status: number;
  display_name: string;
  first_name: string;
  last_name: string;
}

export interface NetUserRow {
  id: number;
  user_id: number;
  user_name: string;
  user_key: string;
  parent_key: string | null;
  sponsor_key: string | null;
  position: 'left' | 'right' | null;
  qualified_points: number;
  own_points: number;
  left_points: number;
  right_points: number;
  creation_date: string;
  payment_status: string;
  payment_date: string;
  network_row: number;
}

export type Row = Record<string, unknown>;

/**
 * user: login adds first_name and last_name ("the last two on login only"); user-info adds
 * user_pass (the document says it returns the hash, so only the owner ever sees it).
 */
export function userJson(u: UserRow, view: 'login' | 'register' | 'info' | 'public'): Json {
  const out: Json = {
    ID: s(u.ID),
    user_login: u.user_login,
    user_nicename: u.user_nicename,
    user_email: u.user_email,
    user_url: u.user_url,
    user_registered: u.user_registered,
    user_activation_key: u.user_activation_key,
    user_status: s(u.user_status),
    display_name: u.display_name,
  };
  if (view === 'login') {
    out.first_name = u.first_name;
    out.last_name = u.last_name;
  }
  if (view === 'info') out.user_pass = u.user_pass;
  return out;
}

/** The root of the tree has no parent, sponsor or side: rendered as empty strings. */
export function netUserJson(n: NetUserRow): Json {
  return {
    id: s(n.id),
    user_id: s(n.user_id),
    user_name: n.user_name,
    user_key: n.user_key,
    parent_key: s(n.parent_key),
    sponsor_key: s(n.sponsor_key),
    position: s(n.position),
    qualified_points: points(n.qualified_points),
    own_points: points(n.own_points),
    left_points: points(n.left_points),
    right_points: points(n.right_points),
    creation_date: n.creation_date,
    payment_status: n.payment_status,
    payment_date: n.payment_date,
    network_row: s(n.network_row),
  };
}

export function uniUserJson(r: Row): Json {
  return {
    id: s(r.id),
    user_id: s(r.user_id),
    user_name: s(r.user_name),
    user_key: s(r.user_key),
    parent_key: s(r.parent_key),
    sponsor_key: s(r.sponsor_key),
    payment_status: s(r.payment_status),
    level: s(r.level),
    status: s(r.status),
    created_at: s(r.created_at),
    paid_at: s(r.paid_at),
    network_row: s(r.network_row),
  };
}

export function bankJson(r: Row): Json {
  return {
    user_key: s(r.user_key),
    account_holder: s(r.account_holder),
    account_number: s(r.account_number),
    bank_name: s(r.bank_name),
    branch: s(r.branch),
    ifsc_code: s(r.ifsc_code),
    contact_number: s(r.contact_number),
    insert_date: s(r.insert_date),
  };
}

export function payoutJson(r: Row): Json {
  return {
    id: s(r.id),
    user_key: s(r.user_key),
    payout_id: s(r.payout_id),
    pair_commission: money(Number(r.pair_commission)),
    referral_commission: money(Number(r.referral_commission)),
    level_commission: money(Number(r.level_commission)),
    bonus_amount: money(Number(r.bonus_amount)),
    total_points: points(Number(r.total_points)),
    total_amount: money(Number(r.total_amount)),
    tax: money(Number(r.tax)),
    service_charge: money(Number(r.service_charge)),
    insert_date: s(r.insert_date),
  };
}

/** Commission rows: amounts in cents become decimal strings, everything else a string. */
export function commissionJson(r: Row): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(r)) out[k] = k === 'amount' ? money(Number(v)) : s(v);
  return out;
}

export function withdrawalJson(r: Row): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(r)) {
    out[k] = k === 'amount' || k === 'withdrawal_fee' || k === 'witholding_tax' ? money(Number(v)) : s(v);
  }
  return out;
}

export const findUserById = (db: Database.Database, id: number): UserRow | undefined =>
  db.prepare('SELECT * FROM net_users WHERE ID = ?').get(id) as UserRow | undefined;

export const findUserByLogin = (db: Database.Database, login: string): UserRow | undefined =>
  db.prepare('SELECT * FROM net_users WHERE user_login = ?').get(login) as UserRow | undefined;

export const findNetUser = (db: Database.Database, userId: number): NetUserRow | undefined =>
  db.prepare('SELECT * FROM net_net_users WHERE user_id = ?').get(userId) as NetUserRow | undefined;

export const findNetUserByName = (db: Database.Database, name: string): NetUserRow | undefined =>
  db.prepare('SELECT n.* FROM net_net_users n JOIN net_users u ON u.ID = n.user_id WHERE u.user_login = ?').get(name) as
    | NetUserRow
    | undefined;

export const findUniUser = (db: Database.Database, userId: number): Row | undefined =>
  db.prepare('SELECT * FROM net_uni_users WHERE user_id = ?').get(userId) as Row | undefined;

/** general_setting as the document lists it; URLs are stored relative and completed with the request's origin. */
export function generalSetting(db: Database.Database, origin: string): Json {
  const rows = db.prepare('SELECT name, value FROM net_general_setting').all() as Array<{ name: string; value: string }>;
  const out: Json = {};
  for (const { name, value } of rows) out[name] = value.startsWith('/') ? `${origin}${value}` : value;
  return out;
}

export function settingNumber(db: Database.Database, name: string, fallback: number): number {
  const row = db.prepare('SELECT value FROM net_general_setting WHERE name = ?').get(name) as { value: string } | undefined;
  const n = row ? Number(row.value) : Number.NaN;
  return Number.isFinite(n) ? n : fallback;
}
