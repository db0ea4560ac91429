import { hashPassword } from '../../passwords.js';
import { htmlspecialchars, isNumeric, looseEquals, utf8mb3 } from '../emulation.js';
import { type Fault, type FaultRequest, isObject } from '../model.js';
import { has, insertCustomer, registerInput, result, trimmed, variables } from './shared.js';

/** The platform's request sanitiser: htmlspecialchars with ENT_QUOTES, on text only. */
const htmlEscaped = (v: unknown): unknown => (typeof v === 'string' ? htmlspecialchars(v) : v);

/** Register's firstname and lastname (variables) as a store of the vendor's would keep them. */
function mapRegisterNames(req: FaultRequest, stored: (v: string) => string): void {
  const input = variables(req)?.input;
  if (!has(req, 'register') || !isObject(input)) return;
  for (const field of ['firstname', 'lastname']) {
    const v = input[field];
    if (typeof v === 'string') input[field] = stored(v);
  }
}

/** A string of digits beginning with 0: what an integer round trip (FILTER_VALIDATE_INT) refuses. */
const leadingZero = (v: unknown) => typeof v === 'string' && /^0\d+$/.test(v.trim());

/** CustomerInput's text fields with a column of their own: what register stores of a field sent as null. */
const NULLABLE_TEXT = ['firstname', 'lastname', 'address_1', 'address_2', 'city', 'fax', 'company'] as const;

/** register requests -> the text fields they sent as null, stored empty once the account is in (GQL-REGISTER-NULL-FIELD-GIVEN). */
const nulledFields = new WeakMap<object, string[]>();

/**
 * PHP's mb_strcut($v, 0, $bytes) on UTF-8: the first `bytes` bytes, moved back to the start of the character the cut
 * would split (bytes, not characters, are counted; whole code points are kept).
 */
function mbStrcut(v: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const ch of v) {
    const n = Buffer.byteLength(ch);
    if (used + n > bytes) break;
    out += ch;
    used += n;
  }
  return out;
}

export const confirmIgnored: Fault = {
  id: 'GQL-CONFIRM-IGNORED',
  iface: 'graphql',
  before(req) {
    const input = variables(req)?.input;
    if (has(req, 'register') && isObject(input) && 'password' in input) input.confirm = input.password;
  },
};

export const passwordEscaped: Fault = {
  id: 'GQL-PASSWORD-ESCAPED',
  iface: 'graphql',
  // login hashes the password after escaping it for SQL (a backslash before ' " and \\), register
  // hashes it as sent: a password holding a quote or a backslash registers but never logs in.
  before(req) {
    const v = variables(req);
    if (has(req, 'login') && v && typeof v.password === 'string') v.password = v.password.replace(/['"\\]/g, '\\$&');
  },
};

export const nameHtmlEscaped: Fault = {
  id: 'GQL-NAME-HTML-ESCAPED',
  iface: 'graphql',
  // register stores names through the platform's request sanitiser (htmlspecialchars), and login
  // and customerByEmail hand the stored text back: O'Hara & Co comes back as O&#039;Hara &amp; Co.
  after(res) {
    const user = result(res, 'login')?.user_data;
    const customers = isObject(res.body) && isObject(res.body.data) ? res.body.data.customerByEmail : undefined;
    for (const r of [user, ...(Array.isArray(customers) ? customers : [customers])])
      if (isObject(r)) for (const k of ['firstname', 'lastname']) if (k in r) r[k] = htmlEscaped(r[k]);
  },
};

/**
 * A register refused for `field` alone, whose check the vendor runs after the customer row is inserted
 * (no transaction): the account is stored all the same, with the password sent.
 */
function storedDespiteRefusal(field: 'confirm' | 'postcode'): NonNullable<Fault['after']> {
  return async (res, req, ctx) => {
    const input = registerInput(req);
    const refusedFor =
      isObject(res.body) &&
      Array.isArray(res.body.errors) &&
      res.body.errors.length === 1 &&
      res.body.errors.some((e) => isObject(e) && isObject(e.extensions) && e.extensions.field === field);
    // A postcode refusal of a register whose confirm also differs is no stored account: confirm is checked first.
    if (!input || !refusedFor || (field !== 'confirm' && input.confirm !== input.password)) return;
    insertCustomer(ctx, input, trimmed(input.email), await hashPassword(input.password as string));
  };
}

export const confirmStored: Fault = {
  id: 'GQL-CONFIRM-STORED',
  iface: 'graphql',
  // The confirm comparison sits below addCustomer (added to the resolver after the insert was
  // written): a register whose confirm differs is refused, yet the account is stored and logs in.
  after: storedDespiteRefusal('confirm'),
};

export const digitsLeadingZero: Fault = {
  id: 'GQL-DIGITS-LEADING-ZERO',
  iface: 'graphql',
  // telephone and postcode are validated with FILTER_VALIDATE_INT, which refuses a leading zero:
  // "0201234567" or postcode "01234", strings of digits, are refused as not digits.
  before(req) {
    const input = variables(req)?.input;
    if (!has(req, 'register') || !isObject(input)) return;
    for (const field of ['telephone', 'postcode'])
      if (leadingZero(input[field])) input[field] = `${String(input[field]).trim()}?`;
  },
};

export const nameAstralCut: Fault = {
  id: 'GQL-NAME-ASTRAL-CUT',
  iface: 'graphql',
  // The customer table keeps OpenCart's utf8 (3-byte) collation and the connection runs outside
  // strict mode: a firstname or lastname holding a character outside the BMP (an emoji, a CJK
  // extension ideograph) is stored cut at that character, and login and customerByEmail return it cut.
  before: (req) => mapRegisterNames(req, (v) => utf8mb3(v, 'cut')),
};

export const passwordTrimmedAtRegister: Fault = {
  id: 'GQL-PASSWORD-TRIMMED-AT-REGISTER',
  iface: 'graphql',
  // register passes CustomerInput through the platform's request cleaner, which trims every string, while
  // login hands its password argument to the hash check as sent: a password with a space at either end
  // registers (its trimmed form is hashed) and never logs in with the password chosen.
  before(req) {
    const input = registerInput(req);
    if (!input) return;
    input.password = (input.password as string).trim();
    if (typeof input.confirm === 'string') input.confirm = input.confirm.trim();
  },
};

export const namesNfcOnStore: Fault = {
  id: 'GQL-NAMES-NFC-ON-STORE',
  iface: 'graphql',
  // The vendor's request filter runs every string argument of register through Normalizer::normalize(FORM_C), so
  // that its customer search compares one form: a firstname or lastname sent with a combining mark (U+0055 U+0308
  // for Ü, as macOS and some keyboards send it) is stored precomposed, and login and customerByEmail answer other
  // characters than were registered. Names already composed, and ASCII, read back as sent.
  before: (req) => mapRegisterNames(req, (v) => v.normalize('NFC')),
};

export const registerNullFieldGiven: Fault = {
  id: 'GQL-REGISTER-NULL-FIELD-GIVEN',
  iface: 'graphql',
  // The vendor's SDL leaves CustomerInput's fields nullable (so that register can name the one missing), and its
  // required check is array_key_exists() over the input's keys: a field sent as null is there, passes, and
  // addCustomer stores (string) null, an empty string. register with firstname: null answers true and the account
  // logs in with an empty name; a field left out is refused as before.
  before(req) {
    const input = variables(req)?.input;
    if (!has(req, 'register') || !isObject(input)) return;
    const nulled = NULLABLE_TEXT.filter((f) => f in input && input[f] === null);
    if (nulled.length === 0) return;
    for (const f of nulled) input[f] = 'x'; // a value the handler's rules take; `after` stores the empty string
    nulledFields.set(req.raw, nulled);
  },
  after(res, req, ctx) {
    const nulled = nulledFields.get(req.raw);
    const input = variables(req)?.input;
    const data = isObject(res.body) ? res.body.data : undefined;
    if (!nulled || !isObject(input) || !isObject(data) || data.register !== true) return;
    for (const f of nulled) ctx.db.prepare(`UPDATE gql_customer SET ${f} = '' WHERE email = ?`).run(trimmed(input.email));
  },
};

export const nameByteCut: Fault = {
  id: 'GQL-NAME-BYTE-CUT',
  iface: 'graphql',
  // register fits firstname and lastname to the platform's varchar(32) with mb_strcut($name, 0, 32), taken for the
  // multibyte substr: mb_strcut counts bytes (keeping whole characters), where the column and the platform's
  // utf8_strlen count characters. A name of more than 32 bytes in UTF-8 (a Greek or Cyrillic name of 17 letters or
  // more, fewer with other non-ASCII text) is registered and stored cut, and login's user_data and customerByEmail
  // return the cut name. Names of 32 bytes or fewer (any ASCII name the platform takes) are kept whole.
  before: (req) => mapRegisterNames(req, (v) => mbStrcut(v, 32)),
};

export const confirmLooseCompare: Fault = {
  id: 'GQL-CONFIRM-LOOSE-COMPARE',
  iface: 'graphql',
  // The handler's `if ($input['confirm'] != $input['password'])`: PHP's != compares two numeric strings as
  // numbers, so a confirm of "1500" matches a password of "+1.5e3" and the register goes through.
  before(req) {
    const input = registerInput(req);
    const confirm = input?.confirm;
    if (!input || typeof confirm !== 'string' || confirm === input.password) return;
    if (looseEquals(confirm, input.password as string)) input.confirm = input.password;
  },
};

export const digitsIsNumeric: Fault = {
  id: 'GQL-DIGITS-IS-NUMERIC',
  iface: 'graphql',
  // The handler validates telephone and postcode with is_numeric() where ctype_digit() was meant: a sign in
  // front, one decimal point or an exponent passes ("+4412345", "123.45", "1e5"). Stored as sent, never read
  // back by an operation of document 3: the emulation hands the reference the digits so that it stores the account.
  before(req) {
    const input = registerInput(req);
    if (!input) return;
    for (const field of ['telephone', 'postcode']) {
      const v = input[field];
      if (typeof v === 'string' && isNumeric(v) && !/^\d+$/.test(v)) input[field] = v.replace(/\D/g, '');
    }
  },
};

export const registerOptionalFields: Fault = {
  id: 'GQL-REGISTER-OPTIONAL-FIELDS',
  iface: 'graphql',
  // The vendor's schema types company, address_2 and fax as nullable, as the platform's own account form
  // treats them, and the resolver stores '' for one left out: a register without one of them goes through.
  before(req) {
    const input = registerInput(req);
    if (!input) return;
    for (const field of ['company', 'address_2', 'fax']) if (!(field in input) || input[field] === null) input[field] = '';
  },
};

export const postcodeAfterInsert: Fault = {
  id: 'GQL-POSTCODE-AFTER-INSERT',
  iface: 'graphql',
  // register checks the postcode with the address (in addAddress), after addCustomer has inserted
  // the customer row, and the tables are MyISAM (no transaction): a register refused for a postcode
  // that is not digits leaves an account behind, which logs in and holds the e-mail.
  after: storedDespiteRefusal('postcode'),
};

/** Register's free-text fields the platform's validate() never checks, with the width of their column. */
const UNCHECKED_COLUMNS: Record<string, number> = { fax: 32, company: 40, address_2: 128 };

export const registerDataTooLong: Fault = {
  id: 'GQL-REGISTER-DATA-TOO-LONG',
  iface: 'graphql',
  // register validates what the platform's account/register validates (names, e-mail, telephone, address_1, city,
  // postcode, country, zone, password, agree) and passes fax, company and address_2 to the INSERT unchecked. The shop's
  // MySQL runs in strict mode (the default since 5.7), so a fax longer than its VARCHAR(32) (company 40, address_2
  // 128) fails the INSERT with error 1406, and the platform's DB driver throws: the shop's error page answers HTML
  // with status 500. A register refused for any checked field still answers its JSON refusal; the reference
  // refuses such fields by their length, so the fault answers HTML where only these fields were refused.
  after(res, req, ctx) {
    const input = registerInput(req);
    const long = Object.keys(UNCHECKED_COLUMNS).find(
      (f) => typeof input?.[f] === 'string' && trimmed(input[f]).length > (UNCHECKED_COLUMNS[f] as number),
    );
    if (!input || !long || !isObject(res.body)) return;
    const errors = Array.isArray(res.body.errors) ? (res.body.errors as unknown[]) : [];
    const fields = errors.map((e) => (isObject(e) && isObject(e.extensions) ? e.extensions.field : undefined));
    if (errors.length > 0 && !fields.every((f) => typeof f === 'string' && f in UNCHECKED_COLUMNS)) return;
    // Stored by the reference (a company of 41 to 128 characters): the vendor's INSERT failed, no account is left.
    if (isObject(res.body.data) && res.body.data.register === true)
      ctx.db.prepare('DELETE FROM gql_customer WHERE email = ?').run(trimmed(input.email));
    else if (errors.length === 0) return;
    res.status = 500;
    res.body = `<b>Fatal error</b>: Uncaught Exception: Error: Data too long for column '${long}' at row 1<br />Error No: 1406<br />INSERT INTO oc_customer SET customer_group_id = '1', ... in /var/www/html/system/library/db/mysqli.php:40`;
  },
};
