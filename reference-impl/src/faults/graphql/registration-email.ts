import { Kind, parse, visit } from 'graphql';
import type { AppContext } from '../../context.js';
import { hashPassword, verifyPassword } from '../../passwords.js';
import { InFlight, pause } from '../emulation.js';
import { type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { has, insertCustomer, registerInput, result, trimmed, variables } from './shared.js';

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

/** register requests in flight by e-mail; those that began while a twin was in flight. */
const registering = new InFlight<object>();

const racedRegisters = new WeakSet<object>();

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

/** A letter outside ASCII written in upper case (Ü, É): what PHP 8's strtolower() leaves as it is and MySQL's LOWER() folds. */
const nonAsciiCapital = (v: string): boolean => [...v].some((ch) => ch > '\u007f' && ch.toLowerCase() !== ch);

/** register requests whose e-mail holds a capital outside ASCII (GQL-EMAIL-STRTOLOWER-DUPLICATE). */
const foldedEmailRegisters = new WeakSet<object>();

/** register requests whose e-mail is registered in another case only (GQL-EMAIL-DUPLICATE-CASE-SENSITIVE). */
const caseVariantRegisters = new WeakSet<object>();

export const duplicateEmail: Fault = {
  id: 'GQL-DUPLICATE-EMAIL',
  iface: 'graphql',
  // The duplicate check and the insert disagree: the second registration "succeeds" and is dropped.
  after(res) {
    const errors = isObject(res.body) ? res.body.errors : undefined;
    if (!Array.isArray(errors) || !errors.some((e) => isObject(e) && /already registered/i.test(String(e.message)))) return;
    res.body = { data: { register: true } };
    res.status = 200;
  },
};

export const duplicateOverwrites: Fault = {
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
};

export const emailLowercased: Fault = {
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
};

export const registerRace: Fault = {
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
};

export const emailLikeDuplicate: Fault = {
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
};

export const emailUntrimmedCheck: Fault = {
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
};

export const duplicateCheckVariablesOnly: Fault = {
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
};

export const emailStrtolowerDuplicate: Fault = {
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
};

export const emailDuplicateCaseSensitive: Fault = {
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
};
