import {
  between,
  type Call,
  type Envelope,
  fail,
  flag,
  id,
  label,
  length,
  ok,
  type RuleError,
  ruleError,
  setting,
  sql,
  text,
} from './core.js';

export interface AddressRow {
  address_id: number;
  customer_id: number;
  firstname: string;
  lastname: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  postcode: string;
  country_id: number;
  zone_id: number;
  custom_field: string;
  zone: string | null;
  zone_code: string | null;
  country: string | null;
}

export const SELECT_ADDRESS = `SELECT a.*, z.name AS zone, z.code AS zone_code, c.name AS country
  FROM rr_address a LEFT JOIN rr_zone z ON z.zone_id = a.zone_id LEFT JOIN rr_country c ON c.country_id = a.country_id`;

/** The full address as one multi-line string (name, company, street lines, city and postcode, region, country; empty lines dropped). */
export function formatted(a: AddressRow): string {
  return [
    `${a.firstname} ${a.lastname}`.trim(),
    a.company,
    a.address_1,
    a.address_2,
    `${a.city} ${a.postcode}`.trim(),
    a.zone ?? '',
    a.country ?? '',
  ]
    .filter((line) => line.trim() !== '')
    .join('\n');
}

/** Address record of Part 2; address_id is a string as in the list sample. */
function addressRecord(a: AddressRow, defaultId: number): Record<string, unknown> {
  return {
    address_id: String(a.address_id),
    firstname: a.firstname,
    lastname: a.lastname,
    company: a.company,
    address_1: a.address_1,
    address_2: a.address_2,
    city: a.city,
    postcode: a.postcode,
    default: a.address_id === defaultId ? 1 : 0,
    zone: a.zone ?? '',
    zone_code: a.zone_code ?? '',
    country: a.country ?? '',
    address: formatted(a),
  };
}

/** Every country's zones keyed by country_id; an empty array for a country without zones. */
function states(call: Call): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const countries = sql(call.db, 'SELECT country_id FROM rr_country WHERE status = 1 ORDER BY name').all() as Array<{
    country_id: number;
  }>;
  for (const c of countries) out[String(c.country_id)] = [];
  const zones = sql(
    call.db,
    'SELECT zone_id, country_id, name, code, status FROM rr_zone WHERE status = 1 ORDER BY name',
  ).all() as Array<Record<string, string | number>>;
  for (const z of zones) {
    out[String(z.country_id)]?.push({
      zone_id: String(z.zone_id),
      country_id: String(z.country_id),
      name: String(z.name),
      code: String(z.code),
      status: String(z.status),
    });
  }
  return out;
}

function ownAddress(call: Call, addressId: number | undefined): AddressRow | undefined {
  if (addressId === undefined || !call.customer) return undefined;
  return sql(call.db, `${SELECT_ADDRESS} WHERE a.address_id = ? AND a.customer_id = ?`).get(
    addressId,
    call.customer.customer_id,
  ) as AddressRow | undefined;
}

/** The token holder's current default address id (read fresh: an earlier call may have changed it). */
function defaultAddressId(call: Call): number {
  const row = sql(call.db, 'SELECT address_id FROM rr_customer WHERE customer_id = ?').get(call.customer?.customer_id ?? -1) as
    | { address_id: number }
    | undefined;
  return row?.address_id ?? 0;
}

interface AddressInput {
  firstname: string;
  lastname: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  postcode: string;
  country_id: number;
  zone_id: number;
  makeDefault: boolean;
}

/** Validates the body of endpoints 7 and 9 (Part 7 and Part 8 limits). */
function readAddress(call: Call): AddressInput | RuleError[] {
  const b = call.body;
  const firstname = text(b, 'firstname', 'first_name');
  const lastname = text(b, 'lastname', 'last_name');
  const company = text(b, 'company') ?? '';
  const address1 = text(b, 'address_1');
  const address2 = text(b, 'address_2') ?? '';
  const city = text(b, 'city');
  const postcode = text(b, 'postcode');
  const countryId = id(b, 'country_id');
  const zoneGiven = b.zone_id !== undefined && b.zone_id !== '' && b.zone_id !== null;
  const zoneId = zoneGiven ? id(b, 'zone_id') : 0;
  const errors: RuleError[] = [];
  if (!between(firstname, 1, 32)) errors.push(ruleError(call, 'error_firstname', 'firstname'));
  if (!between(lastname, 1, 32)) errors.push(ruleError(call, 'error_lastname', 'lastname'));
  if (length(company) > 128) errors.push(ruleError(call, 'error_company', 'company'));
  if (!between(address1, 3, 128)) errors.push(ruleError(call, 'error_address_1', 'address_1'));
  if (length(address2) > 128) errors.push(ruleError(call, 'error_address_2', 'address_2'));
  if (!between(city, 2, 128)) errors.push(ruleError(call, 'error_city', 'city'));
  if (!between(postcode, 2, 10)) errors.push(ruleError(call, 'error_postcode', 'postcode'));
  const country =
    countryId === undefined
      ? undefined
      : sql(call.db, 'SELECT country_id FROM rr_country WHERE country_id = ? AND status = 1').get(countryId);
  if (!country || countryId === undefined) errors.push(ruleError(call, 'error_country', 'country_id'));
  else {
    const hasZones =
      sql(call.db, 'SELECT 1 FROM rr_zone WHERE country_id = ? AND status = 1 LIMIT 1').get(countryId) !== undefined;
    const zoneOk =
      zoneId !== undefined &&
      (hasZones
        ? sql(call.db, 'SELECT 1 FROM rr_zone WHERE zone_id = ? AND country_id = ? AND status = 1').get(zoneId, countryId) !==
          undefined
        : zoneId === 0);
    if (!zoneOk) errors.push(ruleError(call, 'error_zone', 'zone_id'));
  }
  if (
    errors.length > 0 ||
    !firstname ||
    !lastname ||
    !address1 ||
    !city ||
    !postcode ||
    countryId === undefined ||
    zoneId === undefined
  )
    return errors;
  return {
    firstname,
    lastname,
    company,
    address_1: address1,
    address_2: address2,
    city,
    postcode,
    country_id: countryId,
    zone_id: zoneId,
    makeDefault: flag(b, 'default') === true,
  };
}

// 5. GET account/address: the token holder's address book.
export function list(call: Call): Envelope {
  const rows = sql(call.db, `${SELECT_ADDRESS} WHERE a.customer_id = ? ORDER BY a.address_id`).all(
    call.customer?.customer_id ?? -1,
  ) as AddressRow[];
  const defaultId = defaultAddressId(call);
  return ok(call, { addresses: rows.map((a) => addressRecord(a, defaultId)) });
}

// 6. GET account/address/add: the store's country and every country's zones.
export function addForm(call: Call): Envelope {
  return ok(call, { country_id: setting(call.db, 'store.country_id'), states: states(call) });
}

// 7. POST account/address/add. The first address (or one sent with default=1) becomes the default.
export function add(call: Call): Envelope {
  const input = readAddress(call);
  if (Array.isArray(input)) return fail(call, input);
  const customerId = call.customer?.customer_id ?? -1;
  const addressId = call.db.transaction(() => {
    const info = sql(
      call.db,
      `INSERT INTO rr_address (customer_id, firstname, lastname, company, address_1, address_2, city, postcode, country_id, zone_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      customerId,
      input.firstname,
      input.lastname,
      input.company,
      input.address_1,
      input.address_2,
      input.city,
      input.postcode,
      input.country_id,
      input.zone_id,
    );
    const newId = Number(info.lastInsertRowid);
    const current = sql(call.db, 'SELECT 1 FROM rr_address WHERE address_id = ? AND customer_id = ?').get(
      defaultAddressId(call),
      customerId,
    );
    if (input.makeDefault || !current)
      sql(call.db, 'UPDATE rr_customer SET address_id = ? WHERE customer_id = ?').run(newId, customerId);
    return newId;
  })();
  return ok(call, { address_id: addressId, success: label(call.db, 'text_add', 'account/address') });
}

/** The address_id of endpoints 8 and 9: the query (documented) or, failing that, the body. */
function addressIdOf(call: Call): number | undefined {
  return id(call.query, 'address_id') ?? id(call.body, 'address_id');
}

// 8. GET account/address/edit&address_id=: one own address, with its country and zone ids, and the zones to choose from.
export function editForm(call: Call): Envelope {
  const a = ownAddress(call, addressIdOf(call));
  if (!a) return fail(call, [ruleError(call, 'error_address_id', 'address_id')]);
  return ok(call, {
    address: {
      ...addressRecord(a, defaultAddressId(call)),
      country_id: String(a.country_id),
      zone_id: String(a.zone_id),
      custom_field: a.custom_field,
    },
    country_id: String(a.country_id),
    states: states(call),
  });
}

// 9. POST account/address/edit&address_id=.
export function edit(call: Call): Envelope {
  const addressId = addressIdOf(call);
  if (!ownAddress(call, addressId) || addressId === undefined)
    return fail(call, [ruleError(call, 'error_address_id', 'address_id')]);
  const input = readAddress(call);
  if (Array.isArray(input)) return fail(call, input);
  const customerId = call.customer?.customer_id ?? -1;
  call.db.transaction(() => {
    sql(
      call.db,
      `UPDATE rr_address SET firstname = ?, lastname = ?, company = ?, address_1 = ?, address_2 = ?, city = ?, postcode = ?,
         country_id = ?, zone_id = ? WHERE address_id = ? AND customer_id = ?`,
    ).run(
      input.firstname,
      input.lastname,
      input.company,
      input.address_1,
      input.address_2,
      input.city,
      input.postcode,
      input.country_id,
      input.zone_id,
      addressId,
      customerId,
    );
    if (input.makeDefault) sql(call.db, 'UPDATE rr_customer SET address_id = ? WHERE customer_id = ?').run(addressId, customerId);
  })();
  return ok(call, { address_id: String(addressId), success: label(call.db, 'text_edit', 'account/address') });
}

// 10. POST account/address/delete: never the last address (error_delete), never the default one (error_default).
export function remove(call: Call): Envelope {
  const addressId = id(call.body, 'address_id') ?? id(call.query, 'address_id');
  const customerId = call.customer?.customer_id ?? -1;
  const outcome = call.db.transaction((): RuleError | null => {
    if (!ownAddress(call, addressId)) return ruleError(call, 'error_address_id', 'address_id');
    const count = sql(call.db, 'SELECT COUNT(*) AS n FROM rr_address WHERE customer_id = ?').get(customerId) as { n: number };
    if (count.n <= 1) return ruleError(call, 'error_delete', 'address_id');
    // Fault catalog RR-DEFAULT-ADDRESS-DELETED: a vendor that forgot the default-address rule.
    if (addressId === defaultAddressId(call) && call.app.fault !== 'RR-DEFAULT-ADDRESS-DELETED')
      return ruleError(call, 'error_default', 'address_id');
    sql(call.db, 'DELETE FROM rr_address WHERE address_id = ? AND customer_id = ?').run(addressId, customerId);
    return null;
  })();
  if (outcome) return fail(call, [outcome]);
  return ok(call, { success: label(call.db, 'text_delete', 'account/address') });
}
