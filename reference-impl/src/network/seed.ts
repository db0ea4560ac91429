import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import { hashPasswordSync } from '../passwords.js';
import { serializeKeys } from './placement.js';

/** Shape of `fixtures/seed/network.json` (money as decimal strings, points with 3 places). */
interface SeedUser {
  username: string;
  password: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  address: string;
  user_key: string;
  sponsor?: string;
  parent?: string;
  position?: 'left' | 'right';
  /** false: an account with a unilevel record but no binary position (joins through /Join_net). */
  binary?: boolean;
  uni_sponsor?: string;
  registered: string;
  payment_status: string;
  payment_date?: string;
  own_points?: string;
  left_points?: string;
  right_points?: string;
  qualified_points?: string;
}
type Rec = Record<string, string | number | null | string[]>;
interface SeedFile {
  general_setting: Record<string, string>;
  users: SeedUser[];
  payouts: Rec[];
  pair_commission: Rec[];
  ref_commission: Rec[];
  level_commission: Rec[];
  bonus_commission: Rec[];
  bank_details: Rec[];
  withdrawals: Rec[];
}

const cents = (v: unknown): number => Math.round(Number(v ?? 0) * 100);
const milli = (v: unknown): number => Math.round(Number(v ?? 0) * 1000);

export function seed(ctx: AppContext): void {
  const data = JSON.parse(readFileSync(join(ctx.fixturesDir, 'network.json'), 'utf8')) as SeedFile;
  const db = ctx.db;
  const ins = (table: string, row: Record<string, unknown>) => {
    const cols = Object.keys(row);
    return db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(row);
  };
  for (const [name, value] of Object.entries(data.general_setting)) ins('net_general_setting', { name, value });

  const keyOf = new Map<string, string>();
  const idOf = new Map<string, number>();
  const depth = new Map<string, number>();
  const uniLevel = new Map<string, number>();
  for (const u of data.users) {
    keyOf.set(u.username, u.user_key);
    const id = Number(
      ins('net_users', {
        user_login: u.username,
        user_pass: hashPasswordSync(u.password),
        user_nicename: u.username.toLowerCase(),
        user_email: u.email,
        user_registered: u.registered,
        display_name: `${u.first_name} ${u.last_name}`,
        first_name: u.first_name,
        last_name: u.last_name,
        phone: u.phone,
        address: u.address,
      }).lastInsertRowid,
    );
    idOf.set(u.username, id);
    // Users are listed parents first, so the parent's depth is known.
    const parentDepth = u.parent ? (depth.get(u.parent) ?? 0) : -1;
    depth.set(u.username, parentDepth + 1);
    if (u.binary !== false) {
      ins('net_net_users', {
        user_id: id,
        user_name: u.username,
        user_key: u.user_key,
        parent_key: u.parent ? keyOf.get(u.parent) : null,
        sponsor_key: u.sponsor ? keyOf.get(u.sponsor) : null,
        position: u.position ?? null,
        qualified_points: milli(u.qualified_points),
        own_points: milli(u.own_points),
        left_points: milli(u.left_points),
        right_points: milli(u.right_points),
        creation_date: u.registered,
        payment_status: u.payment_status,
        payment_date: u.payment_date ?? '0000-00-00 00:00:00',
        network_row: parentDepth + 2,
      });
    }
    const uniSponsor = u.sponsor ?? u.uni_sponsor;
    const level = uniSponsor ? (uniLevel.get(uniSponsor) ?? 0) + 1 : 0;
    uniLevel.set(u.username, level);
    ins('net_uni_users', {
      user_id: id,
      user_name: u.username,
      user_key: u.user_key,
      // In the unilevel plan every member hangs directly under its sponsor.
      parent_key: uniSponsor ? keyOf.get(uniSponsor) : null,
      sponsor_key: uniSponsor ? keyOf.get(uniSponsor) : null,
      payment_status: u.payment_status,
      level,
      created_at: u.registered,
      paid_at: u.payment_date ?? '0000-00-00 00:00:00',
      network_row: level + 1,
    });
  }

  const key = (name: unknown): string => {
    const k = keyOf.get(String(name));
    if (!k) throw new Error(`network seed: unknown user ${String(name)}`);
    return k;
  };
  for (const p of data.payouts) {
    const gross = cents(p.pair_commission) + cents(p.referral_commission) + cents(p.level_commission) + cents(p.bonus_amount);
    ins('net_payouts', {
      user_key: key(p.user),
      payout_id: p.payout_id,
      pair_commission: cents(p.pair_commission),
      referral_commission: cents(p.referral_commission),
      level_commission: cents(p.level_commission),
      bonus_amount: cents(p.bonus_amount),
      total_points: milli(p.total_points),
      total_amount: gross - cents(p.tax) - cents(p.service_charge),
      tax: cents(p.tax),
      service_charge: cents(p.service_charge),
      insert_date: p.insert_date,
    });
  }
  for (const c of data.pair_commission) {
    const childs = (c.childs as string[]).map(key);
    ins('net_pair_commission', {
      user_key: key(c.user),
      childs: serializeKeys(childs),
      amount: cents(c.amount),
      status: c.status,
      payout_id: c.payout_id,
      insert_date: c.insert_date,
    });
  }
  for (const c of data.ref_commission) {
    ins('net_ref_commission', {
      user_key: key(c.user),
      child_key: key(c.child),
      amount: cents(c.amount),
      status: c.status,
      payout_id: c.payout_id,
      order_id: c.order_id,
      date_notified: c.date_notified,
    });
  }
  for (const c of data.level_commission) {
    ins('net_level_commission', {
      user_key: key(c.user),
      sponsor_key: key(c.sponsor),
      amount: cents(c.amount),
      level: c.level,
      status: c.status,
      payout_id: c.payout_id,
      insert_date: c.insert_date,
    });
  }
  for (const c of data.bonus_commission) {
    ins('net_bonus_commission', {
      user_key: key(c.user),
      amount: cents(c.amount),
      bonus_count: c.bonus_count,
      status: c.status,
      payout_id: c.payout_id,
      insert_date: c.insert_date,
    });
  }
  for (const b of data.bank_details) {
    const { user, ...rest } = b;
    ins('net_bank_details', { ...rest, user_key: key(user) });
  }
  for (const w of data.withdrawals) {
    const { user, amount, ...rest } = w;
    const bank = db.prepare('SELECT bank_name, account_number FROM net_bank_details WHERE user_key = ?').get(key(user)) as
      | { bank_name: string; account_number: string }
      | undefined;
    ins('net_withdrawals', {
      ...rest,
      user_id: idOf.get(String(user)),
      amount: cents(amount),
      user_bank_name: bank?.bank_name ?? '',
      user_bank_account_no: bank?.account_number ?? '',
    });
  }
}
