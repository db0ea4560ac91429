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

const has = (req: FaultRequest, field: string) => new RegExp(`\\b${field}\\b`).test(req.endpoint);
const CART_FIELDS = ['addProductToCart', 'addCoupon'];

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
      if (!has(req, 'updateCartProduct') || !v || v.cart_id === undefined) return;
      const line = ctx.db.prepare('SELECT quantity FROM gql_cart WHERE cart_id = ?').get(Number(v.cart_id)) as
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
];
