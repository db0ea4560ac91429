import { createHash, randomUUID } from 'node:crypto';
import { Kind, type OperationDefinitionNode, parse, print, visit } from 'graphql';
import type { AppContext } from '../context.js';
import { cartSummary } from '../graphql/totals.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import {
  AnswerCache,
  bcryptInput,
  htmlspecialchars,
  InFlight,
  isNumeric,
  jsonWithParameter,
  looseEquals,
  numberFormat,
  pause,
  phpFloat,
  stripslashes,
  urldecode,
  utf8Decoded,
  utf8mb3,
} from './emulation.js';
import { type Fault, type FaultRequest, type FaultResponse, isObject, mapKey } from './model.js';
import { defaultUserToken, hs256Of, restoreToken } from './tokens.js';

/** The request's variables object, when the client sent one (the suite's operations use variables). */
function variables(req: FaultRequest): Record<string, unknown> | undefined {
  const body = req.raw.body;
  if (!isObject(body)) return undefined;
  if (!isObject(body.variables)) return undefined;
  return body.variables;
}

/** The result object of `field` in `data`, if the operation returned one. */
function result(res: FaultResponse, field: string): Record<string, unknown> | undefined {
  const data = isObject(res.body) ? res.body.data : undefined;
  const r = isObject(data) ? data[field] : undefined;
  return isObject(r) ? r : undefined;
}

/** The platform's request sanitiser: htmlspecialchars with ENT_QUOTES, on text only. */
const htmlEscaped = (v: unknown): unknown => (typeof v === 'string' ? htmlspecialchars(v) : v);

/** Every field of a cart line, as the vendor's line resolver returns them whatever the selection. */
const LINE_SELECTION = (
  parse(
    '{ cart_id product_id name model shipping image option { option_id name value } download { download_id name } quantity minimum subtract stock price total reward points tax_class_id weight weight_class_id length width height length_class_id }',
  ).definitions[0] as OperationDefinitionNode
).selectionSet;

/** A cart_id the handler would take (digits, as ID string or number); undefined for anything else. */
function cartIdOf(v: unknown): number | undefined {
  const text = typeof v === 'number' || typeof v === 'string' ? String(v).trim() : '';
  return /^[1-9]\d{0,14}$/.test(text) ? Number(text) : undefined;
}

/** updateCartProduct requests whose quantity equalled the line's, seen by `before` for `after`. */
const unchangedUpdates = new WeakSet<object>();

/** The customer of the request's bearer token, as the handler will authenticate it; undefined without one. */
async function bearerCustomer(req: FaultRequest, ctx: AppContext): Promise<number | undefined> {
  const header = req.raw.headers.authorization;
  const token = typeof header === 'string' ? /^\s*Bearer\s+(\S+)/i.exec(header)?.[1] : undefined;
  const payload = token ? await ctx.tokens.verify(token, 'graphql') : null;
  const id = payload ? Number(payload.sub) : Number.NaN;
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** Whether the answer carries no error (a fault acts only on operations the handler carried out). */
const clean = (res: FaultResponse) => isObject(res.body) && !(Array.isArray(res.body.errors) && res.body.errors.length > 0);

/** Per database: customers whose session a deleteCartProduct marked changed (GQL-SUMMARY-SQL-SUM-AFTER-DELETE). */
const sqlSumCustomers = new WeakMap<object, Set<number>>();

/** login requests -> the e-mail as typed, where it matched an account only case-insensitively (GQL-LOGIN-ECHOES-EMAIL). */
const typedEmails = new WeakMap<object, string>();

/** emptyCart requests -> the cart rows after the first line, to put back once the handler emptied the cart. */
const keptLines = new WeakMap<object, Record<string, unknown>[]>();
/** addProductToCart requests -> the customer whose summary is answered. */
const summaryCustomer = new WeakMap<object, number>();

const has = (req: FaultRequest, field: string) => new RegExp(`\\b${field}\\b`).test(req.endpoint);
const CART_FIELDS = ['addProductToCart', 'addCoupon'];

/**
 * A `before` hook that points `field`'s cart_id at the first line of the same customer's cart, so the
 * mutation acts on that line whatever line the client named (a one-line cart shows nothing).
 */
function firstLineInstead(field: string): NonNullable<Fault['before']> {
  return (req, ctx) => {
    const v = variables(req);
    const cartId = cartIdOf(v?.cart_id);
    if (!has(req, field) || !v || cartId === undefined) return;
    const first = ctx.db
      .prepare('SELECT MIN(cart_id) AS id FROM gql_cart WHERE customer_id = (SELECT customer_id FROM gql_cart WHERE cart_id = ?)')
      .get(cartId) as { id: number | null } | undefined;
    if (first?.id != null && first.id !== cartId) v.cart_id = String(first.id);
  };
}

/** The refusal's errors name `code` (the handler's extensions.code): the operation was refused for that reason. */
const refusedWith = (res: FaultResponse, code: string) =>
  isObject(res.body) &&
  Array.isArray(res.body.errors) &&
  res.body.errors.some((e) => isObject(e) && isObject(e.extensions) && e.extensions.code === code);

/**
 * For the faults whose duplicate-e-mail check misses some registers (marked by their `before`): the insert goes
 * through, so the refusal EMAIL_EXISTS the reference answered becomes register: true.
 */
function duplicateRegisteredFor(marked: WeakSet<object>) {
  return (res: FaultResponse, req: FaultRequest): void => {
    if (!marked.has(req.raw) || !refusedWith(res, 'EMAIL_EXISTS')) return;
    res.body = { data: { register: true } };
    res.status = 200;
  };
}

/** register's CustomerInput, when the request is a register with a string e-mail and password (what these faults store). */
function registerInput(req: FaultRequest): Record<string, unknown> | undefined {
  const input = variables(req)?.input;
  if (!has(req, 'register') || !isObject(input) || typeof input.email !== 'string' || typeof input.password !== 'string')
    return undefined;
  return input;
}

/** Stores a register's account under `email` as register's handler would: for the faults that keep an account it refused. */
/** Register's firstname and lastname (variables) as a store of the vendor's would keep them. */
function mapRegisterNames(req: FaultRequest, stored: (v: string) => string): void {
  const input = variables(req)?.input;
  if (!has(req, 'register') || !isObject(input)) return;
  for (const field of ['firstname', 'lastname']) {
    const v = input[field];
    if (typeof v === 'string') input[field] = stored(v);
  }
}

function insertCustomer(ctx: AppContext, input: Record<string, unknown>, email: string, hash: string): void {
  ctx.db
    .prepare(
      `INSERT OR IGNORE INTO gql_customer (customer_group_id, firstname, lastname, email, telephone, fax, company, address_1,
         address_2, city, postcode, country_id, zone_id, password_hash, agree, date_added)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
    )
    .run(
      input.customer_group_id,
      trimmed(input.firstname),
      trimmed(input.lastname),
      email,
      trimmed(input.telephone),
      trimmed(input.fax),
      trimmed(input.company),
      trimmed(input.address_1),
      trimmed(input.address_2),
      trimmed(input.city),
      trimmed(input.postcode),
      input.country_id,
      input.zone_id,
      hash,
      new Date().toISOString(),
    );
}

const trimmed = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** A string of digits beginning with 0: what an integer round trip (FILTER_VALIDATE_INT) refuses. */
const leadingZero = (v: unknown) => typeof v === 'string' && /^0\d+$/.test(v.trim());

/** Per database: the subtotal (cents) of each customer's cart when its last addProductToCart answered. */
const cachedSubtotals = new WeakMap<object, Map<number, number>>();
function subtotalCache(ctx: AppContext): Map<number, number> {
  let m = cachedSubtotals.get(ctx.db);
  if (!m) {
    m = new Map();
    cachedSubtotals.set(ctx.db, m);
  }
  return m;
}
/** Requests -> their bearer customer, seen by `before` for `after` (the token is checked once). */
const requestCustomer = new WeakMap<object, number>();
const cents = (v: unknown) => (typeof v === 'number' ? Math.round(v * 100) : 0);

/** register requests in flight by e-mail; those that began while a twin was in flight. */
const registering = new InFlight<object>();
const racedRegisters = new WeakSet<object>();
/** addProductToCart requests -> the line they read before the handler, and the quantity they add. */
const readLines = new WeakMap<object, { me: number; cartId: number; read: number; added: number }>();

/** Copies into an answered cart summary the values of `fresh` (the cart as stored) for the fields it holds. */
function refreshSummary(r: Record<string, unknown>, fresh: Record<string, unknown>): void {
  const freshItems = (fresh.items ?? []) as Record<string, unknown>[];
  const freshTotals = (fresh.totals ?? []) as Record<string, unknown>[];
  for (const [k, v] of Object.entries(r)) {
    if (k === 'items' && Array.isArray(v)) {
      for (const line of v) {
        if (!isObject(line)) continue;
        const f = freshItems.find((x) =>
          'cart_id' in line ? String(x.cart_id) === String(line.cart_id) : String(x.product_id) === String(line.product_id),
        );
        if (f) for (const key of Object.keys(line)) if (typeof f[key] === 'number') line[key] = f[key];
      }
    } else if (k === 'totals' && Array.isArray(v)) {
      for (const t of v) {
        const f = isObject(t) ? freshTotals.find((x) => x.title === t.title) : undefined;
        if (isObject(t) && f && 'value' in t) t.value = f.value;
      }
    } else if (typeof fresh[k] === 'number' || typeof fresh[k] === 'boolean') r[k] = fresh[k];
  }
}

/** Requests the operation-name gate refused, for `after` to answer as the gate did (nothing executed). */
const gatedByName = new WeakSet<object>();

/** The bearer token as sent (the text after the scheme); undefined without one. */
function bearerText(req: FaultRequest): string | undefined {
  const header = req.raw.headers.authorization;
  return typeof header === 'string' ? /^\s*Bearer\s+(\S+)/i.exec(header)?.[1] : undefined;
}

/** Per database: cart_id -> the token (the login's session) that last added to the line. */
const lineSessions = new WeakMap<object, Map<number, string>>();
function sessionsOf(ctx: AppContext): Map<number, string> {
  let m = lineSessions.get(ctx.db);
  if (!m) {
    m = new Map();
    lineSessions.set(ctx.db, m);
  }
  return m;
}
/** addProductToCart and emptyCart requests -> their customer, token and the customer's lines before the handler. */
const sessionRequests = new WeakMap<object, { me: number; token: string; rows: Record<string, unknown>[] }>();

/** Answers of queries by request body (query text and variables), for 10 s (GQL-QUERY-CACHE-NO-TOKEN). */
const QUERY_CACHE = new AnswerCache<unknown>(10_000);
/** Query requests -> their cache key; those answered from the cache. */
const queryKeys = new WeakMap<object, string>();
const cachedAnswers = new WeakMap<object, unknown>();

/** The operation of a GraphQL text when it is a query (not a mutation); false for anything else or a syntax error. */
function isQueryText(text: string): boolean {
  try {
    const ops = parse(text, { maxTokens: 5000 }).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    return ops.length === 1 && (ops[0] as OperationDefinitionNode).operation === 'query';
  } catch {
    return false;
  }
}

/**
 * Per database: e-mail -> the second rows registered under it (the vendor's table has no unique key on email; the
 * reference's has, so each is stored under a hidden e-mail of its own and login is pointed at it).
 */
const secondRows = new WeakMap<object, Map<string, { email: string; hash: string }[]>>();
function secondRowsOf(ctx: AppContext): Map<string, { email: string; hash: string }[]> {
  let m = secondRows.get(ctx.db);
  if (!m) {
    m = new Map();
    secondRows.set(ctx.db, m);
  }
  return m;
}
/** login requests pointed at a second row -> the e-mail they were sent with. */
const secondRowLogins = new WeakMap<object, string>();

/** PHP's (int) of a number on a 32-bit build: wraps modulo 2^32 into the signed range. */
const int32 = (v: unknown): unknown =>
  typeof v === 'number' && Number.isInteger(v) && (v > 2 ** 31 - 1 || v < -(2 ** 31)) ? v | 0 : v;

/** Per database: the lines deleteCartProduct removed, by cart_id (GQL-UPDATE-REVIVES-DELETED: the vendor only flags them). */
const removedLines = new WeakMap<object, Map<number, Record<string, unknown>>>();
function removedOf(ctx: AppContext): Map<number, Record<string, unknown>> {
  let m = removedLines.get(ctx.db);
  if (!m) {
    m = new Map();
    removedLines.set(ctx.db, m);
  }
  return m;
}
/** deleteCartProduct requests -> the row they name, read before the handler deletes it. */
const deletingRows = new WeakMap<object, Record<string, unknown>>();
/** updateCartProduct requests that brought a removed row back -> its cart_id, removed again if the update is refused. */
const revivedRows = new WeakMap<object, number>();

/** Per database: the customer a worker's registry holds, set by the last addProductToCart, and that request's header. */
const registryCustomer = new WeakMap<object, { me: number; header: string }>();

/** addProductToCart requests whose product_id came as an integer -> that integer (GQL-PRODUCT-ID-STRING-ONLY). */
const integerProductIds = new WeakMap<object, number>();

/**
 * The e-mail of a register whose CustomerInput is written inline in the query text (no input in the variables);
 * undefined for anything else or a syntax error.
 */
function inlineRegisterEmail(req: FaultRequest): string | undefined {
  const body = req.raw.body;
  if (!has(req, 'register') || !isObject(body) || typeof body.query !== 'string' || isObject(variables(req)?.input))
    return undefined;
  try {
    let email: string | undefined;
    visit(parse(body.query, { maxTokens: 5000 }), {
      Field(node) {
        if (node.name.value !== 'register') return;
        const input = node.arguments?.find((a) => a.name.value === 'input')?.value;
        const field = input?.kind === Kind.OBJECT ? input.fields.find((f) => f.name.value === 'email') : undefined;
        if (field?.value.kind === Kind.STRING) email = field.value.value;
      },
    });
    return email;
  } catch {
    return undefined;
  }
}

/** register requests whose CustomerInput came inline, so the vendor's duplicate check never saw an e-mail. */
const inlineRegisters = new WeakSet<object>();

/** A product_id string with digits at its front and something else after them ("40x"): PHP's (int) reads 40. */
const intCastPrefix = (v: unknown): string | undefined => {
  const m = typeof v === 'string' ? /^\s*\+?(\d+)\D/.exec(v) : null;
  return m ? String(Number.parseInt(m[1] as string, 10)) : undefined;
};

/** CustomerInput's text fields with a column of their own: what register stores of a field sent as null. */
const NULLABLE_TEXT = ['firstname', 'lastname', 'address_1', 'address_2', 'city', 'fax', 'company'] as const;
/** register requests -> the text fields they sent as null, stored empty once the account is in (GQL-REGISTER-NULL-FIELD-GIVEN). */
const nulledFields = new WeakMap<object, string[]>();

/** updateCartProduct and addProductToCart requests -> their bearer customer, and what the vendor's query then writes. */
const allLinesUpdates = new WeakMap<object, { me: number; quantity: number }>();
const upsertAdds = new WeakMap<object, { me: number; cartId: number; added: number }>();
/** addProductToCart and addCoupon requests -> their bearer customer (GQL-COUPON-FIXED-PER-LINE). */
const perLineCustomer = new WeakMap<object, number>();

/** Per database: the coupon kept in the one session all customers share (GQL-COUPON-SHARED-SESSION); null: none. */
const sharedCoupon = new WeakMap<object, number | null>();
/** addCoupon and emptyCart requests -> their bearer customer, for `after` to update the shared session. */
const sessionCustomer = new WeakMap<object, number>();

/**
 * Rewrites an answered cart summary or Coupon result to a coupon_discount of `discountCents` (negative): total follows
 * (subtotal + coupon_discount + tax), and so do the coupon and Total rows of totals.
 */
function withDiscount(r: Record<string, unknown>, discountCents: number): void {
  const total = (cents(r.subtotal) + discountCents + cents(r.tax)) / 100;
  if ('coupon_discount' in r) r.coupon_discount = discountCents / 100;
  if ('total' in r) r.total = total;
  if (Array.isArray(r.totals))
    for (const t of r.totals)
      if (isObject(t) && typeof t.title === 'string' && t.title.startsWith('Coupon')) t.value = discountCents / 100;
      else if (isObject(t) && t.title === 'Total') t.value = total;
}

/**
 * What the vendor's store keeps of a password: bcrypt (password_hash) reads its first 72 bytes. A password the
 * reference's 40-character rule would refuse, or one past 72 bytes, is handed on as a stand-in of 40 characters
 * derived from those bytes, so that register stores it and login matches it as bcrypt would (GQL-PASSWORD-BCRYPT-72).
 */
const bcryptStandIn = (v: string): string =>
  v.length > 40 || Buffer.byteLength(v) > 72
    ? `bcrypt72-${createHash('sha256')
        .update(Buffer.from(bcryptInput(v), 'latin1'))
        .digest('hex')
        .slice(0, 31)}`
    : v;

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

/** Per database: customer -> how many times in a row the coupon on their cart was applied (GQL-COUPON-REAPPLIED-STACKS). */
const couponRows = new WeakMap<object, Map<number, number>>();
function couponRowsOf(ctx: AppContext): Map<number, number> {
  let m = couponRows.get(ctx.db);
  if (!m) {
    m = new Map();
    couponRows.set(ctx.db, m);
  }
  return m;
}
/** addCoupon, emptyCart and addProductToCart requests -> their customer and the coupon on the cart before the handler. */
const stackRequests = new WeakMap<object, { me: number; before: number | null }>();
const appliedCoupon = (ctx: AppContext, me: number): number | null =>
  (ctx.db.prepare('SELECT coupon_id FROM gql_cart_coupon WHERE customer_id = ?').get(me) as { coupon_id: number } | undefined)
    ?.coupon_id ?? null;

/** addProductToCart requests -> their customer and the cart (summary and cart_ids) read before the handler. */
const cartBeforeAdd = new WeakMap<object, { me: number; summary: Record<string, unknown>; ids: string }>();
const cartIds = (summary: Record<string, unknown>): string =>
  ((summary.items ?? []) as Record<string, unknown>[]).map((l) => String(l.cart_id)).join(',');

/** A letter outside ASCII written in upper case (Ü, É): what PHP 8's strtolower() leaves as it is and MySQL's LOWER() folds. */
const nonAsciiCapital = (v: string): boolean => [...v].some((ch) => ch > '\u007f' && ch.toLowerCase() !== ch);
/** register requests whose e-mail holds a capital outside ASCII (GQL-EMAIL-STRTOLOWER-DUPLICATE). */
const foldedEmailRegisters = new WeakSet<object>();

/** register requests whose e-mail is registered in another case only (GQL-EMAIL-DUPLICATE-CASE-SENSITIVE). */
const caseVariantRegisters = new WeakSet<object>();

/**
 * Per database: password -> the e-mail of the first account registered with it, as the vendor's md5 column holds it
 * (GQL-LOGIN-OR-PRECEDENCE: its login finds the first row whose md5 matches, whatever the e-mail).
 */
const md5Accounts = new WeakMap<object, Map<string, string>>();
function md5AccountsOf(ctx: AppContext): Map<string, string> {
  let m = md5Accounts.get(ctx.db);
  if (!m) {
    m = new Map();
    md5Accounts.set(ctx.db, m);
  }
  return m;
}

/** Whether CartProductInput.options is left out or empty (an empty object or list): the lines the line cache keys. */
const noOptions = (v: unknown): boolean =>
  v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);
/** Per database: `<customer>:<product>` -> the cart_id the worker's line cache holds (GQL-EMPTY-CART-STALE-LINE-CACHE). */
const lineCaches = new WeakMap<object, Map<string, number>>();
function lineCacheOf(ctx: AppContext): Map<string, number> {
  let m = lineCaches.get(ctx.db);
  if (!m) {
    m = new Map();
    lineCaches.set(ctx.db, m);
  }
  return m;
}
/** addProductToCart and deleteCartProduct requests -> their customer, product (add) and whether the cache was stale. */
const lineCacheRequests = new WeakMap<object, { me: number; product?: number; stale: boolean }>();

/** Document 3 (GraphQL): faults of an OpenCart GraphQL extension. */
export const graphqlFaults: Fault[] = [
  {
    id: 'GQL-UNSELECTED-FIELD',
    iface: 'graphql',
    // A resolver that returns its whole row, bypassing the selection set.
    after(res) {
      for (const f of CART_FIELDS) {
        const r = result(res, f);
        if (r && !('currency_code' in r)) r.currency_code = 'USD';
      }
    },
  },
  {
    id: 'GQL-HS256-TOKEN',
    iface: 'graphql',
    before: (req) => restoreToken(req, 'authorization'),
    async after(res, _req, ctx) {
      const r = result(res, 'login');
      const key = `${ctx.vendor}_token`;
      if (r && typeof r[key] === 'string') r[key] = await hs256Of(r[key]);
    },
  },
  {
    id: 'GQL-TOKEN-UNCHECKED',
    iface: 'graphql',
    before: (req, ctx) =>
      defaultUserToken(
        req,
        ctx,
        'authorization',
        'graphql',
        'SELECT customer_id AS id FROM gql_customer ORDER BY customer_id LIMIT 1',
        true,
      ),
  },
  {
    id: 'GQL-DISCOUNT-POSITIVE',
    iface: 'graphql',
    after(res) {
      mapKey(res.body, 'coupon_discount', (v) => (typeof v === 'number' ? Math.abs(v) : v));
    },
  },
  {
    id: 'GQL-SUBTOTAL-OFF',
    iface: 'graphql',
    // Subtotal read from a stale total that already includes a handling fee.
    after(res) {
      for (const f of CART_FIELDS) {
        const r = result(res, f);
        if (r && typeof r.subtotal === 'number') r.subtotal += 2.5;
      }
    },
  },
  {
    id: 'GQL-LIMIT-IGNORED',
    iface: 'graphql',
    before(req) {
      const v = variables(req);
      if (has(req, 'orders') && v && 'limit' in v) v.limit = 100;
    },
  },
  {
    id: 'GQL-START-IGNORED',
    iface: 'graphql',
    before(req) {
      const v = variables(req);
      if (has(req, 'orders') && v && 'start' in v) v.start = 0;
    },
  },
  {
    id: 'GQL-DUPLICATE-EMAIL',
    iface: 'graphql',
    // The duplicate check and the insert disagree: the second registration "succeeds" and is dropped.
    after(res) {
      const errors = isObject(res.body) ? res.body.errors : undefined;
      if (!Array.isArray(errors) || !errors.some((e) => isObject(e) && /already registered/i.test(String(e.message)))) return;
      res.body = { data: { register: true } };
      res.status = 200;
    },
  },
  {
    id: 'GQL-UPDATE-NOOP',
    iface: 'graphql',
    // Answers true but writes the quantity to a column nobody reads.
    before(req, ctx) {
      const v = variables(req);
      const cartId = cartIdOf(v?.cart_id);
      if (!has(req, 'updateCartProduct') || !v || cartId === undefined) return;
      const line = ctx.db.prepare('SELECT quantity FROM gql_cart WHERE cart_id = ?').get(cartId) as
        | { quantity: number }
        | undefined;
      if (line) v.quantity = line.quantity;
    },
  },
  {
    id: 'GQL-SYNTAX-500',
    iface: 'graphql',
    after(res) {
      const errors = isObject(res.body) ? res.body.errors : undefined;
      if (Array.isArray(errors) && errors.some((e) => isObject(e) && /^Syntax Error/.test(String(e.message)))) {
        res.status = 500;
        res.body = { errors: [{ message: 'Internal server error' }] };
      }
    },
  },
  {
    id: 'GQL-CUSTOMER-WRONG',
    iface: 'graphql',
    after(res, _req, ctx) {
      const r = result(res, 'customerByEmail');
      if (!r || typeof r.email !== 'string') return;
      const other = ctx.db
        .prepare('SELECT firstname, lastname, email FROM gql_customer WHERE email != ? ORDER BY customer_id LIMIT 1')
        .get(r.email) as Record<string, string> | undefined;
      if (other) for (const k of ['firstname', 'lastname', 'email']) if (k in r) r[k] = other[k];
    },
  },
  {
    id: 'GQL-NO-DATA-WRAPPER',
    iface: 'graphql',
    after(res) {
      if (isObject(res.body) && isObject(res.body.data) && !res.body.errors) res.body = res.body.data;
    },
  },
  {
    id: 'GQL-IMAGE-ABSOLUTE',
    iface: 'graphql',
    after(res) {
      for (const f of CART_FIELDS) {
        const items = result(res, f)?.items;
        if (Array.isArray(items))
          for (const line of items)
            if (isObject(line) && typeof line.image === 'string' && !/^https?:/.test(line.image))
              line.image = `http://shop.example.test/image/${line.image}`;
      }
    },
  },
  {
    id: 'GQL-CONFIRM-IGNORED',
    iface: 'graphql',
    before(req) {
      const input = variables(req)?.input;
      if (has(req, 'register') && isObject(input) && 'password' in input) input.confirm = input.password;
    },
  },
  {
    id: 'GQL-START-AS-PAGE',
    iface: 'graphql',
    // start read as a page number (the platform's own `page` parameter): the offset is start x limit.
    before(req) {
      const v = variables(req);
      if (!has(req, 'orders') || !v || typeof v.start !== 'number' || v.start <= 0) return;
      const limit = typeof v.limit === 'number' && v.limit > 0 ? v.limit : 10;
      v.start = Math.min(v.start * limit, 2 ** 31 - 1);
    },
  },
  {
    id: 'GQL-COUPON-PREFIX',
    iface: 'graphql',
    // The code is looked up with LIKE 'code%' (the admin list's filter reused): a code that no coupon
    // has, but that begins one, applies that coupon.
    before(req, ctx) {
      const v = variables(req);
      if (!has(req, 'addCoupon') || !v || typeof v.code !== 'string') return;
      const code = v.code.trim();
      // Past the handler's own length check (at most 20 characters), as the vendor's lookup would be.
      if (!code || code.length > 20 || ctx.db.prepare('SELECT 1 FROM gql_coupon WHERE code = ?').get(code)) return;
      const hit = ctx.db.prepare("SELECT code FROM gql_coupon WHERE code LIKE ? || '%' ORDER BY coupon_id LIMIT 1").get(code) as
        | { code: string }
        | undefined;
      if (hit) v.code = hit.code;
    },
  },
  {
    id: 'GQL-PASSWORD-ESCAPED',
    iface: 'graphql',
    // login hashes the password after escaping it for SQL (a backslash before ' " and \\), register
    // hashes it as sent: a password holding a quote or a backslash registers but never logs in.
    before(req) {
      const v = variables(req);
      if (has(req, 'login') && v && typeof v.password === 'string') v.password = v.password.replace(/['"\\]/g, '\\$&');
    },
  },
  {
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
  },
  {
    id: 'GQL-UPDATE-SAME-FALSE',
    iface: 'graphql',
    // Success is read from the UPDATE's affected rows, which MySQL reports as 0 when the value does
    // not change: updateCartProduct to the quantity the line already has answers false, "not found".
    before(req, ctx) {
      const v = variables(req);
      const cartId = cartIdOf(v?.cart_id);
      if (!has(req, 'updateCartProduct') || cartId === undefined) return;
      const line = ctx.db.prepare('SELECT quantity FROM gql_cart WHERE cart_id = ?').get(cartId) as
        | { quantity: number }
        | undefined;
      if (line && line.quantity === v?.quantity) unchangedUpdates.add(req.raw);
    },
    after(res, req) {
      const data = isObject(res.body) ? res.body.data : undefined;
      if (!unchangedUpdates.has(req.raw) || !isObject(data) || data.updateCartProduct !== true) return;
      const message = 'Cart item not found.';
      data.updateCartProduct = false;
      res.body = {
        data,
        errors: [{ message, path: ['updateCartProduct'], extensions: { code: 'CART_ITEM_NOT_FOUND' } }],
        status: false,
        message,
      };
    },
  },
  {
    id: 'GQL-LINE-ALL-FIELDS',
    iface: 'graphql',
    // The cart line resolver returns its whole row: a client selecting a few line fields gets all of
    // them (the summary's own fields do follow the selection).
    before(req) {
      const body = req.raw.body;
      if (!has(req, 'items') || !isObject(body) || typeof body.query !== 'string') return;
      let document: ReturnType<typeof parse>;
      try {
        document = parse(body.query, { maxTokens: 5000 });
      } catch {
        return; // the handler answers the syntax error
      }
      body.query = print(
        visit(document, {
          Field(node) {
            if (node.name.value === 'items' && node.selectionSet?.kind === Kind.SELECTION_SET)
              return { ...node, selectionSet: LINE_SELECTION };
            return undefined;
          },
        }),
      );
    },
  },
  {
    id: 'GQL-UPDATE-DROPS-COUPON',
    iface: 'graphql',
    // Like the platform's cart/edit, which unsets shipping, payment and reward from the session when
    // a quantity changes, the vendor's updateCartProduct unsets the applied coupon too.
    after(res, req, ctx) {
      const cartId = cartIdOf(variables(req)?.cart_id);
      const data = isObject(res.body) ? res.body.data : undefined;
      if (!has(req, 'updateCartProduct') || cartId === undefined || !isObject(data) || data.updateCartProduct !== true) return;
      ctx.db
        .prepare('DELETE FROM gql_cart_coupon WHERE customer_id = (SELECT customer_id FROM gql_cart WHERE cart_id = ?)')
        .run(cartId);
    },
  },
  {
    id: 'GQL-EMPTY-FIRST-LINE',
    iface: 'graphql',
    // emptyCart meant to loop over the cart's keys but returns after the first cart->remove(): the
    // first line (and the applied coupon) go, every other line stays. A one-line cart empties fine.
    async before(req, ctx) {
      if (!has(req, 'emptyCart')) return;
      const me = await bearerCustomer(req, ctx);
      if (me === undefined) return;
      const rows = ctx.db.prepare('SELECT * FROM gql_cart WHERE customer_id = ? ORDER BY cart_id').all(me) as Record<
        string,
        unknown
      >[];
      keptLines.set(req.raw, rows.slice(1));
    },
    after(res, req, ctx) {
      const rows = keptLines.get(req.raw);
      if (!rows || rows.length === 0 || !clean(res)) return;
      const put = ctx.db.prepare(
        'INSERT OR IGNORE INTO gql_cart (cart_id, customer_id, product_id, recurring_id, options, quantity, date_added) VALUES (@cart_id, @customer_id, @product_id, @recurring_id, @options, @quantity, @date_added)',
      );
      for (const row of rows) put.run(row);
    },
  },
  {
    id: 'GQL-UPDATE-FIRST-LINE',
    iface: 'graphql',
    // updateCartProduct finds the line through the customer's cart (cart->getProducts()[0], a
    // leftover of a one-product test) instead of the cart_id sent: the cart's first line gets the
    // new quantity and the line named keeps its own. Another customer's cart_id stays refused.
    before: firstLineInstead('updateCartProduct'),
  },
  {
    id: 'GQL-DELETE-FIRST-LINE',
    iface: 'graphql',
    // The same leftover in deleteCartProduct: the cart's first line is removed, the line named stays.
    before: firstLineInstead('deleteCartProduct'),
  },
  {
    id: 'GQL-SUBTOTAL-FIRST-LINE',
    iface: 'graphql',
    // The cart summary's subtotal is the first line's total ($products[0]['total'] where a sum was
    // meant), and total follows from it (subtotal + coupon_discount + tax); the lines themselves and
    // addCoupon's result are right. A one-line cart shows nothing.
    async before(req, ctx) {
      if (!has(req, 'addProductToCart')) return;
      const me = await bearerCustomer(req, ctx);
      if (me !== undefined) summaryCustomer.set(req.raw, me);
    },
    after(res, req, ctx) {
      const me = summaryCustomer.get(req.raw);
      const r = result(res, 'addProductToCart');
      if (me === undefined || !r || !clean(res)) return;
      const items = cartSummary(ctx.db, me).items as Record<string, unknown>[];
      const first = items[0]?.total;
      if (items.length < 2 || typeof first !== 'number') return;
      const cents = (v: unknown) => (typeof v === 'number' ? Math.round(v * 100) : 0);
      const total = (Math.round(first * 100) + cents(r.coupon_discount) + cents(r.tax)) / 100;
      if ('subtotal' in r) r.subtotal = first;
      if ('total' in r) r.total = total;
      if (Array.isArray(r.totals))
        for (const t of r.totals)
          if (isObject(t) && t.title === 'Sub-Total') t.value = first;
          else if (isObject(t) && t.title === 'Total') t.value = total;
    },
  },
  {
    id: 'GQL-DUPLICATE-OVERWRITES',
    iface: 'graphql',
    // register writes with INSERT ... ON DUPLICATE KEY UPDATE (the vendor's import routine reused) and
    // reads the duplicate from the affected rows: the answer is the refusal, but the account already
    // registered now has the second registration's names and password.
    async after(res, req, ctx) {
      const input = registerInput(req);
      if (!input || !refusedWith(res, 'EMAIL_EXISTS')) return;
      const hash = await hashPassword(input.password as string);
      ctx.db
        .prepare('UPDATE gql_customer SET firstname = ?, lastname = ?, password_hash = ? WHERE email = ?')
        .run(trimmed(input.firstname), trimmed(input.lastname), hash, trimmed(input.email));
    },
  },
  {
    id: 'GQL-CONFIRM-STORED',
    iface: 'graphql',
    // The confirm comparison sits below addCustomer (added to the resolver after the insert was
    // written): a register whose confirm differs is refused, yet the account is stored and logs in.
    async after(res, req, ctx) {
      const input = registerInput(req);
      const confirmRefused =
        isObject(res.body) &&
        Array.isArray(res.body.errors) &&
        res.body.errors.length === 1 &&
        res.body.errors.some((e) => isObject(e) && isObject(e.extensions) && e.extensions.field === 'confirm');
      if (!input || !confirmRefused) return;
      const hash = await hashPassword(input.password as string);
      insertCustomer(ctx, input, trimmed(input.email), hash);
    },
  },
  {
    id: 'GQL-ORDERS-LIMIT-NEEDS-START',
    iface: 'graphql',
    // The resolver pages only when both arguments are given (isset(start) && isset(limit)): a limit
    // sent alone is dropped and the default page (10 orders) comes back.
    before(req) {
      const v = variables(req);
      if (has(req, 'orders') && v && v.limit != null && v.start == null) v.limit = 10;
    },
  },
  {
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
  },
  {
    id: 'GQL-NAME-ASTRAL-CUT',
    iface: 'graphql',
    // The customer table keeps OpenCart's utf8 (3-byte) collation and the connection runs outside
    // strict mode: a firstname or lastname holding a character outside the BMP (an emoji, a CJK
    // extension ideograph) is stored cut at that character, and login and customerByEmail return it cut.
    before: (req) => mapRegisterNames(req, (v) => utf8mb3(v, 'cut')),
  },
  {
    id: 'GQL-EMAIL-LOWERCASED',
    iface: 'graphql',
    // register stores the e-mail through utf8_strtolower (as the platform's addCustomer does), while
    // the vendor's login resolver compares it as sent and case-sensitively (email = BINARY ?): an
    // account registered with capitals in its e-mail (a domain written Example.Test) never logs in
    // with that e-mail.
    before(req, ctx) {
      const v = variables(req);
      const input = v?.input;
      if (has(req, 'register') && isObject(input) && typeof input.email === 'string') input.email = input.email.toLowerCase();
      if (!has(req, 'login') || !v || typeof v.email !== 'string') return;
      const exact = ctx.db.prepare('SELECT 1 FROM gql_customer WHERE email = ? COLLATE BINARY').get(v.email.trim());
      if (!exact) v.email = `${v.email.trim()}.binary-mismatch.invalid`;
    },
  },
  {
    id: 'GQL-ORDERS-LAST-PAGE-FULL',
    iface: 'graphql',
    // The resolver "fills" a last page: when start + limit runs past the customer's orders, start is
    // moved back to count - limit, so a partial last page comes back full, repeating entries of the
    // page before it, and a start past the end repeats the last page.
    async before(req, ctx) {
      const v = variables(req);
      if (!has(req, 'orders') || !v || typeof v.start !== 'number' || v.start <= 0) return;
      const me = await bearerCustomer(req, ctx);
      if (me === undefined) return;
      const limit = typeof v.limit === 'number' && v.limit > 0 ? Math.min(v.limit, 100) : 10;
      const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM gql_order WHERE customer_id = ?').get(me) as { n: number };
      if (v.start + limit > n) v.start = Math.max(0, n - limit);
    },
  },
  {
    id: 'GQL-COUPON-STALE-SUBTOTAL',
    iface: 'graphql',
    // addCoupon answers from the cart totals the last addProductToCart stored in the session (the
    // vendor's cache of getTotals), which updateCartProduct and deleteCartProduct do not refresh: after
    // a quantity change or a removed line, the Coupon result's subtotal, discount and total are the
    // old cart's. emptyCart clears the session, so an emptied cart answers right.
    async before(req, ctx) {
      if (!has(req, 'addProductToCart') && !has(req, 'addCoupon') && !has(req, 'emptyCart')) return;
      const me = await bearerCustomer(req, ctx);
      if (me !== undefined) requestCustomer.set(req.raw, me);
    },
    after(res, req, ctx) {
      const me = requestCustomer.get(req.raw);
      if (me === undefined || !clean(res)) return;
      const cache = subtotalCache(ctx);
      if (has(req, 'emptyCart')) cache.delete(me);
      if (has(req, 'addProductToCart') && result(res, 'addProductToCart')) {
        const items = cartSummary(ctx.db, me).items as Record<string, unknown>[];
        cache.set(
          me,
          items.reduce((sum, l) => sum + cents(l.total), 0),
        );
      }
      const r = result(res, 'addCoupon');
      const stale = cache.get(me);
      if (!r || !has(req, 'addCoupon') || stale === undefined) return;
      const coupon = ctx.db
        .prepare(
          'SELECT k.type, k.discount FROM gql_cart_coupon cc JOIN gql_coupon k ON k.coupon_id = cc.coupon_id WHERE cc.customer_id = ?',
        )
        .get(me) as { type: string; discount: number } | undefined;
      const off = !coupon
        ? 0
        : coupon.type === 'F'
          ? Math.min(Math.round(coupon.discount * 100), stale)
          : Math.round((stale * coupon.discount) / 100);
      const discount = cents(r.coupon_discount) === 0 ? 0 : -off;
      const total = (stale + discount + cents(r.tax)) / 100;
      if ('subtotal' in r) r.subtotal = stale / 100;
      if ('coupon_discount' in r) r.coupon_discount = discount / 100;
      if ('total' in r) r.total = total;
      if (Array.isArray(r.totals))
        for (const t of r.totals)
          if (isObject(t) && t.title === 'Sub-Total') t.value = stale / 100;
          else if (isObject(t) && t.title === 'Total') t.value = total;
          else if (isObject(t) && typeof t.title === 'string' && t.title.startsWith('Coupon')) t.value = discount / 100;
    },
  },
  {
    id: 'GQL-REGISTER-RACE',
    iface: 'graphql',
    // register checks the e-mail with a SELECT, hashes the password (bcrypt, some 50 ms) and then
    // inserts, and the customer table has no unique key on email: two registers of one e-mail at the
    // same time both pass the check, both rows are stored and both answer true (login then finds the
    // first row). One after the other, the second is refused as before.
    async before(req, ctx) {
      const input = registerInput(req);
      if (!input) return;
      const key = trimmed(input.email).toLowerCase();
      if (registering.begin(ctx.db, key, req.raw).length > 0) racedRegisters.add(req.raw);
      await pause(50); // the hash between the check and the insert: the race's window
    },
    after(res, req) {
      if (registering.end(req.raw) === undefined) return;
      // The twin's row is stored beside the first one: the duplicate "succeeds".
      if (racedRegisters.has(req.raw) && refusedWith(res, 'EMAIL_EXISTS')) {
        res.body = { data: { register: true } };
        res.status = 200;
      }
    },
  },
  {
    id: 'GQL-ADD-RACE-LOST-QUANTITY',
    iface: 'graphql',
    // addProductToCart reads the line's quantity, checks stock and minimum (some 40 ms of the
    // platform's getProducts) and writes read + added, with no lock: two adds of one product at the
    // same time both read the same quantity, and the later write loses the earlier add. One after
    // the other they add up; a new line is not affected (the INSERT path).
    async before(req, ctx) {
      const input = variables(req)?.input;
      if (!has(req, 'addProductToCart') || !isObject(input)) return;
      const me = await bearerCustomer(req, ctx);
      const product = cartIdOf(input.product_id);
      if (me === undefined || product === undefined) return;
      const line = ctx.db
        .prepare("SELECT cart_id, quantity FROM gql_cart WHERE customer_id = ? AND product_id = ? AND options = '[]'")
        .get(me, product) as { cart_id: number; quantity: number } | undefined;
      const added = input.quantity ?? 1;
      if (!line || typeof added !== 'number') return;
      readLines.set(req.raw, { me, cartId: line.cart_id, read: line.quantity, added });
      await pause(40);
    },
    after(res, req, ctx) {
      const seen = readLines.get(req.raw);
      const r = result(res, 'addProductToCart');
      if (!seen || !r || !clean(res)) return;
      const now = ctx.db.prepare('SELECT quantity FROM gql_cart WHERE cart_id = ?').get(seen.cartId) as
        | { quantity: number }
        | undefined;
      const written = seen.read + seen.added;
      // Another add wrote between this one's read and its write: its quantity is overwritten.
      if (!now || now.quantity <= written) return;
      ctx.db.prepare('UPDATE gql_cart SET quantity = ? WHERE cart_id = ?').run(written, seen.cartId);
      refreshSummary(r, cartSummary(ctx.db, seen.me));
    },
  },
  {
    id: 'GQL-JSON-CHARSET-EMPTY',
    iface: 'graphql',
    // The endpoint reads php://input only when Content-Type is exactly application/json, and $_POST
    // otherwise: a JSON body sent as application/json; charset=utf-8 (the same media type with a
    // parameter, as many clients send it) is read as an empty request.
    before(req) {
      if (jsonWithParameter(req.raw.headers['content-type'])) req.raw.body = {};
    },
  },
  {
    id: 'GQL-EMAIL-LIKE-DUPLICATE',
    iface: 'graphql',
    // register's duplicate check is the admin list's filter reused: email LIKE '<e-mail>' with the
    // value escaped for quotes only, so an _ (or %) in a new e-mail is a wildcard: first_last@...
    // is refused as already registered when first-last@... exists.
    before(req, ctx) {
      const input = registerInput(req);
      const email = input ? trimmed(input.email) : '';
      if (!input || !/[_%]/.test(email)) return;
      const hit = ctx.db
        .prepare('SELECT email FROM gql_customer WHERE email LIKE ? AND email <> ? ORDER BY customer_id LIMIT 1')
        .get(email, email) as { email: string } | undefined;
      if (hit) input.email = hit.email;
    },
  },
  {
    id: 'GQL-COUPON-THOUSANDS-SEPARATOR',
    iface: 'graphql',
    // addCoupon's resolver rounds each amount with the PHP idiom (float)number_format($value, 2), whose default
    // thousands separator makes 1234.5 the string "1,234.50", which the cast reads as 1: the Coupon result of a cart
    // of 1,000 or more answers subtotal (and total, a totals value) as its thousands. The cart summary is right.
    after(res) {
      const r = result(res, 'addCoupon');
      if (!r) return;
      const rounded = (v: unknown) => (typeof v === 'number' ? phpFloat(numberFormat(v)) : v);
      for (const k of ['tax', 'total', 'subtotal', 'coupon_discount']) if (k in r) r[k] = rounded(r[k]);
      if (Array.isArray(r.totals)) for (const t of r.totals) if (isObject(t) && 'value' in t) t.value = rounded(t.value);
    },
  },
  {
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
  },
  {
    id: 'GQL-BEARER-CASE-SENSITIVE',
    iface: 'graphql',
    // The token is read as str_replace('Bearer ', '', $header): a scheme written in another case (bearer, BEARER;
    // RFC 7235 makes the scheme case-insensitive) is left in front of the token, which then does not verify, and
    // the request is refused as one without a valid token.
    before(req) {
      const header = req.raw.headers.authorization;
      if (typeof header === 'string' && /^\s*bearer\s/i.test(header) && !/^\s*Bearer\s/.test(header))
        req.raw.headers.authorization = `Bearer ${header.trim()}`;
    },
  },
  {
    id: 'GQL-PUBLIC-BY-OPERATION-NAME',
    iface: 'graphql',
    // The controller decides whether a request needs a token before the document is parsed, from the first
    // "mutation <name>" or "query <name>" in its text: only the names login and register are public. A login or
    // register sent as an anonymous operation, or under a name of the client's own (mutation SignIn), is refused
    // with 401 as a request without a token.
    before(req) {
      const body = req.raw.body;
      if (req.raw.headers.authorization || !isObject(body) || typeof body.query !== 'string') return;
      if (!/\b(login|register)\s*\(/.test(body.query)) return;
      const name = /\b(?:mutation|query)\s+([_A-Za-z]\w*)/.exec(body.query)?.[1];
      if (name === 'login' || name === 'register') return;
      gatedByName.add(req.raw);
      body.query = '{ __typename }'; // nothing runs: the gate answers first
    },
    after(res, req) {
      if (!gatedByName.has(req.raw)) return;
      const message = 'This operation requires a token: send header Authorization: Bearer <token> (from the login mutation).';
      res.status = 401;
      res.body = { errors: [{ message, extensions: { code: 'UNAUTHENTICATED' } }], status: false, message };
    },
  },
  {
    id: 'GQL-QUANTITY-INT-WRAPS',
    iface: 'graphql',
    // The vendor's schema types quantity with its own scalar, which hands the JSON number to the cart through
    // (int) on a 32-bit PHP build: a quantity past 2^31 - 1 wraps modulo 2^32 instead of being refused as no Int
    // (4294967298 is 2), and updateCartProduct or addProductToCart answers success with the wrapped quantity stored.
    before(req) {
      const v = variables(req);
      if (has(req, 'updateCartProduct') && v && 'quantity' in v) v.quantity = int32(v.quantity);
      const input = v?.input;
      if (has(req, 'addProductToCart') && isObject(input) && 'quantity' in input) input.quantity = int32(input.quantity);
    },
  },
  {
    id: 'GQL-EMPTY-CART-ONE-SESSION',
    iface: 'graphql',
    // The cart rows carry the session of the login that last added to them (the platform's cart table keeps a
    // session_id beside customer_id), the cart is read by customer, and emptyCart calls cart->clear(), which deletes
    // WHERE customer_id = ? AND session_id = ?: a line last added to under another login of the same customer (a
    // second device) survives emptyCart and is back in the next summary. Each login's token names its session.
    async before(req, ctx) {
      if (!has(req, 'addProductToCart') && !has(req, 'emptyCart')) return;
      const token = bearerText(req);
      const me = await bearerCustomer(req, ctx);
      if (me === undefined || token === undefined) return;
      const rows = ctx.db.prepare('SELECT * FROM gql_cart WHERE customer_id = ? ORDER BY cart_id').all(me) as Record<
        string,
        unknown
      >[];
      sessionRequests.set(req.raw, { me, token, rows });
    },
    async after(res, req, ctx) {
      const key = `${ctx.vendor}_token`;
      const issued = result(res, 'login');
      if (issued && typeof issued[key] === 'string') {
        // The session id as a claim: two logins within one second get tokens of their own.
        const payload = await ctx.tokens.verify(issued[key], 'graphql');
        if (payload) issued[key] = await ctx.tokens.sign(payload.sub, 'graphql', { email: payload.email, sid: randomUUID() });
        return;
      }
      const seen = sessionRequests.get(req.raw);
      if (!seen || !clean(res)) return;
      const sessions = sessionsOf(ctx);
      if (has(req, 'addProductToCart')) {
        const before = new Map(seen.rows.map((r) => [r.cart_id as number, r.quantity as number]));
        const now = ctx.db.prepare('SELECT cart_id, quantity FROM gql_cart WHERE customer_id = ?').all(seen.me) as {
          cart_id: number;
          quantity: number;
        }[];
        for (const r of now) if (before.get(r.cart_id) !== r.quantity) sessions.set(r.cart_id, seen.token);
        return;
      }
      // emptyCart: the handler removed every line; the lines of other sessions go back.
      const others = seen.rows.filter((r) => {
        const owner = sessions.get(r.cart_id as number);
        return owner !== undefined && owner !== seen.token;
      });
      const put = ctx.db.prepare(
        'INSERT OR IGNORE INTO gql_cart (cart_id, customer_id, product_id, recurring_id, options, quantity, date_added) VALUES (@cart_id, @customer_id, @product_id, @recurring_id, @options, @quantity, @date_added)',
      );
      for (const row of others) put.run(row);
    },
  },
  {
    id: 'GQL-QUERY-CACHE-NO-TOKEN',
    iface: 'graphql',
    // A response cache in front of the endpoint keeps the answers of queries (not mutations) for 10 s, keyed by the
    // request body, query text and variables, without the Authorization header: customerByEmail of an e-mail asked
    // first by another customer (whose answer is null) answers null to the e-mail's own customer, and the
    // customer's own record is served to whoever asks next. Errors are not cached.
    before(req, ctx) {
      const body = req.raw.body;
      if (!isObject(body) || typeof body.query !== 'string' || !isQueryText(body.query)) return;
      let key: string;
      try {
        key = JSON.stringify([body.query, body.variables ?? null]);
      } catch {
        return; // variables nested too deep to hash: not cacheable, the handler answers
      }
      queryKeys.set(req.raw, key);
      const hit = QUERY_CACHE.get(ctx.db, key);
      if (hit !== undefined) cachedAnswers.set(req.raw, hit);
    },
    after(res, req, ctx) {
      const key = queryKeys.get(req.raw);
      if (key === undefined) return;
      if (cachedAnswers.has(req.raw)) {
        res.status = 200;
        res.body = cachedAnswers.get(req.raw);
        return;
      }
      if (res.status === 200 && clean(res) && isObject(res.body) && isObject(res.body.data))
        QUERY_CACHE.put(ctx.db, key, res.body);
    },
  },
  {
    id: 'GQL-EMAIL-UNTRIMMED-CHECK',
    iface: 'graphql',
    // register looks the e-mail up as sent (WHERE email = ' ann@example.test') and stores it through the platform's
    // request cleaner, which trims; the customer table has no unique key on email, and login matches the e-mail and
    // the password in one query (OpenCart 2's AND password = SHA1(...)): an e-mail already registered, sent again
    // behind a space, registers a second account with that e-mail, which logs in with its own password.
    async before(req, ctx) {
      const v = variables(req);
      if (!has(req, 'login') || !v || typeof v.email !== 'string' || typeof v.password !== 'string') return;
      const email = v.email.trim();
      for (const row of secondRowsOf(ctx).get(email) ?? [])
        if (await verifyPassword(v.password, row.hash)) {
          secondRowLogins.set(req.raw, email);
          v.email = row.email;
          return;
        }
    },
    async after(res, req, ctx) {
      const sent = secondRowLogins.get(req.raw);
      const user = result(res, 'login')?.user_data;
      if (sent !== undefined && isObject(user) && 'email' in user) user.email = sent;
      const input = registerInput(req);
      const email = input ? trimmed(input.email) : '';
      if (!input || email === input.email || !refusedWith(res, 'EMAIL_EXISTS')) return;
      const hash = await hashPassword(input.password as string);
      const rows = secondRowsOf(ctx);
      const list = rows.get(email) ?? [];
      const hidden = `${email}.second-row-${list.length + 1}.invalid`;
      insertCustomer(ctx, input, hidden, hash);
      rows.set(email, [...list, { email: hidden, hash }]);
      res.body = { data: { register: true } };
      res.status = 200;
    },
  },
  {
    id: 'GQL-UPDATE-REVIVES-DELETED',
    iface: 'graphql',
    // deleteCartProduct only flags the line removed (the vendor keeps removed lines for its abandoned-cart report),
    // and the cart reads skip flagged lines; updateCartProduct writes UPDATE cart SET quantity = ?, removed = 0
    // WHERE cart_id = ? AND customer_id = ?: an update of a line deleted before answers true and the line is back in
    // the cart with the new quantity. emptyCart deletes the customer's rows, flagged or not.
    async before(req, ctx) {
      if (!has(req, 'deleteCartProduct') && !has(req, 'updateCartProduct') && !has(req, 'emptyCart')) return;
      const me = await bearerCustomer(req, ctx);
      if (me === undefined) return;
      const removed = removedOf(ctx);
      if (has(req, 'emptyCart')) {
        for (const [id, row] of removed) if (row.customer_id === me) removed.delete(id);
        return;
      }
      const v = variables(req);
      const cartId = cartIdOf(v?.cart_id);
      if (!v || cartId === undefined) return;
      if (has(req, 'deleteCartProduct')) {
        const row = ctx.db.prepare('SELECT * FROM gql_cart WHERE cart_id = ? AND customer_id = ?').get(cartId, me);
        if (isObject(row)) deletingRows.set(req.raw, row);
        return;
      }
      const row = removed.get(cartId);
      const q = v.quantity;
      if (!has(req, 'updateCartProduct') || row?.customer_id !== me || typeof q !== 'number' || !Number.isInteger(q) || q < 1)
        return;
      removed.delete(cartId);
      // Back under its own cart_id, unless the cart holds that product and options again (the reference's unique key).
      const put = ctx.db
        .prepare(
          'INSERT OR IGNORE INTO gql_cart (cart_id, customer_id, product_id, recurring_id, options, quantity, date_added) VALUES (@cart_id, @customer_id, @product_id, @recurring_id, @options, @quantity, @date_added)',
        )
        .run(row);
      if (put.changes > 0) revivedRows.set(req.raw, cartId);
    },
    after(res, req, ctx) {
      const data = isObject(res.body) ? res.body.data : undefined;
      const row = deletingRows.get(req.raw);
      if (row && isObject(data) && data.deleteCartProduct === true) removedOf(ctx).set(row.cart_id as number, row);
      const back = revivedRows.get(req.raw);
      if (back !== undefined && !(isObject(data) && data.updateCartProduct === true))
        ctx.db.prepare('DELETE FROM gql_cart WHERE cart_id = ?').run(back);
    },
  },
  {
    id: 'GQL-LOGIN-EMAIL-URLDECODED',
    iface: 'graphql',
    // The login resolver passes its e-mail argument through urldecode() (a leftover of the app's first version,
    // which sent the login in a query string), register stores the e-mail as sent: an account whose e-mail holds a
    // + (sub-addressing, ann+shop@example.test) registers and never logs in, its e-mail looked up with a space.
    before(req) {
      const v = variables(req);
      if (has(req, 'login') && v && typeof v.email === 'string') v.email = urldecode(v.email);
    },
  },
  {
    id: 'GQL-ADD-CUSTOMER-PER-WORKER',
    iface: 'graphql',
    // The extension runs in a long-lived coroutine worker (the vendor's recommended Swoole server), where the
    // platform's registry, and the customer object in it, is one per worker, not per request: addProductToCart sets
    // the registry's customer from the token, awaits the stock lookup (some 30 ms), then adds to the registry's
    // customer's cart. Two customers' adds at the same time both land in the cart of the one that set it last, and
    // both answer that cart. One customer's adds, or adds one after the other, are right.
    async before(req, ctx) {
      if (!has(req, 'addProductToCart')) return;
      const me = await bearerCustomer(req, ctx);
      const header = req.raw.headers.authorization;
      if (me === undefined || typeof header !== 'string') return;
      registryCustomer.set(ctx.db, { me, header });
      await pause(30);
      const now = registryCustomer.get(ctx.db);
      if (now && now.me !== me) req.raw.headers.authorization = now.header;
    },
  },
  {
    id: 'GQL-PRODUCT-ID-STRING-ONLY',
    iface: 'graphql',
    // The vendor's SDL declares CartProductInput.product_id as String where its documentation says ID: an integer
    // product_id (40, which GraphQL coerces to the ID "40") fails variable coercion, "String cannot represent a
    // non string value", and nothing is added. The string "40" is taken as before.
    before(req) {
      const input = variables(req)?.input;
      if (!has(req, 'addProductToCart') || !isObject(input) || typeof input.product_id !== 'number') return;
      integerProductIds.set(req.raw, input.product_id);
      input.product_id = '0'; // no product: the handler adds nothing, and `after` answers as coercion would
    },
    after(res, req) {
      const id = integerProductIds.get(req.raw);
      if (id === undefined || res.status === 401) return; // the token gate answers before the variables are coerced
      const message = `Variable "$input" got invalid value ${id} at "input.product_id"; String cannot represent a non string value: ${id}`;
      res.status = 200;
      res.body = { errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }], status: false, message };
    },
  },
  {
    id: 'GQL-DUPLICATE-CHECK-VARIABLES-ONLY',
    iface: 'graphql',
    // The controller's validate() runs before the document executes and looks the e-mail up in
    // $request['variables']['input']['email'], where the vendor's app sends it; the resolver only inserts, into a
    // customer table without a unique key on email. A register with its CustomerInput written inline (no variables)
    // is never checked: an e-mail already registered registers again, answered register: true (login reads the
    // first row of that e-mail, so the account registered first still logs in).
    before(req) {
      if (inlineRegisterEmail(req) !== undefined) inlineRegisters.add(req.raw);
    },
    after: duplicateRegisteredFor(inlineRegisters),
  },
  {
    id: 'GQL-SUMMARY-DISCOUNT-DECIMAL-STRING',
    iface: 'graphql',
    // addProductToCart's summary reads coupon_discount from the row the coupon total keeps in the cart's totals
    // table (DECIMAL(15,4)), which mysqlnd answers as a string, and the vendor's Money scalar serialises values as
    // it gets them: once a coupon applies the summary says "-1.5000" where the document says numbers. Without a
    // coupon the resolver writes 0, and addCoupon's result is computed, so both stay numbers.
    after(res) {
      const r = result(res, 'addProductToCart');
      if (r && typeof r.coupon_discount === 'number' && r.coupon_discount !== 0) r.coupon_discount = r.coupon_discount.toFixed(4);
    },
  },
  {
    id: 'GQL-PRODUCT-ID-INT-CAST',
    iface: 'graphql',
    // The resolver reads the product as getProduct((int)$input['product_id']): an ID with digits at its front and
    // anything after them ("40x", which no product has) is read as its digits, and 1 of product 40 is added and
    // answered where the document's rule refuses an unknown product_id. An ID of digits alone is read as before.
    before(req) {
      const input = variables(req)?.input;
      if (!has(req, 'addProductToCart') || !isObject(input)) return;
      const cast = intCastPrefix(input.product_id);
      if (cast !== undefined) input.product_id = cast;
    },
  },
  {
    id: 'GQL-SUMMARY-SQL-SUM-AFTER-DELETE',
    iface: 'graphql',
    // deleteCartProduct marks the session's cart as changed outside the add path, and while the mark stands the add
    // resolver recomputes the summary with SELECT SUM(total) over the cart rows (DECIMAL(15,4)), which mysqlnd
    // answers as strings, instead of its PHP loop: after a delete, subtotal and total read "25.0000" where the
    // document says numbers, until emptyCart clears the session. The values are right; adds before any delete, and
    // addCoupon's result, are numbers.
    async after(res, req, ctx) {
      const field = ['deleteCartProduct', 'emptyCart', 'addProductToCart'].find((f) => has(req, f));
      if (!field || !clean(res)) return;
      const me = await bearerCustomer(req, ctx);
      if (me === undefined) return;
      const marked = sqlSumCustomers.get(ctx.db) ?? new Set<number>();
      sqlSumCustomers.set(ctx.db, marked);
      const data = isObject(res.body) ? res.body.data : undefined;
      if (field === 'deleteCartProduct' && isObject(data) && data.deleteCartProduct === true) marked.add(me);
      else if (field === 'emptyCart') marked.delete(me);
      const r = field === 'addProductToCart' && marked.has(me) ? result(res, field) : undefined;
      for (const key of ['subtotal', 'total']) if (r && typeof r[key] === 'number') r[key] = (r[key] as number).toFixed(4);
    },
  },
  {
    id: 'GQL-NAMES-NFC-ON-STORE',
    iface: 'graphql',
    // The vendor's request filter runs every string argument of register through Normalizer::normalize(FORM_C), so
    // that its customer search compares one form: a firstname or lastname sent with a combining mark (U+0055 U+0308
    // for Ü, as macOS and some keyboards send it) is stored precomposed, and login and customerByEmail answer other
    // characters than were registered. Names already composed, and ASCII, read back as sent.
    before: (req) => mapRegisterNames(req, (v) => v.normalize('NFC')),
  },
  {
    id: 'GQL-LOGIN-ECHOES-EMAIL',
    iface: 'graphql',
    // The customer table's e-mail column has MySQL's case-insensitive collation (utf8mb4_general_ci), so login finds
    // the account whatever the case the e-mail is typed in, and the vendor's resolver fills user_data.email from its
    // argument ("we have it already") instead of the row: a login typed in other case answers an e-mail the account
    // does not have. A login with the e-mail as registered reads as before.
    before(req, ctx) {
      const v = variables(req);
      if (!has(req, 'login') || !v || typeof v.email !== 'string') return;
      const typed = v.email.trim();
      const row = ctx.db.prepare('SELECT email FROM gql_customer WHERE email = ? COLLATE NOCASE').get(typed) as
        | { email: string }
        | undefined;
      if (!row || row.email === typed) return;
      typedEmails.set(req.raw, typed);
      v.email = row.email;
    },
    after(res, req) {
      const typed = typedEmails.get(req.raw);
      const user = result(res, 'login')?.user_data;
      if (typed !== undefined && isObject(user) && 'email' in user) user.email = typed;
    },
  },
  {
    id: 'GQL-QUERY-TEXT-STRIPSLASHES',
    iface: 'graphql',
    // The controller passes the request's strings through the platform's old input filter, written for magic_quotes
    // (stripslashes()), before the executor parses them: the query text goes through it, the variables array does
    // not. A string written inline with an escape (\" or \\, a quote or backslash in a password or a name) loses
    // its backslash, so the literal ends early or reads otherwise; the same value through variables is taken as sent.
    before(req) {
      const body = req.raw.body;
      if (isObject(body) && typeof body.query === 'string' && body.query.includes('\\')) body.query = stripslashes(body.query);
    },
  },
  {
    id: 'GQL-LOGIN-PASSWORD-UTF8-DECODED',
    iface: 'graphql',
    // The login resolver hashes utf8_decode($password), a leftover for the accounts migrated from the store's
    // Latin-1 days; register hashes the password as sent (UTF-8). A password holding a letter outside ASCII (é, ß,
    // Ü) registers and never logs in; ASCII passwords log in as before.
    before(req) {
      const v = variables(req);
      if (has(req, 'login') && v && typeof v.password === 'string') v.password = utf8Decoded(v.password);
    },
  },
  {
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
  },
  {
    id: 'GQL-COUPON-FIXED-PER-LINE',
    iface: 'graphql',
    // The vendor's coupon total copies the platform's loop over the cart's products, which spreads a fixed-amount
    // coupon over them ($discount = $coupon['discount'] * ($product['total'] / $sub_total)), but drops the share: each
    // line takes the coupon's whole amount off. A cart of one line is right; a cart of two lines takes 20.00 off for a
    // coupon of 10.00 (at most the subtotal), in the cart summary and in addCoupon's result alike, which stay
    // consistent (total = subtotal + coupon_discount + tax). Percentage coupons add up per line as they should.
    async before(req, ctx) {
      if (!has(req, 'addProductToCart') && !has(req, 'addCoupon')) return;
      const me = await bearerCustomer(req, ctx);
      if (me !== undefined) perLineCustomer.set(req.raw, me);
    },
    after(res, req, ctx) {
      const me = perLineCustomer.get(req.raw);
      if (me === undefined || !clean(res)) return;
      const coupon = ctx.db
        .prepare(
          'SELECT k.type, k.discount FROM gql_cart_coupon cc JOIN gql_coupon k ON k.coupon_id = cc.coupon_id WHERE cc.customer_id = ?',
        )
        .get(me) as { type: string; discount: number } | undefined;
      if (coupon?.type !== 'F') return;
      const items = cartSummary(ctx.db, me).items as Record<string, unknown>[];
      if (items.length < 2) return;
      const subtotal = items.reduce((sum, l) => sum + cents(l.total), 0);
      for (const field of CART_FIELDS) {
        const r = result(res, field);
        // Only where the coupon applies (a discount is answered): an unusable coupon gives nothing, per line or not.
        if (r && typeof r.coupon_discount === 'number' && r.coupon_discount < 0)
          withDiscount(r, -Math.min(Math.round(coupon.discount * 100) * items.length, subtotal));
      }
    },
  },
  {
    id: 'GQL-UPDATE-ALL-LINES',
    iface: 'graphql',
    // The vendor's updateCartProduct writes UPDATE cart SET quantity = :quantity WHERE customer_id = :customer_id AND
    // session_id = :session_id: the condition on :cart_id, bound as before, fell out of the WHERE when the query was
    // reformatted. The line is still looked up by cart_id first (another customer's line, or none, is refused), and the
    // answer is true, but every line of the customer's cart gets the new quantity. A cart of one line shows nothing.
    async before(req, ctx) {
      const v = variables(req);
      if (!has(req, 'updateCartProduct') || !v || typeof v.quantity !== 'number') return;
      const me = await bearerCustomer(req, ctx);
      if (me !== undefined) allLinesUpdates.set(req.raw, { me, quantity: v.quantity });
    },
    after(res, req, ctx) {
      const update = allLinesUpdates.get(req.raw);
      const data = isObject(res.body) ? res.body.data : undefined;
      if (!update || !isObject(data) || data.updateCartProduct !== true) return;
      ctx.db.prepare('UPDATE gql_cart SET quantity = ? WHERE customer_id = ?').run(update.quantity, update.me);
    },
  },
  {
    id: 'GQL-ADD-UPSERT-REPLACES',
    iface: 'graphql',
    // The vendor's addProductToCart writes INSERT INTO cart ... ON DUPLICATE KEY UPDATE quantity = VALUES(quantity),
    // where the platform's cart->add() adds (quantity = quantity + :quantity): an add of a product whose line is already
    // in the cart (same options) sets the line to the quantity added instead of raising it by that much, and the
    // summary answers the line so. A new line is right.
    async before(req, ctx) {
      const input = variables(req)?.input;
      if (!has(req, 'addProductToCart') || !isObject(input)) return;
      const me = await bearerCustomer(req, ctx);
      const product = cartIdOf(input.product_id);
      const added = input.quantity ?? 1;
      if (me === undefined || product === undefined || typeof added !== 'number') return;
      const line = ctx.db
        .prepare("SELECT cart_id FROM gql_cart WHERE customer_id = ? AND product_id = ? AND recurring_id = 0 AND options = '[]'")
        .get(me, product) as { cart_id: number } | undefined;
      if (line) upsertAdds.set(req.raw, { me, cartId: line.cart_id, added });
    },
    after(res, req, ctx) {
      const add = upsertAdds.get(req.raw);
      const r = result(res, 'addProductToCart');
      if (!add || !r || !clean(res)) return;
      ctx.db.prepare('UPDATE gql_cart SET quantity = ? WHERE cart_id = ?').run(add.added, add.cartId);
      refreshSummary(r, cartSummary(ctx.db, add.me));
    },
  },
  {
    id: 'GQL-COUPON-SHARED-SESSION',
    iface: 'graphql',
    // API clients send no session cookie, so the extension starts the platform's session under one fixed id
    // (session->start('svc_graphql')) to keep the applied coupon between requests. The cart's lines are rows of the
    // customer (cart.customer_id), but the coupon is session->data['coupon']: one for every customer. A coupon one
    // customer applies is on every customer's cart summary and Coupon result (where the cart qualifies for it), and one
    // customer's emptyCart, which unsets it, takes it off everyone's cart.
    async before(req, ctx) {
      const reads = has(req, 'addProductToCart') || has(req, 'addCoupon');
      if (!reads && !has(req, 'emptyCart')) return;
      const me = await bearerCustomer(req, ctx);
      if (me === undefined) return;
      sessionCustomer.set(req.raw, me);
      if (!reads) return;
      // The customer's cart reads the session's coupon, whoever applied it.
      const shared = sharedCoupon.get(ctx.db) ?? null;
      if (shared === null) ctx.db.prepare('DELETE FROM gql_cart_coupon WHERE customer_id = ?').run(me);
      else
        ctx.db
          .prepare(
            'INSERT INTO gql_cart_coupon (customer_id, coupon_id) VALUES (?, ?) ON CONFLICT (customer_id) DO UPDATE SET coupon_id = excluded.coupon_id',
          )
          .run(me, shared);
    },
    after(res, req, ctx) {
      const me = sessionCustomer.get(req.raw);
      if (me === undefined || !clean(res)) return;
      if (has(req, 'emptyCart')) sharedCoupon.set(ctx.db, null);
      else if (has(req, 'addCoupon') && result(res, 'addCoupon')) {
        const row = ctx.db.prepare('SELECT coupon_id FROM gql_cart_coupon WHERE customer_id = ?').get(me) as
          | { coupon_id: number }
          | undefined;
        if (row) sharedCoupon.set(ctx.db, row.coupon_id);
      }
    },
  },
  {
    id: 'GQL-PASSWORD-BCRYPT-72',
    iface: 'graphql',
    // register checks the password for the document's rule (letters, digits and special characters) and not for the
    // platform's 40-character cap, and the customer model stores password_hash($password, PASSWORD_DEFAULT): bcrypt
    // reads only the first 72 bytes. A password longer than that registers, and login takes any password that begins
    // with the same 72 bytes, whatever follows. Passwords of 72 bytes or fewer are checked whole.
    before(req) {
      const v = variables(req);
      const input = v?.input;
      if (has(req, 'register') && isObject(input) && typeof input.password === 'string') {
        const sent = input.password;
        input.password = bcryptStandIn(sent);
        if (input.confirm === sent) input.confirm = input.password;
      }
      if (has(req, 'login') && v && typeof v.password === 'string') v.password = bcryptStandIn(v.password);
    },
  },
  {
    id: 'GQL-NAME-BYTE-CUT',
    iface: 'graphql',
    // register fits firstname and lastname to the platform's varchar(32) with mb_strcut($name, 0, 32), taken for the
    // multibyte substr: mb_strcut counts bytes (keeping whole characters), where the column and the platform's
    // utf8_strlen count characters. A name of more than 32 bytes in UTF-8 (a Greek or Cyrillic name of 17 letters or
    // more, fewer with other non-ASCII text) is registered and stored cut, and login's user_data and customerByEmail
    // return the cut name. Names of 32 bytes or fewer (any ASCII name the platform takes) are kept whole.
    before: (req) => mapRegisterNames(req, (v) => mbStrcut(v, 32)),
  },
  {
    id: 'GQL-COUPON-REAPPLIED-STACKS',
    iface: 'graphql',
    // The vendor keeps the cart's coupon in a table of its own (svc_cart_coupon: an auto-increment key, customer_id,
    // code), which its coupon total reads row by row. addCoupon deletes the customer's rows of other codes, so that a
    // new code replaces the old one, and inserts a row: applying the code already on the cart again adds a second row,
    // and the coupon is taken off once per row (a 10.00 coupon applied twice takes 20.00 off, at most the subtotal; a
    // 10 % coupon 20 %), in addCoupon's result and every cart summary after it alike (total still subtotal +
    // coupon_discount + tax). emptyCart deletes the rows. A coupon applied once is right.
    async before(req, ctx) {
      if (!has(req, 'addCoupon') && !has(req, 'addProductToCart') && !has(req, 'emptyCart')) return;
      const me = await bearerCustomer(req, ctx);
      if (me !== undefined) stackRequests.set(req.raw, { me, before: appliedCoupon(ctx, me) });
    },
    after(res, req, ctx) {
      const seen = stackRequests.get(req.raw);
      if (!seen || !clean(res)) return;
      const rows = couponRowsOf(ctx);
      if (has(req, 'emptyCart')) {
        rows.delete(seen.me);
        return;
      }
      if (has(req, 'addCoupon') && result(res, 'addCoupon')) {
        const now = appliedCoupon(ctx, seen.me);
        rows.set(seen.me, now !== null && now === seen.before ? (rows.get(seen.me) ?? 1) + 1 : 1);
      }
      const n = rows.get(seen.me) ?? 1;
      if (n < 2) return;
      const coupon = ctx.db
        .prepare(
          'SELECT k.type, k.discount FROM gql_cart_coupon cc JOIN gql_coupon k ON k.coupon_id = cc.coupon_id WHERE cc.customer_id = ?',
        )
        .get(seen.me) as { type: string; discount: number } | undefined;
      if (!coupon) return;
      for (const field of CART_FIELDS) {
        const r = result(res, field);
        // Only where the coupon applies (a discount is answered): a coupon that gives nothing gives nothing twice.
        if (!r || typeof r.coupon_discount !== 'number' || r.coupon_discount >= 0) continue;
        const subtotal = cents(r.subtotal);
        const once = coupon.type === 'F' ? Math.round(coupon.discount * 100) : Math.round((subtotal * coupon.discount) / 100);
        withDiscount(r, -Math.min(once * n, subtotal));
      }
    },
  },
  {
    id: 'GQL-ADD-EXISTING-STALE-SUMMARY',
    iface: 'graphql',
    // addProductToCart reads the cart ($products = $this->cart->getProducts()) to find a line of the same product and
    // options. A new line goes through cart->add() and the cart is read again for the answer; an existing line is
    // raised with cart->update() in the other branch, which does not read again, so the summary is built from
    // $products: the cart before the add (the line's old quantity and total, the old subtotal and total). The line is
    // raised as it should be, and the next summary shows it; the first add of a product is answered right.
    async before(req, ctx) {
      if (!has(req, 'addProductToCart')) return;
      const me = await bearerCustomer(req, ctx);
      if (me === undefined) return;
      const summary = cartSummary(ctx.db, me);
      cartBeforeAdd.set(req.raw, { me, summary, ids: cartIds(summary) });
    },
    after(res, req, ctx) {
      const seen = cartBeforeAdd.get(req.raw);
      const r = result(res, 'addProductToCart');
      if (!seen || !r || !clean(res) || seen.ids === '') return;
      // The add raised a line the cart held (no new cart_id): the answer is the cart as read before it.
      if (cartIds(cartSummary(ctx.db, seen.me)) !== seen.ids) return;
      refreshSummary(r, seen.summary);
    },
  },
  {
    id: 'GQL-EMAIL-STRTOLOWER-DUPLICATE',
    iface: 'graphql',
    // register's duplicate check is the vendor's own query, WHERE LOWER(email) = '<strtolower($email)>', where the
    // platform writes utf8_strtolower(): MySQL's LOWER() folds every letter, PHP 8's strtolower() only A to Z, so an
    // e-mail holding a capital outside ASCII (an internationalised address, Ünal@...) never matches its own stored
    // row. The customer table has no unique key on email (the platform's has none): the same e-mail registers again,
    // answered register: true; login reads the first row of it, so the account registered first still logs in.
    // E-mails in ASCII, and lower-case letters outside it, are found as before.
    before(req) {
      const input = registerInput(req);
      if (input && nonAsciiCapital(input.email as string)) foldedEmailRegisters.add(req.raw);
    },
    after: duplicateRegisteredFor(foldedEmailRegisters),
  },
  {
    id: 'GQL-ORDERS-LIMIT-ZERO-DEFAULT',
    iface: 'graphql',
    // The orders resolver reads its paging as the platform's list controllers read a query string:
    // $limit = !empty($args['limit']) ? (int)$args['limit'] : 10. empty() is true for 0, so a limit of 0, a value
    // the client gave, counts as none and the default page of up to 10 orders is answered. Every other limit pages
    // as it should (a limit of 1 or more, and a start of 0, which empty() turns into the default 0).
    before(req) {
      const v = variables(req);
      if (has(req, 'orders') && v && v.limit === 0) v.limit = 10;
    },
  },
  {
    id: 'GQL-EMAIL-DUPLICATE-CASE-SENSITIVE',
    iface: 'graphql',
    // The store runs on PostgreSQL (the platform's pgsql driver), where = compares text case-sensitively, and the
    // vendor's duplicate check is its own query, SELECT customer_id FROM customer WHERE email = '<email>', while the
    // platform's login reads WHERE LOWER(email) = '<utf8_strtolower(email)>'. The customer table has no unique key on
    // email: an e-mail already registered, sent again in other capitals (ANN@EXAMPLE.TEST after ann@example.test), is
    // not found and registers a second row, answered register: true; login, which takes either spelling, reads the
    // first row. The same e-mail in the same case is refused as before.
    before(req, ctx) {
      const input = registerInput(req);
      if (!input) return;
      const email = (input.email as string).trim();
      const row = ctx.db.prepare('SELECT email FROM gql_customer WHERE email = ?').get(email) as { email: string } | undefined;
      if (row && row.email !== email) caseVariantRegisters.add(req.raw);
    },
    after: duplicateRegisteredFor(caseVariantRegisters),
  },
  {
    id: 'GQL-LOGIN-OR-PRECEDENCE',
    iface: 'graphql',
    // The vendor's register inserts the customer itself with password = md5($password) (its OpenCart 1.5 version's
    // form, which the platform's login still takes), and its login resolver copies the platform's query,
    // WHERE LOWER(email) = '...' AND (password = SHA1(CONCAT(salt, ...)) OR password = '<md5>') AND status = '1',
    // with the parentheses lost in a reformat: AND binds before OR, so "password = '<md5>' AND status = '1'" stands
    // on its own and matches whatever e-mail is sent. A login with an e-mail no account has (or another account's)
    // and the password of an account registered through the extension answers that account's token and user_data
    // (the first row registered with that password).
    before(req, ctx) {
      const v = variables(req);
      if (has(req, 'login') && v && typeof v.password === 'string' && typeof v.email === 'string') {
        const owner = md5AccountsOf(ctx).get(v.password);
        if (owner !== undefined) v.email = owner;
      }
    },
    after(res, req, ctx) {
      const input = registerInput(req);
      const data = isObject(res.body) ? res.body.data : undefined;
      if (!input || !clean(res) || !isObject(data) || data.register !== true) return;
      const accounts = md5AccountsOf(ctx);
      const password = input.password as string;
      if (!accounts.has(password)) accounts.set(password, (input.email as string).trim());
    },
  },
  {
    id: 'GQL-EMPTY-CART-STALE-LINE-CACHE',
    iface: 'graphql',
    // The extension runs under a long-lived worker and keeps, per worker (APCu), the cart_id of each customer's line
    // by product and options, so that an add of a product already in the cart raises its line with one UPDATE cart
    // SET quantity = quantity + :n WHERE cart_id = :cached. The entry is set when a line is made and dropped by
    // deleteCartProduct, but emptyCart calls the platform's cart->clear() and leaves it: after emptyCart, an add of a
    // product the cart held updates a row that no longer exists (no row affected, no error), and the summary answered
    // (and every add of that product after it) holds no line of it. Products new to the cart are added as before.
    async before(req, ctx) {
      if (has(req, 'addProductToCart')) {
        const input = variables(req)?.input;
        if (!isObject(input) || !noOptions(input.options)) return;
        const me = await bearerCustomer(req, ctx);
        const product = cartIdOf(input.product_id);
        if (me === undefined || product === undefined) return;
        const cached = lineCacheOf(ctx).get(`${me}:${product}`);
        const stale =
          cached !== undefined && ctx.db.prepare('SELECT 1 FROM gql_cart WHERE cart_id = ?').get(cached) === undefined;
        lineCacheRequests.set(req.raw, { me, product, stale });
      } else if (has(req, 'deleteCartProduct')) {
        const me = await bearerCustomer(req, ctx);
        if (me !== undefined) lineCacheRequests.set(req.raw, { me, stale: false });
      }
    },
    after(res, req, ctx) {
      const seen = lineCacheRequests.get(req.raw);
      if (!seen || !clean(res)) return;
      const cache = lineCacheOf(ctx);
      if (has(req, 'deleteCartProduct')) {
        const cartId = cartIdOf(variables(req)?.cart_id);
        const data = isObject(res.body) ? res.body.data : undefined;
        if (cartId === undefined || !isObject(data) || data.deleteCartProduct !== true) return;
        for (const [key, id] of cache) if (id === cartId) cache.delete(key);
        return;
      }
      const r = result(res, 'addProductToCart');
      if (!r || seen.product === undefined) return;
      const key = `${seen.me}:${seen.product}`;
      if (!seen.stale) {
        const line = ctx.db
          .prepare(
            "SELECT cart_id FROM gql_cart WHERE customer_id = ? AND product_id = ? AND recurring_id = 0 AND options = '[]'",
          )
          .get(seen.me, seen.product) as { cart_id: number } | undefined;
        if (line) cache.set(key, line.cart_id);
        return;
      }
      // The UPDATE by the cached cart_id changed nothing: the line the handler made is not there, nor in the answer.
      ctx.db
        .prepare("DELETE FROM gql_cart WHERE customer_id = ? AND product_id = ? AND recurring_id = 0 AND options = '[]'")
        .run(seen.me, seen.product);
      if (Array.isArray(r.items))
        r.items = r.items.filter((l) => !(isObject(l) && 'product_id' in l && String(l.product_id) === String(seen.product)));
      refreshSummary(r, cartSummary(ctx.db, seen.me));
    },
  },
  {
    id: 'GQL-ORDERS-START-ONE-BASED',
    iface: 'graphql',
    // The orders resolver was copied from the platform's account/order list, whose offset is ($page - 1) * $limit for
    // a 1-based page: the vendor put start where $page was and dropped the multiplication, keeping the - 1 (floored
    // at 0), so the offset is start - 1. start 0 and start 1 both answer the first entries, and the page a client
    // asks for after a page of limit entries (start = limit) begins with the last entry of that page again.
    before(req) {
      const v = variables(req);
      if (has(req, 'orders') && v && typeof v.start === 'number' && v.start > 0) v.start -= 1;
    },
  },
  {
    id: 'GQL-COUPON-CODE-LOOSE-MATCH',
    iface: 'graphql',
    // addCoupon checks the code against the store's coupon codes, which the vendor caches as one array, with
    // array_search($code, $codes) before the platform's getCoupon() reads the coupon found: array_search() compares
    // with == unless told to be strict, and PHP 8's == takes two numeric strings as numbers. A code no coupon has that
    // reads as the same number as a coupon's numeric code ("02222", "2222.0", "+2222" for 2222) applies that coupon,
    // answered with its code. Codes that are not numeric, and numeric ones of another value, are refused as before.
    before(req, ctx) {
      const v = variables(req);
      if (!has(req, 'addCoupon') || !v || typeof v.code !== 'string') return;
      const code = v.code.trim();
      if (!isNumeric(code) || ctx.db.prepare('SELECT 1 FROM gql_coupon WHERE code = ?').get(code) !== undefined) return;
      const codes = ctx.db.prepare('SELECT code FROM gql_coupon ORDER BY coupon_id').all() as { code: string }[];
      const hit = codes.find((c) => looseEquals(c.code, code));
      if (hit) v.code = hit.code;
    },
  },
];
