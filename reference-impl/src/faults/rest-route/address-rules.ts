import { isNumeric, stripLow, utf8mb3 } from '../emulation.js';
import { type Fault, type FaultResponse, isObject } from '../model.js';
import { ADDRESS_TEXT_FIELDS, addressWrite, data, FORCED, idValue, labelError, ok, refuse, tokenCustomer } from './shared.js';

/** A body value that reads as "not given": left out, null or an empty string. */
const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** RR-ADDRESS-ZONE-NUMERIC-ONLY: the zone_id an add or edit sent, which names no region of its country. */
const UNCHECKED_ZONE = new WeakMap<object, number>();

/** RR-ADDRESS-EDIT-REGION-CHECKED-LAST: whether a refusal names error_zone and no other rule. */
const onlyZoneRefused = (res: FaultResponse): boolean => {
  const errors = isObject(res.body) && res.body.status === false ? res.body.errors : undefined;
  return Array.isArray(errors) && errors.length > 0 && errors.every((e) => isObject(e) && e.code === 'error_zone');
};

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

export const addressEditStringRegion: Fault = {
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
};

export const addressOptionalNotice: Fault = {
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
};

export const addressZonelessStored: Fault = {
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
};

export const addressEditMaxExclusive: Fault = {
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
};

export const addressNonBmpMangled: Fault = {
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
};

export const addressEditEmptyKept: Fault = {
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
};

export const addressEditPostcodeUnbounded: Fault = {
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
};

export const addressEditRegionCheckedLast: Fault = {
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
};

export const addressZoneNumericOnly: Fault = {
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
};

export const addressAddControlStripped: Fault = {
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
};

export const addressFieldsByteCut: Fault = {
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
};

/** RR-ADDRESS-POSTCODE-SPACES-UNCOUNTED: the postcode an add or edit sent, which the handler was handed without its spaces. */
const SPACED_POSTCODE = new WeakMap<object, string>();

export const addressPostcodeSpacesUncounted: Fault = {
  id: 'RR-ADDRESS-POSTCODE-SPACES-UNCOUNTED',
  iface: 'rest-route',
  // The postcode rule measures utf8_strlen(str_replace(' ', '', $postcode)) (written so "SW1A 1AA"
  // counts as a 7-character code), while the column stores the postcode as sent: a postcode of 11 or
  // more characters whose spaces bring it to 10 is accepted by the add and the edit, and listed as sent.
  before(req) {
    if (!addressWrite(req, 'both')) return;
    const v = req.raw.body.postcode;
    if (typeof v !== 'string') return;
    // The handler counts characters of the trimmed value.
    const sent = v.trim();
    const counted = [...sent.replace(/ /g, '')].length;
    if ([...sent].length <= 10 || counted < 2 || counted > 10) return;
    SPACED_POSTCODE.set(req.raw, sent);
    req.raw.body.postcode = sent.replace(/ /g, '');
  },
  after(res, req, ctx) {
    const sent = SPACED_POSTCODE.get(req.raw);
    if (sent === undefined || !ok(res)) return;
    const addressId = idValue(data(res)?.address_id) ?? idValue(req.query.address_id);
    if (addressId !== undefined) ctx.db.prepare('UPDATE rr_address SET postcode = ? WHERE address_id = ?').run(sent, addressId);
  },
};

export const addressZoneAlwaysRequired: Fault = {
  id: 'RR-ADDRESS-ZONE-ALWAYS-REQUIRED',
  iface: 'rest-route',
  // The module's address validator is the platform's 3.0 form check: it refuses an empty zone_id
  // (error_zone) whatever the country, so an address in a country without zones, which has no region
  // to choose, cannot be added or edited without a zone_id.
  before(req, ctx) {
    if (!addressWrite(req, 'both')) return;
    const body = req.raw.body;
    if (!blank(body.zone_id)) return;
    const country = idValue(body.country_id);
    if (country === undefined || !ctx.db.prepare('SELECT 1 FROM rr_country WHERE country_id = ?').get(country)) return;
    if (ctx.db.prepare('SELECT 1 FROM rr_zone WHERE country_id = ? AND status = 1 LIMIT 1').get(country)) return;
    // A zone_id that names no zone: the handler's own error_zone, and nothing written.
    body.zone_id = 'none';
  },
};

/** RR-ADDRESS-EDIT-COUNTRY-KEPT: the country an edited address had before the edit. */
const COUNTRY_BEFORE = new WeakMap<object, { addressId: number; countryId: number }>();

export const addressEditCountryKept: Fault = {
  id: 'RR-ADDRESS-EDIT-COUNTRY-KEPT',
  iface: 'rest-route',
  // The edit's UPDATE names every field of the form but country_id (its SET list was copied from the
  // platform's 1.5 editAddress, which took the country from a separate call): the edit validates the zone
  // against the new country and stores the zone, while the address stays in its old country. The list
  // then names the new region in the old country.
  before(req, ctx) {
    if (!addressWrite(req, 'edit')) return;
    const addressId = idValue(req.query.address_id);
    if (addressId === undefined) return;
    const row = ctx.db.prepare('SELECT country_id FROM rr_address WHERE address_id = ?').get(addressId) as
      | { country_id: number }
      | undefined;
    if (row) COUNTRY_BEFORE.set(req.raw, { addressId, countryId: row.country_id });
  },
  after(res, req, ctx) {
    const before = COUNTRY_BEFORE.get(req.raw);
    if (!before || !ok(res)) return;
    ctx.db.prepare('UPDATE rr_address SET country_id = ? WHERE address_id = ?').run(before.countryId, before.addressId);
  },
};

/** RR-ADDRESS-LIMITS-COUNT-ESCAPED: the documented address limits (Part 8), as the module's validate() applies them. */
const ESCAPED_LIMITS: Record<string, [number, number]> = {
  firstname: [1, 32],
  lastname: [1, 32],
  address_1: [3, 128],
  city: [2, 128],
  postcode: [2, 10],
};

/** The platform's Request::clean(): htmlspecialchars($v, ENT_COMPAT, 'UTF-8'), which leaves the single quote alone. */
const requestClean = (v: string): string =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const addressLimitsCountEscaped: Fault = {
  id: 'RR-ADDRESS-LIMITS-COUNT-ESCAPED',
  iface: 'rest-route',
  // The module copies its JSON body into $this->request->post so that the platform's validate() can run on
  // it, and the platform's Request::clean() escapes every value there (htmlspecialchars, ENT_COMPAT); the
  // model's INSERT and UPDATE read the raw JSON. So the add and the edit count utf8_strlen(trim()) of the
  // escaped value: an & counts as five characters (&amp;), a " as six, and a 128-character address_1 such as
  // "... Smith & Sons" (or a 32-character name, a 10-character postcode) holding one is refused.
  before(req) {
    if (!addressWrite(req, 'both')) return;
    const body = req.raw.body;
    for (const [key, [, max]] of Object.entries(ESCAPED_LIMITS))
      for (const name of key === 'firstname'
        ? ['firstname', 'first_name']
        : key === 'lastname'
          ? ['lastname', 'last_name']
          : [key]) {
        const v = body[name];
        // The handler counts characters of the trimmed value: a value past the limit once escaped gets its own refusal.
        if (typeof v === 'string' && [...v.trim()].length <= max && [...requestClean(v.trim())].length > max)
          body[name] = 'x'.repeat(max + 1);
      }
  },
};

export const addressCountryStoreDefault: Fault = {
  id: 'RR-ADDRESS-COUNTRY-STORE-DEFAULT',
  iface: 'rest-route',
  // The add and edit read the country as the web form preselects it:
  // `$country_id = $this->request->post['country_id'] ?? $this->config->get('config_country_id');`, so an
  // address sent without country_id (required) is filed in the store's country instead of being refused
  // with error_country (when its zone_id is a region of that country; else error_zone answers).
  before(req, ctx) {
    if (!addressWrite(req, 'both') || !blank(req.raw.body.country_id)) return;
    const row = ctx.db.prepare("SELECT value FROM rr_setting WHERE key = 'store.country_id'").get() as
      | { value: string }
      | undefined;
    if (row && /^\d+$/.test(String(row.value))) req.raw.body.country_id = Number(row.value);
  },
};
