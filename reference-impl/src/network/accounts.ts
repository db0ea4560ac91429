import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { type Body, type BodyValue, bodyOf, int, str } from '../http/body.js';
import { hashPassword, unmatchableHash, verifyPassword } from '../passwords.js';
import { insertNetUser, insertUniUser, newUserKey, type PlacementInput, place } from './placement.js';
import {
  findNetUser,
  findUniUser,
  findUserById,
  findUserByLogin,
  netUserJson,
  type Row,
  type UserRow,
  uniUserJson,
  userJson,
} from './records.js';
import {
  authenticate,
  digits,
  type FieldErrors,
  fail,
  hasErrors,
  type Json,
  now,
  ok,
  queryOf,
  required,
  unreadableBody,
} from './util.js';

const USERNAME = /^[A-Za-z0-9]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function username(errors: FieldErrors, value: unknown): string {
  const v = required(errors, 'username', value, 60);
  if (v && !USERNAME.test(v)) {
    errors.username = 'username may contain letters and digits only.';
    return '';
  }
  return v;
}

function position(errors: FieldErrors, field: string, value: unknown, need: boolean): 'left' | 'right' | undefined {
  const v = str(value);
  if (v === undefined || v === '') {
    if (need) errors[field] = `${field} is required (left or right).`;
    return undefined;
  }
  const p = v.toLowerCase();
  if (p !== 'left' && p !== 'right') {
    errors[field] = `${field} must be left or right.`;
    return undefined;
  }
  return p;
}

/** An optional name: absent or empty gives undefined; otherwise a bounded string. */
function optionalName(errors: FieldErrors, field: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return required(errors, field, value, 60) || undefined;
}

/** `net_user[x]` as a nested object (multipart, url-encoded, JSON objects) or as a literal JSON key. */
function netField(body: Body, name: string): BodyValue | undefined {
  const nested = body.net_user;
  if (nested && typeof nested === 'object' && !Array.isArray(nested) && nested[name] !== undefined) return nested[name];
  return body[`net_user[${name}]`];
}

function tokenPayload(ctx: AppContext, user: UserRow): Promise<string> {
  return ctx.tokens.sign(String(user.ID), 'network', { user_login: user.user_login });
}

export async function login(request: FastifyRequest, ctx: AppContext): Promise<Json> {
  const { body, valid } = bodyOf(request);
  if (!valid) return unreadableBody();
  const errors: FieldErrors = {};
  const name = username(errors, body.username);
  const password = required(errors, 'password', body.password, 256);
  if (hasErrors(errors)) return fail('Please correct the errors.', errors);
  const user = findUserByLogin(ctx.db, name);
  const matches = await verifyPassword(password, user?.user_pass ?? unmatchableHash());
  if (!user || !matches) return fail('Invalid login details.');
  const net = findNetUser(ctx.db, user.ID);
  return ok('Login successful.', {
    [`${ctx.vendor}_token`]: await tokenPayload(ctx, user),
    user: userJson(user, 'login'),
    net_user: net ? netUserJson(net) : null,
  });
}

export async function register(request: FastifyRequest, ctx: AppContext): Promise<Json> {
  const { body, valid } = bodyOf(request);
  if (!valid) return unreadableBody();
  const errors: FieldErrors = {};
  const firstName = required(errors, 'first_name', body.first_name, 100);
  const lastName = required(errors, 'last_name', body.last_name, 100);
  const login = username(errors, body.username);
  const password = required(errors, 'password', body.password, 256);
  const email = required(errors, 'email', body.email, 100);
  if (email && !EMAIL.test(email)) errors.email = 'email must be a valid e-mail address.';
  const rawPhone = netField(body, 'phone');
  const phone = rawPhone === undefined || rawPhone === '' ? '' : digits(errors, 'net_user[phone]', rawPhone, 10, 10);
  const address = required(errors, 'net_user[address]', netField(body, 'address'), 500);
  const input: PlacementInput = {
    sponsorName: optionalName(errors, 'net_user[sponsor_name]', netField(body, 'sponsor_name')),
    parentName: optionalName(errors, 'net_user[parent_name]', netField(body, 'parent_name')),
    position: position(errors, 'net_user[position]', netField(body, 'position'), false),
  };
  if (hasErrors(errors)) return fail('Please correct the errors.', errors);

  const hash = await hashPassword(password); // async: done before the transaction, which must not await
  const db = ctx.db;
  const outcome = db.transaction((): FieldErrors | number => {
    const taken: FieldErrors = {};
    if (db.prepare('SELECT 1 FROM net_users WHERE user_login = ?').get(login)) taken.username = 'Username already exists.';
    if (db.prepare('SELECT 1 FROM net_users WHERE user_email = ?').get(email)) taken.email = 'Email already exists.';
    if (hasErrors(taken)) return taken;
    // No sponsor, parent or position: the account is created without a binary position and joins
    // later through /Join_net (the register row marks only net_user[address] as required).
    const unplaced = !input.sponsorName && !input.parentName && !input.position;
    const placement = unplaced
      ? { placement: null }
      : place(db, input, {
          sponsor: 'net_user[sponsor_name]',
          parent: 'net_user[parent_name]',
          position: 'net_user[position]',
        });
    if ('errors' in placement) return placement.errors;
    const at = now();
    const id = Number(
      db
        .prepare(
          `INSERT INTO net_users (user_login, user_pass, user_nicename, user_email, user_registered, display_name,
             first_name, last_name, phone, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(login, hash, login.toLowerCase(), email, at, `${firstName} ${lastName}`, firstName, lastName, phone, address)
        .lastInsertRowid,
    );
    const who = { id, login, key: newUserKey(db), at };
    if (placement.placement) insertNetUser(db, who, placement.placement);
    insertUniUser(db, who, placement.placement?.sponsor?.user_key ?? null);
    return id;
  });
  let result: FieldErrors | number;
  try {
    result = outcome();
  } catch (e) {
    // The UNIQUE constraints are the last word when two registrations race for one name or one position.
    if ((e as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) {
      return fail('Registration failed: the username, e-mail or position was taken at the same moment.', {
        username: 'Username, email or position already taken.',
      });
    }
    throw e;
  }
  if (typeof result !== 'number') return fail('Registration failed.', result);
  const user = findUserById(db, result) as UserRow;
  const net = findNetUser(db, result);
  return ok('Registration successful.', {
    [`${ctx.vendor}_token`]: await tokenPayload(ctx, user),
    user: userJson(user, 'register'),
    net_user: net ? netUserJson(net) : null,
  });
}

export async function userInfo(request: FastifyRequest, reply: FastifyReply, ctx: AppContext): Promise<Json | undefined> {
  const caller = await authenticate(request, reply, ctx);
  if (!caller) return undefined;
  const user = findUserById(ctx.db, caller.userId) as UserRow;
  const uni = findUniUser(ctx.db, caller.userId);
  return ok('User information.', { user: userJson(user, 'info'), uni_user: uni ? uniUserJson(uni) : null });
}

/** Public lookup (no token in the samples): the user without its password hash, and its unilevel record. */
export function uniUserInfo(request: FastifyRequest, ctx: AppContext): Json {
  const query = queryOf(request);
  const errors: FieldErrors = {};
  const rawId = query.user_id;
  const rawKey = query.user_key;
  let user: UserRow | undefined;
  let uni: Row | undefined;
  if (rawId !== undefined && rawId !== '') {
    const id = int(rawId);
    if (id === undefined || id < 1) errors.user_id = 'user_id must be a positive integer.';
    else {
      user = findUserById(ctx.db, id);
      uni = user ? findUniUser(ctx.db, id) : undefined;
    }
  } else if (rawKey !== undefined && rawKey !== '') {
    const key = str(rawKey);
    if (key === undefined || key.length > 64) errors.user_key = 'user_key must be a string.';
    else {
      uni = ctx.db.prepare('SELECT * FROM net_uni_users WHERE user_key = ?').get(key) as Row | undefined;
      user = uni ? findUserById(ctx.db, Number(uni.user_id)) : undefined;
    }
  } else errors.user_id = 'user_id or user_key is required.';
  if (hasErrors(errors)) return fail('Please correct the errors.', errors);
  if (!user || !uni) return fail('User not found.');
  return ok('User information.', { user: userJson(user, 'public'), uni_user: uniUserJson(uni) });
}

/** /Join_net: places a signed-in account that has no binary position yet. */
export async function joinNet(request: FastifyRequest, reply: FastifyReply, ctx: AppContext): Promise<Json | undefined> {
  const caller = await authenticate(request, reply, ctx);
  if (!caller) return undefined;
  const { body, valid } = bodyOf(request);
  if (!valid) return unreadableBody();
  const errors: FieldErrors = {};
  const input: PlacementInput = {
    sponsorName: required(errors, 'sponsor_name', body.sponsor_name, 60),
    parentName: required(errors, 'parent_name', body.parent_name, 60),
    position: position(errors, 'position', body.position, true),
  };
  if (hasErrors(errors)) return fail('Please correct the errors.', errors);
  const db = ctx.db;
  const join = db.transaction((): Json => {
    if (findNetUser(db, caller.userId)) return fail('You are already a member of the network.');
    const placed = place(db, input, { sponsor: 'sponsor_name', parent: 'parent_name', position: 'position' });
    if ('errors' in placed) return fail('Could not join the network.', placed.errors);
    const p = placed.placement;
    const uni = findUniUser(db, caller.userId);
    const who = { id: caller.userId, login: caller.login, key: uni ? String(uni.user_key) : newUserKey(db), at: now() };
    insertNetUser(db, who, p);
    if (!uni) insertUniUser(db, who, p.sponsor?.user_key ?? null);
    const net = findNetUser(db, caller.userId);
    return ok('You have joined the network.', { net_user: net ? netUserJson(net) : null });
  });
  try {
    return join();
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) {
      return fail('That position was taken at the same moment; choose another.', { position: 'Position already taken.' });
    }
    throw e;
  }
}
