import type Database from 'better-sqlite3';

/**
 * Tables of document 2 variant A. Money is stored in integer cents and points in thousandths so
 * sums never drift; the API formats them as the decimal strings of the document. UNIQUE and
 * FOREIGN KEY constraints carry the rules: one account per login and e-mail, one child per
 * (parent, side) of the binary tree, one bank record per user, commissions tied to a payout.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS net_users (
  ID INTEGER PRIMARY KEY AUTOINCREMENT,
  user_login TEXT NOT NULL UNIQUE COLLATE NOCASE,
  user_pass TEXT NOT NULL,
  user_nicename TEXT NOT NULL,
  user_email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  user_url TEXT NOT NULL DEFAULT '',
  user_registered TEXT NOT NULL,
  user_activation_key TEXT NOT NULL DEFAULT '',
  user_status INTEGER NOT NULL DEFAULT 0,
  display_name TEXT NOT NULL,
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS net_net_users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL UNIQUE REFERENCES net_users(ID),
  user_name TEXT NOT NULL,
  user_key TEXT NOT NULL UNIQUE,
  parent_key TEXT REFERENCES net_net_users(user_key),
  sponsor_key TEXT REFERENCES net_net_users(user_key),
  position TEXT CHECK (position IN ('left', 'right')),
  qualified_points INTEGER NOT NULL DEFAULT 0,
  own_points INTEGER NOT NULL DEFAULT 0,
  left_points INTEGER NOT NULL DEFAULT 0,
  right_points INTEGER NOT NULL DEFAULT 0,
  creation_date TEXT NOT NULL,
  payment_status TEXT NOT NULL DEFAULT '0',
  payment_date TEXT NOT NULL DEFAULT '0000-00-00 00:00:00',
  network_row INTEGER NOT NULL,
  -- a binary parent has at most one child per side; the root alone has neither parent nor side
  UNIQUE (parent_key, position),
  CHECK ((parent_key IS NULL) = (position IS NULL))
);
CREATE TABLE IF NOT EXISTS net_uni_users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL UNIQUE REFERENCES net_users(ID),
  user_name TEXT NOT NULL,
  user_key TEXT NOT NULL UNIQUE,
  parent_key TEXT REFERENCES net_uni_users(user_key),
  sponsor_key TEXT REFERENCES net_uni_users(user_key),
  payment_status TEXT NOT NULL DEFAULT '0',
  level INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT '1',
  created_at TEXT NOT NULL,
  paid_at TEXT NOT NULL DEFAULT '0000-00-00 00:00:00',
  network_row INTEGER NOT NULL
);
-- keyed by the member's user_key, binary or unilevel (the key is shared by both records)
CREATE TABLE IF NOT EXISTS net_bank_details (
  user_key TEXT PRIMARY KEY,
  account_holder TEXT NOT NULL,
  account_number TEXT NOT NULL,
  bank_name TEXT NOT NULL,
  branch TEXT NOT NULL,
  ifsc_code TEXT NOT NULL,
  contact_number TEXT NOT NULL,
  insert_date TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS net_payouts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_key TEXT NOT NULL REFERENCES net_net_users(user_key),
  payout_id INTEGER NOT NULL,
  pair_commission INTEGER NOT NULL DEFAULT 0,
  referral_commission INTEGER NOT NULL DEFAULT 0,
  level_commission INTEGER NOT NULL DEFAULT 0,
  bonus_amount INTEGER NOT NULL DEFAULT 0,
  total_points INTEGER NOT NULL DEFAULT 0,
  total_amount INTEGER NOT NULL DEFAULT 0,
  tax INTEGER NOT NULL DEFAULT 0,
  service_charge INTEGER NOT NULL DEFAULT 0,
  insert_date TEXT NOT NULL,
  UNIQUE (user_key, payout_id)
);
CREATE TABLE IF NOT EXISTS net_ref_commission (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_key TEXT NOT NULL REFERENCES net_net_users(user_key),
  child_key TEXT NOT NULL REFERENCES net_net_users(user_key),
  amount INTEGER NOT NULL,
  status TEXT NOT NULL,
  payout_id INTEGER,
  order_id TEXT NOT NULL DEFAULT '0',
  date_notified TEXT NOT NULL,
  FOREIGN KEY (user_key, payout_id) REFERENCES net_payouts(user_key, payout_id)
);
CREATE TABLE IF NOT EXISTS net_pair_commission (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_key TEXT NOT NULL REFERENCES net_net_users(user_key),
  childs TEXT NOT NULL,
  amount INTEGER NOT NULL,
  status TEXT NOT NULL,
  payout_id INTEGER,
  insert_date TEXT NOT NULL,
  FOREIGN KEY (user_key, payout_id) REFERENCES net_payouts(user_key, payout_id)
);
CREATE TABLE IF NOT EXISTS net_bonus_commission (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_key TEXT NOT NULL REFERENCES net_net_users(user_key),
  amount INTEGER NOT NULL,
  bonus_count INTEGER NOT NULL,
  status TEXT NOT NULL,
  payout_id INTEGER,
  insert_date TEXT NOT NULL,
  FOREIGN KEY (user_key, payout_id) REFERENCES net_payouts(user_key, payout_id)
);
CREATE TABLE IF NOT EXISTS net_level_commission (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_key TEXT NOT NULL REFERENCES net_net_users(user_key),
  sponsor_key TEXT NOT NULL REFERENCES net_net_users(user_key),
  amount INTEGER NOT NULL,
  level INTEGER NOT NULL,
  status TEXT NOT NULL,
  payout_id INTEGER,
  insert_date TEXT NOT NULL,
  FOREIGN KEY (user_key, payout_id) REFERENCES net_payouts(user_key, payout_id)
);
CREATE TABLE IF NOT EXISTS net_withdrawals (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES net_users(ID),
  amount INTEGER NOT NULL CHECK (amount > 0),
  withdrawal_fee INTEGER NOT NULL DEFAULT 0,
  witholding_tax INTEGER NOT NULL DEFAULT 0,
  tax_status TEXT NOT NULL DEFAULT '0',
  withdrawal_initiated TEXT NOT NULL DEFAULT '1',
  withdrawal_mode TEXT NOT NULL DEFAULT '',
  other_method TEXT NOT NULL DEFAULT '',
  withdrawal_initiated_comment TEXT NOT NULL DEFAULT '',
  withdrawal_initiated_date TEXT NOT NULL,
  payment_processed TEXT NOT NULL DEFAULT '0',
  payment_processed_date TEXT NOT NULL DEFAULT '0000-00-00',
  payment_mode TEXT NOT NULL DEFAULT '',
  transaction_id TEXT NOT NULL DEFAULT '',
  user_bank_name TEXT NOT NULL DEFAULT '',
  user_bank_account_no TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS net_withdrawals_user ON net_withdrawals(user_id);
CREATE TABLE IF NOT EXISTS net_general_setting (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

export function migrate(db: Database.Database): void {
  db.exec(DDL);
}
