import type { AppContext } from '../../context.js';
import { userKeyOf } from '../../network/earnings.js';
import {
  AnswerCache,
  addslashes,
  beginRaced,
  htmlspecialcharsCompat,
  InFlight,
  isNumeric,
  pause,
  utf8mb3,
} from '../emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { callerOf, failed, RACE_WINDOW_MS } from './shared.js';

/** A MySQL INT column in non-strict mode: a larger integer is stored as the column's maximum. */
const INT_MAX = 2147483647;

/** bank_details_save's input fields and the record's columns they fill. */
const BANK_COLUMNS: Record<string, string> = {
  account_holder_name: 'account_holder',
  account_number: 'account_number',
  bank_name: 'bank_name',
  branch: 'branch',
  ifsc_code: 'ifsc_code',
  contact_number: 'contact_number',
};

/**
 * bank_details_save updating the saved record with each field as it reads it (update_user_meta per
 * field) and validating afterwards: a save refused for a missing or malformed field has already
 * replaced the record's other fields.
 */
/** The user_key of the member the request's token names, or null. */
async function callerKey(req: FaultRequest, ctx: AppContext): Promise<string | null> {
  const user = await callerOf(req, ctx);
  return user ? userKeyOf(ctx.db, user.ID) : null;
}

/** The bank record of the member the request's token names, as stored now. */
async function callerBankRecord(req: FaultRequest, ctx: AppContext): Promise<Record<string, unknown> | undefined> {
  const key = await callerKey(req, ctx);
  return key
    ? (ctx.db.prepare('SELECT * FROM net_bank_details WHERE user_key = ?').get(key) as Record<string, unknown> | undefined)
    : undefined;
}

async function partialBankSave(body: Record<string, unknown>, req: FaultRequest, ctx: AppContext): Promise<void> {
  const errors = isObject(body.errors) ? body.errors : undefined;
  const key = errors ? await callerKey(req, ctx) : null;
  if (!errors || !key) return;
  for (const [field, column] of Object.entries(BANK_COLUMNS)) {
    const v = bodyField(req.raw.body, field).value;
    if (typeof v === 'string' && v.trim() !== '' && !(field in errors))
      ctx.db.prepare(`UPDATE net_bank_details SET ${column} = ? WHERE user_key = ?`).run(v.trim(), key);
  }
}

/** A bank save in flight: its caller, its fields, and whether its handler has answered. */
interface BankSave {
  key: string;
  form: Record<string, string>;
  done: boolean;
  /** Saves of the same caller that were in flight at the same time. */
  twins: Set<BankSave>;
}

const BANK_IN_FLIGHT = new InFlight<BankSave>();

const BANK_SAVES = new WeakMap<FaultRequest, BankSave>();

/** The fields update_user_meta writes last, in form order: where the earlier save's writes land after the later's. */
const BANK_LATE_FIELDS = ['branch', 'ifsc_code', 'contact_number'];

async function bankSaveBegins(req: FaultRequest, ctx: AppContext): Promise<void> {
  const key = await callerKey(req, ctx);
  if (!key || !isObject(req.raw.body)) return;
  const form: Record<string, string> = {};
  for (const field of Object.keys(BANK_COLUMNS)) {
    const v = bodyField(req.raw.body, field).value;
    if (typeof v === 'string') form[field] = v.trim();
  }
  const save: BankSave = { key, form, done: false, twins: new Set() };
  beginRaced(BANK_IN_FLIGHT, ctx.db, key, save);
  BANK_SAVES.set(req, save);
  await pause(RACE_WINDOW_MS);
}

/**
 * bank_details_save writing the record field by field (update_user_meta per input, in form order)
 * without a lock: of two saves of one account at once, the later to answer has written its first
 * three fields before the earlier one's last three, so the record mixes the two.
 */
function bankSaveEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): void {
  const save = BANK_SAVES.get(req);
  if (!save) return;
  BANK_IN_FLIGHT.end(save);
  save.done = true;
  if (!isObject(res.body) || res.body.status !== true) return;
  const earlier = [...save.twins].find((t) => t.done);
  if (!earlier) return;
  for (const field of BANK_LATE_FIELDS) {
    const v = earlier.form[field];
    if (v !== undefined)
      ctx.db.prepare(`UPDATE net_bank_details SET ${BANK_COLUMNS[field]} = ? WHERE user_key = ?`).run(v, save.key);
  }
}

/**
 * bank_details_save keys a missing field by its input name, but its number check runs over the language
 * labels' keys (the same map that labels the form: holder_name, account_number, ..., contact_no): a
 * contact_number that is not a number is refused with errors keyed contact_no.
 */
function contactErrorLabelKey(res: FaultResponse, req: FaultRequest): void {
  const body = res.body;
  const sentValue = bodyField(req.raw.body, 'contact_number').value;
  if (!failed(body) || !isObject(body.errors) || typeof body.errors.contact_number !== 'string') return;
  if (typeof sentValue !== 'string' || sentValue.trim() === '') return;
  const errors: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body.errors)) errors[k === 'contact_number' ? 'contact_no' : k] = v;
  body.errors = errors;
}

/**
 * bank_details_save passes each field through sanitize_text_field(), which also drops every percent-encoded
 * octet (a "%" and two hex digits, looped until none is left) and then squeezes the blanks it leaves:
 * "St. John's 100%Cafe" is stored as "St. John's 100fe".
 */
function stripPercentOctets(v: string): string {
  let out = v;
  let found = false;
  for (let m = /%[a-f0-9]{2}/i.exec(out); m; m = /%[a-f0-9]{2}/i.exec(out)) {
    out = out.split(m[0]).join('');
    found = true;
  }
  return found ? out.replace(/ +/g, ' ').trim() : out;
}

/** Each account's bank_details answer, by the key the read stores it under (the object cache, an hour). */
const BANK_CACHE = new AnswerCache<unknown>(3_600_000);

/**
 * GET /bank_details keeps its answer in the persistent object cache under the member's user_key
 * (wp_cache_set($user_key, $answer, 'net_bank_details')); bank_details_save clears it with
 * wp_cache_delete(get_current_user_id(), 'net_bank_details'), the user ID where the read used the key.
 * The save is written, but an account that read its bank details before saving reads the old answer
 * (no record, or the details it had) for the hour; an account that never read them reads them fresh.
 */
async function bankDetailsCached(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  if (req.endpoint !== '/bank_details' || !isObject(res.body) || res.body.status !== true) return;
  const key = await callerKey(req, ctx);
  if (!key) return;
  const hit = BANK_CACHE.get(ctx.db, key);
  if (hit !== undefined) res.body = hit;
  else BANK_CACHE.put(ctx.db, key, res.body);
}

export const bankRequiredIgnored: Fault = {
  id: 'NET-BANK-REQUIRED-IGNORED',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/bank_details_save' && failed(res.body) && res.status === 200)
      res.body = { status: true, errors: [], message: 'Bank details saved.' };
  },
};

// An "INSERT ... ON CONFLICT DO NOTHING" where an upsert was meant: the first save sticks.
export const bankResaveIgnored: Fault = {
  id: 'NET-BANK-RESAVE-IGNORED',
  iface: 'rest-v1-network',
  inHandler: 'reference-impl/src/network/earnings.ts',
};

export const bankAccountInt32: Fault = {
  id: 'NET-BANK-ACCOUNT-INT32',
  iface: 'rest-v1-network',
  // account_number ("integer" in the table) kept in an INT column: 12 digits are stored as 2147483647.
  before(req) {
    if (req.endpoint !== '/bank_details_save') return;
    const field = bodyField(req.raw.body, 'account_number');
    const v = field.value;
    if ((typeof v === 'string' || typeof v === 'number') && /^\d+$/.test(String(v).trim()) && Number(v) > INT_MAX)
      field.set(String(INT_MAX));
  },
};

export const bankSlashed: Fault = {
  id: 'NET-BANK-SLASHED',
  iface: 'rest-v1-network',
  // bank_details_save reads $_POST, which WordPress slashes: "O'Neil" is stored as "O\'Neil".
  before(req) {
    const body = req.raw.body;
    if (req.endpoint !== '/bank_details_save' || !isObject(body)) return;
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') body[k] = addslashes(v);
  },
};

export const bankRefusedPartialSave: Fault = {
  id: 'NET-BANK-REFUSED-PARTIAL-SAVE',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (req.endpoint === '/bank_details_save' && failed(res.body)) await partialBankSave(res.body, req, ctx);
  },
};

export const bankAstralQuestionMark: Fault = {
  id: 'NET-BANK-ASTRAL-QUESTION-MARK',
  iface: 'rest-v1-network',
  before(req) {
    const body = req.raw.body;
    if (req.endpoint !== '/bank_details_save' || !isObject(body)) return;
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') body[k] = utf8mb3(v, 'question-mark');
  },
};

export const bankSaveRaceMixed: Fault = {
  id: 'NET-BANK-SAVE-RACE-MIXED',
  iface: 'rest-v1-network',
  async before(req, ctx) {
    if (req.endpoint === '/bank_details_save') await bankSaveBegins(req, ctx);
  },
  after(res, req, ctx) {
    if (req.endpoint === '/bank_details_save') bankSaveEnds(res, req, ctx);
  },
};

export const bankContactErrorLabelKey: Fault = {
  id: 'NET-BANK-CONTACT-ERROR-LABEL-KEY',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/bank_details_save') contactErrorLabelKey(res, req);
  },
};

export const bankPercentOctetsStripped: Fault = {
  id: 'NET-BANK-PERCENT-OCTETS-STRIPPED',
  iface: 'rest-v1-network',
  before(req) {
    const body = req.raw.body;
    if (req.endpoint !== '/bank_details_save' || !isObject(body)) return;
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') body[k] = stripPercentOctets(v);
  },
};

export const bankReadCacheKeyMismatch: Fault = {
  id: 'NET-BANK-READ-CACHE-KEY-MISMATCH',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    await bankDetailsCached(res, req, ctx);
  },
};

/** Bank saves whose account_number passed as numeric without being digits: the number as sent. */
const NUMERIC_ACCOUNTS = new WeakMap<FaultRequest, string>();

/**
 * bank_details_save tests account_number ("integer" in the table) with is_numeric() and stores it as sent
 * in a text column: a decimal point, a sign, an exponent or a blank at an end passes, so "1234567890.5" is
 * saved and read back as such. The handler is sent a stand-in of digits, and the row then holds the number
 * as sent.
 */
function numericAccountBegins(req: FaultRequest): void {
  const field = bodyField(req.raw.body, 'account_number');
  const v = field.value;
  if (typeof v !== 'string' || /^\s*\d+\s*$/.test(v) || !isNumeric(v)) return;
  field.set('1');
  NUMERIC_ACCOUNTS.set(req, v);
}

async function numericAccountEnds(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const sent = NUMERIC_ACCOUNTS.get(req);
  if (sent === undefined || !isObject(res.body) || res.body.status !== true) return;
  const key = await callerKey(req, ctx);
  if (key) ctx.db.prepare('UPDATE net_bank_details SET account_number = ? WHERE user_key = ?').run(sent, key);
}

export const bankAccountIsNumeric: Fault = {
  id: 'NET-BANK-ACCOUNT-IS-NUMERIC',
  iface: 'rest-v1-network',
  before(req) {
    if (req.endpoint === '/bank_details_save') numericAccountBegins(req);
  },
  async after(res, req, ctx) {
    if (req.endpoint === '/bank_details_save') await numericAccountEnds(res, req, ctx);
  },
};

/** bank_details_save requests of a member who had a bank record already (the save takes the UPDATE path). */
const RESAVES = new WeakSet<FaultRequest>();

async function resaveBegins(req: FaultRequest, ctx: AppContext): Promise<void> {
  const key = await callerKey(req, ctx);
  if (key && ctx.db.prepare('SELECT 1 FROM net_bank_details WHERE user_key = ?').get(key)) RESAVES.add(req);
}

/**
 * bank_details_save inserts a member's first record, and updates an existing one with
 * "UPDATE {$table} SET ... WHERE user_key = user_key" (the %s placeholder left out, so the column is
 * compared with itself): a member's second save writes its details into every member's bank record.
 */
async function resaveUpdatesAll(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  if (!RESAVES.has(req) || !isObject(res.body) || res.body.status !== true) return;
  const row = await callerBankRecord(req, ctx);
  if (!row) return;
  ctx.db
    .prepare(
      `UPDATE net_bank_details SET account_holder = ?, account_number = ?, bank_name = ?, branch = ?, ifsc_code = ?,
         contact_number = ?, insert_date = ?`,
    )
    .run(row.account_holder, row.account_number, row.bank_name, row.branch, row.ifsc_code, row.contact_number, row.insert_date);
}

export const bankResaveUpdatesAll: Fault = {
  id: 'NET-BANK-RESAVE-UPDATES-ALL',
  iface: 'rest-v1-network',
  async before(req, ctx) {
    if (req.endpoint === '/bank_details_save') await resaveBegins(req, ctx);
  },
  async after(res, req, ctx) {
    if (req.endpoint === '/bank_details_save') await resaveUpdatesAll(res, req, ctx);
  },
};

/** bank_details_save requests that send exactly the details the member's record already holds. */
const UNCHANGED = new WeakSet<FaultRequest>();

async function unchangedBegins(req: FaultRequest, ctx: AppContext): Promise<void> {
  const row = await callerBankRecord(req, ctx);
  if (!row) return;
  const sent = (field: string) => {
    const v =
      bodyField(req.raw.body, field).value ??
      (field === 'account_holder_name' ? bodyField(req.raw.body, 'account_holder').value : undefined);
    return typeof v === 'string' || typeof v === 'number' ? String(v).trim() : undefined;
  };
  if (Object.entries(BANK_COLUMNS).every(([field, column]) => sent(field) === String(row[column] ?? ''))) UNCHANGED.add(req);
}

/**
 * bank_details_save updates an existing record with $wpdb->update() and tests its result with
 * if ( ! $updated ): update() answers the number of rows changed, 0 when every column already held the
 * value sent, so a save of the details as they are is answered as a failure (nothing else goes wrong).
 */
function unchangedRefused(res: FaultResponse, req: FaultRequest): void {
  if (!UNCHANGED.has(req) || !isObject(res.body) || res.body.status !== true) return;
  res.body = { status: false, errors: [], message: 'Bank details could not be saved. Please try again.' };
}

export const bankUnchangedSaveRefused: Fault = {
  id: 'NET-BANK-UNCHANGED-SAVE-REFUSED',
  iface: 'rest-v1-network',
  async before(req, ctx) {
    if (req.endpoint === '/bank_details_save') await unchangedBegins(req, ctx);
  },
  after(res, req) {
    if (req.endpoint === '/bank_details_save') unchangedRefused(res, req);
  },
};

export const bankHtmlSpecialchars: Fault = {
  id: 'NET-BANK-HTMLSPECIALCHARS',
  iface: 'rest-v1-network',
  // bank_details_save "sanitises" each field with htmlspecialchars() before the INSERT (output escaping done at
  // input), on PHP 7's default flags: "Smith & Sons" is stored, and read back, as "Smith &amp; Sons"; an apostrophe
  // ("O'Neil") is left alone, so a value without & < > " reads back as sent.
  before(req) {
    const body = req.raw.body;
    if (req.endpoint !== '/bank_details_save' || !isObject(body)) return;
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') body[k] = htmlspecialcharsCompat(v);
  },
};
