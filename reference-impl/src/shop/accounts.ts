import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { bodyOf, str } from '../http/body.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { type Envelope, fail, now, ok, type ShopUser, text } from './common.js';

const USERNAME = /^[A-Za-z0-9]{1,60}$/;
const EMAIL = /^[^\s@"<>()[\],;:]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
/** Names the real plugin refuses as usernames. */
const RESERVED = new Set(['admin', 'superadmin']);
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 200;

/** The user record of Part 2; first_name and last_name only on login ("the last two on login only"). */
function userRecord(u: ShopUser, withNames: boolean): Record<string, string> {
  const record: Record<string, string> = {
    ID: String(u.id),
    user_login: u.user_login,
    user_nicename: u.user_nicename,
    user_email: u.user_email,
    user_url: u.user_url,
    user_registered: u.user_registered,
    user_activation_key: u.user_activation_key,
    user_status: String(u.user_status),
    display_name: u.display_name,
  };
  if (withNames) {
    record.first_name = u.first_name;
    record.last_name = u.last_name;
  }
  return record;
}

function isUser(v: ShopUser | Record<string, string>): v is ShopUser {
  return typeof v.id === 'number';
}

async function tokenFor(ctx: AppContext, u: ShopUser): Promise<string> {
  return ctx.tokens.sign(String(u.id), 'shop', { user_login: u.user_login, last_login: now() });
}

export function accountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tokenKey = `${ctx.vendor}_token`;
  const byLogin = ctx.db.prepare('SELECT * FROM shop_users WHERE user_login = ? OR user_email = ? ORDER BY id LIMIT 1');
  const byId = ctx.db.prepare('SELECT * FROM shop_users WHERE id = ?');
  const clash = ctx.db.prepare(
    'SELECT user_login = ? COLLATE NOCASE AS same_login, user_email = ? COLLATE NOCASE AS same_email FROM shop_users WHERE user_login = ? OR user_email = ?',
  );
  const insert = ctx.db.prepare(
    `INSERT INTO shop_users (user_login, user_email, user_pass, user_nicename, user_registered, display_name, first_name, last_name)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  // Table B: username and password. WordPress also accepts the e-mail in the username field; a
  // client that sends `email` instead of `username` is served too (document 1 shows that habit).
  app.post('/auth/login', async (request): Promise<Envelope> => {
    const { body, valid } = bodyOf(request);
    if (!valid)
      return fail('The request body could not be read.', {
        body: 'Send the fields as JSON, multipart or url-encoded form data.',
      });
    const login = text(body.username, 100) ?? text(body.email, 100);
    const password = typeof body.password === 'string' ? body.password : str(body.password); // as register stores it
    const errors: Record<string, string> = {};
    if (!login) errors.username = 'Username is required.';
    if (!password) errors.password = 'Password is required.';
    if (!login || !password) return fail('Please fill the required fields.', errors);
    const user = byLogin.get(login, login) as ShopUser | undefined;
    // Hash anyway when the user is unknown, so response time does not reveal which usernames exist.
    if (!user) {
      await hashPassword(password);
      return fail('Invalid login details.');
    }
    if (!(await verifyPassword(password, user.user_pass))) return fail('Invalid login details.');
    return ok('Login successful.', { [tokenKey]: await tokenFor(ctx, user), user: userRecord(user, true) });
  });

  app.post('/auth/register', async (request): Promise<Envelope> => {
    const { body, valid } = bodyOf(request);
    if (!valid)
      return fail('The request body could not be read.', {
        body: 'Send the fields as JSON, multipart or url-encoded form data.',
      });
    const errors: Record<string, string> = {};
    const username = str(body.username);
    const email = str(body.email);
    const firstName = text(body.first_name);
    const lastName = text(body.last_name);
    const password = typeof body.password === 'string' || typeof body.password === 'number' ? String(body.password) : undefined;
    if (!username) errors.username = 'Username is required.';
    else if (!USERNAME.test(username)) errors.username = 'Username may contain letters and digits only (at most 60).';
    else if (RESERVED.has(username.toLowerCase())) errors.username = 'This username is not allowed.';
    if (!firstName) errors.first_name = 'First name is required (at most 200 characters).';
    if (!lastName) errors.last_name = 'Last name is required (at most 200 characters).';
    if (!password) errors.password = 'Password is required.';
    else if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD)
      errors.password = `Password must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters long.`;
    if (!email) errors.email = 'Email is required.';
    else if (email.length > 100 || !EMAIL.test(email)) errors.email = 'Email is not a valid address.';
    if (Object.keys(errors).length > 0 || !username || !email || !password || !firstName || !lastName)
      return fail('Please correct the highlighted fields.', errors);

    // scrypt is async: hash before the transaction, which must not await.
    const hash = await hashPassword(password);
    const created = ctx.db.transaction((): ShopUser | Record<string, string> => {
      const taken: Record<string, string> = {};
      for (const row of clash.all(username, email, username, email) as Array<{ same_login: number; same_email: number }>) {
        if (row.same_login) taken.username = 'Username already exists.';
        if (row.same_email) taken.email = 'Email already exists.';
      }
      if (Object.keys(taken).length > 0) return taken;
      const id = insert.run(
        username,
        email,
        hash,
        username.toLowerCase(),
        now(),
        `${firstName} ${lastName}`,
        firstName,
        lastName,
      ).lastInsertRowid;
      return byId.get(id) as ShopUser;
    });
    let result: ShopUser | Record<string, string>;
    try {
      result = created();
    } catch (e) {
      // The UNIQUE constraints are the last line: a racing insert fails here, never twice in the table.
      if ((e as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw e;
      result = { username: 'Username or email already exists.' };
    }
    if (!isUser(result)) return fail('Registration failed.', result);
    return ok('Registration successful.', { [tokenKey]: await tokenFor(ctx, result), user: userRecord(result, false) });
  });
}
