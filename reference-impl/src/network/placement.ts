import { randomInt } from 'node:crypto';
import type Database from 'better-sqlite3';
import { findNetUserByName, type NetUserRow } from './records.js';
import type { FieldErrors } from './util.js';

/** Pair commissions list their two children as a PHP-serialized array, as the WordPress plugin stores it. */
export function serializeKeys(keys: string[]): string {
  return `a:${keys.length}:{${keys.map((k, i) => `i:${i};s:${Buffer.byteLength(k)}:"${k}";`).join('')}}`;
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A fresh user_key (10 letters and digits), unique among binary and unilevel members. */
export function newUserKey(db: Database.Database): string {
  const taken = db.prepare(
    'SELECT 1 FROM net_net_users WHERE user_key = ? UNION ALL SELECT 1 FROM net_uni_users WHERE user_key = ?',
  );
  for (;;) {
    let key = '';
    for (let i = 0; i < 10; i++) key += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
    if (!taken.get(key, key)) return key;
  }
}

export interface PlacementInput {
  sponsorName?: string;
  parentName?: string;
  position?: 'left' | 'right';
}

/** The names under which errors are reported: `net_user[...]` at register, plain names at /Join_net. */
export interface PlacementFields {
  sponsor: string;
  parent: string;
  position: string;
}

export interface Placement {
  sponsor: NetUserRow | null;
  parent: NetUserRow | null;
  position: 'left' | 'right' | null;
}

/**
 * Where a new member goes in the binary tree. The documents give the rule "a parent has at most two
 * children (left and right)" and leave the defaults silent, so: no sponsor means the top of the tree;
 * no parent means the bottom of the sponsor's outer leg on the requested side (left by default), so
 * an unplaced registration never takes a free inner position; no position means the parent's first
 * free side.
 * The parent is not required to sit below the sponsor (the documents do not say so).
 * Must run inside the caller's transaction: the UNIQUE (parent_key, position) constraint is the backstop.
 */
export function place(
  db: Database.Database,
  input: PlacementInput,
  fields: PlacementFields,
): { placement: Placement } | { errors: FieldErrors } {
  const root = db.prepare('SELECT * FROM net_net_users WHERE parent_key IS NULL ORDER BY id LIMIT 1').get() as
    | NetUserRow
    | undefined;
  if (!root) return { placement: { sponsor: null, parent: null, position: null } }; // an empty tree: the newcomer is its root

  let sponsor = root;
  if (input.sponsorName) {
    const found = findNetUserByName(db, input.sponsorName);
    if (!found) return { errors: { [fields.sponsor]: `Sponsor "${input.sponsorName}" is not a member of the network.` } };
    sponsor = found;
  }
  const childAt = db.prepare('SELECT * FROM net_net_users WHERE parent_key = ? AND position = ?');
  const freeSides = (n: NetUserRow): Array<'left' | 'right'> =>
    (['left', 'right'] as const).filter((side) => childAt.get(n.user_key, side) === undefined);

  let parent: NetUserRow | undefined;
  if (input.parentName) {
    parent = findNetUserByName(db, input.parentName);
    if (!parent) return { errors: { [fields.parent]: `Parent "${input.parentName}" is not a member of the network.` } };
  } else {
    // Spillover down the sponsor's outer leg on the requested side (left by default), as binary plans do.
    const side = input.position ?? 'left';
    parent = sponsor;
    for (let next = childAt.get(parent.user_key, side) as NetUserRow | undefined; next; ) {
      parent = next;
      next = childAt.get(parent.user_key, side) as NetUserRow | undefined;
    }
  }

  const free = freeSides(parent);
  const position = input.position ?? free[0];
  if (!position) return { errors: { [fields.parent]: `Parent "${parent.user_name}" already has a left and a right child.` } };
  if (!free.includes(position)) {
    return { errors: { [fields.position]: `The ${position} position under "${parent.user_name}" is already taken.` } };
  }
  return { placement: { sponsor, parent, position } };
}

/** Inserts the binary record of `userId` at `placement` (inside the caller's transaction). */
export function insertNetUser(
  db: Database.Database,
  user: { id: number; login: string; key: string; at: string },
  placement: Placement,
): void {
  db.prepare(
    `INSERT INTO net_net_users (user_id, user_name, user_key, parent_key, sponsor_key, position, creation_date, network_row)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    user.id,
    user.login,
    user.key,
    placement.parent?.user_key ?? null,
    placement.sponsor?.user_key ?? null,
    placement.position,
    user.at,
    (placement.parent?.network_row ?? 0) + 1,
  );
}

/** Inserts the unilevel record: in that plan a member hangs directly under its sponsor. */
export function insertUniUser(
  db: Database.Database,
  user: { id: number; login: string; key: string; at: string },
  sponsorKey: string | null,
): void {
  const sponsor = sponsorKey
    ? (db.prepare('SELECT user_key, level FROM net_uni_users WHERE user_key = ?').get(sponsorKey) as
        | { user_key: string; level: number }
        | undefined)
    : undefined;
  const level = sponsor ? sponsor.level + 1 : 0;
  db.prepare(
    `INSERT INTO net_uni_users (user_id, user_name, user_key, parent_key, sponsor_key, level, created_at, network_row)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(user.id, user.login, user.key, sponsor?.user_key ?? null, sponsor?.user_key ?? null, level, user.at, level + 1);
}
