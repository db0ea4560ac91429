import { randomInt } from 'node:crypto';
import { looseEmail } from '../faults/rest-route/registration.js';
import { hashPassword, unmatchableHash, verifyPassword } from '../passwords.js';
import {
  between,
  type Call,
  type CustomerRow,
  type Envelope,
  fail,
  flag,
  id,
  imageUrl,
  isEmail,
  now,
  ok,
  type RuleError,
  ruleError,
  secret,
  setting,
  sql,
  text,
} from './core.js';

/** How long a one-time code of the forgotten-password flow stays usable. */
const OTP_LIFETIME_MS = 30 * 60 * 1000;

/** Customer record of Part 2; login gives the short form, register adds password, salt, token and code. */
function customerRecord(row: CustomerRow, form: 'login' | 'register', ip: string): Record<string, unknown> {
  const base: Record<string, unknown> = {
    customer_id: String(row.customer_id),
    customer_group_id: String(row.customer_group_id),
    store_id: String(row.store_id),
    language_id: String(row.language_id),
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    telephone: row.telephone,
    fax: row.fax,
  };
  if (form === 'register') {
    base.password = row.password;
    base.salt = row.salt;
  }
  Object.assign(base, {
    cart: form === 'register' ? null : row.cart,
    wishlist: form === 'register' ? null : row.wishlist,
    newsletter: String(row.newsletter),
    address_id: String(row.address_id),
    custom_field: row.custom_field,
    ip,
    status: String(row.status),
    safe: String(row.safe),
  });
  if (form === 'register') Object.assign(base, { token: '', code: '' });
  base.date_added = row.date_added;
  return base;
}

// 1. GET account/login: the login form's labels.
export function loginForm(call: Call): Envelope {
  return ok(call, []);
}

// 2. POST account/login: email (request sample) or username (parameter table), and password.
export async function login(call: Call): Promise<Envelope> {
  const who = text(call.body, 'email', 'username');
  const password = secret(call.body, 'password');
  if (!who || !password) return fail(call, [ruleError(call, 'error_login')]);
  const row = sql(call.db, 'SELECT * FROM rr_customer WHERE email = ? OR username = ? ORDER BY customer_id LIMIT 1').get(
    who,
    who,
  ) as CustomerRow | undefined;
  const matches = await verifyPassword(password, row?.password ?? unmatchableHash());
  if (!row || !matches || row.status !== 1) return fail(call, [ruleError(call, 'error_login')]);
  const ip = call.request.ip;
  sql(call.db, 'UPDATE rr_customer SET ip = ? WHERE customer_id = ?').run(ip, row.customer_id);
  const token = await call.app.tokens.sign(String(row.customer_id), 'rest-route', { email: row.email });
  return ok(call, customerRecord({ ...row, ip }, 'login', ip), { token });
}

// 3. GET account/register: customer groups and the agreement link.
export function registerForm(call: Call): Envelope {
  const groups = sql(
    call.db,
    `SELECT customer_group_id, approval, sort_order, name, description FROM rr_customer_group ORDER BY sort_order, name`,
  ).all() as Array<Record<string, string | number>>;
  const languageId = setting(call.db, 'store.language_id') || '1';
  const agreement = sql(call.db, 'SELECT information_id, title FROM rr_information WHERE information_id = ?').get(
    Number(setting(call.db, 'store.agreement_information_id')),
  ) as { information_id: number; title: string } | undefined;
  return ok(call, {
    customer_groups: groups.map((g) => ({
      customer_group_id: String(g.customer_group_id),
      approval: String(g.approval),
      sort_order: String(g.sort_order),
      language_id: languageId,
      name: String(g.name),
      description: String(g.description),
    })),
    text_agree: agreement ? { information_id: String(agreement.information_id), title: agreement.title } : [],
  });
}

// 4. POST account/register: the request sample's fields and the parameter table's spellings are both read.
export async function register(call: Call): Promise<Envelope> {
  const b = call.body;
  const firstname = text(b, 'firstname', 'first_name');
  const lastname = text(b, 'lastname', 'last_name');
  const email = text(b, 'email');
  const telephone = text(b, 'telephone', 'phone');
  const username = text(b, 'username');
  const password = secret(b, 'password');
  const confirm = secret(b, 'confirm', 'confirm_password', 'password_confirm', 'confirmPassword', 'confirm password');
  const newsletter = flag(b, 'newsletter');
  const agree = flag(b, 'agree');
  const groupGiven = b.customer_group_id !== undefined && b.customer_group_id !== '';
  const groupId = groupGiven ? id(b, 'customer_group_id') : Number(setting(call.db, 'store.customer_group_id'));

  const errors: RuleError[] = [];
  if (!between(firstname, 1, 32)) errors.push(ruleError(call, 'error_firstname', 'firstname'));
  if (!between(lastname, 1, 32)) errors.push(ruleError(call, 'error_lastname', 'lastname'));
  // Fault catalog RR-REGISTER-EMAIL-REGEX-LOOSE: a vendor that kept the 1.5-era e-mail pattern of the register form.
  const emailValid = call.app.fault === 'RR-REGISTER-EMAIL-REGEX-LOOSE' ? looseEmail(email) : isEmail(email);
  if (!emailValid) errors.push(ruleError(call, 'error_email', 'email'));
  if (!telephone) errors.push(ruleError(call, 'error_required_telephone', 'telephone'));
  else if (!between(telephone, 3, 32)) errors.push(ruleError(call, 'error_telephone', 'telephone'));
  if (username !== undefined && username !== '' && !/^[A-Za-z0-9]{1,32}$/.test(username))
    errors.push(ruleError(call, 'error_username', 'username'));
  if (!between(password, 4, 40)) errors.push(ruleError(call, 'error_password', 'password'));
  else if (confirm !== password) errors.push(ruleError(call, 'error_confirm', 'confirm'));
  if (groupId === undefined || !sql(call.db, 'SELECT 1 FROM rr_customer_group WHERE customer_group_id = ?').get(groupId))
    errors.push(ruleError(call, 'error_customer_group', 'customer_group_id'));
  if (newsletter === undefined && b.newsletter !== undefined) errors.push(ruleError(call, 'error_newsletter', 'newsletter'));
  if (agree !== true) {
    const agreement = sql(call.db, 'SELECT title FROM rr_information WHERE information_id = ?').get(
      Number(setting(call.db, 'store.agreement_information_id')),
    ) as { title: string } | undefined;
    errors.push(ruleError(call, 'error_agree', 'agree', agreement?.title ?? ''));
  }
  if (errors.length > 0 || !email || !password || groupId === undefined) return fail(call, errors);

  // Hashing is asynchronous, so it happens before the synchronous check-and-insert transaction.
  const hash = await hashPassword(password);
  const salt = hash.split('$')[1] ?? '';
  const ip = call.request.ip;
  const insert = call.db.transaction((): CustomerRow | RuleError => {
    if (sql(call.db, 'SELECT 1 FROM rr_customer WHERE email = ?').get(email)) return ruleError(call, 'error_exists', 'email');
    if (username && sql(call.db, 'SELECT 1 FROM rr_customer WHERE username = ? OR email = ?').get(username, username))
      return ruleError(call, 'error_username_exists', 'username');
    const info = sql(
      call.db,
      `INSERT INTO rr_customer (customer_group_id, store_id, language_id, firstname, lastname, email, username, telephone,
         password, salt, newsletter, ip, date_added) VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      groupId,
      Number(setting(call.db, 'store.language_id') || 1),
      firstname,
      lastname,
      email,
      username || null,
      telephone,
      hash,
      salt,
      newsletter ? 1 : 0,
      ip,
      now(),
    );
    return sql(call.db, 'SELECT * FROM rr_customer WHERE customer_id = ?').get(info.lastInsertRowid) as CustomerRow;
  });
  let result: CustomerRow | RuleError;
  try {
    result = insert();
  } catch (e) {
    // A UNIQUE constraint is the last word when two registrations race past the checks.
    if ((e as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT'))
      result = String(e).includes('username')
        ? ruleError(call, 'error_username_exists', 'username')
        : ruleError(call, 'error_exists', 'email');
    else throw e;
  }
  if ('code' in result && 'message' in result) return fail(call, [result]);
  const row = result as CustomerRow;
  const token = await call.app.tokens.sign(String(row.customer_id), 'rest-route', { email: row.email });
  return ok(call, customerRecord(row, 'register', ip), { token });
}

// 11. GET account/account: store info.
export function accountInfo(call: Call): Envelope {
  const languages = sql(call.db, 'SELECT name, code FROM rr_language ORDER BY sort_order, name').all();
  const currencies = sql(call.db, 'SELECT title, code, symbol_left, symbol_right FROM rr_currency ORDER BY title').all();
  return ok(call, {
    logo: imageUrl(call.request, setting(call.db, 'store.logo')),
    store_name: setting(call.db, 'store.name'),
    icon: imageUrl(call.request, setting(call.db, 'store.icon')),
    telephone: setting(call.db, 'store.telephone'),
    languages,
    currencies,
  });
}

// 12. GET account/forgotten: the form's labels.
export function forgottenForm(call: Call): Envelope {
  return ok(call, []);
}

/** The e-mail of a reset must be the token holder's own: a customer changes only their own data. */
function ownEmail(call: Call, email: string | undefined): RuleError | null {
  if (!isEmail(email)) return ruleError(call, 'error_email', 'email');
  if (email.toLowerCase() !== call.customer?.email.toLowerCase()) return ruleError(call, 'error_email_mismatch', 'email');
  return null;
}

// 13. POST account/forgotten: issues a one-time code and returns it (the document's flow).
export function forgotten(call: Call): Envelope {
  const email = text(call.body, 'email');
  const problem = ownEmail(call, email);
  if (problem || !call.customer) return fail(call, problem ? [problem] : []);
  const otp = randomInt(100000, 1000000);
  sql(
    call.db,
    `INSERT INTO rr_password_reset (customer_id, otp, expires_at) VALUES (?, ?, ?)
     ON CONFLICT(customer_id) DO UPDATE SET otp = excluded.otp, expires_at = excluded.expires_at`,
  ).run(call.customer.customer_id, otp, Date.now() + OTP_LIFETIME_MS);
  return ok(call, { otp, email: call.customer.email });
}

// 14. POST account/forgotten/updatepassword: email and the new password (an otp, when sent, must match).
export async function updatePassword(call: Call): Promise<Envelope> {
  const email = text(call.body, 'email');
  const password = secret(call.body, 'password');
  const confirm = secret(call.body, 'confirm', 'confirm_password');
  const otpGiven = call.body.otp !== undefined && call.body.otp !== '';
  const otp = id(call.body, 'otp');
  const errors: RuleError[] = [];
  const problem = ownEmail(call, email);
  if (problem) errors.push(problem);
  if (!between(password, 4, 40)) errors.push(ruleError(call, 'error_password', 'password'));
  else if (confirm !== undefined && confirm !== password) errors.push(ruleError(call, 'error_confirm', 'confirm'));
  const customer = call.customer;
  if (otpGiven && customer) {
    const pending = sql(call.db, 'SELECT otp, expires_at FROM rr_password_reset WHERE customer_id = ?').get(
      customer.customer_id,
    ) as { otp: number; expires_at: number } | undefined;
    if (!pending || pending.otp !== otp || pending.expires_at < Date.now()) errors.push(ruleError(call, 'error_otp', 'otp'));
  }
  if (errors.length > 0 || !customer || !password) return fail(call, errors);
  const hash = await hashPassword(password);
  call.db.transaction(() => {
    sql(call.db, 'UPDATE rr_customer SET password = ?, salt = ? WHERE customer_id = ?').run(
      hash,
      hash.split('$')[1] ?? '',
      customer.customer_id,
    );
    sql(call.db, 'DELETE FROM rr_password_reset WHERE customer_id = ?').run(customer.customer_id);
  })();
  return ok(call, []);
}
