import type { AppContext } from '../../context.js';
import { findNetUser, findUserByLogin, type NetUserRow, netUserJson, userJson } from '../../network/records.js';
import { hashPassword } from '../../passwords.js';
import { bcryptInput, htmlspecialchars } from '../emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { defaultUserToken, hs256Of, restoreToken } from '../tokens.js';

const ROOT_SQL = 'SELECT user_id AS id FROM net_net_users WHERE parent_key IS NULL ORDER BY id LIMIT 1';

/** The token key of login and register answers is `<vendor>_token`. */
async function hs256Tokens(body: unknown, ctx: AppContext): Promise<void> {
  const key = `${ctx.vendor}_token`;
  if (isObject(body) && typeof body[key] === 'string') body[key] = await hs256Of(body[key]);
}

/**
 * Login builds its user record for a page template first: first_name, last_name and display_name go
 * through esc_html() on this path only, so "O'Neil & Co" reads "O&#039;Neil &amp; Co" in the login
 * answer while the account stores, and every other answer carries, the name as registered.
 */
function loginNamesEscaped(res: FaultResponse): void {
  const user = isObject(res.body) && res.body.status === true && isObject(res.body.user) ? res.body.user : undefined;
  if (!user) return;
  for (const key of ['first_name', 'last_name', 'display_name'])
    if (typeof user[key] === 'string') user[key] = htmlspecialchars(user[key]);
}

/**
 * bcrypt reads at most 72 bytes of a password (PHP's password_hash with PASSWORD_BCRYPT, as a pluggable
 * wp_hash_password() of the "bcrypt for WordPress" kind calls it without a pre-hash): register and login
 * both see the password cut there, so a password longer than 72 bytes logs in with any tail.
 */
function passwordFirst72Bytes(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'password');
  // Only past 72 bytes: the seeded accounts' hashes were made of their passwords whole.
  if (typeof field.value === 'string' && Buffer.byteLength(field.value) > 72) field.set(bcryptInput(field.value));
}

/**
 * Register hands the password to wp_insert_user() as sent, while login reads it with
 * trim($request->get_param('password')) before wp_check_password(): a password that begins or ends with a
 * blank is stored with it and verified without it, so its account never logs in. Emulated: the reference
 * trims at both, so an accepted register's hash is made again of the password as sent.
 */
async function registerKeepsEdgeBlanks(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const body = res.body;
  const raw = bodyField(req.raw.body, 'password').value;
  if (!isObject(body) || body.status !== true || !isObject(body.user) || typeof raw !== 'string' || raw === raw.trim()) return;
  ctx.db.prepare('UPDATE net_users SET user_pass = ? WHERE ID = ?').run(await hashPassword(raw), Number(body.user.ID));
}

export const hs256Token: Fault = {
  id: 'NET-HS256-TOKEN',
  iface: 'rest-v1-network',
  before: (req, ctx) => restoreToken(req, `${ctx.vendor}_token`),
  after: (res, _req, ctx) => hs256Tokens(res.body, ctx),
};

export const userInfoRoot: Fault = {
  id: 'NET-USER-INFO-ROOT',
  iface: 'rest-v1-network',
  // user-info reads a cached "current user" instead of the token's: every caller sees the root.
  async before(req, ctx) {
    if (req.endpoint !== '/user-info' && req.endpoint !== '/user_info') return;
    const header = `${ctx.vendor}_token`;
    if (!req.raw.headers[header]) return;
    delete req.raw.headers[header];
    await defaultUserToken(req, ctx, header, 'network', ROOT_SQL);
  },
};

export const tokenUnchecked: Fault = {
  id: 'NET-TOKEN-UNCHECKED',
  iface: 'rest-v1-network',
  before: (req, ctx) => defaultUserToken(req, ctx, `${ctx.vendor}_token`, 'network', ROOT_SQL),
};

export const loginUsernameLowercase: Fault = {
  id: 'NET-LOGIN-USERNAME-LOWERCASE',
  iface: 'rest-v1-network',
  // login's own validator is /^[a-z0-9]+$/ where register's takes capitals: a valid username with one is refused.
  after(res, req) {
    const name = bodyField(req.raw.body, 'username').value;
    if (req.endpoint !== '/auth/login' || typeof name !== 'string' || !/^[A-Za-z0-9]+$/.test(name.trim())) return;
    if (!/[A-Z]/.test(name)) return;
    res.body = {
      status: false,
      errors: { username: 'username may contain lowercase letters and digits only.' },
      message: 'Please correct the errors.',
    };
  },
};

export const loginNamesHtmlEscaped: Fault = {
  id: 'NET-LOGIN-NAMES-HTML-ESCAPED',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/auth/login') loginNamesEscaped(res);
  },
};

export const passwordCut72Bytes: Fault = {
  id: 'NET-PASSWORD-FIRST-72-BYTES',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/auth/register' || req.endpoint === '/auth/login') passwordFirst72Bytes(req);
  },
};

export const loginPasswordTrimmed: Fault = {
  id: 'NET-LOGIN-PASSWORD-TRIMMED',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint === '/auth/register') await registerKeepsEdgeBlanks(res, req, ctx);
  },
};

/**
 * Login's "silent re-login" path for the mobile app, which keeps the user_pass that user-info answers:
 * if ($password === $user->user_pass || wp_check_password($password, $user->user_pass, $user->ID)). The
 * stored hash itself, sent as the password, logs in: a wrong password (not the account's) accepted.
 */
async function storedHashLogsIn(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const name = bodyField(req.raw.body, 'username').value;
  const password = bodyField(req.raw.body, 'password').value;
  if (!isObject(res.body) || res.body.status !== false || typeof name !== 'string' || typeof password !== 'string') return;
  const user = findUserByLogin(ctx.db, name.trim());
  if (!user || password.trim() === '' || password !== user.user_pass) return;
  const net = findNetUser(ctx.db, user.ID);
  res.status = 200;
  res.body = {
    status: true,
    errors: [],
    message: 'Login successful.',
    [`${ctx.vendor}_token`]: await ctx.tokens.sign(String(user.ID), 'network', { user_login: user.user_login }),
    user: userJson(user, 'login'),
    net_user: net ? netUserJson(net) : null,
  };
}

export const loginStoredHashAccepted: Fault = {
  id: 'NET-LOGIN-STORED-HASH-ACCEPTED',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint === '/auth/login') await storedHashLogsIn(res, req, ctx);
  },
};

/**
 * Register ends with return $this->login($request) to answer the new account with its token: the user
 * record of a register answer is login's, first_name and last_name included.
 */
async function registerAnsweredByLogin(res: FaultResponse, ctx: AppContext): Promise<void> {
  const user = isObject(res.body) && res.body.status === true && isObject(res.body.user) ? res.body.user : undefined;
  const row = user ? findUserByLogin(ctx.db, String(user.user_login)) : undefined;
  if (!row || !isObject(res.body)) return;
  res.body.user = userJson(row, 'login');
  res.body.message = 'Login successful.';
}

export const registerAnswersLogin: Fault = {
  id: 'NET-REGISTER-ANSWERS-LOGIN',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint === '/auth/register') await registerAnsweredByLogin(res, ctx);
  },
};

/**
 * Login reads the account's binary record with $wpdb->get_row("SELECT * FROM {$prefix}net_users WHERE id = %d",
 * $user->ID): the table's own row id where its user_id column was meant. The two agree for the accounts
 * seeded before the first one without a binary position and drift apart after it, so a later account's
 * login answers another member's net_user, or none.
 */
function loginNetUserByRowId(res: FaultResponse, ctx: AppContext): void {
  const body = res.body;
  if (!isObject(body) || body.status !== true || !isObject(body.user)) return;
  const row = ctx.db.prepare('SELECT * FROM net_net_users WHERE id = ?').get(Number(body.user.ID)) as NetUserRow | undefined;
  body.net_user = row ? netUserJson(row) : null;
}

export const loginNetUserRowId: Fault = {
  id: 'NET-LOGIN-NET-USER-BY-ROW-ID',
  iface: 'rest-v1-network',
  after(res, req, ctx) {
    if (req.endpoint === '/auth/login') loginNetUserByRowId(res, ctx);
  },
};
