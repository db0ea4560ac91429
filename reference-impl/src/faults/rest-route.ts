import { type Fault, type FaultResponse, isObject, isoOf, mapKey } from './model.js';
import { defaultUserToken } from './tokens.js';

const ok = (res: FaultResponse): res is FaultResponse & { body: Record<string, unknown> } =>
  isObject(res.body) && res.body.status === true;
const htmlEscaped = (v: string): string =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
const data = (res: FaultResponse): Record<string, unknown> | undefined =>
  isObject(res.body) && isObject(res.body.data) ? res.body.data : undefined;

/** Document 1 (route-based REST): faults a vendor's OpenCart-style module could ship with. */
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
        if (typeof body[key] === 'string') body[key] = htmlEscaped(body[key]);
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
];
