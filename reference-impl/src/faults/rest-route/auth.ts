import { tokenOf } from '../../rest-route/core.js';
import { htmlspecialchars, likeWhole, urldecode } from '../emulation.js';
import { type Fault, isObject } from '../model.js';
import { defaultUserToken } from '../tokens.js';
import { data, ok } from './shared.js';

/** RR-LOGIN-TOKEN-READS-ONLY: the tokens login issued, per database (never filed where the writes look). */
const LOGIN_TOKENS = new WeakMap<object, Set<string>>();

/** RR-LOGIN-TOKEN-READS-ONLY: the endpoints that look the token up in the session table. */
const TOKEN_TABLE_ROUTES = [
  'account/address/add',
  'account/address/edit',
  'account/address/delete',
  'account/forgotten/updatepassword',
];

export const loginTokenRenamed: Fault = {
  id: 'RR-LOGIN-TOKEN-RENAMED',
  iface: 'rest-route',
  after(res, req) {
    if (req.endpoint === 'account/login' && req.method === 'POST' && ok(res) && 'token' in res.body) {
      res.body.access_token = res.body.token;
      delete res.body.token;
    }
  },
};

export const tokenUnchecked: Fault = {
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
};

export const loginOtherCustomer: Fault = {
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
};

export const loginEmailUrldecoded: Fault = {
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
};

export const loginTokenReadsOnly: Fault = {
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
};

export const loginEmailLike: Fault = {
  id: 'RR-LOGIN-EMAIL-LIKE',
  iface: 'rest-route',
  // Login looks the customer up with WHERE email LIKE '<sent>' (written to be case-insensitive on a
  // binary column), escaping quotes but not LIKE's own wildcards: an e-mail holding _ or % logs in to
  // the first account it matches, so with that account's password an address no account has logs in.
  before(req, ctx) {
    if (req.endpoint !== 'account/login' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const body = req.raw.body;
    for (const key of ['email', 'username']) {
      const sent = body[key];
      if (typeof sent !== 'string' || sent.length > 254 || !/[_%]/.test(sent)) continue;
      const pattern = likeWhole(sent.trim());
      const rows = ctx.db.prepare('SELECT email FROM rr_customer ORDER BY customer_id').all() as { email: string }[];
      const hit = rows.find((r) => pattern.test(r.email));
      if (hit) body[key] = hit.email;
    }
  },
};

export const loginCheckTokenEchoed: Fault = {
  id: 'RR-LOGIN-CHECK-TOKEN-ECHOED',
  iface: 'rest-route',
  // GET login (the app's "is my token still good" call) answers the token it was sent at the top
  // level, beside data and language, so the app can store it again: a token on a response other than
  // login's and register's POST.
  after(res, req) {
    if (req.endpoint !== 'account/login' || req.method !== 'GET' || !ok(res)) return;
    const token = tokenOf(req.raw);
    if (token) res.body.token = token;
  },
};

export const loginTokenCodeKept: Fault = {
  id: 'RR-LOGIN-TOKEN-CODE-KEPT',
  iface: 'rest-route',
  // Login answers the row getCustomerByEmail() read, with unset($customer_info['password'],
  // $customer_info['salt']) to keep the hash out: the customer table's token and code columns (the
  // platform's password-reset and login-link codes, empty strings here) go out with it.
  after(res, req) {
    const d = data(res);
    if (req.endpoint !== 'account/login' || req.method !== 'POST' || !ok(res) || !d) return;
    d.token = '';
    d.code = '';
  },
};

export const loginCartNull: Fault = {
  id: 'RR-LOGIN-CART-NULL',
  iface: 'rest-route',
  // The customer table's cart and wishlist columns are nullable TEXT, and the module's register (like the
  // core addCustomer()) never writes them: until the web store saves a cart, they are NULL, and login
  // answers the row as read, cart and wishlist null (the document's sample account had used the store).
  after(res, req) {
    const d = data(res);
    if (req.endpoint !== 'account/login' || req.method !== 'POST' || !ok(res) || !d) return;
    if (d.cart === '') d.cart = null;
    if (d.wishlist === '') d.wishlist = null;
  },
};

export const loginNamesEscaped: Fault = {
  id: 'RR-LOGIN-NAMES-ESCAPED',
  iface: 'rest-route',
  // The platform's request object runs htmlspecialchars() over every input, and register files the names as
  // it gives them (O'Brien as O&#039;Brien) while answering them from its decoded copy of the body. Login
  // answers the customer row as stored, without html_entity_decode(): a name holding ' " & < > comes back
  // as entities, so the Customer login returns does not carry the names the account registered.
  after(res, req) {
    const d = data(res);
    if (req.endpoint !== 'account/login' || req.method !== 'POST' || !ok(res) || !d) return;
    for (const key of ['firstname', 'lastname']) if (typeof d[key] === 'string') d[key] = htmlspecialchars(d[key]);
  },
};
