import type { AppContext } from '../../context.js';
import { bodyOf, str } from '../../http/body.js';
import { AnswerCache, bcryptInput, dateFromGmt, htmlspecialchars, SITE_OFFSET_MINUTES } from '../emulation.js';
import { bodyField, type Fault, isObject, isoOf, mapKey } from '../model.js';
import { defaultUserToken, hs256Of, restoreToken } from '../tokens.js';
import { failed } from './shared.js';

const FIRST_USER_SQL = 'SELECT id FROM shop_users ORDER BY id LIMIT 1';

async function hs256Tokens(body: unknown, ctx: AppContext): Promise<void> {
  const key = `${ctx.vendor}_token`;
  if (isObject(body) && typeof body[key] === 'string') body[key] = await hs256Of(body[key]);
}

/** SHOP-LOGIN-UNKNOWN-CACHED: the add-on's cached lookups of a login name that found no account (5 minutes, by database). */
const LOGIN_MISSES = new AnswerCache<true>(300_000);

export const hs256Token: Fault = {
  id: 'SHOP-HS256-TOKEN',
  iface: 'rest-v1-shop',
  before: (req, ctx) => restoreToken(req, `${ctx.vendor}_token`),
  after: (res, _req, ctx) => hs256Tokens(res.body, ctx),
};

export const tokenUnchecked: Fault = {
  id: 'SHOP-TOKEN-UNCHECKED',
  iface: 'rest-v1-shop',
  before: (req, ctx) => defaultUserToken(req, ctx, `${ctx.vendor}_token`, 'shop', FIRST_USER_SQL),
};

export const isoRegistered: Fault = {
  id: 'SHOP-ISO-REGISTERED',
  iface: 'rest-v1-shop',
  after: (res) => mapKey(res.body, 'user_registered', isoOf),
};

export const errorsList: Fault = {
  id: 'SHOP-ERRORS-LIST',
  iface: 'rest-v1-shop',
  after(res) {
    if (failed(res.body) && isObject(res.body.errors) && Object.keys(res.body.errors).length > 0)
      res.body.errors = Object.values(res.body.errors).map(String);
  },
};

export const loginPasswordTrimmed: Fault = {
  id: 'SHOP-LOGIN-PASSWORD-TRIMMED',
  iface: 'rest-v1-shop',
  // Login hands the password to wp_authenticate(), which trims it; register stored it whole (wp_create_user):
  // a password with a space at either end registers and never logs in.
  before(req) {
    if (req.endpoint !== '/auth/login') return;
    const field = bodyField(req.raw.body, 'password');
    if (typeof field.value === 'string') field.set(field.value.trim());
  },
};

export const loginRegisteredLocalTime: Fault = {
  id: 'SHOP-LOGIN-REGISTERED-LOCAL-TIME',
  iface: 'rest-v1-shop',
  // user_registered is stored in UTC (as WordPress stores it) and register answers the row as stored; the login
  // answer formats the user record for the app and passes the date through get_date_from_gmt(), so it reads the
  // site's local time (+05:30): one account, two registration times five and a half hours apart, in the same format.
  after(res, req) {
    if (req.endpoint !== '/auth/login' || !isObject(res.body) || res.body.status !== true) return;
    const user = res.body.user;
    if (isObject(user))
      if (typeof user.user_registered === 'string') user.user_registered = dateFromGmt(user.user_registered, SITE_OFFSET_MINUTES);
  },
};

export const loginNamesHtmlEscaped: Fault = {
  id: 'SHOP-LOGIN-NAMES-HTML-ESCAPED',
  iface: 'rest-v1-shop',
  // The login answer's user record escapes its text for HTML (esc_html(), as the add-on's account page does) before
  // json_encode: a name registered as "O'Brien & Co" is stored as sent but answered at login as
  // "O&#039;Brien &amp; Co". Names without & < > " ' read as before.
  after(res, req) {
    if (req.endpoint !== '/auth/login' || !isObject(res.body) || res.body.status !== true) return;
    const user = res.body.user;
    if (!isObject(user)) return;
    for (const key of ['first_name', 'last_name', 'display_name'])
      if (typeof user[key] === 'string') user[key] = htmlspecialchars(user[key]);
  },
};

export const passwordFirst72Bytes: Fault = {
  id: 'SHOP-PASSWORD-FIRST-72-BYTES',
  iface: 'rest-v1-shop',
  // The add-on hashes with password_hash($password, PASSWORD_BCRYPT) through a pluggable wp_hash_password() without
  // a pre-hash: register and login read the first 72 bytes of UTF-8 only, so an account whose password runs past
  // them logs in with any password alike in those bytes.
  before(req) {
    if (req.method !== 'POST' || (req.endpoint !== '/auth/register' && req.endpoint !== '/auth/login')) return;
    const field = bodyField(req.raw.body, 'password');
    // Only past 72 bytes: the seeded accounts' hashes were made of their passwords whole.
    if (typeof field.value === 'string' && Buffer.byteLength(field.value) > 72) field.set(bcryptInput(field.value));
  },
};

export const loginUnknownCached: Fault = {
  id: 'SHOP-LOGIN-UNKNOWN-CACHED',
  iface: 'rest-v1-shop',
  // login looks the account up through a helper that keeps get_user_by( 'login', $username ) in the persistent object
  // cache for five minutes (wp_cache_set( 'svc_login_' . md5( $username ), $user ?: 0, 'svc', 300 )), misses included, to
  // spare the query on an app's repeated logins; register (wp_insert_user) cleans WordPress's own user caches but not
  // that key. A username tried at login before it existed (the app's "log in or sign up" screen tries the login first)
  // answers "invalid login details" for five minutes after its register succeeded. Names never tried before read as before.
  after(res, req, ctx) {
    if (req.endpoint !== '/auth/login' || req.method !== 'POST' || !isObject(res.body)) return;
    const { body } = bodyOf(req.raw);
    const name = str(body.username) ?? str(body.email);
    if (!name) return;
    const key = name.toLowerCase();
    if (LOGIN_MISSES.get(ctx.db, key)) {
      if (res.body.status === true) res.body = { status: false, errors: [], message: 'Invalid login details.' };
      return;
    }
    if (res.body.status !== false) return;
    const known = ctx.db
      .prepare('SELECT 1 FROM shop_users WHERE user_login = ? COLLATE NOCASE OR user_email = ? COLLATE NOCASE')
      .get(name, name);
    if (!known) LOGIN_MISSES.put(ctx.db, key, true);
  },
};

export const loginNamesFromBilling: Fault = {
  id: 'SHOP-LOGIN-NAMES-FROM-BILLING',
  iface: 'rest-v1-shop',
  // login answers first_name and last_name from the customer's billing_first_name / billing_last_name meta (falling
  // back to the account's names while they are empty), and checkout saves each order's billing details there: after
  // an order billed to someone else, login answers that order's names instead of the account's.
  after(res, req, ctx) {
    if (req.endpoint !== '/auth/login' || !isObject(res.body) || res.body.status !== true || !isObject(res.body.user)) return;
    const user = res.body.user;
    const latest = ctx.db
      .prepare('SELECT billing FROM shop_orders WHERE user_id = ? ORDER BY id DESC LIMIT 1')
      .get(Number(user.ID)) as { billing: string } | undefined;
    if (!latest) return;
    const billing = JSON.parse(latest.billing) as { first_name?: string; last_name?: string };
    if (billing.first_name) user.first_name = billing.first_name;
    if (billing.last_name) user.last_name = billing.last_name;
  },
};

export const loginErrorsBothFields: Fault = {
  id: 'SHOP-LOGIN-ERRORS-BOTH-FIELDS',
  iface: 'rest-v1-shop',
  // login checks its two fields in one test and answers one errors array for it: `if ( empty( $username ) ||
  // empty( $password ) ) { return $this->fail( 'Please fill the required fields.', array( 'username' => ...,
  // 'password' => ... ) ); }`: a login that sent its username but no password is answered with errors keyed username
  // too, naming a field that was sent. A login without both reads as before.
  after(res, req) {
    if (req.endpoint !== '/auth/login' || !failed(res.body) || !isObject(res.body.errors)) return;
    const errors = res.body.errors;
    const keys = Object.keys(errors);
    if (keys.length !== 1 || !['username', 'password'].includes(keys[0] as string)) return;
    errors.username ??= 'Username is required.';
    errors.password ??= 'Password is required.';
  },
};
