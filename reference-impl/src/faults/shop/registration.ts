import type { AppContext } from '../../context.js';
import { bodyOf, str } from '../../http/body.js';
import { hashPassword } from '../../passwords.js';
import { now, type ShopUser } from '../../shop/common.js';
import { InFlight, pause, urldecode, utf8mb3 } from '../emulation.js';
import { bodyField, type Fault, isObject } from '../model.js';
import { failed, refusedFor } from './shared.js';

/** WordPress remove_accents(), meant for slugs and usernames: Latin letters lose their accents, other scripts stay. */
const LETTERS: Record<string, string> = {
  Ø: 'O',
  ø: 'o',
  Æ: 'AE',
  æ: 'ae',
  ß: 's',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Œ: 'OE',
  œ: 'oe',
};

function removeAccents(v: string): string {
  return v
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ØøÆæßŁłĐđŒœ]/g, (c) => LETTERS[c] ?? c);
}

/** Registers in flight, by lower-case username and e-mail (SHOP-REGISTER-RACE-DUPLICATE). */
const REGISTERING = new InFlight<object>();

/** Registers that overlapped an identical one. */
const RACED = new WeakSet<object>();

/**
 * The time between the handler's existence check and its insert (wp_hash_password, then user and meta rows written
 * one by one); long enough that two registers sent at once overlap also on a loaded machine (two fault runs on two cores).
 */
const CHECK_TO_INSERT_MS = 80;

/** The success answer of register for `user` (a token and the user record without the names), as the handler gives it. */
async function registeredAnswer(ctx: AppContext, user: ShopUser, email = user.user_email) {
  return {
    status: true,
    errors: [],
    message: 'Registration successful.',
    [`${ctx.vendor}_token`]: await ctx.tokens.sign(String(user.id), 'shop', { user_login: user.user_login, last_login: now() }),
    user: {
      ID: String(user.id),
      user_login: user.user_login,
      user_nicename: user.user_nicename,
      user_email: email,
      user_url: user.user_url,
      user_registered: user.user_registered,
      user_activation_key: user.user_activation_key,
      user_status: String(user.user_status),
      display_name: user.display_name,
    },
  };
}

/** SHOP-REGISTER-EMPTY-NAMES: the names a register sent empty, by request, stood in for while the handler checks them. */
const EMPTY_NAMES = new WeakMap<object, string[]>();

/** Register bodies whose username passed the pattern with a line feed at its end: the name as sent. */
const NEWLINE_USERNAMES = new WeakMap<object, string>();

export const nameAccentsStripped: Fault = {
  id: 'SHOP-NAME-ACCENTS-STRIPPED',
  iface: 'rest-v1-shop',
  // Register runs first_name and last_name through the username sanitizer (remove_accents): "Zoë" is stored as "Zoe".
  before(req) {
    if (req.endpoint !== '/auth/register') return;
    for (const name of ['first_name', 'last_name']) {
      const field = bodyField(req.raw.body, name);
      if (typeof field.value === 'string') field.set(removeAccents(field.value));
    }
  },
};

export const registerNamesAfterInsert: Fault = {
  id: 'SHOP-REGISTER-NAMES-AFTER-INSERT',
  iface: 'rest-v1-shop',
  // The account is created (wp_create_user with username, password and email) before the names are checked and
  // set: a register refused for a missing first_name or last_name leaves the account behind, so its login works.
  async after(res, req, ctx) {
    if (req.endpoint !== '/auth/register' || !refusedFor(res.body, ['first_name', 'last_name'])) return;
    const { body } = bodyOf(req.raw);
    const [username, email, password] = [str(body.username), str(body.email), str(body.password)];
    if (!username || !email || !password) return;
    const taken = ctx.db
      .prepare('SELECT 1 FROM shop_users WHERE user_login = ? COLLATE NOCASE OR user_email = ? COLLATE NOCASE')
      .get(username, email);
    if (taken) return;
    const [first, last] = [str(body.first_name) ?? '', str(body.last_name) ?? ''];
    ctx.db
      .prepare(
        `INSERT INTO shop_users (user_login, user_email, user_pass, user_nicename, user_registered, display_name, first_name, last_name)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(username, email, await hashPassword(password), username.toLowerCase(), now(), username, first, last);
  },
};

export const nameAstralStripped: Fault = {
  id: 'SHOP-NAME-ASTRAL-STRIPPED',
  iface: 'rest-v1-shop',
  // The user meta table is utf8 (utf8mb3): wpdb strips what its columns cannot store, so a character outside the
  // BMP (an emoji) leaves first_name and last_name while the register answers success.
  before(req) {
    if (req.endpoint !== '/auth/register') return;
    for (const name of ['first_name', 'last_name']) {
      const field = bodyField(req.raw.body, name);
      if (typeof field.value === 'string') field.set(utf8mb3(field.value, 'stripped'));
    }
  },
};

export const registerRaceDuplicate: Fault = {
  id: 'SHOP-REGISTER-RACE-DUPLICATE',
  iface: 'rest-v1-shop',
  // register checks that the username and e-mail are free, then inserts, with no UNIQUE index and no lock in
  // between: two identical registers sent together both pass the check, and both create the account. Emulated at the
  // edge (the reference's table has the constraints): a register that overlapped an identical one and was refused
  // as taken is answered as the racing handler answers, with a token and the user record.
  async before(req, ctx) {
    if (req.endpoint !== '/auth/register' || req.method !== 'POST') return;
    const { body } = bodyOf(req.raw);
    const [username, email] = [str(body.username), str(body.email)];
    if (!username || !email) return;
    const key = `${username.toLowerCase()}\n${email.toLowerCase()}`;
    const twins = REGISTERING.begin(ctx.db, key, req.raw);
    for (const twin of twins) RACED.add(twin);
    if (twins.length > 0) RACED.add(req.raw);
    await pause(CHECK_TO_INSERT_MS);
  },
  async after(res, req, ctx) {
    const key = REGISTERING.end(req.raw);
    if (key === undefined) return;
    if (!RACED.has(req.raw) || !refusedFor(res.body, ['username', 'email']) || !isObject(res.body)) return;
    if (!Object.values(res.body.errors as Record<string, unknown>).every((m) => /exist/i.test(String(m)))) return;
    const [username, email] = key.split('\n');
    const user = ctx.db.prepare('SELECT * FROM shop_users WHERE user_login = ? AND user_email = ?').get(username, email) as
      | ShopUser
      | undefined;
    if (!user) return;
    res.status = 200;
    res.body = await registeredAnswer(ctx, user);
  },
};

export const emailPlusDecoded: Fault = {
  id: 'SHOP-EMAIL-PLUS-DECODED',
  iface: 'rest-v1-shop',
  // register runs the e-mail through urldecode() before sanitize_email(), though the form was decoded already: the
  // "+" of a sub-address becomes a space, which sanitize_email drops, so "ann+shop@example.test" is stored (and
  // answered) as "annshop@example.test" while the register answers success.
  before(req) {
    if (req.endpoint !== '/auth/register') return;
    const field = bodyField(req.raw.body, 'email');
    if (typeof field.value !== 'string' || !/[+%]/.test(field.value)) return;
    field.set(urldecode(field.value).replace(/\s+/g, ''));
  },
};

export const registerEmailUntrimmedCheck: Fault = {
  id: 'SHOP-REGISTER-EMAIL-UNTRIMMED-CHECK',
  iface: 'rest-v1-shop',
  // register looks the email up as sent (WHERE user_email = <raw>), then stores it through sanitize_email, which
  // drops the whitespace: " ann@example.test" passes the check and registers a second account with ann's email.
  // Emulated after the handler, which trims first and refuses: the account is inserted under the email as sent (the
  // reference's column is UNIQUE) and answered with the email as the vendor stores it.
  async after(res, req, ctx) {
    if (req.endpoint !== '/auth/register' || !refusedFor(res.body, ['email']) || !isObject(res.body)) return;
    if (!/exist/i.test(String((res.body.errors as Record<string, unknown>).email))) return;
    const { body } = bodyOf(req.raw);
    const sentEmail = typeof body.email === 'string' ? body.email : '';
    const [username, email, password] = [str(body.username), str(body.email), body.password];
    if (!username || !email || email === sentEmail || typeof password !== 'string') return;
    const at = now();
    const [first, last] = [str(body.first_name) ?? '', str(body.last_name) ?? ''];
    const id = ctx.db
      .prepare(
        `INSERT INTO shop_users (user_login, user_email, user_pass, user_nicename, user_registered, display_name, first_name, last_name)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        username,
        sentEmail,
        await hashPassword(password),
        username.toLowerCase(),
        at,
        `${first} ${last}`,
        first,
        last,
      ).lastInsertRowid;
    const user = ctx.db.prepare('SELECT * FROM shop_users WHERE id = ?').get(id) as ShopUser;
    res.status = 200;
    res.body = await registeredAnswer(ctx, user, email);
  },
};

export const registerEmptyNames: Fault = {
  id: 'SHOP-REGISTER-EMPTY-NAMES',
  iface: 'rest-v1-shop',
  // register checks its required fields with isset(): username, password and email then go through WordPress's own
  // checks (empty_user_login, empty e-mail), but first_name and last_name only need to be present, so a name sent as
  // "" (or blanks, which the add-on trims) registers an account without it; a missing name is refused as before.
  before(req) {
    if (req.endpoint !== '/auth/register' || req.method !== 'POST') return;
    const empty: string[] = [];
    for (const name of ['first_name', 'last_name']) {
      const field = bodyField(req.raw.body, name);
      if (typeof field.value !== 'string' || field.value.trim() !== '') continue;
      field.set('-');
      empty.push(name);
    }
    if (empty.length > 0) EMPTY_NAMES.set(req.raw, empty);
  },
  after(res, req, ctx) {
    const empty = EMPTY_NAMES.get(req.raw);
    if (!empty || !isObject(res.body) || res.body.status !== true || !isObject(res.body.user)) return;
    const user = res.body.user;
    const row = ctx.db.prepare('SELECT user_login, first_name, last_name FROM shop_users WHERE id = ?').get(Number(user.ID)) as
      | { user_login: string; first_name: string; last_name: string }
      | undefined;
    if (!row) return;
    const names = { first_name: row.first_name, last_name: row.last_name };
    for (const name of empty) names[name as keyof typeof names] = '';
    // wp_insert_user() falls back to the login for a display name of no name at all.
    const display = `${names.first_name} ${names.last_name}`.trim() || row.user_login;
    ctx.db
      .prepare('UPDATE shop_users SET first_name = ?, last_name = ?, display_name = ? WHERE id = ?')
      .run(names.first_name, names.last_name, display, Number(user.ID));
    if (typeof user.display_name === 'string') user.display_name = display;
  },
};

export const registerUsernameTrailingNewline: Fault = {
  id: 'SHOP-REGISTER-USERNAME-TRAILING-NEWLINE',
  iface: 'rest-v1-shop',
  // register tests the username with preg_match('/^[a-zA-Z0-9]+$/') without the D modifier, and reads it with
  // $request->get_param() (no trim): PCRE's $ matches before a final line feed, so "name\n" passes and is stored
  // as sent, user_login and user_nicename with the line feed.
  before(req) {
    if (req.endpoint !== '/auth/register' || req.method !== 'POST') return;
    const field = bodyField(req.raw.body, 'username');
    const v = field.value;
    if (typeof v !== 'string' || !/^[A-Za-z0-9]+\n$/.test(v)) return;
    // The reference trims it and checks the rest: the handler gets the letters and digits, the account the name sent.
    field.set(v.slice(0, -1));
    NEWLINE_USERNAMES.set(req.raw, v);
  },
  after(res, req, ctx) {
    const name = NEWLINE_USERNAMES.get(req.raw);
    const body = res.body;
    if (name === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
    ctx.db
      .prepare('UPDATE shop_users SET user_login = ?, user_nicename = ? WHERE id = ?')
      .run(name, name.toLowerCase(), Number(body.user.ID));
    body.user.user_login = name;
    body.user.user_nicename = name.toLowerCase();
  },
};

export const usernameLowercased: Fault = {
  id: 'SHOP-USERNAME-LOWERCASED',
  iface: 'rest-v1-shop',
  // register stores the username as strtolower(sanitize_user($username)), so that "Ann" and "ann" cannot both exist:
  // a username with capitals is stored, and answered as user_login at register and login, in lower case. Login by
  // the name as registered still works (the user table's collation ignores case); an all lower-case name reads as before.
  before(req) {
    if (req.endpoint !== '/auth/register' || req.method !== 'POST') return;
    const field = bodyField(req.raw.body, 'username');
    if (typeof field.value === 'string') field.set(field.value.toLowerCase());
  },
};

export const registerExistsElseif: Fault = {
  id: 'SHOP-REGISTER-EXISTS-ELSEIF',
  iface: 'rest-v1-shop',
  // register tests the clashes as `if (username_exists($u)) {...} elseif (email_exists($e)) {...}`: a username and
  // an e-mail both taken answer the username's error only.
  after(res, req) {
    if (req.endpoint !== '/auth/register' || !failed(res.body) || !isObject(res.body.errors)) return;
    const errors = res.body.errors;
    if (/exist/i.test(String(errors.username ?? '')) && /exist/i.test(String(errors.email ?? ''))) delete errors.email;
  },
};
