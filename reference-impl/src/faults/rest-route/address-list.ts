import type { AppContext } from '../../context.js';
import { type AddressRow, formatted, SELECT_ADDRESS } from '../../rest-route/address.js';
import { AnswerCache, htmlspecialchars } from '../emulation.js';
import { type Fault, isObject } from '../model.js';
import { ADDRESS_TEXT_FIELDS, data, idValue, ok } from './shared.js';

/** RR-ADDRESS-TEXT-STALE: the full address text each address got when it was added, per database. */
const ADDRESS_TEXT = new WeakMap<object, Map<string, string>>();

/** The full address text as the list builds it (the handler's own formatting, of the stored row). */
function addressText(ctx: AppContext, addressId: number): string | undefined {
  const a = ctx.db.prepare(`${SELECT_ADDRESS} WHERE a.address_id = ?`).get(addressId) as AddressRow | undefined;
  return a ? formatted(a) : undefined;
}

/** RR-ADDRESS-LIST-CACHED-BY-URL: the address list's data by URL, for 10 s. */
const LIST_CACHE = new AnswerCache<unknown>(10_000);

export const addressIdNumber: Fault = {
  id: 'RR-ADDRESS-ID-NUMBER',
  iface: 'rest-route',
  after(res, req) {
    const d = data(res);
    if (req.endpoint === 'account/address' && Array.isArray(d?.addresses))
      for (const a of d.addresses) if (isObject(a) && typeof a.address_id === 'string') a.address_id = Number(a.address_id);
  },
};

export const zonelessNull: Fault = {
  id: 'RR-ZONELESS-NULL',
  iface: 'rest-route',
  after(res, req) {
    const states = data(res)?.states;
    if (req.endpoint === 'account/address/add' && isObject(states))
      for (const [k, v] of Object.entries(states)) if (Array.isArray(v) && v.length === 0) states[k] = null;
  },
};

export const addressTextStale: Fault = {
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
};

export const addressListCachedByUrl: Fault = {
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
};

export const addressListHtmlEscaped: Fault = {
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
};

export const addressTextDefaultRegion: Fault = {
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
};

export const addressTextBr: Fault = {
  id: 'RR-ADDRESS-TEXT-BR',
  iface: 'rest-route',
  // The list's full address is built the platform's storefront way, for an HTML page: the address format's lines
  // joined and then str_replace(["\r\n", "\r", "\n"], '<br />', ...). The app gets one line with <br /> tags,
  // "Jane Doe<br />1 High Street<br />London SW1A 1AA<br />...", where the Address's address is a multi-line string.
  after(res, req) {
    const d = data(res);
    if (req.endpoint !== 'account/address' || !Array.isArray(d?.addresses)) return;
    for (const a of d.addresses)
      if (isObject(a) && typeof a.address === 'string') a.address = a.address.replace(/\r\n|\r|\n/g, '<br />');
  },
};

export const addressListLanguageRows: Fault = {
  id: 'RR-ADDRESS-LIST-LANGUAGE-ROWS',
  iface: 'rest-route',
  // The list's query joins the country's and the zone's names from their description tables (the platform's 4.0
  // layout) with LEFT JOIN country_description cd ON (cd.country_id = a.country_id) and no AND cd.language_id =
  // condition: a store with two languages gets each address once per language, so the list carries every
  // address twice, one after the other (the second language's names copied from the first at install).
  after(res, req, ctx) {
    const d = data(res);
    if (req.endpoint !== 'account/address' || !Array.isArray(d?.addresses)) return;
    const languages = (ctx.db.prepare('SELECT COUNT(*) AS n FROM rr_language').get() as { n: number }).n;
    if (languages < 2) return;
    d.addresses = d.addresses.flatMap((a) => Array.from({ length: languages }, () => (isObject(a) ? { ...a } : a)));
  },
};

export const addressListOptionalCarried: Fault = {
  id: 'RR-ADDRESS-LIST-OPTIONAL-CARRIED',
  iface: 'rest-route',
  // The list's loop sets its optional fields only when the row has them, and never resets them:
  // `if ($result['company']) { $company = $result['company']; }` (address_2 the same), so an address
  // whose company or address_2 is empty is listed with those of the address before it.
  after(res, req) {
    const d = data(res);
    if (req.endpoint !== 'account/address' || req.method !== 'GET' || !Array.isArray(d?.addresses)) return;
    const carried: Record<string, unknown> = {};
    for (const a of d.addresses) {
      if (!isObject(a)) continue;
      for (const key of ['company', 'address_2']) {
        if (typeof a[key] === 'string' && a[key] !== '') carried[key] = a[key];
        else if (carried[key] !== undefined) a[key] = carried[key];
      }
    }
  },
};
