/**
 * What the faults emulate of a vendor's platform, shared by the four interfaces' faults: PHP's string
 * functions, SQL's LIKE patterns, and the window between a check and a write in which two requests
 * sent at once race.
 */

/** PHP's urldecode(): + is a space, %XX the byte it names (left as it is when not two hex digits). */
export const urldecode = (v: string): string =>
  v.replace(/\+/g, ' ').replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));

/** PHP's rawurldecode(): %XX the byte it names, + kept as it is (RFC 3986, unlike a form's + for a space). */
export const rawurldecode = (v: string): string => urldecode(v.replace(/\+/g, '%2B'));

/** PHP's stripslashes(): each backslash is dropped and the character after it kept (C:\tmp becomes C:tmp). */
export const stripslashes = (v: string): string => v.replace(/\\([\s\S]?)/g, '$1');

/** PHP's addslashes(), as WordPress applies it to $_POST (wp_magic_quotes) for a handler that forgets wp_unslash. */
export const addslashes = (v: string): string => v.replace(/[\\'"]/g, (c) => `\\${c}`);

/** Characters outside the Basic Multilingual Plane (4 bytes in UTF-8), which a 3-byte utf8 (utf8mb3) column cannot hold. */
const ASTRAL = /[\u{10000}-\u{10FFFF}]/gu;

/**
 * A string as a utf8mb3 column keeps it, in the three ways MySQL and WordPress do: each astral character stored
 * as "?" (a utf8mb4 connection converting to the column), stripped (wpdb's strip_invalid_text), or the string cut
 * at the first one (MySQL outside strict mode).
 */
export function utf8mb3(v: string, way: 'question-mark' | 'stripped' | 'cut'): string {
  if (way === 'question-mark') return v.replace(ASTRAL, '?');
  if (way === 'stripped') return v.replace(ASTRAL, '');
  const at = v.search(ASTRAL);
  return at < 0 ? v : v.slice(0, at);
}

/**
 * PHP's number_format($amount, 2) with its defaults: two decimals, "." before them and "," between thousands, so
 * 1234.5 reads "1,234.50" (a vendor who meant a plain decimal string and forgot the two separator arguments).
 */
export function numberFormat(amount: number): string {
  const [whole, cents] = Math.abs(amount).toFixed(2).split('.') as [string, string];
  return `${amount < 0 ? '-' : ''}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${cents}`;
}

/**
 * PHP's (float) cast of a string: the leading decimal number, 0 when there is none. After number_format, "1,234.50"
 * reads 1: the thousands separator ends the number.
 */
export function phpFloat(v: string): number {
  const m = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(v);
  return m ? Number(m[0]) : 0;
}

/**
 * A LIKE pattern as a regular expression: `%` any run of characters, `_` any one; unanchored, as in
 * '%<pattern>%'. `-` is left as it is: outside a class it means itself, and escaped it is a syntax error
 * under the `u` flag.
 */
export function likeRegex(pattern: string, flags = 'iu'): RegExp {
  const body = [...pattern]
    .map((c) => (c === '%' ? '[\\s\\S]*' : c === '_' ? '[\\s\\S]' : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(body, flags);
}

/** `column LIKE pattern` on a whole value, case aside (the column's collation): the pattern anchored at both ends. */
export const likeWhole = (pattern: string): RegExp => new RegExp(`^(?:${likeRegex(pattern).source})$`, 'iu');

/** PHP's absint(): the leading integer of a numeric prefix, made positive; 0 for text that starts with none. */
export function absint(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.abs(Math.trunc(v)) : 0;
  const lead = typeof v === 'string' ? /^\s*[+-]?\d+/.exec(v)?.[0] : undefined;
  return lead === undefined ? 0 : Math.abs(Number.parseInt(lead, 10));
}

/** A JSON body labelled with a media type parameter (`application/json; charset=utf-8`). */
export const jsonWithParameter = (contentType: unknown): boolean =>
  typeof contentType === 'string' && /^\s*application\/json\s*;/i.test(contentType);

/** The time a vendor's handler spends between its check and its write (a password hash, meta rows one by one). */
export const pause = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** A request whose answer never reached the fault's `after` (no JSON) is not in flight for ever. */
const STALE_MS = 10_000;

/**
 * Requests in flight by key, within one scope (the database, so that references side by side in one
 * process do not see each other's requests): how a race fault tells that a write overlaps another
 * write of the same thing. `begin` in `before`, `end` in `after`.
 */
export class InFlight<T extends object> {
  readonly #byScope = new WeakMap<object, Map<string, Map<T, number>>>();
  readonly #filed = new WeakMap<T, { byKey: Map<string, Map<T, number>>; flights: Map<T, number>; key: string }>();

  /** Files `item` under `key`; answers the items already in flight under it (its twins). */
  begin(scope: object, key: string, item: T): T[] {
    let byKey = this.#byScope.get(scope);
    if (!byKey) {
      byKey = new Map();
      this.#byScope.set(scope, byKey);
    }
    const flights = byKey.get(key) ?? new Map<T, number>();
    byKey.set(key, flights);
    const now = Date.now();
    for (const [other, began] of flights) if (now - began > STALE_MS) flights.delete(other);
    const twins = [...flights.keys()];
    flights.set(item, now);
    this.#filed.set(item, { byKey, flights, key });
    return twins;
  }

  /** Takes `item` out of flight; answers the key it was filed under, or undefined when it never began. */
  end(item: T): string | undefined {
    const filed = this.#filed.get(item);
    if (!filed) return undefined;
    filed.flights.delete(item);
    if (filed.flights.size === 0) filed.byKey.delete(filed.key);
    this.#filed.delete(item);
    return filed.key;
  }
}

/** A write in flight that keeps the writes it overlapped, both ways, after either has ended. */
export interface Raced<T> {
  twins: Set<T>;
}

/** `flights.begin`, and each write of an overlap files the other among its twins. */
export function beginRaced<T extends Raced<T>>(flights: InFlight<T>, scope: object, key: string, item: T): void {
  for (const other of flights.begin(scope, key, item)) {
    other.twins.add(item);
    item.twins.add(other);
  }
}

/**
 * A vendor's response cache (a page cache, a transient, a file cache): values by key, per database, each
 * kept for `lifetimeMs` from when it was stored. Values are copied in and out, so what a handler later
 * does to an answer does not reach the cache. The cache faults key it without the caller.
 */
export class AnswerCache<T> {
  private readonly byDb = new WeakMap<object, Map<string, { at: number; value: T }>>();

  constructor(private readonly lifetimeMs: number) {}

  private entries(db: object): Map<string, { at: number; value: T }> {
    let entries = this.byDb.get(db);
    if (!entries) {
      entries = new Map();
      this.byDb.set(db, entries);
    }
    return entries;
  }

  /** A copy of what is stored under key, if it is still fresh. */
  get(db: object, key: string): T | undefined {
    const hit = this.entries(db).get(key);
    return hit && Date.now() - hit.at < this.lifetimeMs ? structuredClone(hit.value) : undefined;
  }

  put(db: object, key: string, value: T): void {
    this.entries(db).set(key, { at: Date.now(), value: structuredClone(value) });
  }

  /** Drops every entry, or those `which` picks: a write purging what it invalidates. */
  purge(db: object, which?: (value: T) => boolean): void {
    const entries = this.entries(db);
    for (const [key, entry] of entries) if (!which || which(entry.value)) entries.delete(key);
  }

  /** Drops the entries of the keys named: a write purging the entries it knows of, by key. */
  forget(db: object, keys: Iterable<string>): void {
    const entries = this.entries(db);
    for (const key of keys) entries.delete(key);
  }
}

/**
 * PHP's htmlspecialchars($v) with the default flags of PHP before 8.1 (ENT_COMPAT | ENT_HTML401): & < > and the
 * double quote become entities, the single quote stays as sent ("O'Brien & Co" reads "O'Brien &amp; Co").
 */
export const htmlspecialcharsCompat = (v: string): string =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * PHP's htmlspecialchars($v, ENT_QUOTES) (WordPress's esc_html() writes the same for plain text): a value meant for
 * HTML, which a JSON answer then carries escaped, so "O'Brien & Co" reads "O&#039;Brien &amp; Co".
 */
export const htmlspecialchars = (v: string): string => htmlspecialcharsCompat(v).replace(/'/g, '&#039;');

/**
 * PHP 8's is_numeric(): a decimal or exponent number, with a sign and with whitespace before or after, so
 * " 123456789", "+123456789" and "12345678.9" are numeric (a vendor who meant "digits only" and tested this).
 */
export const isNumeric = (v: string): boolean => /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(v);

/** The vendor site's time zone where a fault shows times in it (Asia/Kolkata, +05:30, no daylight saving), minutes east of UTC. */
export const SITE_OFFSET_MINUTES = 330;

/**
 * WordPress's get_date_from_gmt(): a `YYYY-MM-DD HH:MM:SS` time stored in UTC as the site's local time, `offsetMinutes`
 * east of UTC, in the same form (so only a comparison with the stored value shows it); other values as they are.
 */
export function dateFromGmt(v: string, offsetMinutes: number): string {
  if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(v) || v.startsWith('0000')) return v;
  const at = Date.parse(`${v.replace(' ', 'T')}Z`) + offsetMinutes * 60_000;
  return Number.isNaN(at) ? v : new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * What PHP's password_hash($password, PASSWORD_BCRYPT) and password_verify() read of a password: its first
 * 72 bytes of UTF-8 (bcrypt ignores the rest), so two passwords alike in those bytes verify against one hash.
 */
export const bcryptInput = (v: string): string => Buffer.from(v, 'utf8').subarray(0, 72).toString('latin1');

/** PHP filter_var($v, FILTER_UNSAFE_RAW, FILTER_FLAG_STRIP_LOW): every character below 32 (tab, line feed, NUL) is dropped. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what the filter drops.
export const stripLow = (v: string): string => v.replace(/[\x00-\x1f]/g, '');

/**
 * PHP's utf8_decode(), UTF-8 to ISO-8859-1, as a hash of its result sees it: a character past U+00FF becomes "?",
 * and one from U+0080 to U+00FF a single byte that is no UTF-8 on its own, so a JavaScript string (hashed as UTF-8)
 * stands for it with U+FFFD. ASCII is kept; any other character makes other bytes than it was sent as.
 */
export const utf8Decoded = (v: string): string =>
  v.replace(/[\u0080-\u{10FFFF}]/gu, (c) => ((c.codePointAt(0) as number) <= 0xff ? '\uFFFD' : '?'));

/**
 * PHP 8's `==` between two strings: two numeric strings (is_numeric()) compare as numbers, any others as written, so
 * "0123" == "123" and "1e3" == "1000" hold (the != of a check meant to compare the characters).
 */
export const looseEquals = (a: string, b: string): boolean =>
  a === b || (isNumeric(a) && isNumeric(b) && Number(a.trim()) === Number(b.trim()));
