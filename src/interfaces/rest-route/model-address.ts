import fc from 'fast-check';
import { ofLength } from '../../arbitraries/rr-fields.js';
import type { Exchange } from '../../http/exchange.js';
import { asRecord, bodyOf, call, dataOf, ROUTES, type Session, shown } from './client.js';
import type { PC } from './prop-setup.js';
import { expectAccepted, expectRefused } from './refusals.js';

// The address book as a model (document 1, rows 5, 7, 9 and 10 and the error_delete and
// error_default rules of Part 7): commands for fc.commands that act on the target and on the
// model alike, then compare the target's list with the model after every step.

export const FIELDS = ['firstname', 'lastname', 'company', 'address_1', 'address_2', 'city', 'postcode'] as const;
export type Fields = Record<(typeof FIELDS)[number], string>;

export interface BookModel {
  /** Address id -> the fields of its last accepted add or edit, in the order they were added. */
  addresses: Map<string, Fields>;
  /** The default address as the target's list last showed it (which one is default is not stated). */
  defaultId: string | undefined;
}

export interface BookReal {
  ctx: PC;
  session: Session;
  /** The SHOULD rules too (refused calls change nothing, at most one default). */
  strict: boolean;
}

type Cmd = fc.AsyncCommand<BookModel, BookReal, boolean>;

const LIMITS: Record<(typeof FIELDS)[number], [number, number]> = {
  firstname: [1, 32],
  lastname: [1, 32],
  company: [0, 32],
  address_1: [3, 128],
  address_2: [0, 32],
  city: [2, 128],
  postcode: [2, 10],
};
const ERROR_KEYS: Partial<Record<(typeof FIELDS)[number], string>> = {
  firstname: 'error_firstname',
  lastname: 'error_lastname',
  address_1: 'error_address_1',
  city: 'error_city',
  postcode: 'error_postcode',
};

/** Fields inside every limit (company and address_2 kept short: their limits are not documented). */
export const validFields: fc.Arbitrary<Fields> = fc.record(
  Object.fromEntries(
    FIELDS.map((f) => {
      const [min, max] = LIMITS[f];
      return [f, fc.integer({ min: Math.max(min, 1), max: Math.min(max, 24) }).chain((n) => ofLength(n))];
    }),
  ) as Record<(typeof FIELDS)[number], fc.Arbitrary<string>>,
);

/** Valid fields but one documented field past its limit (too short or too long). */
export const invalidFields: fc.Arbitrary<{ fields: Fields; field: string }> = fc
  .tuple(validFields, fc.constantFrom(...(Object.keys(ERROR_KEYS) as (keyof typeof ERROR_KEYS)[])), fc.boolean())
  .chain(([fields, field, long]) => {
    const [min, max] = LIMITS[field];
    return ofLength(long ? max + 1 : min - 1).map((v) => ({ fields: { ...fields, [field]: v }, field }));
  });

const body = (r: BookReal, f: Fields) => ({ ...f, country_id: r.ctx.state.countryId, zone_id: r.ctx.state.zoneId });
const pick = (m: Readonly<BookModel>, n: number): string | undefined =>
  [...m.addresses.keys()][n % Math.max(1, m.addresses.size)];
const short = (f: Fields) =>
  JSON.stringify(Object.fromEntries(FIELDS.map((k) => [k, f[k].length > 8 ? `${f[k].slice(0, 6)}…(${f[k].length})` : f[k]])));

/** Reads the target's list and compares it with the model; learns which address is default. */
export async function compare(m: BookModel, r: BookReal, after: string, step?: Exchange): Promise<void> {
  const ctx: PC = r.ctx;
  const ex = await call(ctx, 'GET', ROUTES.address, { session: r.session });
  const raw = dataOf(bodyOf(ex)).addresses;
  if (!Array.isArray(raw)) ctx.fail(`after ${after}: GET address has no addresses array: ${shown(ex)}`, ex);
  const listed = new Map<string, Record<string, unknown>>(
    raw.map((a: unknown) => [String(asRecord(a)?.address_id), asRecord(a) ?? {}]),
  );
  const evidence = step ? [step, ex] : [ex];
  // The list is keyed by address_id below, so a list carrying an address twice (a join that repeats its
  // rows) matched the model: "exactly the addresses added and not deleted" lists each one once.
  const twice = raw
    .map((a: unknown) => String(asRecord(a)?.address_id))
    .filter((id: string, i: number, all: string[]) => all.indexOf(id) !== i);
  ctx.expect(
    twice.length === 0,
    `after ${after}: the list carries address ${[...new Set(twice)].join(', ')} more than once (${raw.length} entries for ${listed.size} addresses)`,
    ...evidence,
  );
  const missing = [...m.addresses.keys()].filter((id) => !listed.has(id));
  const extra = [...listed.keys()].filter((id) => !m.addresses.has(id));
  ctx.expect(
    missing.length === 0 && extra.length === 0,
    `after ${after}: the list does not match the model (missing ${JSON.stringify(missing)}, unexpected ${JSON.stringify(extra)})`,
    ...evidence,
  );
  for (const [id, fields] of m.addresses) {
    const got = listed.get(id) ?? {};
    const wrong = FIELDS.filter((k) => got[k] !== fields[k]);
    ctx.expect(
      wrong.length === 0,
      `after ${after}: address ${id} lists ${wrong.map((k) => `${k}=${JSON.stringify(got[k])}`).join(', ')}; the model has ${wrong.map((k) => `${k}=${JSON.stringify(fields[k])}`).join(', ')}`,
      ...evidence,
    );
  }
  const defaults = [...listed].filter(([, a]) => a.default === 1 || a.default === '1').map(([id]) => id);
  if (r.strict)
    ctx.expect(
      defaults.length <= 1,
      `after ${after}: ${defaults.length} addresses are marked default (${defaults.join(', ')})`,
      ex,
    );
  m.defaultId = defaults[0];
}

class Add implements Cmd {
  constructor(readonly fields: Fields) {}
  check = (m: Readonly<BookModel>) => m.addresses.size < 6;
  async run(m: BookModel, r: BookReal): Promise<void> {
    const ex = await call(r.ctx, 'POST', ROUTES.addressAdd, { session: r.session, json: body(r, this.fields) });
    expectAccepted(r.ctx as PC, ex, this.toString());
    const id = dataOf(bodyOf(ex)).address_id;
    r.ctx.expect(typeof id === 'number' || typeof id === 'string', `${this}: no address_id in ${shown(ex)}`, ex);
    m.addresses.set(String(id), this.fields);
    await compare(m, r, this.toString(), ex);
  }
  toString = () => `add ${short(this.fields)}`;
}

class AddInvalid implements Cmd {
  constructor(readonly bad: { fields: Fields; field: string }) {}
  check = () => true;
  async run(m: BookModel, r: BookReal): Promise<void> {
    const ex = await call(r.ctx, 'POST', ROUTES.addressAdd, { session: r.session, json: body(r, this.bad.fields) });
    expectRefused(r.ctx as PC, ex, this.toString(), [
      ERROR_KEYS[this.bad.field as keyof typeof ERROR_KEYS] ?? '',
      this.bad.field,
    ]);
    await compare(m, r, this.toString(), ex);
  }
  toString = () => `add with a ${this.bad.fields[this.bad.field as keyof Fields].length}-character ${this.bad.field}`;
}

class Edit implements Cmd {
  constructor(
    readonly n: number,
    readonly fields: Fields,
  ) {}
  check = (m: Readonly<BookModel>) => m.addresses.size > 0;
  async run(m: BookModel, r: BookReal): Promise<void> {
    const id = pick(m, this.n) as string;
    const ex = await call(r.ctx, 'POST', ROUTES.addressEdit, {
      session: r.session,
      query: { address_id: id },
      json: body(r, this.fields),
    });
    expectAccepted(r.ctx as PC, ex, `${this} (address ${id})`);
    m.addresses.set(id, this.fields);
    await compare(m, r, `${this} (address ${id})`, ex);
  }
  toString = () => `edit #${this.n} to ${short(this.fields)}`;
}

class EditInvalid implements Cmd {
  constructor(
    readonly n: number,
    readonly bad: { fields: Fields; field: string },
  ) {}
  check = (m: Readonly<BookModel>) => m.addresses.size > 0;
  async run(m: BookModel, r: BookReal): Promise<void> {
    const id = pick(m, this.n) as string;
    const ex = await call(r.ctx, 'POST', ROUTES.addressEdit, {
      session: r.session,
      query: { address_id: id },
      json: body(r, this.bad.fields),
    });
    expectRefused(r.ctx as PC, ex, `${this} (address ${id})`, [
      ERROR_KEYS[this.bad.field as keyof typeof ERROR_KEYS] ?? '',
      this.bad.field,
    ]);
    await compare(m, r, `${this} (address ${id})`, ex);
  }
  toString = () => `edit #${this.n} with a ${this.bad.fields[this.bad.field as keyof Fields].length}-character ${this.bad.field}`;
}

class Delete implements Cmd {
  constructor(
    readonly n: number,
    readonly asNumber: boolean,
  ) {}
  check = (m: Readonly<BookModel>) => m.addresses.size > 0;
  async run(m: BookModel, r: BookReal): Promise<void> {
    const id = pick(m, this.n) as string;
    const ex = await call(r.ctx, 'POST', ROUTES.addressDelete, {
      session: r.session,
      json: { address_id: this.asNumber ? Number(id) : id },
    });
    const what = `${this} (address ${id})`;
    // Part 7: at least one address must remain (error_delete); the default one cannot go (error_default).
    if (m.addresses.size === 1) expectRefused(r.ctx as PC, ex, `${what}, the only address`, ['error_delete', 'error_default']);
    else if (id === m.defaultId) expectRefused(r.ctx as PC, ex, `${what}, the default address`, ['error_default']);
    else {
      expectAccepted(r.ctx as PC, ex, what);
      m.addresses.delete(id);
    }
    await compare(m, r, what, ex);
  }
  toString = () => `delete #${this.n}${this.asNumber ? '' : ' (id as a string)'}`;
}

class DeleteUnknown implements Cmd {
  check = () => true;
  async run(m: BookModel, r: BookReal): Promise<void> {
    const ex = await call(r.ctx, 'POST', ROUTES.addressDelete, { session: r.session, json: { address_id: 987654321 } });
    expectRefused(r.ctx as PC, ex, this.toString());
    await compare(m, r, this.toString(), ex);
  }
  toString = () => 'delete an address_id that does not exist';
}

class List implements Cmd {
  check = () => true;
  async run(m: BookModel, r: BookReal): Promise<void> {
    await compare(m, r, 'list');
  }
  toString = () => 'list';
}

/** The commands of the MUST machine: accepted adds and edits, deletes under both rules, lists. */
export const mustCommands: fc.Arbitrary<Cmd>[] = [
  validFields.map((f) => new Add(f)),
  fc.tuple(fc.nat(7), validFields).map(([n, f]) => new Edit(n, f)),
  fc.tuple(fc.nat(7), fc.boolean()).map(([n, asNumber]) => new Delete(n, asNumber)),
  fc.constant(new List()),
];

/** The SHOULD machine adds the refusals that must change nothing. */
export const shouldCommands: fc.Arbitrary<Cmd>[] = [
  ...mustCommands,
  invalidFields.map((b) => new AddInvalid(b)),
  fc.tuple(fc.nat(7), invalidFields).map(([n, b]) => new EditInvalid(n, b)),
  fc.constant(new DeleteUnknown()),
];

/** The model of a fresh account: whatever its book holds at the start (registration may file one). */
export async function initialModel(r: BookReal): Promise<BookModel> {
  const ex = await call(r.ctx, 'GET', ROUTES.address, { session: r.session });
  const raw = dataOf(bodyOf(ex)).addresses;
  const m: BookModel = { addresses: new Map(), defaultId: undefined };
  for (const a of Array.isArray(raw) ? raw : []) {
    const rec = asRecord(a) ?? {};
    m.addresses.set(String(rec.address_id), Object.fromEntries(FIELDS.map((k) => [k, rec[k]])) as Fields);
    if (rec.default === 1 || rec.default === '1') m.defaultId = String(rec.address_id);
  }
  return m;
}
