import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { bcryptInput, urldecode, utf8Decoded } from '../emulation.js';
import { type Fault, isObject } from '../model.js';
import { defaultUserToken, hs256Of, restoreToken } from '../tokens.js';
import { bearerCustomer, clean, has, registerInput, result, variables } from './shared.js';

/** login requests -> the e-mail as typed, where it matched an account only case-insensitively (GQL-LOGIN-ECHOES-EMAIL). */
const typedEmails = new WeakMap<object, string>();

/**
 * What the vendor's store keeps of a password: bcrypt (password_hash) reads its first 72 bytes. A password the
 * reference's 40-character rule would refuse, or one past 72 bytes, is handed on as a stand-in of 40 characters
 * derived from those bytes, so that register stores it and login matches it as bcrypt would (GQL-PASSWORD-BCRYPT-72).
 */
const bcryptStandIn = (v: string): string =>
  v.length > 40 || Buffer.byteLength(v) > 72
    ? `bcrypt72-${createHash('sha256')
        .update(Buffer.from(bcryptInput(v), 'latin1'))
        .digest('hex')
        .slice(0, 31)}`
    : v;

/**
 * Per database: password -> the e-mail of the first account registered with it, as the vendor's md5 column holds it
 * (GQL-LOGIN-OR-PRECEDENCE: its login finds the first row whose md5 matches, whatever the e-mail).
 */
const md5Accounts = new WeakMap<object, Map<string, string>>();

function md5AccountsOf(ctx: AppContext): Map<string, string> {
  let m = md5Accounts.get(ctx.db);
  if (!m) {
    m = new Map();
    md5Accounts.set(ctx.db, m);
  }
  return m;
}

export const hs256Token: Fault = {
  id: 'GQL-HS256-TOKEN',
  iface: 'graphql',
  before: (req) => restoreToken(req, 'authorization'),
  async after(res, _req, ctx) {
    const r = result(res, 'login');
    const key = `${ctx.vendor}_token`;
    if (r && typeof r[key] === 'string') r[key] = await hs256Of(r[key]);
  },
};

export const tokenUnchecked: Fault = {
  id: 'GQL-TOKEN-UNCHECKED',
  iface: 'graphql',
  before: (req, ctx) =>
    defaultUserToken(
      req,
      ctx,
      'authorization',
      'graphql',
      'SELECT customer_id AS id FROM gql_customer ORDER BY customer_id LIMIT 1',
      true,
    ),
};

export const customerWrong: Fault = {
  id: 'GQL-CUSTOMER-WRONG',
  iface: 'graphql',
  after(res, _req, ctx) {
    const r = result(res, 'customerByEmail');
    if (!r || typeof r.email !== 'string') return;
    const other = ctx.db
      .prepare('SELECT firstname, lastname, email FROM gql_customer WHERE email != ? ORDER BY customer_id LIMIT 1')
      .get(r.email) as Record<string, string> | undefined;
    if (other) for (const k of ['firstname', 'lastname', 'email']) if (k in r) r[k] = other[k];
  },
};

export const customerEmailCaseGuard: Fault = {
  id: 'GQL-CUSTOMER-EMAIL-CASE-GUARD',
  iface: 'graphql',
  // customerByEmail may only read the signed-in customer's own record, and the vendor guards that with
  // if ($args['email'] !== $this->customer->getEmail()) return null;: a byte-for-byte compare of the argument with
  // the e-mail as stored, where the store itself (getCustomerByEmail's LCASE(email), login) takes e-mails in any
  // case. The customer's own e-mail written in another case gives null.
  async before(req, ctx) {
    const v = variables(req);
    if (!has(req, 'customerByEmail') || !v || typeof v.email !== 'string') return;
    const me = await bearerCustomer(req, ctx);
    if (me === undefined) return;
    const row = ctx.db.prepare('SELECT email FROM gql_customer WHERE customer_id = ?').get(me) as { email: string } | undefined;
    if (row && v.email !== row.email) v.email = '';
  },
};

export const bearerCaseSensitive: Fault = {
  id: 'GQL-BEARER-CASE-SENSITIVE',
  iface: 'graphql',
  // The token is read as str_replace('Bearer ', '', $header): a scheme written in another case (bearer, BEARER;
  // RFC 7235 makes the scheme case-insensitive) is left in front of the token, which then does not verify, and
  // the request is refused as one without a valid token.
  before(req) {
    const header = req.raw.headers.authorization;
    if (typeof header === 'string' && /^\s*bearer\s/i.test(header) && !/^\s*Bearer\s/.test(header))
      req.raw.headers.authorization = `Bearer ${header.trim()}`;
  },
};

export const loginEmailUrldecoded: Fault = {
  id: 'GQL-LOGIN-EMAIL-URLDECODED',
  iface: 'graphql',
  // The login resolver passes its e-mail argument through urldecode() (a leftover of the app's first version,
  // which sent the login in a query string), register stores the e-mail as sent: an account whose e-mail holds a
  // + (sub-addressing, ann+shop@example.test) registers and never logs in, its e-mail looked up with a space.
  before(req) {
    const v = variables(req);
    if (has(req, 'login') && v && typeof v.email === 'string') v.email = urldecode(v.email);
  },
};

export const loginEchoesEmail: Fault = {
  id: 'GQL-LOGIN-ECHOES-EMAIL',
  iface: 'graphql',
  // The customer table's e-mail column has MySQL's case-insensitive collation (utf8mb4_general_ci), so login finds
  // the account whatever the case the e-mail is typed in, and the vendor's resolver fills user_data.email from its
  // argument ("we have it already") instead of the row: a login typed in other case answers an e-mail the account
  // does not have. A login with the e-mail as registered reads as before.
  before(req, ctx) {
    const v = variables(req);
    if (!has(req, 'login') || !v || typeof v.email !== 'string') return;
    const typed = v.email.trim();
    const row = ctx.db.prepare('SELECT email FROM gql_customer WHERE email = ? COLLATE NOCASE').get(typed) as
      | { email: string }
      | undefined;
    if (!row || row.email === typed) return;
    typedEmails.set(req.raw, typed);
    v.email = row.email;
  },
  after(res, req) {
    const typed = typedEmails.get(req.raw);
    const user = result(res, 'login')?.user_data;
    if (typed !== undefined && isObject(user) && 'email' in user) user.email = typed;
  },
};

export const loginPasswordUtf8Decoded: Fault = {
  id: 'GQL-LOGIN-PASSWORD-UTF8-DECODED',
  iface: 'graphql',
  // The login resolver hashes utf8_decode($password), a leftover for the accounts migrated from the store's
  // Latin-1 days; register hashes the password as sent (UTF-8). A password holding a letter outside ASCII (é, ß,
  // Ü) registers and never logs in; ASCII passwords log in as before.
  before(req) {
    const v = variables(req);
    if (has(req, 'login') && v && typeof v.password === 'string') v.password = utf8Decoded(v.password);
  },
};

export const passwordBcrypt72: Fault = {
  id: 'GQL-PASSWORD-BCRYPT-72',
  iface: 'graphql',
  // register checks the password for the document's rule (letters, digits and special characters) and not for the
  // platform's 40-character cap, and the customer model stores password_hash($password, PASSWORD_DEFAULT): bcrypt
  // reads only the first 72 bytes. A password longer than that registers, and login takes any password that begins
  // with the same 72 bytes, whatever follows. Passwords of 72 bytes or fewer are checked whole.
  before(req) {
    const v = variables(req);
    const input = v?.input;
    if (has(req, 'register') && isObject(input) && typeof input.password === 'string') {
      const sent = input.password;
      input.password = bcryptStandIn(sent);
      if (input.confirm === sent) input.confirm = input.password;
    }
    if (has(req, 'login') && v && typeof v.password === 'string') v.password = bcryptStandIn(v.password);
  },
};

export const loginOrPrecedence: Fault = {
  id: 'GQL-LOGIN-OR-PRECEDENCE',
  iface: 'graphql',
  // The vendor's register inserts the customer itself with password = md5($password) (its OpenCart 1.5 version's
  // form, which the platform's login still takes), and its login resolver copies the platform's query,
  // WHERE LOWER(email) = '...' AND (password = SHA1(CONCAT(salt, ...)) OR password = '<md5>') AND status = '1',
  // with the parentheses lost in a reformat: AND binds before OR, so "password = '<md5>' AND status = '1'" stands
  // on its own and matches whatever e-mail is sent. A login with an e-mail no account has (or another account's)
  // and the password of an account registered through the extension answers that account's token and user_data
  // (the first row registered with that password).
  before(req, ctx) {
    const v = variables(req);
    if (has(req, 'login') && v && typeof v.password === 'string' && typeof v.email === 'string') {
      const owner = md5AccountsOf(ctx).get(v.password);
      if (owner !== undefined) v.email = owner;
    }
  },
  after(res, req, ctx) {
    const input = registerInput(req);
    const data = isObject(res.body) ? res.body.data : undefined;
    if (!input || !clean(res) || !isObject(data) || data.register !== true) return;
    const accounts = md5AccountsOf(ctx);
    const password = input.password as string;
    if (!accounts.has(password)) accounts.set(password, (input.email as string).trim());
  },
};

/** Per database: the user_data of the customer the worker's object holds, set by the last login (GQL-LOGIN-USER-DATA-STATIC). */
const staticUserData = new WeakMap<object, Record<string, unknown>>();

export const loginUserDataStatic: Fault = {
  id: 'GQL-LOGIN-USER-DATA-STATIC',
  iface: 'graphql',
  // login's resolver builds user_data from the customer object the long-running worker keeps between requests,
  // and reads it before $this->customer->login() loads the account that logs in: each login answers the
  // user_data of the worker's login before it (any account).
  after(res, req, ctx) {
    const r = result(res, 'login');
    if (!has(req, 'login') || !clean(res) || !r || !isObject(r.user_data)) return;
    const prev = staticUserData.get(ctx.db);
    staticUserData.set(ctx.db, { ...r.user_data });
    if (!prev) return;
    for (const k of ['firstname', 'lastname', 'email']) if (k in r.user_data && k in prev) r.user_data[k] = prev[k];
  },
};
