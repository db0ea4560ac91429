import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import { hashPassword } from '../passwords.js';
import { type AddressRow, formatted, SELECT_ADDRESS } from '../rest-route/address.js';
import { tokenOf } from '../rest-route/core.js';
import {
  AnswerCache,
  bcryptInput,
  dateFromGmt,
  htmlspecialchars,
  InFlight,
  isNumeric,
  jsonWithParameter,
  likeRegex,
  looseEquals,
  pause,
  rawurldecode,
  SITE_OFFSET_MINUTES,
  stripLow,
  urldecode,
  utf8mb3,
} from './emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject, isoOf, mapKey } from './model.js';
import { defaultUserToken } from './tokens.js';

const ok = (res: FaultResponse): res is FaultResponse & { body: Record<string, unknown> } =>
  isObject(res.body) && res.body.status === true;
const data = (res: FaultResponse): Record<string, unknown> | undefined =>
  isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;

/** RR-ADDRESS-TEXT-STALE: the full address text each address got when it was added, per database. */
const ADDRESS_TEXT = new WeakMap<object, Map<string, string>>();

/** The full address text as the list builds it (the handler's own formatting, of the stored row). */
function addressText(ctx: AppContext, addressId: number): string | undefined {
  const a = ctx.db.prepare(`${SELECT_ADDRESS} WHERE a.address_id = ?`).get(addressId) as AddressRow | undefined;
  return a ? formatted(a) : undefined;
}

/** A rule error as the handlers build it: the error_* key, the field and the label text (`%s` filled in when given). */
function labelError(ctx: AppContext, code: string, field: string, fill?: string): Record<string, string> {
  const row = ctx.db.prepare("SELECT value FROM rr_label WHERE key = ? ORDER BY page = '*' LIMIT 1").get(code) as
    | { value: string }
    | undefined;
  const message = row?.value ?? code;
  return { code, field, message: fill === undefined ? message : message.replace('%s', fill) };
}

/** A refusal in the handlers' envelope carrying `errors`, in place of whatever the handler answered. */
function refuse(res: FaultResponse, errors: Record<string, string>[]): void {
  res.status = 200;
  res.body = { status: false, errors, message: errors.map((e) => e.message).join(' '), data: [] };
}

/** A body value that reads as "not given": left out, null or an empty string. */
const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The agree values that say no (as the handler's flag() reads them), or none at all. */
const notAgreed = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === false ||
  v === 0 ||
  (typeof v === 'string' && ['0', 'false', 'off', 'no', ''].includes(v.trim().toLowerCase()));

/** The address fields of rows 7 and 9 that are stored as text. */
const ADDRESS_TEXT_FIELDS = [
  'firstname',
  'first_name',
  'lastname',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'postcode',
];

/** Whether a request is a POST of address/add or address/edit whose body is a JSON object. */
const addressWrite = (
  req: FaultRequest,
  which: 'add' | 'edit' | 'both',
): req is FaultRequest & { raw: { body: Record<string, unknown> } } =>
  req.method === 'POST' &&
  (which === 'both'
    ? req.endpoint === 'account/address/add' || req.endpoint === 'account/address/edit'
    : req.endpoint === `account/address/${which}`) &&
  isObject(req.raw.body);

/** Requests a fault let past one rule so that the handler writes: the error_* key the answer must still carry. */
const FORCED = new WeakMap<object, string>();
/** RR-PASSWORD-UPDATE-NEEDS-RESET: the hash and salt an update without a pending code must leave in place. */
const KEPT_HASH = new WeakMap<object, { customerId: number; password: string; salt: string }>();

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

/** RR-ADDRESS-LIST-CACHED-BY-URL: the address list's data by URL, for 10 s. */
const LIST_CACHE = new AnswerCache<unknown>(10_000);

/** RR-ADDRESS-EDIT-REVIVES-DELETED: rows the deletes soft-deleted, per database, by address id. */
const SOFT_DELETED = new WeakMap<object, Map<number, AddressRecord>>();
/** RR-ADDRESS-EDIT-REVIVES-DELETED: the row a delete request is about to remove, or an edit brought back. */
const TOUCHED_ROW = new WeakMap<object, AddressRecord>();
type AddressRecord = Record<string, unknown> & { address_id: number; customer_id: number };
/** An id as the handlers read one (an integer, or a string of digits); undefined for anything else. */
const idValue = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v)
    ? v
    : typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v)
      ? Number(v)
      : undefined;
/** RR-ADDRESS-EDIT-REVIVES-DELETED: the columns of an address row, as the soft delete keeps them. */
const ADDRESS_COLUMNS = [
  'address_id',
  'customer_id',
  'firstname',
  'lastname',
  'company',
  'address_1',
  'address_2',
  'city',
  'postcode',
  'country_id',
  'zone_id',
  'custom_field',
];

/** RR-SEARCH-LIKE-WILDCARDS: the search (and paging) a listing request had, taken out before the handler. */
const LIKE_SEARCH = new WeakMap<object, { search: string; limit: unknown; page: unknown }>();

/**
 * RR-CATEGORY-FILTER-KEYS-KEPT, RR-CATEGORY-IDS-STRPOS, RR-SEARCH-MODEL-OR-UNGROUPED: the category ids a listing
 * request named, taken out before the handler so the fault applies them its own way (one fault is on at a time).
 */
const CATEGORY_FILTER = new WeakMap<object, string>();

/** The category parameter of a listing request (the names the handler reads), or undefined when none is given. */
const categoryParam = (req: FaultRequest): string | undefined => {
  const v = req.query.category_ids ?? req.query.category_id ?? req.query.path;
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
};

/** RR-LOGIN-TOKEN-READS-ONLY: the tokens login issued, per database (never filed where the writes look). */
const LOGIN_TOKENS = new WeakMap<object, Set<string>>();
/** RR-LOGIN-TOKEN-READS-ONLY: the endpoints that look the token up in the session table. */
const TOKEN_TABLE_ROUTES = [
  'account/address/add',
  'account/address/edit',
  'account/address/delete',
  'account/forgotten/updatepassword',
];

/** The customer id of the request's token (the handlers' own header reading), or undefined. */
async function tokenCustomer(req: FaultRequest, ctx: AppContext): Promise<number | undefined> {
  const token = tokenOf(req.raw);
  const payload = token ? await ctx.tokens.verify(token, 'rest-route') : null;
  return payload && /^\d{1,15}$/.test(payload.sub) ? Number(payload.sub) : undefined;
}

/** RR-PASSWORD-UPDATE-USERNAME-STALE: the module's API users by username (lower case), per database: the hash register copied. */
const API_USERS = new WeakMap<object, Map<string, { customerId: number; password: string; salt: string }>>();
/** RR-PASSWORD-UPDATE-USERNAME-STALE: the customer's current hash, put back after a username login read the API user's. */
const SWAPPED_HASH = new WeakMap<object, { customerId: number; password: string; salt: string }>();

/** RR-PASSWORD-UPDATE-BCRYPT-72: per database, by customer id, the password the update hashed with bcrypt. */
const BCRYPT_SET = new WeakMap<object, Map<number, string>>();
/** RR-REGISTER-TABLE-PHONE-UNCHECKED: the table body's phone, as sent, of a register the check did not see it in. */
const UNCHECKED_PHONE = new WeakMap<object, string>();
/** RR-ADDRESS-ZONE-NUMERIC-ONLY: the zone_id an add or edit sent, which names no region of its country. */
const UNCHECKED_ZONE = new WeakMap<object, number>();

/** RR-FORGOTTEN-PENDING-OTP-STRING: the code a POST forgotten found pending, as the reset table holds it. */
const PENDING_CODE = new WeakMap<object, { customerId: number; otp: number; expiresAt: number }>();

/** RR-ADDRESS-EDIT-REGION-CHECKED-LAST: whether a refusal names error_zone and no other rule. */
const onlyZoneRefused = (res: FaultResponse): boolean => {
  const errors = isObject(res.body) && res.body.status === false ? res.body.errors : undefined;
  return Array.isArray(errors) && errors.length > 0 && errors.every((e) => isObject(e) && e.code === 'error_zone');
};

/** RR-ADDRESS-ADD-ACTIVITY-ID: per database, the ids the module's activity log has handed out. */
const ACTIVITY_IDS = new WeakMap<object, number>();
/** RR-ADDRESS-ADD-ACTIVITY-ID: where the activity log's ids start (a shop's log holds more rows than its address book). */
const ACTIVITY_ID_BASE = 900_000;

/** Document 1 (route-based REST): faults a vendor's OpenCart-style module could ship with. */
/** RR-ADDRESS-FIELDS-BYTE-CUT: the address columns' widths, which the module's substr() reads as bytes. */
const ADDRESS_COLUMN_WIDTHS: Record<string, number> = {
  firstname: 32,
  lastname: 32,
  company: 128,
  address_1: 128,
  address_2: 128,
  city: 128,
  postcode: 10,
};

/** substr($v, 0, $bytes) on UTF-8, then MySQL's drop of the partial character left at the end. */
function byteCut(v: string, bytes: number): string {
  let used = 0;
  let out = '';
  for (const ch of v) {
    used += Buffer.byteLength(ch, 'utf8');
    if (used > bytes) break;
    out += ch;
  }
  return out;
}

/** RR-LISTING-TAX-LOCALE: an amount as sprintf('%.2f') writes it under de_DE: no grouping, a decimal comma. */
const germanFixed = (amount: string): string =>
  amount.replace(/\d{1,3}(?:,\d{3})*(?:\.\d+)?/, (n) => n.replace(/,/g, '').replace('.', ','));

/** Takes the category parameter out of a listing request before the handler, kept in CATEGORY_FILTER. */
const takeCategory = (req: FaultRequest, category: string): void => {
  CATEGORY_FILTER.set(req.raw, category);
  for (const k of ['category_ids', 'category_id', 'path']) delete req.query[k];
};

/** The category ids of a product, as the module's getCategories() reads them (strings, as mysqli gives every column). */
const categoryIdsOf = (ctx: AppContext, productId: number): string[] =>
  (
    ctx.db.prepare('SELECT category_id FROM rr_product_category WHERE product_id = ?').all(productId) as Array<{
      category_id: number;
    }>
  ).map((r) => String(r.category_id));

/** RR-LISTING-DESCRIPTION-DECODED-LAST: the summary's description length (the theme's product_description_length). */
const DESCRIPTION_LENGTH = 100;

/** RR-ADDRESS-ADD-BODY-CUSTOMER-ID: an add whose body named another customer, and the token holder's default before it. */
const BODY_CUSTOMER = new WeakMap<object, { other: number; own: number; ownDefault: number }>();

export const restRouteFaults: Fault[] = [
  {
    id: 'RR-LOGIN-TOKEN-RENAMED',
    iface: 'rest-route',
    after(res, req) {
      if (req.endpoint === 'account/login' && req.method === 'POST' && ok(res) && 'token' in res.body) {
        res.body.access_token = res.body.token;
        delete res.body.token;
      }
    },
  },
  {
    id: 'RR-STATUS-STRING',
    iface: 'rest-route',
    after(res) {
      if (isObject(res.body) && typeof res.body.status === 'boolean') res.body.status = res.body.status ? '1' : '0';
    },
  },
  {
    id: 'RR-ERRORS-NULL',
    iface: 'rest-route',
    after(res) {
      if (ok(res)) res.body.errors = null;
    },
  },
  {
    id: 'RR-LANGUAGE-MISSING',
    iface: 'rest-route',
    after(res, req) {
      if (req.endpoint === 'product/listing' && isObject(res.body)) delete res.body.language;
    },
  },
  {
    id: 'RR-CATEGORY-ISO-DATE',
    iface: 'rest-route',
    after(res, req) {
      if (req.endpoint === 'common/category') {
        mapKey(res.body, 'date_added', isoOf);
        mapKey(res.body, 'date_modified', isoOf);
      }
    },
  },
  {
    id: 'RR-CHILDREN-NULL',
    iface: 'rest-route',
    after(res, req) {
      if (req.endpoint === 'common/category')
        mapKey(res.body, 'children', (v) => (Array.isArray(v) && v.length === 0 ? null : v));
    },
  },
  {
    id: 'RR-FIRSTNAME-TRUNCATED',
    iface: 'rest-route',
    // MySQL in non-strict mode: a VARCHAR(32) silently truncates, so 33 characters are "accepted".
    before(req) {
      if (req.endpoint !== 'account/register' || req.method !== 'POST' || !isObject(req.raw.body)) return;
      const body = req.raw.body;
      if (typeof body.firstname === 'string' && body.firstname.length > 32) body.firstname = body.firstname.slice(0, 32);
    },
  },
  { id: 'RR-DEFAULT-ADDRESS-DELETED', iface: 'rest-route', inHandler: 'reference-impl/src/rest-route/address.ts' },
  {
    id: 'RR-TOKEN-UNCHECKED',
    iface: 'rest-route',
    async before(req, ctx) {
      if (req.raw.headers.authorization) return;
      await defaultUserToken(
        req,
        ctx,
        'token',
        'rest-route',
        'SELECT customer_id AS id FROM rr_customer ORDER BY customer_id LIMIT 1',
      );
    },
  },
  {
    id: 'RR-SEARCH-IGNORED',
    iface: 'rest-route',
    before(req) {
      if (req.endpoint === 'product/listing') delete req.query.search;
    },
  },
  {
    id: 'RR-CATEGORY-FILTER-IGNORED',
    iface: 'rest-route',
    before(req) {
      if (req.endpoint === 'product/listing') delete req.query.category_ids;
    },
  },
  {
    id: 'RR-BAD-JSON-500',
    iface: 'rest-route',
    after(res) {
      if (res.status === 400 || (isObject(res.body) && /JSON/.test(String(res.body.message)))) {
        res.status = 500;
        res.body = '<b>Fatal error</b>: Uncaught JsonException: Syntax error in system/engine/loader.php';
      }
    },
  },
  {
    id: 'RR-ADDRESS-ID-NUMBER',
    iface: 'rest-route',
    after(res, req) {
      const d = data(res);
      if (req.endpoint === 'account/address' && Array.isArray(d?.addresses))
        for (const a of d.addresses) if (isObject(a) && typeof a.address_id === 'string') a.address_id = Number(a.address_id);
    },
  },
  {
    id: 'RR-ZONELESS-NULL',
    iface: 'rest-route',
    after(res, req) {
      const states = data(res)?.states;
      if (req.endpoint === 'account/address/add' && isObject(states))
        for (const [k, v] of Object.entries(states)) if (Array.isArray(v) && v.length === 0) states[k] = null;
    },
  },
  {
    id: 'RR-LOGIN-OTHER-CUSTOMER',
    iface: 'rest-route',
    // A login that reads "the customer" by a stale session: it answers another (the oldest) account's record.
    after(res, req, ctx) {
      const d = data(res);
      if (req.endpoint !== 'account/login' || req.method !== 'POST' || !d) return;
      const other = ctx.db
        .prepare('SELECT firstname, lastname, email FROM rr_customer WHERE lower(email) != lower(?) ORDER BY customer_id LIMIT 1')
        .get(String(d.email ?? '')) as Record<string, string> | undefined;
      // With no other account yet, the demo customer a vendor left in its fixtures.
      Object.assign(d, other ?? { firstname: 'Demo', lastname: 'Customer', email: 'demo@example.test' });
    },
  },
  {
    id: 'RR-REGISTER-PASSWORD-CLEAR',
    iface: 'rest-route',
    after(res, req) {
      const d = data(res);
      const sent = isObject(req.raw.body) ? req.raw.body.password : undefined;
      if (req.endpoint === 'account/register' && req.method === 'POST' && d && typeof sent === 'string') d.password = sent;
    },
  },
  {
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
  },
  {
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
  },
  {
    id: 'RR-ADDRESS-EDIT-STRING-REGION',
    iface: 'rest-route',
    // Row 9 lets country_id and zone_id be strings; the update copies them only when they are integers,
    // so an edit sending strings is answered with success and keeps the address's stored country and zone.
    before(req, ctx) {
      if (req.endpoint !== 'account/address/edit' || req.method !== 'POST' || !isObject(req.raw.body)) return;
      const body = req.raw.body;
      if (typeof body.country_id !== 'string' && typeof body.zone_id !== 'string') return;
      const id = Number(req.query.address_id ?? body.address_id);
      const stored = ctx.db.prepare('SELECT country_id, zone_id FROM rr_address WHERE address_id = ?').get(id) as
        | { country_id: number; zone_id: number }
        | undefined;
      if (!stored) return;
      if (typeof body.country_id === 'string') body.country_id = stored.country_id;
      if (typeof body.zone_id === 'string') body.zone_id = stored.zone_id;
    },
  },
  {
    id: 'RR-DEFAULT-DELETE-INTEGER-ID',
    iface: 'rest-route',
    // The default rule compares the body's address_id strictly with the stored default, which PHP reads
    // as a string: a string id is refused (error_default), an integer id never matches and deletes it.
    after(res, req, ctx) {
      if (req.endpoint !== 'account/address/delete' || req.method !== 'POST' || !isObject(res.body)) return;
      const sent = bodyField(req.raw.body, 'address_id').value;
      const errors = res.body.errors;
      const byDefaultRule = Array.isArray(errors) && errors.some((e) => isObject(e) && e.code === 'error_default');
      if (typeof sent !== 'number' || !byDefaultRule) return;
      ctx.db.prepare('DELETE FROM rr_address WHERE address_id = ?').run(sent);
      const done = ctx.db
        .prepare(
          "SELECT value FROM rr_label WHERE key = 'text_delete' AND page IN ('account/address', '*') ORDER BY page = '*' LIMIT 1",
        )
        .get() as { value: string } | undefined;
      res.status = 200;
      res.body = { status: true, errors: [], data: { success: done?.value ?? 'text_delete' } };
    },
  },
  {
    id: 'RR-ADDRESS-OPTIONAL-NOTICE',
    iface: 'rest-route',
    // The model's INSERT and UPDATE read company and address_2 without isset(): a valid body that leaves
    // an optional field out is stored, but PHP's "Undefined index" notice (display_errors on) precedes the JSON.
    after(res, req) {
      const route = req.endpoint;
      if ((route !== 'account/address/add' && route !== 'account/address/edit') || req.method !== 'POST') return;
      const body = req.raw.body;
      if (!isObject(body) || !isObject(res.body) || res.body.status !== true) return;
      const missing = ['company', 'address_2'].find((k) => !(k in body));
      if (!missing) return;
      const file = '/var/www/html/catalog/model/shoprestapi/account/address.php';
      const line = (route.endsWith('add') ? 20 : 48) + (missing === 'company' ? 0 : 2);
      res.body = `<br />\n<b>Notice</b>:  Undefined index: ${missing} in <b>${file}</b> on line <b>${line}</b><br />\n${JSON.stringify(res.body)}`;
    },
  },
  {
    id: 'RR-ADDRESS-TEXT-STALE',
    iface: 'rest-route',
    // The full `address` text is written once when an address is added (a cached column) and the
    // edit's UPDATE leaves it out: after an edit the list shows the new fields beside the old text.
    after(res, req, ctx) {
      let texts = ADDRESS_TEXT.get(ctx.db);
      if (!texts) {
        texts = new Map();
        ADDRESS_TEXT.set(ctx.db, texts);
      }
      const d = data(res);
      if (req.endpoint === 'account/address/add' && req.method === 'POST' && ok(res) && typeof d?.address_id === 'number') {
        const text = addressText(ctx, d.address_id);
        if (text !== undefined) texts.set(String(d.address_id), text);
      }
      if (req.endpoint === 'account/address' && Array.isArray(d?.addresses))
        for (const a of d.addresses) {
          const text = isObject(a) ? texts.get(String(a.address_id)) : undefined;
          if (isObject(a) && text !== undefined) a.address = text;
        }
    },
  },
  {
    id: 'RR-SEARCH-IGNORED-IN-CATEGORY',
    iface: 'rest-route',
    // The listing picks one filter: products of the category when category_ids is given, else the
    // search. search is dropped whenever a category is named, so the category's every product comes back.
    before(req) {
      if (req.endpoint !== 'product/listing') return;
      const category = req.query.category_ids ?? req.query.category_id ?? req.query.path;
      if (category !== undefined && category !== '') {
        delete req.query.search;
        delete req.query.filter_name;
      }
    },
  },
  {
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
  },
  {
    id: 'RR-ADDRESS-ZONELESS-STORED',
    iface: 'rest-route',
    // The add inserts the address first and checks the region afterwards (the zone is looked up
    // for the shipping rules once the row exists): without zone_id, for a country that has zones,
    // the answer is error_zone, but the address stays in the book with no region.
    before(req, ctx) {
      if (req.endpoint !== 'account/address/add' || req.method !== 'POST' || !isObject(req.raw.body)) return;
      const body = req.raw.body;
      if (!blank(body.zone_id)) return;
      const country = Number(body.country_id);
      const zone = Number.isSafeInteger(country)
        ? (ctx.db
            .prepare('SELECT zone_id FROM rr_zone WHERE country_id = ? AND status = 1 ORDER BY zone_id LIMIT 1')
            .get(country) as { zone_id: number } | undefined)
        : undefined;
      if (!zone) return;
      body.zone_id = zone.zone_id;
      FORCED.set(req.raw, 'error_zone');
    },
    after(res, req, ctx) {
      if (FORCED.get(req.raw) !== 'error_zone' || !isObject(res.body)) return;
      const stored = data(res)?.address_id;
      if (res.body.status === true && typeof stored === 'number')
        ctx.db.prepare('UPDATE rr_address SET zone_id = 0 WHERE address_id = ?').run(stored);
      const others = res.body.status === true || !Array.isArray(res.body.errors) ? [] : res.body.errors;
      refuse(res, [...(others as Record<string, string>[]), labelError(ctx, 'error_zone', 'zone_id')]);
    },
  },
  {
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
  },
  {
    id: 'RR-ADDRESS-EDIT-MAX-EXCLUSIVE',
    iface: 'rest-route',
    // The edit has its own validator, written with >= where > was due: an address_1 or a city of
    // exactly 128 characters is refused by the edit (error_address_1, error_city), though the add takes it.
    before(req) {
      if (req.endpoint !== 'account/address/edit' || req.method !== 'POST' || !isObject(req.raw.body)) return;
      const body = req.raw.body;
      for (const key of ['address_1', 'city']) {
        const v = body[key];
        // The handler counts characters of the trimmed value: one past the limit is its refusal.
        if (typeof v === 'string' && [...v.trim()].length === 128) body[key] = 'x'.repeat(129);
      }
    },
  },
  {
    id: 'RR-ADDRESS-NON-BMP-MANGLED',
    iface: 'rest-route',
    // The address table and the connection are utf8 (3 bytes), not utf8mb4: a character outside
    // the BMP (an emoji, a supplementary CJK letter) is stored as "?" by the add and the edit, which
    // answer success; the list shows "?" where the client sent the character.
    before(req) {
      if (!addressWrite(req, 'both')) return;
      const body = req.raw.body;
      for (const key of ADDRESS_TEXT_FIELDS) {
        const v = body[key];
        if (typeof v === 'string') body[key] = utf8mb3(v, 'question-mark');
      }
    },
  },
  {
    id: 'RR-ADDRESS-EDIT-EMPTY-KEPT',
    iface: 'rest-route',
    // The edit builds its UPDATE from the non-empty fields only (if (!empty($data[...]))): an edit
    // that empties the optional company or address_2 answers success, yet the old value stays.
    before(req, ctx) {
      if (!addressWrite(req, 'edit')) return;
      const body = req.raw.body;
      const id = Number(req.query.address_id ?? body.address_id);
      const stored = Number.isSafeInteger(id)
        ? (ctx.db.prepare('SELECT company, address_2 FROM rr_address WHERE address_id = ?').get(id) as
            | { company: string; address_2: string }
            | undefined)
        : undefined;
      if (!stored) return;
      if (blank(body.company)) body.company = stored.company;
      if (blank(body.address_2)) body.address_2 = stored.address_2;
    },
  },
  {
    id: 'RR-ADDRESS-EDIT-POSTCODE-UNBOUNDED',
    iface: 'rest-route',
    // The edit's own validator checks the postcode's minimum only, and the VARCHAR(10) column cuts
    // the rest (MySQL, non-strict): an edit with a postcode over 10 characters answers success and
    // stores its first 10. The add's validator has both bounds.
    before(req) {
      if (!addressWrite(req, 'edit')) return;
      const body = req.raw.body;
      const v = body.postcode;
      // The handler counts characters of the trimmed value.
      if (typeof v === 'string' && [...v.trim()].length > 10) body.postcode = [...v.trim()].slice(0, 10).join('');
    },
  },
  {
    id: 'RR-SEARCH-FIRST-PAGE-ONLY',
    iface: 'rest-route',
    // The search path reads the first page of the store's listing (the store's product limit, 10,
    // in the default order) and filters it by the word in PHP: a product past the tenth is listed
    // without a search, yet no search finds it, not even by a word of its own name.
    after(res, req, ctx) {
      const d = data(res);
      const search = req.query.search ?? req.query.filter_name;
      if (req.endpoint !== 'product/listing' || typeof search !== 'string' || search.trim() === '') return;
      if (!Array.isArray(d?.products)) return;
      const category = req.query.category_ids ?? req.query.category_id ?? req.query.path;
      const named = typeof category === 'string' && /^\d{1,15}$/.test(category.trim()) ? Number(category) : undefined;
      const firstPage = ctx.db
        .prepare(
          `SELECT p.product_id FROM rr_product p WHERE p.status = 1
             AND (? IS NULL OR EXISTS (SELECT 1 FROM rr_product_category pc WHERE pc.product_id = p.product_id AND pc.category_id = ?))
           ORDER BY p.sort_order, p.name LIMIT 10`,
        )
        .all(named ?? null, named ?? null) as Array<{ product_id: number }>;
      const ids = new Set(firstPage.map((r) => String(r.product_id)));
      d.products = d.products.filter((p) => isObject(p) && ids.has(String(p.product_id)));
    },
  },
  {
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
  },
  {
    id: 'RR-SEARCH-LIKE-WILDCARDS',
    iface: 'rest-route',
    // The search goes into LIKE '%word%' through the driver's escape(), which quotes but leaves %
    // and _ alone: a search word holding them is a pattern, so "Ci_ema" finds "Cinema" and "C%a"
    // most of the catalog, though no product carries either as written.
    before(req) {
      if (req.endpoint !== 'product/listing') return;
      const search = req.query.search ?? req.query.filter_name;
      if (typeof search !== 'string' || !/[%_]/.test(search)) return;
      LIKE_SEARCH.set(req.raw, { search, limit: req.query.limit, page: req.query.page });
      // The handler lists everything (in its order); the pattern and the page are applied after.
      for (const k of ['search', 'filter_name', 'limit', 'page']) delete req.query[k];
    },
    after(res, req) {
      const taken = LIKE_SEARCH.get(req.raw);
      const d = data(res);
      if (!taken || !Array.isArray(d?.products)) return;
      const whole = taken.search.trim().toLowerCase();
      const patterns = whole
        .split(/\s+/)
        .filter(Boolean)
        .map((w) => likeRegex(w));
      const found = d.products.filter(
        (p) =>
          isObject(p) && (patterns.every((r) => r.test(String(p.name ?? ''))) || String(p.model ?? '').toLowerCase() === whole),
      );
      const limit = Number(taken.limit);
      const page = Math.max(1, Number(taken.page) || 1);
      d.products = Number.isInteger(limit) && limit > 0 ? found.slice((page - 1) * limit, page * limit) : found;
    },
  },
  {
    id: 'RR-JSON-CHARSET-EMPTY',
    iface: 'rest-route',
    // The module reads php://input only when CONTENT_TYPE is exactly "application/json"; with a
    // parameter (charset=utf-8, which many HTTP clients add) it falls back to $_POST, empty for a
    // JSON body: the request reads as one without fields, so a login with good credentials is refused.
    before(req) {
      if (req.method !== 'POST' || !isObject(req.raw.body)) return;
      if (!jsonWithParameter(req.raw.headers['content-type'])) return;
      const body = req.raw.body;
      for (const k of Object.keys(body)) delete body[k];
    },
  },
  {
    id: 'RR-LOGIN-EMAIL-URLDECODED',
    iface: 'rest-route',
    // Login runs urldecode() over the e-mail (written for a client that sent it form-encoded), while
    // register stores it as sent: an e-mail with a + (plus addressing) registers, yet its login looks
    // up the e-mail with a space in place of the + and is refused.
    before(req) {
      if (req.endpoint !== 'account/login' || req.method !== 'POST' || !isObject(req.raw.body)) return;
      const body = req.raw.body;
      for (const key of ['email', 'username']) {
        const v = body[key];
        if (typeof v === 'string') body[key] = urldecode(v);
      }
    },
  },
  {
    id: 'RR-CATEGORY-FILTER-KEYS-KEPT',
    iface: 'rest-route',
    // The category filter runs in PHP over the store's listing with array_filter(), which keeps each
    // product's key, and no array_values() follows: json_encode() writes a list only when the keys run
    // 0, 1, 2..., so a category whose products are not the first of the listing comes back as an object
    // {"3": {...}, "7": {...}} in place of the products array. (Paging, not shown, is left alone.)
    before(req) {
      const category = req.endpoint === 'product/listing' ? categoryParam(req) : undefined;
      if (category === undefined || req.query.limit !== undefined || req.query.page !== undefined) return;
      takeCategory(req, category);
    },
    after(res, req, ctx) {
      const category = CATEGORY_FILTER.get(req.raw);
      const d = data(res);
      if (category === undefined || !Array.isArray(d?.products)) return;
      const ids = category
        .split(/[,_]/)
        .map((c) => c.trim())
        .filter((c) => /^\d{1,15}$/.test(c))
        .map(Number);
      const member = ctx.db.prepare('SELECT 1 FROM rr_product_category WHERE product_id = ? AND category_id = ?');
      const kept: Record<string, unknown> = {};
      d.products.forEach((p, key) => {
        if (isObject(p) && ids.some((c) => member.get(Number(p.product_id), c) !== undefined)) kept[String(key)] = p;
      });
      const keys = Object.keys(kept);
      d.products = keys.every((k, i) => k === String(i)) ? Object.values(kept) : kept;
    },
  },
  {
    id: 'RR-REGISTER-NAME-NFD',
    iface: 'rest-route',
    // The module's addCustomer() runs the names through Normalizer::normalize(FORM_D) (meant for an
    // accent-free search key, the decomposed form was stored instead), after the validator saw them as
    // sent: "Zoë" is stored as "Zoe" + U+0308, and register and login answer the name decomposed.
    after(res, req, ctx) {
      const d = data(res);
      if (req.endpoint !== 'account/register' || req.method !== 'POST' || !ok(res) || !d) return;
      const row = ctx.db
        .prepare('SELECT firstname, lastname FROM rr_customer WHERE customer_id = ?')
        .get(Number(d.customer_id)) as { firstname: string; lastname: string } | undefined;
      if (!row) return;
      const firstname = row.firstname.normalize('NFD');
      const lastname = row.lastname.normalize('NFD');
      ctx.db
        .prepare('UPDATE rr_customer SET firstname = ?, lastname = ? WHERE customer_id = ?')
        .run(firstname, lastname, Number(d.customer_id));
      d.firstname = firstname;
      d.lastname = lastname;
    },
  },
  {
    id: 'RR-SEARCH-PLUS-KEPT',
    iface: 'rest-route',
    // The module's router rebuilds the query from REQUEST_URI and decodes each value with rawurldecode(),
    // which leaves a + as it is: a search whose space is written + (form encoding, search=Cast+Iron)
    // looks for "cast+iron" and finds nothing; written with %20 for the space, it works.
    before(req) {
      if (req.endpoint !== 'product/listing') return;
      const raw = req.raw.url.split('?')[1] ?? '';
      for (const pair of raw.split('&')) {
        const at = pair.indexOf('=');
        const key = at < 0 ? pair : pair.slice(0, at);
        if ((key === 'search' || key === 'filter_name') && pair.slice(at + 1).includes('+'))
          req.query[key] = rawurldecode(pair.slice(at + 1));
      }
    },
  },
  {
    id: 'RR-LOGIN-TOKEN-READS-ONLY',
    iface: 'rest-route',
    // Register files the token it issues in the module's API session table; login signs a new token
    // and returns it without filing it. The reads only verify the signature, while the writes (address
    // add, edit, delete, password update) look the token up in that table: a login token reads the
    // address book, yet every write with it is refused with error_token.
    before(req, ctx) {
      if (req.method !== 'POST' || !TOKEN_TABLE_ROUTES.includes(req.endpoint)) return;
      const token = tokenOf(req.raw);
      if (!token || !LOGIN_TOKENS.get(ctx.db)?.has(token)) return;
      delete req.raw.headers.token;
      delete req.raw.headers.authorization;
    },
    after(res, req, ctx) {
      if (req.endpoint !== 'account/login' || req.method !== 'POST' || !ok(res)) return;
      const token = res.body.token;
      if (typeof token !== 'string') return;
      const issued = LOGIN_TOKENS.get(ctx.db) ?? new Set<string>();
      LOGIN_TOKENS.set(ctx.db, issued);
      issued.add(token);
    },
  },
  {
    id: 'RR-ADDRESS-EDIT-REVIVES-DELETED',
    iface: 'rest-route',
    // Delete is soft: it sets the row's status to 0 (past orders keep their address), and the list and
    // the delete read rows of status 1 only. The edit finds the address by id and customer alone and
    // writes the whole form with status 1: an edit of a deleted address answers success, and the
    // address is back in the list.
    async before(req, ctx) {
      if (req.method !== 'POST' || !isObject(req.raw.body)) return;
      const deleting = req.endpoint === 'account/address/delete';
      if (!deleting && req.endpoint !== 'account/address/edit') return;
      const customerId = await tokenCustomer(req, ctx);
      const addressId = idValue(deleting ? req.raw.body.address_id : (req.query.address_id ?? req.raw.body.address_id));
      if (customerId === undefined || addressId === undefined) return;
      if (deleting) {
        const row = ctx.db
          .prepare(`SELECT ${ADDRESS_COLUMNS.join(', ')} FROM rr_address WHERE address_id = ? AND customer_id = ?`)
          .get(addressId, customerId) as AddressRecord | undefined;
        if (row) TOUCHED_ROW.set(req.raw, row);
        return;
      }
      const row = SOFT_DELETED.get(ctx.db)?.get(addressId);
      if (!row || row.customer_id !== customerId) return;
      ctx.db
        .prepare(`INSERT INTO rr_address (${ADDRESS_COLUMNS.join(', ')}) VALUES (${ADDRESS_COLUMNS.map(() => '?').join(', ')})`)
        .run(...ADDRESS_COLUMNS.map((c) => row[c]));
      SOFT_DELETED.get(ctx.db)?.delete(addressId);
      TOUCHED_ROW.set(req.raw, row);
    },
    after(res, req, ctx) {
      const row = TOUCHED_ROW.get(req.raw);
      if (!row) return;
      const deleted = SOFT_DELETED.get(ctx.db) ?? new Map<number, AddressRecord>();
      SOFT_DELETED.set(ctx.db, deleted);
      if (req.endpoint === 'account/address/delete') {
        if (ok(res)) deleted.set(row.address_id, row);
        return;
      }
      // A refused edit leaves the row deleted, as its status stays 0.
      if (ok(res)) return;
      ctx.db.prepare('DELETE FROM rr_address WHERE address_id = ?').run(row.address_id);
      deleted.set(row.address_id, row);
    },
  },
  {
    id: 'RR-ADDRESS-DELETE-ID-WRAPS',
    iface: 'rest-route',
    // The module runs on a 32-bit PHP build (PHP_INT_MAX 2147483647): json_decode() gives an integer
    // address_id past it as a float, and the (int) cast wraps it modulo 2^32, so a delete of
    // address_id 4294967296 + N deletes address N. (A string id saturates at 2147483647 instead and
    // names no address.)
    before(req) {
      if (req.endpoint !== 'account/address/delete' || req.method !== 'POST' || !isObject(req.raw.body)) return;
      const v = req.raw.body.address_id;
      if (typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) > 2147483647)
        req.raw.body.address_id = Number(BigInt.asIntN(32, BigInt(v)));
    },
  },
  {
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
      if (ctx.db.prepare('SELECT 1 FROM rr_customer WHERE email = ?').get(email))
        insertAsDuplicate(req, body, email, 'untrimmed');
    },
    after: settleDuplicate,
  },
  {
    id: 'RR-ADDRESS-LIST-CACHED-BY-URL',
    iface: 'rest-route',
    // The module caches GET answers in the platform's file cache for 10 s under a key of the route and
    // query (built for the catalog, whose answers are the same for every customer) and clears the address
    // list's entry on every address write: a customer who reads the list within 10 s of another
    // customer's read, with no address write between, is answered the other customer's addresses.
    after(res, req, ctx) {
      if (req.method === 'POST' && req.endpoint.startsWith('account/address/')) {
        if (ok(res)) LIST_CACHE.purge(ctx.db);
        return;
      }
      if (req.endpoint !== 'account/address' || req.method !== 'GET' || !ok(res)) return;
      const hit = LIST_CACHE.get(ctx.db, req.raw.url);
      if (hit !== undefined) res.body.data = hit;
      else LIST_CACHE.put(ctx.db, req.raw.url, res.body.data);
    },
  },
  {
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
  },
  {
    id: 'RR-ADDRESS-LIST-HTML-ESCAPED',
    iface: 'rest-route',
    // The list's controller was copied from the storefront's account/address page, whose values go
    // into HTML: each field goes through htmlspecialchars() before the JSON is built. The add and the
    // edit store the value as sent (and GET address/edit shows it so), but the list answers
    // "O'Brien & Sons" as "O&#039;Brien &amp; Sons".
    after(res, req) {
      const d = data(res);
      if (req.endpoint !== 'account/address' || req.method !== 'GET' || !Array.isArray(d?.addresses)) return;
      for (const a of d.addresses) {
        if (!isObject(a)) continue;
        for (const key of [...ADDRESS_TEXT_FIELDS, 'address']) if (typeof a[key] === 'string') a[key] = htmlspecialchars(a[key]);
      }
    },
  },
  {
    id: 'RR-ADDRESS-EDIT-REGION-CHECKED-LAST',
    iface: 'rest-route',
    // The edit saves the form's text fields first (the model's editAddress()) and checks the region
    // afterwards, when it looks the zone up for the shipping rules, with no transaction to roll back:
    // an edit whose zone_id is missing, or not of the country, answers error_zone, yet its names,
    // street, city and postcode are saved (the country and zone stay as they were).
    async after(res, req, ctx) {
      if (!addressWrite(req, 'edit') || !onlyZoneRefused(res)) return;
      const customerId = await tokenCustomer(req, ctx);
      const addressId = idValue(req.query.address_id ?? req.raw.body.address_id);
      if (customerId === undefined || addressId === undefined) return;
      const body = req.raw.body;
      const value = (...keys: string[]): string | undefined => {
        for (const k of keys) if (typeof body[k] === 'string') return (body[k] as string).trim();
        return undefined;
      };
      // error_zone alone: every text field passed its limit, so each is what the handler would store.
      ctx.db
        .prepare(
          `UPDATE rr_address SET firstname = ?, lastname = ?, company = ?, address_1 = ?, address_2 = ?, city = ?, postcode = ?
             WHERE address_id = ? AND customer_id = ?`,
        )
        .run(
          value('firstname', 'first_name') ?? '',
          value('lastname', 'last_name') ?? '',
          value('company') ?? '',
          value('address_1') ?? '',
          value('address_2') ?? '',
          value('city') ?? '',
          value('postcode') ?? '',
          addressId,
          customerId,
        );
    },
  },
  {
    id: 'RR-SEARCH-PRICE-UNGROUPED',
    iface: 'rest-route',
    // A search goes through the vendor's own search model (written to find a product by its model
    // too), which builds the summaries itself and writes amounts with number_format($amount, 2, '.', '')
    // and the currency's symbols: no thousands separator, "$1558.80" where the listing writes "$1,558.80".
    after(res, req) {
      const d = data(res);
      const search = req.query.search ?? req.query.filter_name;
      if (req.endpoint !== 'product/listing' || typeof search !== 'string' || search.trim() === '') return;
      const language = isObject(res.body) && isObject(res.body.language) ? res.body.language : {};
      const thousands = typeof language.thousand_point === 'string' ? language.thousand_point : ',';
      if (thousands === '' || !Array.isArray(d?.products)) return;
      const grouped = new RegExp(`(\\d)${thousands.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}(?=\\d{3})`, 'g');
      for (const p of d.products)
        if (isObject(p))
          for (const key of ['price', 'special', 'tax']) if (typeof p[key] === 'string') p[key] = p[key].replace(grouped, '$1');
    },
  },
  {
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
  },
  {
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
  },
  {
    id: 'RR-ADDRESS-ZONE-NUMERIC-ONLY',
    iface: 'rest-route',
    // The address form's validation was copied from the storefront's: zone_id must be set, not '' and
    // is_numeric(), and nothing looks the zone up in the country. An add or edit whose zone_id names no
    // region of its country (0, an id no zone has, a zone of another country) is filed with that zone_id.
    before(req, ctx) {
      if (!addressWrite(req, 'both')) return;
      const body = req.raw.body;
      const countryId = idValue(body.country_id);
      const zone = typeof body.zone_id === 'number' ? String(body.zone_id) : body.zone_id;
      if (countryId === undefined || typeof zone !== 'string' || !isNumeric(zone)) return;
      const zones = ctx.db
        .prepare('SELECT zone_id FROM rr_zone WHERE country_id = ? AND status = 1 ORDER BY zone_id')
        .all(countryId) as Array<{ zone_id: number }>;
      const sent = Math.trunc(Number(zone));
      if (zones.length === 0 || zones.some((z) => z.zone_id === Number(zone))) return;
      UNCHECKED_ZONE.set(req.raw, sent);
      // A stand-in region of the country passes the handler's check; the zone_id sent is filed after it.
      body.zone_id = typeof body.zone_id === 'number' ? zones[0]?.zone_id : String(zones[0]?.zone_id);
    },
    after(res, req, ctx) {
      const zone = UNCHECKED_ZONE.get(req.raw);
      const d = data(res);
      const addressId = idValue(d?.address_id);
      if (zone === undefined || !ok(res) || addressId === undefined) return;
      ctx.db.prepare('UPDATE rr_address SET zone_id = ? WHERE address_id = ?').run(zone, addressId);
    },
  },
  {
    id: 'RR-ADDRESS-ADD-CONTROL-STRIPPED',
    iface: 'rest-route',
    // The add controller reads its text fields through filter_var(FILTER_UNSAFE_RAW, FILTER_FLAG_STRIP_LOW),
    // the edit as sent: a tab or a line feed inside a field is dropped by the add ("Floor\t2" is filed
    // "Floor2"), which answers success.
    before(req) {
      if (!addressWrite(req, 'add')) return;
      const body = req.raw.body;
      for (const key of ADDRESS_TEXT_FIELDS) {
        const v = body[key];
        if (typeof v === 'string') body[key] = stripLow(v);
      }
    },
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    id: 'RR-ADDRESS-TEXT-DEFAULT-REGION',
    iface: 'rest-route',
    // The list fills the address format's {zone} and {country} once, before its loop, from the default
    // address (the checkout's payment address code it was copied from): every other address's full text
    // names the default address's region and country, while its zone, zone_code and country fields are its own.
    after(res, req, ctx) {
      const d = data(res);
      if (req.endpoint !== 'account/address' || req.method !== 'GET' || !Array.isArray(d?.addresses)) return;
      const row = (a: unknown) =>
        isObject(a) && idValue(a.address_id) !== undefined
          ? (ctx.db.prepare(`${SELECT_ADDRESS} WHERE a.address_id = ?`).get(idValue(a.address_id)) as AddressRow | undefined)
          : undefined;
      const home = row(d.addresses.find((a) => isObject(a) && a.default === 1));
      if (!home) return;
      for (const a of d.addresses) {
        const own = row(a);
        if (isObject(a) && own && own.address_id !== home.address_id)
          a.address = formatted({ ...own, zone: home.zone, country: home.country });
      }
    },
  },
  {
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
  },
  {
    id: 'RR-ADDRESS-EDIT-EVERY-ROW',
    iface: 'rest-route',
    // The module's editAddress() was adapted from the customer edit and its UPDATE kept that query's
    // WHERE customer_id = '...' alone: an edit writes its form into every address of the customer, so
    // after an edit of one address the list shows every address with the fields of that edit.
    async after(res, req, ctx) {
      if (!addressWrite(req, 'edit') || !ok(res)) return;
      const customerId = await tokenCustomer(req, ctx);
      const addressId = idValue(req.query.address_id ?? req.raw.body.address_id);
      if (customerId === undefined || addressId === undefined) return;
      ctx.db
        .prepare(
          `UPDATE rr_address SET (firstname, lastname, company, address_1, address_2, city, postcode, country_id, zone_id) =
             (SELECT firstname, lastname, company, address_1, address_2, city, postcode, country_id, zone_id
                FROM rr_address WHERE address_id = ?)
             WHERE customer_id = ? AND address_id != ?`,
        )
        .run(addressId, customerId, addressId);
    },
  },
  {
    id: 'RR-ADDRESS-DELETE-COUNTS-OTHERS',
    iface: 'rest-route',
    // The delete counts the customer's addresses other than the one named (address_id != ...) and keeps
    // the rule's comparison of the whole count, `<= 1`: a book of two addresses refuses the delete of its
    // non-default one with error_delete, so a customer can never come down from two addresses to one.
    async before(req, ctx) {
      if (req.endpoint !== 'account/address/delete' || req.method !== 'POST' || !isObject(req.raw.body)) return;
      const customerId = await tokenCustomer(req, ctx);
      const addressId = idValue(req.raw.body.address_id);
      if (customerId === undefined || addressId === undefined) return;
      const own = ctx.db.prepare('SELECT 1 FROM rr_address WHERE address_id = ? AND customer_id = ?').get(addressId, customerId);
      const others = ctx.db
        .prepare('SELECT COUNT(*) AS n FROM rr_address WHERE customer_id = ? AND address_id != ?')
        .get(customerId, addressId) as { n: number };
      if (!own || others.n > 1) return;
      // An id no address has: the handler refuses and deletes nothing; the answer is the module's error_delete.
      req.raw.body.address_id = 0;
      FORCED.set(req.raw, 'error_delete');
    },
    after(res, req, ctx) {
      if (FORCED.get(req.raw) === 'error_delete') refuse(res, [labelError(ctx, 'error_delete', 'address_id')]);
    },
  },
  {
    id: 'RR-ADDRESS-ADD-ACTIVITY-ID',
    iface: 'rest-route',
    // The add controller (kept from the platform's 2.x address page) logs an 'address_add' customer
    // activity after the model's addAddress() and then reads $this->db->getLastId() for its answer: the
    // address is filed, but data.address_id is the activity row's id, which names no address.
    after(res, req, ctx) {
      const d = data(res);
      if (!addressWrite(req, 'add') || !ok(res) || typeof d?.address_id !== 'number') return;
      const next = (ACTIVITY_IDS.get(ctx.db) ?? ACTIVITY_ID_BASE) + 1;
      ACTIVITY_IDS.set(ctx.db, next);
      d.address_id = next;
    },
  },
  {
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
  },
  {
    id: 'RR-LANGUAGE-CODE-FROM-HEADER',
    iface: 'rest-route',
    // The module fills the language object's code from the request's Accept-Language (its first tag, lower
    // case), meant to tell the app which language the customer's device asks for, while the labels, formats
    // and the store's languages stay the store's: a client whose HTTP stack sends Accept-Language: fr-FR
    // reads code "fr-fr", a language the store does not have.
    after(res, req) {
      const header = req.raw.headers['accept-language'];
      const first = typeof header === 'string' ? header.split(',')[0]?.split(';')[0]?.trim().toLowerCase() : undefined;
      if (!first || !isObject(res.body) || !isObject(res.body.language)) return;
      res.body.language.code = first;
    },
  },
  {
    id: 'RR-CATEGORY-ZERO-UNFILTERED',
    iface: 'rest-route',
    // The listing hands category_ids to the platform's getProducts(), whose filter is
    // `if (!empty($data['filter_category_id']))`: PHP's empty() takes the string "0" for missing, so
    // category_ids=0, which names no category (the top level's parent_id, not a category of the tree),
    // lists the whole catalog as if no category had been named.
    before(req) {
      const category = req.endpoint === 'product/listing' ? categoryParam(req) : undefined;
      if (category !== '0') return;
      for (const k of ['category_ids', 'category_id', 'path']) delete req.query[k];
    },
  },
  {
    id: 'RR-ADDRESS-FIELDS-BYTE-CUT',
    iface: 'rest-route',
    // The module's addAddress() and editAddress() fit every text field to its column with substr($v, 0, width)
    // (bytes) after the validator counted characters with utf8_strlen(); MySQL (non-strict) then drops the
    // partial character substr() leaves. A field within its limit in characters but over it in UTF-8 bytes
    // (a 128-character address_1 or city with accented letters) is answered success and filed shortened.
    before(req) {
      if (!addressWrite(req, 'both')) return;
      const body = req.raw.body;
      for (const [key, width] of Object.entries(ADDRESS_COLUMN_WIDTHS)) {
        const v = body[key];
        // The validator sees the value as sent: only a value it lets past (within the width in characters) reaches substr().
        if (typeof v === 'string' && [...v.trim()].length <= width) body[key] = byteCut(v, width);
      }
    },
  },
  {
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
  },
  {
    id: 'RR-LISTING-TAX-LOCALE',
    iface: 'rest-route',
    // The module writes the summary's tax (the price before tax) itself, with
    // sprintf('%s%.2f%s', symbol_left, $amount, symbol_right), in a store where another extension calls
    // setlocale(LC_ALL, 'de_DE.UTF-8') (for strftime() dates): printf's %f is locale-aware, so the amount
    // comes with a decimal comma and no grouping ("$12,50", "$1299,00"), while the language object says
    // decimal_point "." and price keeps it.
    after(res, req) {
      const d = data(res);
      if (req.endpoint !== 'product/listing' && req.endpoint !== 'product/product') return;
      const summaries = Array.isArray(d?.products) ? d.products : req.endpoint === 'product/product' && d ? [d] : [];
      for (const p of summaries) if (isObject(p) && typeof p.tax === 'string') p.tax = germanFixed(p.tax);
    },
  },
  {
    id: 'RR-CATEGORY-IDS-STRPOS',
    iface: 'rest-route',
    // The module applies category_ids in PHP over the store's listing (it takes a comma list) and asks, per
    // product, `strpos($this->request->get['category_ids'], $category['category_id']) !== false` for each of
    // the product's categories: a search of the request's string for the product's id, so an id that names no
    // category but holds the digits of one (200 holds 20) lists that category's products.
    before(req) {
      const category = req.endpoint === 'product/listing' ? categoryParam(req) : undefined;
      if (category === undefined || req.query.limit !== undefined || req.query.page !== undefined) return;
      takeCategory(req, category);
    },
    after(res, req, ctx) {
      const category = CATEGORY_FILTER.get(req.raw);
      const d = data(res);
      if (category === undefined || !Array.isArray(d?.products)) return;
      d.products = d.products.filter(
        (p) => isObject(p) && categoryIdsOf(ctx, Number(p.product_id)).some((c) => category.includes(c)),
      );
    },
  },
  {
    id: 'RR-SEARCH-MODEL-OR-UNGROUPED',
    iface: 'rest-route',
    // The module's listing query copies the platform's search condition without the parentheses around it:
    // `... AND p2c.category_id = X AND LCASE(pd.name) LIKE '%word%' OR LCASE(p.model) = 'search'`. AND binds
    // tighter than OR, so a product whose model is the search is listed whatever category_ids names: a search
    // within a category (or within an id that names no category) answers a product the category does not hold.
    before(req) {
      if (req.endpoint !== 'product/listing' || req.query.limit !== undefined || req.query.page !== undefined) return;
      const search = req.query.search ?? req.query.filter_name;
      const category = categoryParam(req);
      if (typeof search !== 'string' || search.trim() === '' || category === undefined) return;
      takeCategory(req, category);
    },
    after(res, req, ctx) {
      const category = CATEGORY_FILTER.get(req.raw);
      const d = data(res);
      const search = req.query.search ?? req.query.filter_name;
      if (category === undefined || typeof search !== 'string' || !Array.isArray(d?.products)) return;
      const ids = category
        .split(/[,_]/)
        .map((c) => c.trim())
        .filter((c) => /^\d{1,15}$/.test(c))
        .map((c) => String(Number(c)));
      const model = search.trim().toLowerCase();
      // The handler answered the search alone (name words, or the model): the category condition binds to the name half only.
      d.products = d.products.filter(
        (p) =>
          isObject(p) &&
          (String(p.model ?? '').toLowerCase() === model ||
            categoryIdsOf(ctx, Number(p.product_id)).some((c) => ids.includes(c))),
      );
    },
  },
  {
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
  },
  {
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
  },
  {
    id: 'RR-LISTING-DESCRIPTION-DECODED-LAST',
    iface: 'rest-route',
    // The platform stores descriptions HTML-escaped (&lt;p&gt;...), and its own listing writes the summary's
    // description as utf8_substr(strip_tags(html_entity_decode($description)), 0, 100) . '..'. The module swapped
    // the two calls, html_entity_decode(strip_tags(...)): strip_tags() finds no tag in the escaped text, and the
    // decode that follows brings the markup back, so the summary carries the description's tags.
    after(res, req, ctx) {
      const d = data(res);
      if (req.endpoint !== 'product/listing' || !Array.isArray(d?.products)) return;
      for (const p of d.products) {
        if (!isObject(p)) continue;
        const row = ctx.db.prepare('SELECT description FROM rr_product WHERE product_id = ?').get(Number(p.product_id)) as
          | { description: string }
          | undefined;
        if (!row) continue;
        const html = row.description.trim();
        p.description = [...html].length > DESCRIPTION_LENGTH ? `${[...html].slice(0, DESCRIPTION_LENGTH).join('')}..` : html;
      }
    },
  },
  {
    id: 'RR-ADDRESS-ADD-BODY-CUSTOMER-ID',
    iface: 'rest-route',
    // The add controller builds its data as array_merge(['customer_id' => $this->customer->getId()],
    // $this->request->post) (written so the vendor's back-office app can file an address for a customer) and
    // calls addAddress($data['customer_id'], $data): a customer_id in the body wins over the token's account.
    // The add answers success with the new address_id, but the address is filed in the book of the customer
    // the body named, and the token holder's list does not show it.
    async before(req, ctx) {
      if (!addressWrite(req, 'add')) return;
      const other = idValue(req.raw.body.customer_id);
      const own = await tokenCustomer(req, ctx);
      if (other === undefined || own === undefined || other === own) return;
      if (!ctx.db.prepare('SELECT 1 FROM rr_customer WHERE customer_id = ?').get(other)) return;
      const row = ctx.db.prepare('SELECT address_id FROM rr_customer WHERE customer_id = ?').get(own) as
        | { address_id: number }
        | undefined;
      BODY_CUSTOMER.set(req.raw, { other, own, ownDefault: row?.address_id ?? 0 });
    },
    after(res, req, ctx) {
      const moved = BODY_CUSTOMER.get(req.raw);
      const d = data(res);
      const addressId = d ? idValue(d.address_id) : undefined;
      if (!moved || !ok(res) || addressId === undefined) return;
      ctx.db.transaction(() => {
        ctx.db.prepare('UPDATE rr_address SET customer_id = ? WHERE address_id = ?').run(moved.other, addressId);
        // addAddress() makes the address the default of the customer it files it for, when that one has none.
        ctx.db.prepare('UPDATE rr_customer SET address_id = ? WHERE customer_id = ?').run(moved.ownDefault, moved.own);
        const theirs = ctx.db
          .prepare(
            'SELECT 1 FROM rr_customer c JOIN rr_address a ON a.address_id = c.address_id AND a.customer_id = c.customer_id WHERE c.customer_id = ?',
          )
          .get(moved.other);
        if (!theirs) ctx.db.prepare('UPDATE rr_customer SET address_id = ? WHERE customer_id = ?').run(addressId, moved.other);
      })();
    },
  },
];
