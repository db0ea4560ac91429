import type { AppContext } from '../../context.js';
import { isNumeric, likeWhole, stripslashes } from '../emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject, mapKey } from '../model.js';

/**
 * WordPress's sanitize_text_field, as a register handler applies it to every field, password included
 * (login verifies the password as sent): tags stripped, whitespace runs folded, ends trimmed, and
 * percent-encoded octets removed.
 */
function sanitizeTextField(v: string): string {
  let out = v
    .replace(/<[^>]*>/g, '')
    .replace(/[\r\n\t ]+/g, ' ')
    .trim();
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(/%[a-f0-9]{2}/gi, '');
  }
  return out;
}

/** The e-mail a register checked untrimmed and stored trimmed, by request. */
const UNTRIMMED_EMAILS = new WeakMap<FaultRequest, string>();

/**
 * Register checking email_exists() on the e-mail as sent and storing it through sanitize_email(),
 * which trims: "<taken e-mail> " passes the check and a second account carries the first one's
 * e-mail. The reference's e-mail is UNIQUE, so the handler is sent a stand-in, and the row then
 * holds the e-mail with one trailing space, which every answer shows trimmed as the vendor stores it.
 */
function untrimmedEmailBegins(req: FaultRequest, ctx: AppContext): void {
  const field = bodyField(req.raw.body, 'email');
  const v = field.value;
  if (typeof v !== 'string' || v === v.trim() || v.trim() === '') return;
  if (!ctx.db.prepare('SELECT 1 FROM net_users WHERE user_email = ?').get(v.trim())) return;
  field.set(`dup${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.${v.trim()}`);
  UNTRIMMED_EMAILS.set(req, v.trim());
}

function untrimmedEmailEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const email = UNTRIMMED_EMAILS.get(req);
  const user = isObject(res.body) && res.body.status === true && isObject(res.body.user) ? res.body.user : undefined;
  if (email !== undefined && user) {
    ctx.db.prepare('UPDATE net_users SET user_email = ? WHERE ID = ?').run(`${email} `, Number(user.ID));
    user.user_email = email;
  }
  mapKey(res.body, 'user_email', (e) => (typeof e === 'string' ? e.trim() : e));
}

/** Register bodies whose username passed the pattern with a line feed at its end: the name as sent. */
const NEWLINE_USERNAMES = new WeakMap<FaultRequest, string>();

/**
 * Register checks the username with preg_match('/^[a-zA-Z0-9]+$/') and no D modifier: PCRE's $ also
 * matches before a final line feed, so "name\n" passes as letters and digits and is stored as sent,
 * line feed and all (the plugin writes its own tables from $_POST, not through sanitize_user()).
 */
function newlineUsernameBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'username');
  const v = field.value;
  if (typeof v !== 'string' || !/^[A-Za-z0-9]+\n$/.test(v)) return;
  field.set(v.slice(0, -1));
  NEWLINE_USERNAMES.set(req, v);
}

function newlineUsernameEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  storeSentUsername(res, NEWLINE_USERNAMES.get(req), ctx);
}

/** An accepted register whose handler was sent a stand-in username: the account takes `name`, the name as sent. */
function storeSentUsername(res: FaultResponse, name: string | undefined, ctx: AppContext): void {
  const body = res.body;
  if (name === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
  const id = Number(body.user.ID);
  ctx.db.prepare('UPDATE net_users SET user_login = ?, user_nicename = ? WHERE ID = ?').run(name, name.toLowerCase(), id);
  ctx.db.prepare('UPDATE net_net_users SET user_name = ? WHERE user_id = ?').run(name, id);
  ctx.db.prepare('UPDATE net_uni_users SET user_name = ? WHERE user_id = ?').run(name, id);
  body.user.user_login = name;
  body.user.user_nicename = name.toLowerCase();
  if (isObject(body.net_user)) body.net_user.user_name = name;
}

/** Register bodies whose phone passed as numeric and 10 bytes long: the phone as sent. */
const NUMERIC_PHONES = new WeakMap<FaultRequest, string>();

/**
 * Register checks "10 digits" as `is_numeric($phone) && strlen($phone) == 10`: a sign, a decimal point,
 * an exponent or a blank before or after counts among the ten, so "12345678.9" (nine digits) passes and
 * is stored as sent.
 */
function numericPhoneBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'net_user', 'phone');
  const v = field.value;
  if (typeof v !== 'string' || /^\d{10}$/.test(v) || Buffer.byteLength(v) !== 10 || !isNumeric(v)) return;
  // The handler takes an empty phone as none (optional): the one sent is written back once accepted.
  field.set('');
  NUMERIC_PHONES.set(req, v);
}

function numericPhoneEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const phone = NUMERIC_PHONES.get(req);
  const body = res.body;
  if (phone === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
  ctx.db.prepare('UPDATE net_users SET phone = ? WHERE ID = ?').run(phone, Number(body.user.ID));
}

/** Register bodies sent as JSON whose username was not letters and digits: the name as sent. */
const JSON_USERNAMES = new WeakMap<FaultRequest, string>();

/**
 * Register checks the username pattern with `isset($_POST['username']) && !ctype_alnum($_POST['username'])`
 * and reads the fields through $request->get_param(): a JSON body leaves $_POST empty, so its username
 * skips the pattern and is stored as sent (the required checks read get_param() and still hold).
 */
function jsonUsernameBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'username');
  const v = field.value;
  const json = String(req.raw.headers['content-type'] ?? '').includes('application/json');
  if (!json || typeof v !== 'string' || /^[A-Za-z0-9]+$/.test(v)) return;
  // The reference's own check would refuse it: its handler gets the letters and digits, the account the name sent.
  const standIn = v.replace(/[^A-Za-z0-9]/g, '');
  if (standIn === '') return;
  field.set(standIn);
  JSON_USERNAMES.set(req, v);
}

/** Register bodies sent as JSON whose phone was not 10 digits: the phone as sent. */
const JSON_PHONES = new WeakMap<FaultRequest, string>();

/**
 * Register tests the phone with isset($_POST['net_user']['phone']) && !preg_match('/^[0-9]{10}$/', ...) but
 * reads the fields through $request->get_param(): a JSON body leaves $_POST empty, so a phone of 9 digits
 * is stored as sent. The handler takes an empty phone as none (optional): the one sent is written back.
 */
function jsonPhoneBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'net_user', 'phone');
  const v = field.value;
  const json = String(req.raw.headers['content-type'] ?? '').includes('application/json');
  if (!json || typeof v !== 'string' || v === '' || /^\d{10}$/.test(v)) return;
  field.set('');
  JSON_PHONES.set(req, v);
}

function jsonPhoneEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const phone = JSON_PHONES.get(req);
  const body = res.body;
  if (phone === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
  ctx.db.prepare('UPDATE net_users SET phone = ? WHERE ID = ?').run(phone, Number(body.user.ID));
}

/** Register bodies whose name fields came as JSON null: the fields register stores empty. */
const NULL_NAMES = new WeakMap<FaultRequest, string[]>();

/**
 * Register's required test is array_key_exists() on the decoded body: a JSON `null` is a key that exists, so
 * first_name or last_name sent as null passes, and (string) null stores it empty. A form body cannot carry a
 * null, so only JSON bodies get through. Emulated by sending a placeholder past the reference's test and
 * emptying the stored column (and the display name built from it) once register is accepted.
 */
function nullNamesBegin(req: FaultRequest): void {
  const nulls: string[] = [];
  for (const name of ['first_name', 'last_name']) {
    const field = bodyField(req.raw.body, name);
    if (field.value === null) {
      field.set('x');
      nulls.push(name);
    }
  }
  if (nulls.length > 0) NULL_NAMES.set(req, nulls);
}

function nullNamesEnd(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const nulls = NULL_NAMES.get(req);
  const body = res.body;
  if (nulls === undefined || !isObject(body) || body.status !== true || !isObject(body.user)) return;
  const id = Number(body.user.ID);
  for (const name of nulls) ctx.db.prepare(`UPDATE net_users SET ${name} = '' WHERE ID = ?`).run(id);
  ctx.db.prepare("UPDATE net_users SET display_name = first_name || ' ' || last_name WHERE ID = ?").run(id);
  const row = ctx.db.prepare('SELECT display_name FROM net_users WHERE ID = ?').get(id) as { display_name?: string } | undefined;
  if (row?.display_name !== undefined && 'display_name' in body.user) body.user.display_name = row.display_name;
}

/** Register bodies sent as JSON whose phone came as a JSON number: the refusal rest_validate_request_arg() gives. */
const NUMBER_PHONES = new WeakSet<FaultRequest>();

/**
 * Register declares its arguments for register_rest_route() with 'type' => 'string' for every field, the phone
 * too: WordPress validates a JSON body's values by their JSON type and coerces none to a string, so a phone sent
 * as the integer the document gives (1234567890) is refused, "net_user[phone] is not of type string.", before
 * the handler runs; the same digits as a string, or any form body (whose values are all strings), pass.
 */
function numberPhoneBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'net_user', 'phone');
  const json = String(req.raw.headers['content-type'] ?? '').includes('application/json');
  if (!json || typeof field.value !== 'number') return;
  // The reference's handler is to refuse it without a write: a phone no rule takes.
  field.set('not a phone');
  NUMBER_PHONES.add(req);
}

function numberPhoneEnds(res: FaultResponse, req: FaultRequest): void {
  if (!NUMBER_PHONES.has(req) || !isObject(res.body)) return;
  res.body = {
    status: false,
    errors: { 'net_user[phone]': 'net_user[phone] is not of type string.' },
    message: 'Invalid parameter(s): net_user[phone]',
  };
}

export const registerPasswordSanitized: Fault = {
  id: 'NET-REGISTER-PASSWORD-SANITIZED',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint !== '/auth/register') return;
    const field = bodyField(req.raw.body, 'password');
    if (typeof field.value === 'string') field.set(sanitizeTextField(field.value));
  },
};

export const registerPasswordUnslashed: Fault = {
  id: 'NET-REGISTER-PASSWORD-UNSLASHED',
  iface: 'rest-v1-network',
  // register unslashes its input (wp_unslash) though REST parameters arrive unslashed; login verifies as sent.
  before(req) {
    if (req.endpoint !== '/auth/register') return;
    const field = bodyField(req.raw.body, 'password');
    if (typeof field.value === 'string') field.set(stripslashes(field.value));
  },
};

export const registerEmailCheckedUntrimmed: Fault = {
  id: 'NET-REGISTER-EMAIL-CHECKED-UNTRIMMED',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (req.endpoint === '/auth/register') untrimmedEmailBegins(req, ctx);
  },
  after(res, req, ctx) {
    if (req.endpoint === '/auth/register') untrimmedEmailEnds(res, req, ctx);
    else mapKey(res.body, 'user_email', (e) => (typeof e === 'string' ? e.trim() : e));
  },
};

export const registerUsernameTrailingNewline: Fault = {
  id: 'NET-REGISTER-USERNAME-TRAILING-NEWLINE',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/auth/register') newlineUsernameBegins(req);
  },
  after(res, req, ctx) {
    if (req.endpoint === '/auth/register') newlineUsernameEnds(res, req, ctx);
  },
};

export const registerPhoneIsNumeric: Fault = {
  id: 'NET-REGISTER-PHONE-IS-NUMERIC',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/auth/register') numericPhoneBegins(req);
  },
  after(res, req, ctx) {
    if (req.endpoint === '/auth/register') numericPhoneEnds(res, req, ctx);
  },
};

export const registerJsonUsernameUnchecked: Fault = {
  id: 'NET-REGISTER-JSON-USERNAME-UNCHECKED',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/auth/register') jsonUsernameBegins(req);
  },
  after(res, req, ctx) {
    if (req.endpoint === '/auth/register') storeSentUsername(res, JSON_USERNAMES.get(req), ctx);
  },
};

export const registerJsonPhoneUnchecked: Fault = {
  id: 'NET-REGISTER-JSON-PHONE-UNCHECKED',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/auth/register') jsonPhoneBegins(req);
  },
  after(res, req, ctx) {
    if (req.endpoint === '/auth/register') jsonPhoneEnds(res, req, ctx);
  },
};

export const registerJsonPhoneStringTyped: Fault = {
  id: 'NET-REGISTER-JSON-PHONE-STRING-TYPED',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/auth/register') numberPhoneBegins(req);
  },
  after(res, req) {
    if (req.endpoint === '/auth/register') numberPhoneEnds(res, req);
  },
};

export const registerNamesNfc: Fault = {
  id: 'NET-REGISTER-NAMES-NFC',
  iface: 'rest-v1-network',
  // register runs first_name and last_name through Normalizer::normalize(FORM_C) before storing them: a name
  // sent decomposed (U+0065 U+0308) is stored, and answered by login, precomposed (U+00EB).
  before(req) {
    if (req.endpoint !== '/auth/register') return;
    for (const name of ['first_name', 'last_name']) {
      const field = bodyField(req.raw.body, name);
      if (typeof field.value === 'string') field.set(field.value.normalize('NFC'));
    }
  },
};

export const registerNullNameTaken: Fault = {
  id: 'NET-REGISTER-NULL-NAME-TAKEN',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/auth/register') nullNamesBegin(req);
  },
  after(res, req, ctx) {
    if (req.endpoint === '/auth/register') nullNamesEnd(res, req, ctx);
  },
};

/**
 * Register taking a phone written with India's trunk prefix or country code: preg_replace('/^(\+91|0)/', '',
 * $phone) before the 10-digit test, so "0" or "+91" followed by 10 digits passes (11 or 13 characters) and
 * the 10 digits after the prefix are stored.
 */
function phonePrefixStripped(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'net_user', 'phone');
  const v = field.value;
  const m = typeof v === 'string' ? /^(?:\+91|0)(\d{10})$/.exec(v) : null;
  if (m) field.set(m[1]);
}

export const registerPhonePrefixStripped: Fault = {
  id: 'NET-REGISTER-PHONE-PREFIX-STRIPPED',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/auth/register') phonePrefixStripped(req);
  },
};

/**
 * Register testing whether the e-mail exists with `user_email LIKE %s` (for a case-insensitive match) on the
 * e-mail as sent, unescaped: an underscore matches any one character, a percent sign any run, so a new
 * e-mail with an underscore where an existing one has another character ("a_b@x" against "a.b@x") is
 * refused as "Email already exists". The handler is sent the existing e-mail, which it refuses so.
 */
function emailLikeTaken(req: FaultRequest, ctx: AppContext): void {
  const field = bodyField(req.raw.body, 'email');
  const v = field.value;
  if (typeof v !== 'string' || !/[_%]/.test(v.trim())) return;
  const pattern = likeWhole(v.trim());
  const emails = ctx.db.prepare('SELECT user_email FROM net_users').all() as { user_email: string }[];
  const hit = emails.find((e) => pattern.test(e.user_email));
  if (hit) field.set(hit.user_email);
}

export const registerEmailLikeTaken: Fault = {
  id: 'NET-REGISTER-EMAIL-LIKE-TAKEN',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (req.endpoint === '/auth/register') emailLikeTaken(req, ctx);
  },
};
