import { bodyField, type Fault, isObject } from '../model.js';
import { addressWrite, data, FORCED, idValue, labelError, ok, refuse, tokenCustomer } from './shared.js';

/** RR-ADDRESS-EDIT-REVIVES-DELETED: rows the deletes soft-deleted, per database, by address id. */
const SOFT_DELETED = new WeakMap<object, Map<number, AddressRecord>>();

/** RR-ADDRESS-EDIT-REVIVES-DELETED: the row a delete request is about to remove, or an edit brought back. */
const TOUCHED_ROW = new WeakMap<object, AddressRecord>();

type AddressRecord = Record<string, unknown> & { address_id: number; customer_id: number };

/** RR-ADDRESS-EDIT-REVIVES-DELETED: the columns of an address row, as the soft delete keeps them. */
const ADDRESS_COLUMNS = [
  'address_id',
  'customer_id',
  'firstname',
  'lastname',
  'company',
  'address_1',
  'address_2',
  'city',
  'postcode',
  'country_id',
  'zone_id',
  'custom_field',
];

/** RR-ADDRESS-ADD-ACTIVITY-ID: per database, the ids the module's activity log has handed out. */
const ACTIVITY_IDS = new WeakMap<object, number>();

/** RR-ADDRESS-ADD-ACTIVITY-ID: where the activity log's ids start (a shop's log holds more rows than its address book). */
const ACTIVITY_ID_BASE = 900_000;

/** RR-ADDRESS-ADD-BODY-CUSTOMER-ID: an add whose body named another customer, and the token holder's default before it. */
const BODY_CUSTOMER = new WeakMap<object, { other: number; own: number; ownDefault: number }>();

export const defaultAddressDeleted: Fault = {
  id: 'RR-DEFAULT-ADDRESS-DELETED',
  iface: 'rest-route',
  inHandler: 'reference-impl/src/rest-route/address.ts',
};

export const defaultDeleteIntegerId: Fault = {
  id: 'RR-DEFAULT-DELETE-INTEGER-ID',
  iface: 'rest-route',
  // The default rule compares the body's address_id strictly with the stored default, which PHP reads
  // as a string: a string id is refused (error_default), an integer id never matches and deletes it.
  after(res, req, ctx) {
    if (req.endpoint !== 'account/address/delete' || req.method !== 'POST' || !isObject(res.body)) return;
    const sent = bodyField(req.raw.body, 'address_id').value;
    const errors = res.body.errors;
    const byDefaultRule = Array.isArray(errors) && errors.some((e) => isObject(e) && e.code === 'error_default');
    if (typeof sent !== 'number' || !byDefaultRule) return;
    ctx.db.prepare('DELETE FROM rr_address WHERE address_id = ?').run(sent);
    const done = ctx.db
      .prepare(
        "SELECT value FROM rr_label WHERE key = 'text_delete' AND page IN ('account/address', '*') ORDER BY page = '*' LIMIT 1",
      )
      .get() as { value: string } | undefined;
    res.status = 200;
    res.body = { status: true, errors: [], data: { success: done?.value ?? 'text_delete' } };
  },
};

export const addressEditRevivesDeleted: Fault = {
  id: 'RR-ADDRESS-EDIT-REVIVES-DELETED',
  iface: 'rest-route',
  // Delete is soft: it sets the row's status to 0 (past orders keep their address), and the list and
  // the delete read rows of status 1 only. The edit finds the address by id and customer alone and
  // writes the whole form with status 1: an edit of a deleted address answers success, and the
  // address is back in the list.
  async before(req, ctx) {
    if (req.method !== 'POST' || !isObject(req.raw.body)) return;
    const deleting = req.endpoint === 'account/address/delete';
    if (!deleting && req.endpoint !== 'account/address/edit') return;
    const customerId = await tokenCustomer(req, ctx);
    const addressId = idValue(deleting ? req.raw.body.address_id : (req.query.address_id ?? req.raw.body.address_id));
    if (customerId === undefined || addressId === undefined) return;
    if (deleting) {
      const row = ctx.db
        .prepare(`SELECT ${ADDRESS_COLUMNS.join(', ')} FROM rr_address WHERE address_id = ? AND customer_id = ?`)
        .get(addressId, customerId) as AddressRecord | undefined;
      if (row) TOUCHED_ROW.set(req.raw, row);
      return;
    }
    const row = SOFT_DELETED.get(ctx.db)?.get(addressId);
    if (!row || row.customer_id !== customerId) return;
    ctx.db
      .prepare(`INSERT INTO rr_address (${ADDRESS_COLUMNS.join(', ')}) VALUES (${ADDRESS_COLUMNS.map(() => '?').join(', ')})`)
      .run(...ADDRESS_COLUMNS.map((c) => row[c]));
    SOFT_DELETED.get(ctx.db)?.delete(addressId);
    TOUCHED_ROW.set(req.raw, row);
  },
  after(res, req, ctx) {
    const row = TOUCHED_ROW.get(req.raw);
    if (!row) return;
    const deleted = SOFT_DELETED.get(ctx.db) ?? new Map<number, AddressRecord>();
    SOFT_DELETED.set(ctx.db, deleted);
    if (req.endpoint === 'account/address/delete') {
      if (ok(res)) deleted.set(row.address_id, row);
      return;
    }
    // A refused edit leaves the row deleted, as its status stays 0.
    if (ok(res)) return;
    ctx.db.prepare('DELETE FROM rr_address WHERE address_id = ?').run(row.address_id);
    deleted.set(row.address_id, row);
  },
};

export const addressDeleteIdWraps: Fault = {
  id: 'RR-ADDRESS-DELETE-ID-WRAPS',
  iface: 'rest-route',
  // The module runs on a 32-bit PHP build (PHP_INT_MAX 2147483647): json_decode() gives an integer
  // address_id past it as a float, and the (int) cast wraps it modulo 2^32, so a delete of
  // address_id 4294967296 + N deletes address N. (A string id saturates at 2147483647 instead and
  // names no address.)
  before(req) {
    if (req.endpoint !== 'account/address/delete' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const v = req.raw.body.address_id;
    if (typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) > 2147483647)
      req.raw.body.address_id = Number(BigInt.asIntN(32, BigInt(v)));
  },
};

export const addressEditEveryRow: Fault = {
  id: 'RR-ADDRESS-EDIT-EVERY-ROW',
  iface: 'rest-route',
  // The module's editAddress() was adapted from the customer edit and its UPDATE kept that query's
  // WHERE customer_id = '...' alone: an edit writes its form into every address of the customer, so
  // after an edit of one address the list shows every address with the fields of that edit.
  async after(res, req, ctx) {
    if (!addressWrite(req, 'edit') || !ok(res)) return;
    const customerId = await tokenCustomer(req, ctx);
    const addressId = idValue(req.query.address_id ?? req.raw.body.address_id);
    if (customerId === undefined || addressId === undefined) return;
    ctx.db
      .prepare(
        `UPDATE rr_address SET (firstname, lastname, company, address_1, address_2, city, postcode, country_id, zone_id) =
           (SELECT firstname, lastname, company, address_1, address_2, city, postcode, country_id, zone_id
              FROM rr_address WHERE address_id = ?)
           WHERE customer_id = ? AND address_id != ?`,
      )
      .run(addressId, customerId, addressId);
  },
};

export const addressDeleteCountsOthers: Fault = {
  id: 'RR-ADDRESS-DELETE-COUNTS-OTHERS',
  iface: 'rest-route',
  // The delete counts the customer's addresses other than the one named (address_id != ...) and keeps
  // the rule's comparison of the whole count, `<= 1`: a book of two addresses refuses the delete of its
  // non-default one with error_delete, so a customer can never come down from two addresses to one.
  async before(req, ctx) {
    if (req.endpoint !== 'account/address/delete' || req.method !== 'POST' || !isObject(req.raw.body)) return;
    const customerId = await tokenCustomer(req, ctx);
    const addressId = idValue(req.raw.body.address_id);
    if (customerId === undefined || addressId === undefined) return;
    const own = ctx.db.prepare('SELECT 1 FROM rr_address WHERE address_id = ? AND customer_id = ?').get(addressId, customerId);
    const others = ctx.db
      .prepare('SELECT COUNT(*) AS n FROM rr_address WHERE customer_id = ? AND address_id != ?')
      .get(customerId, addressId) as { n: number };
    if (!own || others.n > 1) return;
    // An id no address has: the handler refuses and deletes nothing; the answer is the module's error_delete.
    req.raw.body.address_id = 0;
    FORCED.set(req.raw, 'error_delete');
  },
  after(res, req, ctx) {
    if (FORCED.get(req.raw) === 'error_delete') refuse(res, [labelError(ctx, 'error_delete', 'address_id')]);
  },
};

export const addressAddActivityId: Fault = {
  id: 'RR-ADDRESS-ADD-ACTIVITY-ID',
  iface: 'rest-route',
  // The add controller (kept from the platform's 2.x address page) logs an 'address_add' customer
  // activity after the model's addAddress() and then reads $this->db->getLastId() for its answer: the
  // address is filed, but data.address_id is the activity row's id, which names no address.
  after(res, req, ctx) {
    const d = data(res);
    if (!addressWrite(req, 'add') || !ok(res) || typeof d?.address_id !== 'number') return;
    const next = (ACTIVITY_IDS.get(ctx.db) ?? ACTIVITY_ID_BASE) + 1;
    ACTIVITY_IDS.set(ctx.db, next);
    d.address_id = next;
  },
};

export const addressAddBodyCustomerId: Fault = {
  id: 'RR-ADDRESS-ADD-BODY-CUSTOMER-ID',
  iface: 'rest-route',
  // The add controller builds its data as array_merge(['customer_id' => $this->customer->getId()],
  // $this->request->post) (written so the vendor's back-office app can file an address for a customer) and
  // calls addAddress($data['customer_id'], $data): a customer_id in the body wins over the token's account.
  // The add answers success with the new address_id, but the address is filed in the book of the customer
  // the body named, and the token holder's list does not show it.
  async before(req, ctx) {
    if (!addressWrite(req, 'add')) return;
    const other = idValue(req.raw.body.customer_id);
    const own = await tokenCustomer(req, ctx);
    if (other === undefined || own === undefined || other === own) return;
    if (!ctx.db.prepare('SELECT 1 FROM rr_customer WHERE customer_id = ?').get(other)) return;
    const row = ctx.db.prepare('SELECT address_id FROM rr_customer WHERE customer_id = ?').get(own) as
      | { address_id: number }
      | undefined;
    BODY_CUSTOMER.set(req.raw, { other, own, ownDefault: row?.address_id ?? 0 });
  },
  after(res, req, ctx) {
    const moved = BODY_CUSTOMER.get(req.raw);
    const d = data(res);
    const addressId = d ? idValue(d.address_id) : undefined;
    if (!moved || !ok(res) || addressId === undefined) return;
    ctx.db.transaction(() => {
      ctx.db.prepare('UPDATE rr_address SET customer_id = ? WHERE address_id = ?').run(moved.other, addressId);
      // addAddress() makes the address the default of the customer it files it for, when that one has none.
      ctx.db.prepare('UPDATE rr_customer SET address_id = ? WHERE customer_id = ?').run(moved.ownDefault, moved.own);
      const theirs = ctx.db
        .prepare(
          'SELECT 1 FROM rr_customer c JOIN rr_address a ON a.address_id = c.address_id AND a.customer_id = c.customer_id WHERE c.customer_id = ?',
        )
        .get(moved.other);
      if (!theirs) ctx.db.prepare('UPDATE rr_customer SET address_id = ? WHERE customer_id = ?').run(addressId, moved.other);
    })();
  },
};

export const addressEditFormDefaultId: Fault = {
  id: 'RR-ADDRESS-EDIT-FORM-DEFAULT-ID',
  iface: 'rest-route',
  // The edit form reads `$address_id = $this->request->get['address_id'] ?? $this->customer->getAddressId();`
  // (the web form's fallback to the default address): a GET address/edit without address_id answers the
  // customer's default address with success in place of an error.
  async before(req, ctx) {
    if (req.endpoint !== 'account/address/edit' || req.method !== 'GET') return;
    const given = (v: unknown) => v !== undefined && v !== null && v !== '';
    if (given(req.query.address_id) || (isObject(req.raw.body) && given(req.raw.body.address_id))) return;
    const customerId = await tokenCustomer(req, ctx);
    if (customerId === undefined) return;
    const row = ctx.db.prepare('SELECT address_id FROM rr_customer WHERE customer_id = ?').get(customerId) as
      | { address_id: number | null }
      | undefined;
    if (row?.address_id) req.query.address_id = String(row.address_id);
  },
};

export const addressAddIdString: Fault = {
  id: 'RR-ADDRESS-ADD-ID-STRING',
  iface: 'rest-route',
  // The vendor's address model runs on PDO and answers the add with $this->db->lastInsertId(), which PDO
  // gives as a string: data.address_id is "57" where row 7 gives an integer (edit answers the string).
  after(res, req) {
    const d = data(res);
    if (!addressWrite(req, 'add') || !ok(res) || typeof d?.address_id !== 'number') return;
    d.address_id = String(d.address_id);
  },
};
