import type { GraphQLResolveInfo } from 'graphql';
import { hashPassword, unmatchableHash, verifyPassword } from '../passwords.js';
import { type GqlContext, money, requireCustomer, softFail, stmt, userError } from './context.js';

interface CustomerRow {
  customer_id: number;
  customer_group_id: number;
  firstname: string;
  lastname: string;
  email: string;
  telephone: string;
  password_hash: string;
  date_added: string;
}

const ORDERS_DEFAULT_LIMIT = 10;
const ORDERS_MAX_LIMIT = 100;

type Rule = (v: unknown) => string | null;
const text =
  (min: number, max: number): Rule =>
  (v) => {
    if (typeof v !== 'string') return 'is required';
    const n = v.trim().length;
    if (n < min || n > max) return min === 0 ? `must be at most ${max} characters` : `must be ${min} to ${max} characters`;
    return null;
  };
const digits =
  (min: number, max: number): Rule =>
  (v) =>
    typeof v !== 'string'
      ? 'is required'
      : new RegExp(`^\\d{${min},${max}}$`).test(v.trim())
        ? null
        : `must be ${min} to ${max} digits`;
const intAtLeast =
  (min: number): Rule =>
  (v) =>
    typeof v !== 'number' ? 'is required' : v < min ? `must be an integer of at least ${min}` : null;

/**
 * CustomerInput: the document marks every field required. Lengths follow the storefront platform
 * (OpenCart 3); address_2, fax and company may be empty strings but must be present.
 */
const REGISTER_RULES: Record<string, Rule> = {
  customer_group_id: intAtLeast(1),
  firstname: text(1, 32),
  lastname: text(1, 32),
  email: (v) =>
    typeof v !== 'string'
      ? 'is required'
      : v.trim().length <= 96 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim())
        ? null
        : 'must be a valid e-mail address',
  telephone: digits(3, 32),
  address_1: text(1, 128),
  address_2: text(0, 128),
  city: text(1, 128),
  country_id: intAtLeast(1),
  zone_id: intAtLeast(0),
  // "letters, digits and special characters": any printable characters; length as the platform (4 to 40).
  password: (v) =>
    typeof v !== 'string'
      ? 'is required'
      : v.length < 4 || v.length > 40
        ? 'must be 4 to 40 characters'
        : /\p{Cc}/u.test(v)
          ? 'must not contain control characters'
          : null,
  confirm: (v) => (typeof v !== 'string' ? 'is required' : null),
  agree: (v) => (v === true ? null : 'must be true (the customer agrees to the privacy policy)'),
  fax: text(0, 32),
  company: text(0, 128),
  postcode: digits(2, 10),
};

/** E-mail addresses whose registration is hashing its password, per database. */
const pending = new WeakMap<object, Set<string>>();
function pendingOf(ctx: GqlContext): Set<string> {
  let set = pending.get(ctx.db);
  if (!set) {
    set = new Set();
    pending.set(ctx.db, set);
  }
  return set;
}

const s = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

export async function register(
  args: { input?: Record<string, unknown> | null },
  ctx: GqlContext,
  info: GraphQLResolveInfo,
): Promise<boolean> {
  const input = args.input;
  if (!input) return softFail(ctx, info, 'input is required: a CustomerInput object.');
  let failed = false;
  for (const [field, rule] of Object.entries(REGISTER_RULES)) {
    const problem = rule(input[field] ?? undefined);
    if (problem) {
      softFail(ctx, info, `${field} ${problem}.`, 'BAD_USER_INPUT', { field });
      failed = true;
    }
  }
  if (failed) return false;
  if (input.password !== input.confirm)
    return softFail(ctx, info, 'confirm must equal password.', 'BAD_USER_INPUT', { field: 'confirm' });

  const email = s(input.email);
  const key = email.toLowerCase();
  const inFlight = pendingOf(ctx);
  const taken = stmt(ctx.db, 'SELECT 1 FROM gql_customer WHERE email = ?').get(email) !== undefined;
  if (taken || inFlight.has(key))
    return softFail(ctx, info, 'This e-mail address is already registered.', 'EMAIL_EXISTS', { field: 'email' });
  // Hash outside the transaction: scrypt is asynchronous, the transaction must not await. While it
  // runs the address is reserved, so a burst of registrations of one address hashes once.
  inFlight.add(key);
  let hash: string;
  try {
    hash = await hashPassword(input.password as string);
  } finally {
    inFlight.delete(key);
  }
  const insert = stmt(
    ctx.db,
    `INSERT INTO gql_customer (customer_group_id, firstname, lastname, email, telephone, fax, company, address_1, address_2,
       city, postcode, country_id, zone_id, password_hash, agree, date_added)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
  );
  try {
    ctx.db.transaction(() => {
      insert.run(
        input.customer_group_id,
        s(input.firstname),
        s(input.lastname),
        email,
        s(input.telephone),
        s(input.fax),
        s(input.company),
        s(input.address_1),
        s(input.address_2),
        s(input.city),
        s(input.postcode),
        input.country_id,
        input.zone_id,
        hash,
        new Date().toISOString(),
      );
    })();
  } catch (e) {
    // The UNIQUE e-mail constraint decides between concurrent registrations of one address.
    if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
      return softFail(ctx, info, 'This e-mail address is already registered.', 'EMAIL_EXISTS', { field: 'email' });
    throw e;
  }
  return true;
}

export async function login(args: { email: string; password: string }, ctx: GqlContext): Promise<Record<string, unknown>> {
  const row = stmt(ctx.db, 'SELECT * FROM gql_customer WHERE email = ?').get(args.email.trim()) as CustomerRow | undefined;
  const ok = await verifyPassword(args.password, row?.password_hash ?? unmatchableHash());
  if (!row || !ok) throw userError('Invalid login details: no match for e-mail address and/or password.', 'INVALID_CREDENTIALS');
  const token = await ctx.tokens.sign(String(row.customer_id), 'graphql', { email: row.email });
  return {
    [`${ctx.vendor}_token`]: token,
    user_data: { firstname: row.firstname, lastname: row.lastname, email: row.email },
  };
}

/** Only the signed-in customer's own record; another e-mail gives null, so addresses cannot be probed. */
export function customerByEmail(args: { email: string }, ctx: GqlContext): Record<string, unknown> | null {
  const me = requireCustomer(ctx);
  const row = stmt(ctx.db, 'SELECT * FROM gql_customer WHERE customer_id = ? AND email = ?').get(me, args.email.trim()) as
    | CustomerRow
    | undefined;
  if (!row) return null;
  return {
    customer_id: row.customer_id,
    customer_group_id: row.customer_group_id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    telephone: row.telephone,
    date_added: row.date_added,
  };
}

interface OrderRow {
  order_id: number;
  status: string;
  total_cents: number;
  currency_code: string;
  products: number;
  date_added: string;
}

export function orders(args: { start?: number | null; limit?: number | null }, ctx: GqlContext): Array<Record<string, unknown>> {
  const me = requireCustomer(ctx);
  const start = args.start ?? 0;
  const limit = args.limit ?? ORDERS_DEFAULT_LIMIT;
  if (start < 0) throw userError('start must be 0 or more.');
  if (limit < 1) throw userError('limit must be 1 or more.');
  const rows = stmt(ctx.db, 'SELECT * FROM gql_order WHERE customer_id = ? ORDER BY order_id DESC LIMIT ? OFFSET ?').all(
    me,
    Math.min(limit, ORDERS_MAX_LIMIT),
    start,
  ) as OrderRow[];
  return rows.map((r) => ({
    order_id: r.order_id,
    status: r.status,
    total: money(r.total_cents),
    currency_code: r.currency_code,
    products: r.products,
    date_added: r.date_added,
  }));
}
