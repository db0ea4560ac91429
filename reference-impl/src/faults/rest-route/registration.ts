import type { AppContext } from '../../context.js';
import { hashPassword } from '../../passwords.js';
import { dateFromGmt, InFlight, looseEquals, pause, SITE_OFFSET_MINUTES } from '../emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { data, FORCED, labelError, ok, refuse } from './shared.js';

/** The agree values that say no (as the handler's flag() reads them), or none at all. */
const notAgreed = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === false ||
  v === 0 ||
  (typeof v === 'string' && ['0', 'false', 'off', 'no', ''].includes(v.trim().toLowerCase()));

/** RR-REGISTER-RACE-DUPLICATE: the registers in flight by e-mail (lower case). */
const REGISTERING = new InFlight<object>();

/**
 * RR-REGISTER-RACE-DUPLICATE, RR-REGISTER-EMAIL-UNTRIMMED-CHECK: a register whose e-mail the module's check
 * missed, and the stand-in it was inserted under (the reference's e-mail column is UNIQUE).
 */
const DUPLICATE = new WeakMap<object, { email: string; standIn: string }>();

/** RR-REGISTER-RACE-DUPLICATE: how long the module spends between its e-mail check and its insert. */
const CHECK_TO_INSERT_MS = 80;

let standInSerial = 0;

/** Lets the handler insert a duplicate of `email` under a stand-in e-mail, settled by `settleDuplicate`. */
function insertAsDuplicate(req: FaultRequest, body: Record<string, unknown>, email: string, why: string): void {
  standInSerial += 1;
  const standIn = `${why}${standInSerial}.${email}`;
  body.email = standIn;
  DUPLICATE.set(req.raw, { email, standIn });
}

/**
 * The duplicate account gets the e-mail plus a space (the nearest the UNIQUE column allows: login still reads
 * the first account, as the module's does) and the answer names the e-mail as the module's would.
 */
function settleDuplicate(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const dup = DUPLICATE.get(req.raw);
  const d = data(res);
  if (!dup || !ok(res) || !d) return;
  try {
    ctx.db.prepare('UPDATE rr_customer SET email = ? WHERE email = ?').run(`${dup.email} `, dup.standIn);
  } catch {
    // A third duplicate of the same e-mail keeps its stand-in: the answer is what the test reads.
  }
  d.email = dup.email;
}

/** RR-REGISTER-TABLE-PHONE-UNCHECKED: the table body's phone, as sent, of a register the check did not see it in. */
const UNCHECKED_PHONE = new WeakMap<object, string>();

export const firstnameTruncated: Fault = {
  id: 'RR-FIRSTNAME-TRUNCATED',
  iface: 'rest-route',
  // MySQL in non-strict mode: a VARCHAR(32) silently truncates, so 33 characters are "accepted".
  before(req) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    if (typeof body.firstname === 'string' && body.firstname.length > 32) body.firstname = body.firstname.slice(0, 32);
  },
};

export const registerPasswordClear: Fault = {
  id: 'RR-REGISTER-PASSWORD-CLEAR',
  iface: 'rest-route',
  after(res, req) {
    const d = data(res);
    const sent = isObject(req.raw.body) ? req.raw.body.password : undefined;
    if (req.endpoint === 'account/register' && req.method === 'POST' && d && typeof sent === 'string') d.password = sent;
  },
};

export const nameLengthBytes: Fault = {
  id: 'RR-NAME-LENGTH-BYTES',
  iface: 'rest-route',
  // PHP strlen() where utf8_strlen() was due: register counts the name limit in UTF-8 bytes, so a
  // name of at most 32 characters with accented letters is refused as error_firstname/error_lastname.
  // The handler counts characters, so a name over 32 bytes is handed to it as one over 32 characters.
  before(req) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    for (const key of ['firstname', 'first_name', 'lastname', 'last_name']) {
      const v = body[key];
      if (typeof v === 'string' && Buffer.byteLength(v.trim(), 'utf8') > 32) body[key] = 'x'.repeat(33);
    }
  },
};

export const registerUnagreedStored: Fault = {
  id: 'RR-REGISTER-UNAGREED-STORED',
  iface: 'rest-route',
  // The module calls the core addCustomer() first and checks the agreement afterwards (it looks
  // up the information page then): a register without agree is answered error_agree, but the
  // account is already stored and logs in with the password sent.
  before(req) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST') return;
    const agree = bodyField(req.raw.body, 'agree');
    if (!isObject(req.raw.body) || !notAgreed(agree.value)) return;
    if (agree.value === undefined) req.raw.body.agree = 1;
    else agree.set(1);
    FORCED.set(req.raw, 'error_agree');
  },
  after(res, req, ctx) {
    if (FORCED.get(req.raw) !== 'error_agree' || !isObject(res.body)) return;
    const title = ctx.db
      .prepare(
        "SELECT i.title FROM rr_information i JOIN rr_setting s ON s.key = 'store.agreement_information_id' WHERE i.information_id = s.value",
      )
      .get() as { title: string } | undefined;
    const agree = labelError(ctx, 'error_agree', 'agree', title?.title ?? '');
    const others = res.body.status === true || !Array.isArray(res.body.errors) ? [] : res.body.errors;
    refuse(res, [...(others as Record<string, string>[]), agree]);
  },
};

export const registerRaceDuplicate: Fault = {
  id: 'RR-REGISTER-RACE-DUPLICATE',
  iface: 'rest-route',
  // The module checks the e-mail (a count of customers by e-mail), writes the activity and sends
  // the welcome mail, then inserts, with no unique key on the e-mail: two registers of one new
  // e-mail at the same time both pass the check and both answer success, and the second account's
  // password never logs in (login reads the first row). The reference's e-mail column is UNIQUE,
  // so the racer is inserted under a stand-in e-mail, then given the one sent plus a space.
  async before(req, ctx) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    const sent = typeof body.email === 'string' ? body.email.trim() : '';
    if (sent === '') return;
    if (REGISTERING.begin(ctx.db, sent.toLowerCase(), req.raw).length > 0) insertAsDuplicate(req, body, sent, 'race');
    await pause(CHECK_TO_INSERT_MS);
  },
  after(res, req, ctx) {
    REGISTERING.end(req.raw);
    settleDuplicate(res, req, ctx);
  },
};

/**
 * A register's names filed through `rewrite` after the validator saw them as sent (the module's addCustomer() tidies
 * them before its INSERT): the row is rewritten, and register answers the names so filed.
 */
function namesFiledAs(rewrite: (name: string) => string): NonNullable<Fault['after']> {
  return (res, req, ctx) => {
    const d = data(res);
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !ok(res) || !d) return;
    const row = ctx.db.prepare('SELECT firstname, lastname FROM rr_customer WHERE customer_id = ?').get(Number(d.customer_id)) as
      | { firstname: string; lastname: string }
      | undefined;
    if (!row) return;
    const firstname = rewrite(row.firstname);
    const lastname = rewrite(row.lastname);
    ctx.db
      .prepare('UPDATE rr_customer SET firstname = ?, lastname = ? WHERE customer_id = ?')
      .run(firstname, lastname, Number(d.customer_id));
    d.firstname = firstname;
    d.lastname = lastname;
  };
}

export const registerNameNfd: Fault = {
  id: 'RR-REGISTER-NAME-NFD',
  iface: 'rest-route',
  // The module's addCustomer() runs the names through Normalizer::normalize(FORM_D) (meant for an
  // accent-free search key, the decomposed form was stored instead), after the validator saw them as
  // sent: "Zoë" is stored as "Zoe" + U+0308, and register and login answer the name decomposed.
  after: namesFiledAs((name) => name.normalize('NFD')),
};

export const registerEmailUntrimmedCheck: Fault = {
  id: 'RR-REGISTER-EMAIL-UNTRIMMED-CHECK',
  iface: 'rest-route',
  // The module looks the e-mail up as sent (WHERE email = ' ann@example.test' finds no one) and the
  // core addCustomer() stores it trimmed: an existing e-mail behind a space registers a second
  // account under that e-mail, answered with it.
  before(req, ctx) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    const sent = body.email;
    if (typeof sent !== 'string' || sent.trim() === sent || sent.trim() === '') return;
    const email = sent.trim();
    if (ctx.db.prepare('SELECT 1 FROM rr_customer WHERE email = ?').get(email)) insertAsDuplicate(req, body, email, 'untrimmed');
  },
  after: settleDuplicate,
};

export const registerTablePhoneUnchecked: Fault = {
  id: 'RR-REGISTER-TABLE-PHONE-UNCHECKED',
  iface: 'rest-route',
  // The module's validate() was written for the sample's wire fields: it checks telephone when it is
  // sent, and the parameter table's phone is copied into telephone after it, unchecked. A register with
  // the table's fields files a phone of any length ("12" among them) as sent.
  before(req) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    if (body.telephone !== undefined || (typeof body.phone !== 'string' && typeof body.phone !== 'number')) return;
    UNCHECKED_PHONE.set(req.raw, String(body.phone).trim());
    // A stand-in that passes the handler's telephone rule; the phone sent is filed after it.
    body.phone = '5550100000';
  },
  after(res, req, ctx) {
    const phone = UNCHECKED_PHONE.get(req.raw);
    const d = data(res);
    if (phone === undefined || !ok(res) || !d) return;
    ctx.db.prepare('UPDATE rr_customer SET telephone = ? WHERE customer_id = ?').run(phone, Number(d.customer_id));
    d.telephone = phone;
  },
};

export const registerDateAddedUtc: Fault = {
  id: 'RR-REGISTER-DATE-ADDED-UTC',
  iface: 'rest-route',
  // Register answers the form it inserted, with date_added from PHP's date('Y-m-d H:i:s') (the server's
  // zone, UTC), while the row took MySQL's NOW() in the store's zone (+05:30): the same account's
  // date_added, the time it was created, reads 5 h 30 min later in every login than in its register answer.
  after(res, req, ctx) {
    const d = data(res);
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !ok(res) || !d) return;
    if (typeof d.date_added !== 'string') return;
    ctx.db
      .prepare('UPDATE rr_customer SET date_added = ? WHERE customer_id = ?')
      .run(dateFromGmt(d.date_added, SITE_OFFSET_MINUTES), Number(d.customer_id));
  },
};

export const registerConfirmLooseEqual: Fault = {
  id: 'RR-REGISTER-CONFIRM-LOOSE-EQUAL',
  iface: 'rest-route',
  // The register's confirm rule is the platform's `if ($post['confirm'] != $post['password'])`: PHP's !=
  // compares two numeric strings as numbers, so a digits-only password whose confirmation differs by a
  // leading 0 ("9123456789" and "09123456789") or is written as an exponent passes, and the password is stored.
  before(req) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    const password = body.password;
    if (typeof password !== 'string') return;
    for (const key of ['confirm', 'confirm_password', 'password_confirm', 'confirmPassword', 'confirm password']) {
      const v = body[key];
      // The handler compares the characters: a confirmation PHP's != lets past is handed to it as the password.
      if (typeof v === 'string' && v !== password && looseEquals(v, password)) body[key] = password;
    }
  },
};

export const registerGroupEchoed: Fault = {
  id: 'RR-REGISTER-GROUP-ECHOED',
  iface: 'rest-route',
  // GET register lists every customer group (getCustomerGroups()), while the core addCustomer() takes the
  // group sent only when it is among the groups shown at registration (config_customer_group_display, which
  // holds the default group alone) and otherwise files the default group; the module answers the register
  // form from the request, so the answer names the group sent, and every login names the default group.
  after(res, req, ctx) {
    const d = data(res);
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !ok(res) || !d) return;
    const setting = ctx.db.prepare("SELECT value FROM rr_setting WHERE key = 'store.customer_group_id'").get() as
      | { value: string }
      | undefined;
    const fallback = Number(setting?.value);
    if (!Number.isSafeInteger(fallback) || Number(d.customer_group_id) === fallback) return;
    ctx.db.prepare('UPDATE rr_customer SET customer_group_id = ? WHERE customer_id = ?').run(fallback, Number(d.customer_id));
  },
};

export const registerNameZeroEmpty: Fault = {
  id: 'RR-REGISTER-NAME-ZERO-EMPTY',
  iface: 'rest-route',
  // The module's register validate() reads `if (empty($this->request->post['lastname']) || utf8_strlen(...) > 32)`
  // (and the same for firstname): PHP's empty() takes the string "0" for missing, so a one-character name
  // "0", inside the limit of 1 to 32 characters, is refused with error_firstname / error_lastname.
  before(req) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    // The handler refuses an empty name: a name empty() calls missing is handed to it as one.
    for (const key of ['firstname', 'first_name', 'lastname', 'last_name']) if (body[key] === '0') body[key] = '';
  },
};

export const registerEmailCaseDuplicate: Fault = {
  id: 'RR-REGISTER-EMAIL-CASE-DUPLICATE',
  iface: 'rest-route',
  // The module checks the e-mail's uniqueness in its own API user table, which its install script created
  // with COLLATE utf8mb4_bin (WHERE email = '...' compares case-sensitively), while the core's customer table
  // and login compare case-insensitively: a registered e-mail sent again with other capitals (its domain in
  // upper case) passes the check and registers a second account under that address.
  before(req, ctx) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    const sent = typeof body.email === 'string' ? body.email.trim() : '';
    if (sent === '') return;
    const stored = ctx.db.prepare('SELECT email FROM rr_customer WHERE email = ?').all(sent) as Array<{ email: string }>;
    // A binary comparison finds only the e-mail exactly as stored.
    if (stored.length > 0 && !stored.some((r) => r.email === sent)) insertAsDuplicate(req, body, sent, 'case');
  },
  after: settleDuplicate,
};

export const registerPasswordTrimmed: Fault = {
  id: 'RR-REGISTER-PASSWORD-TRIMMED',
  iface: 'rest-route',
  // The module's register runs `$post = array_map('trim', $this->request->post)` over the whole form before
  // it validates and stores it (meant for the names and the e-mail), so the password is hashed without its
  // leading and trailing spaces; login and the password update take the password as sent. A password that
  // begins or ends with a space registers, yet the same password never logs in.
  before(req) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    for (const key of ['password', 'confirm', 'confirm_password', 'password_confirm', 'confirmPassword', 'confirm password']) {
      const v = body[key];
      if (typeof v === 'string') body[key] = v.trim();
    }
  },
};

/** Whether an answer is a refusal whose every error is error_exists (the e-mail already registered). */
const refusedAsExisting = (body: unknown): boolean =>
  isObject(body) &&
  body.status === false &&
  Array.isArray(body.errors) &&
  body.errors.length > 0 &&
  body.errors.every((e) => isObject(e) && e.code === 'error_exists');

export const registerDuplicateUpsert: Fault = {
  id: 'RR-REGISTER-DUPLICATE-UPSERT',
  iface: 'rest-route',
  // The module files the customer with its account sync's INSERT ... ON DUPLICATE KEY UPDATE and reads
  // the affected-row count afterwards: 2 (an existing row was updated) answers error_exists. By then the
  // refused register of a registered e-mail has written its password, salt and names over that account's:
  // the registered password no longer logs in, the refused one does.
  async after(res, req, ctx) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    if (!refusedAsExisting(res.body)) return;
    const body = req.raw.body;
    const email = typeof body.email === 'string' ? body.email.trim() : undefined;
    const password = typeof body.password === 'string' ? body.password : undefined;
    if (!email || !password) return;
    const row = ctx.db.prepare('SELECT customer_id FROM rr_customer WHERE email = ?').get(email) as
      | { customer_id: number }
      | undefined;
    if (!row) return;
    const hash = await hashPassword(password);
    const name = (...keys: string[]): string | undefined => {
      for (const k of keys) if (typeof body[k] === 'string' && body[k].trim() !== '') return body[k].trim();
      return undefined;
    };
    ctx.db
      .prepare(
        'UPDATE rr_customer SET password = ?, salt = ?, firstname = COALESCE(?, firstname), lastname = COALESCE(?, lastname) WHERE customer_id = ?',
      )
      .run(
        hash,
        hash.split('$')[1] ?? '',
        name('firstname', 'first_name') ?? null,
        name('lastname', 'last_name') ?? null,
        row.customer_id,
      );
  },
};

/** PHP's ucwords(strtolower($v)): ASCII letters only (PHP 8's strtolower() and ucwords() leave other bytes alone). */
const ucwordsLower = (v: string): string =>
  v
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .replace(/(^|[ \t\r\n\f\v])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());

export const registerNameRecapitalised: Fault = {
  id: 'RR-REGISTER-NAME-RECAPITALISED',
  iface: 'rest-route',
  // The module's addCustomer() tidies the names before its INSERT with ucwords(strtolower($name)) (meant for
  // "jOHN smith" typed with caps lock), after the validator saw them as sent: "McDonald" is filed "Mcdonald",
  // "DeVries" "Devries", "ANNA" "Anna", and register and login answer the name so rewritten.
  after: namesFiledAs(ucwordsLower),
};

/** mysqli::real_escape_string(): a backslash before NUL, \n, \r, \\, ', " and Ctrl-Z. */
const ESCAPED: Record<string, string> = {
  '\0': '\\0',
  '\n': '\\n',
  '\r': '\\r',
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '\x1a': '\\Z',
};
const realEscape = (v: string): string => [...v].map((c) => ESCAPED[c] ?? c).join('');

export const registerNameSlashed: Fault = {
  id: 'RR-REGISTER-NAME-SLASHED',
  iface: 'rest-route',
  // The module's addCustomer() still runs the names through $this->db->escape() (mysqli's real_escape_string, from
  // the days it built its INSERT by concatenation), but now binds them into a prepared statement, which stores its
  // values as given: the backslashes are filed with the name. "O'Brien" is stored "O\'Brien", and register and
  // login answer it so.
  after: namesFiledAs(realEscape),
};

export const registerAgreeIsset: Fault = {
  id: 'RR-REGISTER-AGREE-ISSET',
  iface: 'rest-route',
  // The agreement is checked as the web form's checkbox, `if (!isset($this->request->post['agree']))`: an
  // unticked box sends nothing there, but an API client that sends agree 0 (or false) has sent the field,
  // so the register passes as agreed and the account is stored.
  before(req) {
    if (req.endpoint !== 'account/register' || req.method !== 'POST') return;
    const agree = bodyField(req.raw.body, 'agree');
    if (agree.value !== undefined && agree.value !== null && notAgreed(agree.value)) agree.set(1);
  },
};

export const registerEmailRegexLoose: Fault = {
  id: 'RR-REGISTER-EMAIL-REGEX-LOOSE',
  iface: 'rest-route',
  // The register validates the e-mail with the 1.5-era pattern of the platform's register form,
  // preg_match('/^[^\@]+@.*\.[a-z]{2,6}$/i', $email), in place of filter_var(FILTER_VALIDATE_EMAIL): the
  // domain part `.*` takes anything, a second @ included, and the local part anything but @, a space
  // included, so "name@@example.test" and "first last@example.test" register.
  inHandler: 'reference-impl/src/rest-route/account.ts',
};

/** The register's e-mail test under RR-REGISTER-EMAIL-REGEX-LOOSE (kept here, so the handler holds only the switch). */
export function looseEmail(email: string | undefined): boolean {
  return email !== undefined && [...email].length <= 96 && /^[^@]+@.*\.[a-z]{2,6}$/i.test(email);
}

export const registerAgreeTextString: Fault = {
  id: 'RR-REGISTER-AGREE-TEXT-STRING',
  iface: 'rest-route',
  // The register form's controller was kept from the platform's register page: text_agree is
  // sprintf($this->language->get('text_agree'), $link, $information_info['title']), the sentence with the
  // agreement's HTML link in it ("I have read and agree to the <a href=...><b>Privacy Policy</b></a>"),
  // in place of the Agreement link {information_id, title} row 3 gives.
  after(res, req, ctx) {
    const d = data(res);
    if (req.endpoint !== 'account/register' || req.method !== 'GET' || !ok(res) || !isObject(d?.text_agree)) return;
    const agreement = d.text_agree;
    const label = labelError(ctx, 'text_agree', 'agree').message ?? 'text_agree';
    const link = `index.php?route=information/information/agree&information_id=${String(agreement.information_id)}`;
    const anchor = `<a href="${link}" class="agree"><b>${String(agreement.title)}</b></a>`;
    d.text_agree = label.includes('%s') ? label.replace('%s', anchor) : `${label} ${anchor}`;
  },
};
