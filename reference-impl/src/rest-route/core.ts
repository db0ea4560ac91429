import type Database from 'better-sqlite3';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Body } from '../http/body.js';
import { originOf } from '../http/origin.js';

/** One stored customer row (the columns handlers read). */
export interface CustomerRow {
  customer_id: number;
  customer_group_id: number;
  store_id: number;
  language_id: number;
  firstname: string;
  lastname: string;
  email: string;
  username: string | null;
  telephone: string;
  fax: string;
  password: string;
  salt: string;
  cart: string;
  wishlist: string;
  newsletter: number;
  address_id: number;
  custom_field: string;
  ip: string;
  status: number;
  safe: number;
  date_added: string;
}

/** One failed rule: the `error_*` label key, the field it concerns, and the label text. */
export interface RuleError {
  code: string;
  field?: string;
  message: string;
}

/** Everything a handler needs about the request it answers. */
export interface Call {
  request: FastifyRequest;
  reply: FastifyReply;
  app: AppContext;
  db: Database.Database;
  /** The route without `shoprestapi/`, e.g. `account/address/add`. */
  route: string;
  method: 'GET' | 'POST';
  query: Record<string, unknown>;
  body: Body;
  /** The token's customer; set before every handler that requires a token. */
  customer: CustomerRow | null;
}

export type Envelope = Record<string, unknown>;

const statementCache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per database and reused (parameters are always bound). */
export function sql(db: Database.Database, text: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let stmt = cache.get(text);
  if (!stmt) {
    stmt = db.prepare(text);
    cache.set(text, stmt);
  }
  return stmt;
}

export function setting(db: Database.Database, key: string): string {
  const row = sql(db, 'SELECT value FROM rr_setting WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? '';
}

/** A label of the given page (falls back to the common labels), or the key itself when unknown. */
export function label(db: Database.Database, key: string, page = '*'): string {
  const { labels } = languageTables(db);
  return labels.get(`${page}\n${key}`) ?? labels.get(`*\n${key}`) ?? key;
}

/**
 * Labels and the language settings are seeded once and never written while the server runs, and every GET
 * answers a `language` object built from them (four queries each time, a fifth of the rest-route handlers'
 * CPU under the suite), and error messages are labels too: the labels (by `<page>\n<key>`), the seeded
 * pages and each page's object are read once per database.
 */
interface LanguageTables {
  labels: Map<string, string>;
  pages: Set<string>;
  byPage: Map<string, Record<string, string>>;
}
const languageCache = new WeakMap<Database.Database, LanguageTables>();

function languageTables(db: Database.Database): LanguageTables {
  let tables = languageCache.get(db);
  if (!tables) {
    const rows = sql(db, 'SELECT page, key, value FROM rr_label ORDER BY rowid').all() as Array<{
      page: string;
      key: string;
      value: string;
    }>;
    const labels = new Map<string, string>();
    for (const r of rows) if (!labels.has(`${r.page}\n${r.key}`)) labels.set(`${r.page}\n${r.key}`, r.value);
    tables = { labels, pages: new Set(rows.map((r) => r.page)), byPage: new Map() };
    languageCache.set(db, tables);
  }
  return tables;
}

/** The label page of a route: the longest seeded page that is a prefix of it (`account/address/add` -> `account/address`). */
function pageOf(db: Database.Database, route: string): string {
  const { pages } = languageTables(db);
  const parts = route.split('/');
  for (let n = parts.length; n > 0; n--) {
    const page = parts.slice(0, n).join('/');
    if (pages.has(page)) return page;
  }
  return '*';
}

/** The `language` object: the eight localisation settings, then the common labels, then the page's labels. */
export function languageOf(db: Database.Database, route: string): Record<string, string> {
  const { byPage } = languageTables(db);
  const page = pageOf(db, route);
  let built = byPage.get(page);
  if (!built) {
    built = {};
    const settings = sql(db, "SELECT key, value FROM rr_setting WHERE key LIKE 'language.%' ORDER BY rowid").all() as Array<{
      key: string;
      value: string;
    }>;
    for (const s of settings) built[s.key.slice('language.'.length)] = s.value;
    const labels = sql(db, "SELECT key, value FROM rr_label WHERE page IN ('*', ?) ORDER BY page = '*' DESC, rowid").all(
      page,
    ) as Array<{
      key: string;
      value: string;
    }>;
    for (const l of labels) built[l.key] = l.value;
    byPage.set(page, built);
  }
  // A copy: the envelope is the caller's to change (a fault rewrites its code).
  return { ...built };
}

/** Success envelope; read (GET) responses also carry `language`. */
export function ok(call: Call, data: unknown, extra: Envelope = {}): Envelope {
  const env: Envelope = { status: true, errors: [], data, ...extra };
  if (call.method === 'GET') env.language = languageOf(call.db, call.route);
  return env;
}

/** Failure envelope, HTTP 200 unless told otherwise (validation and business-rule failures). */
export function fail(call: Call, errors: RuleError[], httpStatus = 200): Envelope {
  call.reply.code(httpStatus);
  const env: Envelope = { status: false, errors, message: errors.map((e) => e.message).join(' '), data: [] };
  if (call.method === 'GET') env.language = languageOf(call.db, call.route);
  return env;
}

/** A rule error whose message is the `error_*` label (with `%s` filled in when given). */
export function ruleError(call: Call, code: string, field?: string, fill?: string): RuleError {
  let message = label(call.db, code, pageOf(call.db, call.route));
  if (fill !== undefined) message = message.replace('%s', fill);
  return field === undefined ? { code, message } : { code, field, message };
}

/**
 * The token from the `token` header (parameter tables) or the `Authorization` header
 * (request samples, with or without `Bearer`). Quotes some clients wrap it in are dropped.
 */
export function tokenOf(request: FastifyRequest): string | null {
  const pick = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const candidates = [pick(request.headers.token), pick(request.headers.authorization)];
  for (const raw of candidates) {
    if (!raw) continue;
    const t = raw
      .trim()
      .replace(/^Bearer\s+/i, '')
      .replace(/^"(.*)"$/, '$1')
      .trim();
    if (t && t !== 'null' && t !== 'undefined') return t;
  }
  return null;
}

/** The customer of a valid token, or null (missing, forged, expired, or the account is gone or disabled). */
export async function authenticate(call: Call): Promise<CustomerRow | null> {
  const token = tokenOf(call.request);
  if (!token) return null;
  const payload = await call.app.tokens.verify(token, 'rest-route');
  if (!payload || !/^\d{1,15}$/.test(payload.sub)) return null;
  const row = sql(call.db, 'SELECT * FROM rr_customer WHERE customer_id = ?').get(Number(payload.sub)) as CustomerRow | undefined;
  return row && row.status === 1 ? row : null;
}

// ---- request values ---------------------------------------------------------------------

/** The first of `names` that holds a scalar, as a trimmed string; undefined when none does. */
export function text(source: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = source[n];
    if (typeof v === 'string') return v.trim();
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

/** Like `text` but untrimmed: passwords are taken exactly as sent. */
export function secret(source: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = source[n];
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

/** A non-negative integer from a number or a string of digits; undefined otherwise. */
export function id(source: Record<string, unknown>, ...names: string[]): number | undefined {
  for (const n of names) {
    const v = source[n];
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
    if (typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v)) return Number.parseInt(v, 10);
  }
  return undefined;
}

/** A flag: 1/0, true/false, "1"/"0", "true"/"false", "on"/"yes"; undefined when absent or unreadable. */
export function flag(source: Record<string, unknown>, ...names: string[]): boolean | undefined {
  for (const n of names) {
    const v = source[n];
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') return v !== 0;
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase();
      if (['1', 'true', 'on', 'yes'].includes(s)) return true;
      if (['0', 'false', 'off', 'no', ''].includes(s)) return false;
    }
  }
  return undefined;
}

/** Characters (code points), as the documents count lengths; without a surrogate pair that is `s.length`. */
export function length(s: string): number {
  return /[\uD800-\uDFFF]/.test(s) ? [...s].length : s.length;
}

export function between(s: string | undefined, min: number, max: number): boolean {
  return s !== undefined && length(s) >= min && length(s) <= max;
}

export function isEmail(s: string | undefined): s is string {
  return s !== undefined && length(s) <= 96 && /^[^\s@"<>()[\],;:\\]+@[^\s@"<>()[\],;:\\]+\.[^\s@"<>()[\],;:\\]{2,}$/.test(s);
}

/** `YYYY-MM-DD HH:MM:SS` (UTC), the documents' timestamp form. */
export function now(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

/** Absolute URL of an image path of the catalog, or '' when there is none. */
export function imageUrl(request: FastifyRequest, path: string): string {
  if (!path) return '';
  return `${originOf(request)}/image/${path}`;
}
