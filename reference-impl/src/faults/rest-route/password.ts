import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../passwords.js';
import { bcryptInput, htmlspecialchars } from '../emulation.js';
import { type Fault, isObject } from '../model.js';
import { data, ok, tokenCustomer } from './shared.js';

/** RR-PASSWORD-UPDATE-NEEDS-RESET: the hash and salt an update without a pending code must leave in place. */
const KEPT_HASH = new WeakMap<object, { customerId: number; password: string; salt: string }>();

/** RR-PASSWORD-UPDATE-USERNAME-STALE: the module's API users by username (lower case), per database: the hash register copied. */
const API_USERS = new WeakMap<object, Map<string, { customerId: number; password: string; salt: string }>>();

/** RR-PASSWORD-UPDATE-USERNAME-STALE: the customer's current hash, put back after a username login read the API user's. */
const SWAPPED_HASH = new WeakMap<object, { customerId: number; password: string; salt: string }>();

/** RR-PASSWORD-UPDATE-BCRYPT-72: per database, by customer id, the password the update hashed with bcrypt. */
const BCRYPT_SET = new WeakMap<object, Map<number, string>>();

/** RR-FORGOTTEN-PENDING-OTP-STRING: the code a POST forgotten found pending, as the reset table holds it. */
const PENDING_CODE = new WeakMap<object, { customerId: number; otp: number; expiresAt: number }>();

export const passwordUpdateEscaped: Fault = {
  id: 'RR-PASSWORD-UPDATE-ESCAPED',
  iface: 'rest-route',
  // The request filter's htmlspecialchars() reaches the stored hash on the update path only (register
  // and login decode it): a new password holding & < > " ' is stored escaped and never logs in.
  before(req) {
    if (req.endpoint !== 'account/forgotten/updatepassword' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    for (const key of ['password', 'confirm', 'confirm_password'])
      if (typeof body[key] === 'string') body[key] = htmlspecialchars(body[key]);
  },
};

export const passwordUpdateNeedsReset: Fault = {
  id: 'RR-PASSWORD-UPDATE-NEEDS-RESET',
  iface: 'rest-route',
  // The update writes the new hash through the pending reset row of POST forgotten (joined by
  // e-mail), which the first update consumes: with no code pending, it answers success and the
  // UPDATE matches nothing, so the old password stays.
  async before(req, ctx) {
    if (req.endpoint !== 'account/forgotten/updatepassword' || req.method !== 'POST') return;
    const customerId = await tokenCustomer(req, ctx);
    if (customerId === undefined) return;
    const pending = ctx.db
      .prepare('SELECT 1 FROM rr_password_reset WHERE customer_id = ? AND expires_at >= ?')
      .get(customerId, Date.now());
    const row = ctx.db.prepare('SELECT password, salt FROM rr_customer WHERE customer_id = ?').get(customerId) as
      | { password: string; salt: string }
      | undefined;
    if (!pending && row) KEPT_HASH.set(req.raw, { customerId, ...row });
  },
  after(res, req, ctx) {
    const kept = KEPT_HASH.get(req.raw);
    if (!kept || !ok(res)) return;
    ctx.db
      .prepare('UPDATE rr_customer SET password = ?, salt = ? WHERE customer_id = ?')
      .run(kept.password, kept.salt, kept.customerId);
  },
};

export const passwordUpdateUsernameStale: Fault = {
  id: 'RR-PASSWORD-UPDATE-USERNAME-STALE',
  iface: 'rest-route',
  // The module keeps its own API user table for the parameter table's username: register copies the
  // customer's hash into it, and a login by username checks the password there. The update (row 14)
  // writes the customer table only: after it, a login by username still takes the old password and
  // refuses the new one, while a login by e-mail reads the new hash.
  after(res, req, ctx) {
    if (req.method !== 'POST') return;
    if (req.endpoint === 'account/login') {
      const kept = SWAPPED_HASH.get(req.raw);
      if (kept)
        ctx.db
          .prepare('UPDATE rr_customer SET password = ?, salt = ? WHERE customer_id = ?')
          .run(kept.password, kept.salt, kept.customerId);
      return;
    }
    const d = data(res);
    const username = isObject(req.raw.body) ? req.raw.body.username : undefined;
    if (req.endpoint !== 'account/register' || !ok(res) || !d || typeof username !== 'string' || username.trim() === '') return;
    const row = ctx.db.prepare('SELECT password, salt FROM rr_customer WHERE customer_id = ?').get(Number(d.customer_id)) as
      | { password: string; salt: string }
      | undefined;
    if (!row) return;
    const users = API_USERS.get(ctx.db) ?? new Map();
    API_USERS.set(ctx.db, users);
    users.set(username.trim().toLowerCase(), { customerId: Number(d.customer_id), ...row });
  },
  // The handler reads one hash per customer: for a login by username it is handed the API user's
  // for the time of the request, and the customer's is put back after it.
  before(req, ctx) {
    if (req.endpoint !== 'account/login' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    if (typeof body.email === 'string' || typeof body.username !== 'string') return;
    const user = API_USERS.get(ctx.db)?.get(body.username.trim().toLowerCase());
    if (!user) return;
    const now = ctx.db.prepare('SELECT password, salt FROM rr_customer WHERE customer_id = ?').get(user.customerId) as
      | { password: string; salt: string }
      | undefined;
    if (!now || now.password === user.password) return;
    SWAPPED_HASH.set(req.raw, { customerId: user.customerId, ...now });
    ctx.db
      .prepare('UPDATE rr_customer SET password = ?, salt = ? WHERE customer_id = ?')
      .run(user.password, user.salt, user.customerId);
  },
};

export const passwordUpdateBcrypt72: Fault = {
  id: 'RR-PASSWORD-UPDATE-BCRYPT-72',
  iface: 'rest-route',
  // Register keeps the platform's salted hash, but the module's update (row 14) hashes the new password
  // with password_hash(PASSWORD_BCRYPT), which reads its first 72 bytes only, and login's password_verify()
  // does the same: after an update to a password past 72 bytes of UTF-8 (24 characters of three bytes
  // each), any password alike in those bytes logs in, the old one among them.
  after(res, req, ctx) {
    if (req.endpoint !== 'account/forgotten/updatepassword' || req.method !== 'POST' || !ok(res)) return;
    const body = isObject(req.raw.body) ? req.raw.body : {};
    const email = typeof body.email === 'string' ? body.email.trim() : undefined;
    if (email === undefined || typeof body.password !== 'string') return;
    const row = ctx.db.prepare('SELECT customer_id FROM rr_customer WHERE email = ?').get(email) as
      | { customer_id: number }
      | undefined;
    if (!row) return;
    const set = BCRYPT_SET.get(ctx.db) ?? new Map<number, string>();
    BCRYPT_SET.set(ctx.db, set);
    set.set(row.customer_id, body.password);
  },
  // The handler verifies the whole password: one alike in the first 72 bytes is handed the one set.
  before(req, ctx) {
    if (req.endpoint !== 'account/login' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    const who = [body.email, body.username].find((v): v is string => typeof v === 'string' && v.trim() !== '')?.trim();
    if (who === undefined || typeof body.password !== 'string') return;
    const row = ctx.db
      .prepare('SELECT customer_id FROM rr_customer WHERE email = ? OR username = ? ORDER BY customer_id LIMIT 1')
      .get(who, who) as { customer_id: number } | undefined;
    const set = row ? BCRYPT_SET.get(ctx.db)?.get(row.customer_id) : undefined;
    if (set !== undefined && bcryptInput(set) === bcryptInput(body.password)) body.password = set;
  },
};

export const forgottenPendingOtpString: Fault = {
  id: 'RR-FORGOTTEN-PENDING-OTP-STRING',
  iface: 'rest-route',
  // The module mails a new code only when none is pending (a customer who asks twice is to find the
  // first mail's code still good): otherwise it answers the pending code as the reset table gives it
  // back, a string (mysqli reads every column as one), where a fresh code from mt_rand() is an
  // integer. The first POST forgotten answers otp 482913, a second one before the update "482913".
  async before(req, ctx) {
    if (req.endpoint !== 'account/forgotten' || req.method !== 'POST') return;
    const customerId = await tokenCustomer(req, ctx);
    if (customerId === undefined) return;
    const pending = ctx.db
      .prepare('SELECT otp, expires_at FROM rr_password_reset WHERE customer_id = ? AND expires_at >= ?')
      .get(customerId, Date.now()) as { otp: number; expires_at: number } | undefined;
    if (pending) PENDING_CODE.set(req.raw, { customerId, otp: pending.otp, expiresAt: pending.expires_at });
  },
  after(res, req, ctx) {
    const pending = PENDING_CODE.get(req.raw);
    const d = data(res);
    if (!pending || !ok(res) || !d) return;
    // The handler issued a new code: the pending one stays, and is what the answer names.
    ctx.db
      .prepare('UPDATE rr_password_reset SET otp = ?, expires_at = ? WHERE customer_id = ?')
      .run(pending.otp, pending.expiresAt, pending.customerId);
    d.otp = String(pending.otp);
  },
};

export const passwordUpdateClearsNames: Fault = {
  id: 'RR-PASSWORD-UPDATE-CLEARS-NAMES',
  iface: 'rest-route',
  // The update (row 14) saves through the platform's editCustomer($customer_id, $this->request->post)
  // before editPassword(), and its body carries only email and password: firstname, lastname and
  // telephone are written empty (the notices of the missing keys suppressed). The password changes,
  // and every later login answers the account with its names empty.
  after(res, req, ctx) {
    if (req.endpoint !== 'account/forgotten/updatepassword' || req.method !== 'POST' || !ok(res)) return;
    const body = isObject(req.raw.body) ? req.raw.body : {};
    const missing = ['firstname', 'lastname', 'telephone'].filter((k) => typeof body[k] !== 'string');
    if (typeof body.email !== 'string' || missing.length === 0) return;
    ctx.db
      .prepare(`UPDATE rr_customer SET ${missing.map((k) => `${k} = ''`).join(', ')} WHERE lower(email) = lower(?)`)
      .run(body.email.trim());
  },
};

export const forgottenResetsPassword: Fault = {
  id: 'RR-FORGOTTEN-RESETS-PASSWORD',
  iface: 'rest-route',
  // The forgotten controller kept the platform's 1.5 flow under the code it now answers: it also sets a
  // random password (substr(sha1(uniqid()), 0, 10) through editPassword(), meant for the reset mail). The
  // code comes back, yet from the first POST forgotten on the registered password no longer logs in,
  // until an update (row 14) sets one.
  async after(res, req, ctx) {
    if (req.endpoint !== 'account/forgotten' || req.method !== 'POST' || !ok(res)) return;
    const customerId = await tokenCustomer(req, ctx);
    if (customerId === undefined) return;
    const hash = await hashPassword(randomBytes(5).toString('hex'));
    ctx.db
      .prepare('UPDATE rr_customer SET password = ?, salt = ? WHERE customer_id = ?')
      .run(hash, hash.split('$')[1] ?? '', customerId);
  },
};

export const passwordUpdateEmailDefaulted: Fault = {
  id: 'RR-PASSWORD-UPDATE-EMAIL-DEFAULTED',
  iface: 'rest-route',
  // The update reads `$email = !empty($this->request->post['email']) ? $this->request->post['email'] :
  // $this->customer->getEmail();`: an update without the email (required) is not refused but sets the
  // token holder's password.
  async before(req, ctx) {
    if (req.endpoint !== 'account/forgotten/updatepassword' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const email = req.raw.body.email;
    if (email !== undefined && email !== null && !(typeof email === 'string' && email.trim() === '')) return;
    const customerId = await tokenCustomer(req, ctx);
    if (customerId === undefined) return;
    const row = ctx.db.prepare('SELECT email FROM rr_customer WHERE customer_id = ?').get(customerId) as
      | { email: string }
      | undefined;
    if (row) req.raw.body.email = row.email;
  },
};

export const passwordUpdateEveryAccount: Fault = {
  id: 'RR-PASSWORD-UPDATE-EVERY-ACCOUNT',
  iface: 'rest-route',
  // The update calls the vendor model's editCustomer(['password' => ..., 'email' => ...]), whose WHERE is
  // built from the filter_* keys only (`if (!empty($data['filter_email'])) $where[] = ...`): the email key
  // adds no condition, the UPDATE has no WHERE, and the new password (hash and salt) is written into every
  // customer's row. The token holder logs in with it; every other account's own password stops working.
  async after(res, req, ctx) {
    if (req.endpoint !== 'account/forgotten/updatepassword' || req.method !== 'POST' || !ok(res)) return;
    const customerId = await tokenCustomer(req, ctx);
    if (customerId === undefined) return;
    const row = ctx.db.prepare('SELECT password, salt FROM rr_customer WHERE customer_id = ?').get(customerId) as
      | { password: string; salt: string }
      | undefined;
    if (row) ctx.db.prepare('UPDATE rr_customer SET password = ?, salt = ?').run(row.password, row.salt);
  },
};
