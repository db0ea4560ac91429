import type { AppContext } from '../../context.js';
import { insertUniUser, newUserKey } from '../../network/placement.js';
import {
  findNetUser,
  findNetUserByName,
  findUserById,
  type NetUserRow,
  netUserJson,
  type UserRow,
  userJson,
} from '../../network/records.js';
import { now } from '../../network/util.js';
import { hashPassword, verifyPassword } from '../../passwords.js';
import { beginRaced, InFlight, pause } from '../emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { failed, RACE_WINDOW_MS } from './shared.js';

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

export const registerRefusedKeepsUser: Fault = {
  id: 'NET-REGISTER-REFUSED-KEEPS-USER',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint === '/auth/register' && failed(res.body)) await keepRefusedUser(res.body, req, ctx);
  },
};

export const registerRaceBothAccepted: Fault = {
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
};

export const registerAddressQuote500: Fault = {
  id: 'NET-REGISTER-ADDRESS-QUOTE-500',
  iface: 'rest-v1-network',
  after(res, req, ctx) {
    if (req.endpoint === '/auth/register') addressQuoteError(res, req, ctx);
  },
};

export const registerPositionRace: Fault = {
  id: 'NET-REGISTER-POSITION-RACE',
  iface: 'rest-v1-network',
  async before(req, ctx) {
    if (req.endpoint === '/auth/register') await slotRegisterBegins(req, ctx);
  },
  async after(res, req, ctx) {
    if (req.endpoint === '/auth/register') await slotRegisterEnds(res, req, ctx);
  },
};

export const registerRetryAnswersAccount: Fault = {
  id: 'NET-REGISTER-RETRY-ANSWERS-ACCOUNT',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint === '/auth/register') await registerRetryAnswered(res, req, ctx);
  },
};

export const registerUsernameCaseTwin: Fault = {
  id: 'NET-REGISTER-USERNAME-CASE-TWIN',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (req.endpoint === '/auth/register') caseTwinBegins(req, ctx);
  },
  after(res, req, ctx) {
    caseTwinEnds(res, req, ctx);
  },
};
