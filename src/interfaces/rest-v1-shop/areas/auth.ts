import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import {
  apiRoot,
  bareEnvelope,
  type Ctx,
  call,
  conformsTo,
  type Envelope,
  envelope,
  errorsObject,
  expectFieldError,
  getProduct,
  isTokenRefusal,
  listProducts,
  noteDroppedHeader,
  TOKEN_ENDPOINTS,
  tokenOf,
  tryJson,
} from '../client.js';
import { type Account, login, newAccountForm, register } from '../flows.js';

// Register -> token use -> login -> the failure cases of both, and the token rule of Part 5.

interface AuthState {
  account: Account;
  registerBody: Envelope;
  registerEx: Exchange;
  loginBody: Envelope;
  loginEx: Exchange;
  loginToken: string;
  /** The login SHOP-AUTH-01 sent with the account's username before registering it (refused: no such account yet). */
  loginBeforeRegister: Exchange;
}

type C = CheckContext<AuthState>;
type UserRecord = Record<string, unknown>;

function decodeJwtHeader(token: string): Record<string, unknown> | undefined {
  const head = token.split('.')[0];
  if (!head) return undefined;
  try {
    return JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function expectRs256(ctx: Ctx, token: string, ex: Exchange, what: string): void {
  const parts = token.split('.');
  ctx.expect(parts.length === 3, `${what}: expected a JWT (three dot-separated parts), got ${parts.length} part(s)`, ex);
  const header = decodeJwtHeader(token);
  ctx.expect(header, `${what}: the JWT header is not base64url JSON`, ex);
  ctx.expect(
    header.alg === 'RS256',
    `${what}: expected JWT header alg "RS256" (5. Authentication), got ${JSON.stringify(header.alg)}`,
    ex,
  );
  ctx.expect((parts[2] ?? '').length > 0, `${what}: the JWT carries no signature`, ex);
}

/** The token works: a token endpoint does not refuse it as missing or bad. */
async function expectTokenAccepted(ctx: Ctx, token: string, what: string): Promise<void> {
  for (const path of ['/orders', '/cart/count']) {
    const ex = await call(ctx, 'GET', path, { token });
    const body = bareEnvelope(ctx, ex);
    noteDroppedHeader(ctx, ex, body);
    ctx.expect(!isTokenRefusal(ex, body), `${what}: GET ${path} with the token was refused: "${body.message}"`, ex);
  }
}

export const authArea: AreaSpec<AuthState> = {
  interface: 'rest-v1-shop',
  name: 'auth',
  checks: [
    {
      id: 'SHOP-ENV-07',
      title: 'the configured {api_root} ends in the version segment v1',
      run: async (ctx: C) => {
        const root = apiRoot(ctx);
        ctx.expect(/\/v1$/.test(root), `{api_root} should end in /v1 (9. Versioning), got ${root}`);
      },
    },
    {
      id: 'SHOP-AUTH-01',
      title:
        'register a fresh account with accented names, an emoji and a username with capitals: status true, <vendor>_token and user',
      run: async (ctx: C) => {
        // first_name and last_name are strings with no stated alphabet: non-ASCII letters, so a target that
        // stores them sanitized (accents removed, bytes mangled) is seen when login answers them (SHOP-AUTH-03);
        // an emoji outside the BMP (4 bytes in UTF-8), which a utf8mb3 column strips or turns into "?"; an apostrophe,
        // which a target that escapes text for HTML (esc_html) or slashes it (magic quotes) answers changed.
        const names = { first_name: 'Zoë\u{1F33B}', last_name: `${ctx.names.label('last')}-O'Brien-Ødegård-Müller` };
        // The password runs past 72 bytes (accented letters, two bytes each): a target hashing with bcrypt alone reads
        // only those, so SHOP-AUTH-06's wrong password, this one with a character more, would log in.
        const password = `${'é'.repeat(36)}${ctx.names.password()}`;
        // Capital letters in the username (letters and digits, the run's prefix first): a target that stores it folded
        // to lower case answers another user_login at register and login (SHOP-AUTH-03).
        const username = `${ctx.names.username()}Up`;
        // The username is tried at login before it exists, as an app's "log in or sign up" screen does: that refusal is
        // not judged here, but it must not outlive the register (a target whose lookup caches the miss refuses
        // SHOP-AUTH-02's login of the registered account).
        ctx.state.loginBeforeRegister = await login(ctx, username, password);
        await register(ctx, { ...names, password, username }, ({ account, body, ex }) => {
          ctx.expect(body.user && typeof body.user === 'object', 'register: user is missing', ex);
          ctx.state.registerEx = ex;
          ctx.state.account = account;
          ctx.state.registerBody = body;
        });
      },
    },
    {
      id: 'SHOP-AUTH-04',
      title: 'the register token is an RS256 JWT',
      needs: ['account'],
      run: async (ctx: C) => {
        const ex = await login(ctx, ctx.state.account!.username, ctx.state.account!.password);
        expectRs256(ctx, ctx.state.account!.token, ex, 'register token');
        // The login token too; the exchange above is the evidence of where it came from.
        const body = tryJson(ex);
        if (body?.status !== true)
          ctx.skip(
            `the register token is an RS256 JWT, but the login of that account was not answered with success (${ex.response ? `HTTP ${ex.response.status}, message ${JSON.stringify(body?.message)}` : `no response: ${ex.error}`}), so the login token was not seen`,
          );
        const t = tokenOf(ctx, body);
        ctx.expect(t, `login answered status true without a ${ctx.settings.vendor}_token to judge`, ex);
        expectRs256(ctx, t, ex, 'login token');
        ctx.state.loginToken = t;
      },
    },
    {
      id: 'SHOP-AUTH-03',
      title: 'the register user record carries the Part 2 fields, for the registered account',
      needs: ['registerBody', 'registerEx'],
      run: async (ctx: C) => {
        const body = ctx.state.registerBody!;
        const user = body.user as UserRecord;
        const ex = ctx.state.registerEx!;
        ctx.validate('rest-v1-shop/schemas/user.schema.json', user, ex, 'register user');
        ctx.expect(
          user.user_login === ctx.state.account!.username,
          `user.user_login should be the registered username, got ${JSON.stringify(user.user_login)}`,
          ex,
        );
        ctx.expect(
          user.user_email === ctx.state.account!.email,
          `user.user_email should be the registered email, got ${JSON.stringify(user.user_email)}`,
          ex,
        );
      },
    },
    {
      // Found by mutation testing: a register answer that added first_name and last_name survived the suite.
      id: 'SHOP-AUTH-13',
      title: 'the register user record carries no first_name / last_name (the last two on login only)',
      needs: ['registerBody', 'registerEx'],
      run: async (ctx: C) => {
        const user = ctx.state.registerBody!.user as UserRecord;
        const extra = ['first_name', 'last_name'].filter((k) => k in user);
        ctx.expect(
          extra.length === 0,
          `the register user record carries ${extra.join(', ')}; Part 2 gives them on login only`,
          ctx.state.registerEx!,
        );
      },
    },
    {
      id: 'SHOP-AUTH-02',
      title: 'login by username and password: status true, <vendor>_token and user',
      needs: ['account'],
      run: async (ctx: C) => {
        const a = ctx.state.account!;
        const ex = await login(ctx, a.username, a.password);
        const body = bareEnvelope(ctx, ex);
        const before = ctx.state.loginBeforeRegister;
        ctx.expect(
          body.status === true,
          `login with the registered credentials: expected status true, got ${String(body.status)}: "${body.message}"${
            before && tryJson(before)?.status === false
              ? ' (the username was tried at login once before its register, and refused then: is that lookup remembered?)'
              : ''
          }`,
          ...(before ? [before, ex] : [ex]),
        );
        const token = tokenOf(ctx, body);
        ctx.expect(token, `login: expected the token under "${ctx.settings.vendor}_token"`, ex);
        ctx.state.loginBody = body;
        ctx.state.loginEx = ex;
        ctx.state.loginToken = token;
        // The full schema last, so that SHOP-AUTH-03 still judges a user record with a mistyped field.
        conformsTo(ctx, ex, body, 'login');
      },
    },
    {
      id: 'SHOP-AUTH-03',
      title: 'the login user record carries the Part 2 fields and first_name, last_name',
      needs: ['loginBody', 'loginEx'],
      run: async (ctx: C) => {
        const ex = ctx.state.loginEx!;
        const user = ctx.state.loginBody!.user as UserRecord;
        ctx.validate('rest-v1-shop/schemas/user.schema.json', user, ex, 'login user');
        ctx.expect(
          user.user_login === ctx.state.account!.username,
          `user.user_login should be the username logged in, got ${JSON.stringify(user.user_login)}`,
          ex,
        );
        ctx.expect(
          user.first_name === ctx.state.account!.first_name,
          `user.first_name should be the registered first name, got ${JSON.stringify(user.first_name)}`,
          ex,
        );
        ctx.expect(
          user.last_name === ctx.state.account!.last_name,
          `user.last_name should be the registered last name, got ${JSON.stringify(user.last_name)}`,
          ex,
        );
        // One account, one record: the fields register answered come back the same at login (a registration time
        // converted to another time zone on one path only keeps the format and changes the value).
        const registered = ctx.state.registerBody?.user as UserRecord | undefined;
        if (!registered) return;
        const differ = ['ID', 'user_email', 'user_registered'].filter((k) => String(user[k]) !== String(registered[k]));
        ctx.expect(
          differ.length === 0,
          `the login user record differs from the register answer of the same account: ${differ.map((k) => `${k} ${JSON.stringify(user[k])} at login, ${JSON.stringify(registered[k])} at register`).join('; ')}`,
          ctx.state.registerEx!,
          ex,
        );
      },
    },
    {
      // An email is a string stored as sent: the "+" of a sub-address is a character, not a space of form decoding
      // applied a second time (which a sanitizer then drops). Read back at login too.
      id: 'SHOP-AUTH-03',
      title: 'an email with a "+" sub-address comes back as registered in user_email, at register and at login',
      run: async (ctx: C) => {
        const form = newAccountForm(ctx);
        form.email = form.email.replace('@', '+shop@');
        const ex = await call(ctx, 'POST', '/auth/register', { form: { ...form } });
        const body = bareEnvelope(ctx, ex);
        if (body.status !== true)
          ctx.skip(
            `register with the email ${form.email} was refused (${JSON.stringify(body.errors)}, "${body.message}"): the document gives no email format, so a refusal of "+" is not judged`,
          );
        const registered = (body.user as UserRecord | undefined)?.user_email;
        ctx.expect(
          registered === form.email,
          `register of ${form.email}: user.user_email should be the email sent, got ${JSON.stringify(registered)}`,
          ex,
        );
        const back = await login(ctx, form.username, form.password);
        const loginBody = bareEnvelope(ctx, back);
        ctx.expect(
          loginBody.status === true,
          `login of the account registered as ${form.email} failed: "${loginBody.message}"`,
          back,
        );
        const stored = (loginBody.user as UserRecord | undefined)?.user_email;
        ctx.expect(
          stored === form.email,
          `login of the account registered as ${form.email}: user.user_email should be that email, got ${JSON.stringify(stored)}`,
          ex,
          back,
        );
      },
    },
    {
      // A password is a string taken as sent: a login that trims it (WordPress's wp_authenticate does) while
      // register stored it whole never logs that account in; one trimmed on both paths still does.
      id: 'SHOP-AUTH-02',
      title: 'a password with a space at each end logs in as registered',
      run: async (ctx: C) => {
        const form = newAccountForm(ctx);
        form.password = ` ${form.password} `;
        const ex = await call(ctx, 'POST', '/auth/register', { form: { ...form } });
        const body = bareEnvelope(ctx, ex);
        if (body.status !== true)
          ctx.skip(
            `register with a password holding a space at each end was refused (${JSON.stringify(body.errors)}, "${body.message}"): the document gives no password rule, so the refusal is not judged`,
          );
        const back = await login(ctx, form.username, form.password);
        const loginBody = bareEnvelope(ctx, back);
        ctx.expect(
          loginBody.status === true,
          `login with the password registered as ${JSON.stringify(form.password)} failed: "${loginBody.message}"`,
          ex,
          back,
        );
      },
    },
    {
      id: 'SHOP-AUTH-12',
      title: 'the login token is accepted in the <vendor>_token header',
      needs: ['loginToken'],
      run: (ctx: C) => expectTokenAccepted(ctx, ctx.state.loginToken!, 'login token'),
    },
    {
      id: 'SHOP-AUTH-12',
      title: 'the token of a new registration is accepted in the <vendor>_token header',
      run: async (ctx: C) => {
        const { account } = await register(ctx);
        await expectTokenAccepted(ctx, account.token, 'register token');
      },
    },
    {
      id: 'SHOP-ENV-02',
      title: 'successful requests answer status true: login, products page 1 and the last page (total_pages), a listed product',
      needs: ['account'],
      run: async (ctx: C) => {
        const a = ctx.state.account!;
        const exs = [await login(ctx, a.username, a.password), await listProducts(ctx, { page: 1 })];
        const listing = tryJson(exs[1]!)?.data as { products?: { id: number }[]; total_pages?: unknown } | undefined;
        const first = listing?.products?.[0];
        if (first) exs.push(await getProduct(ctx, first.id, { known: true }));
        // The last page lists products as well: a success like page 1 (found by the fault catalog: a listing that
        // answered status false on its last page to stop an app's infinite scroll).
        const lastPage = listing?.total_pages;
        if (typeof lastPage === 'number' && Number.isInteger(lastPage) && lastPage >= 2 && lastPage <= 1000) {
          const last = await listProducts(ctx, { page: lastPage });
          const products = (tryJson(last)?.data as { products?: unknown } | undefined)?.products;
          if (Array.isArray(products) && products.length > 0) exs.push(last);
          else ctx.note(`page ${lastPage} (total_pages) lists no product: not judged here (SHOP-PROD-05's)`);
        }
        for (const ex of exs) {
          const body = bareEnvelope(ctx, ex);
          ctx.expect(
            body.status === true,
            `${ex.request.method} ${ex.request.url} succeeded in substance but answered status ${String(body.status)}`,
            ex,
          );
        }
      },
    },
    {
      id: 'SHOP-SEC-06',
      title: 'login and register do not return the password hash',
      needs: ['registerBody', 'registerEx', 'loginBody', 'loginEx'],
      run: async (ctx: C) => {
        for (const [what, body, ex] of [
          ['register', ctx.state.registerBody!, ctx.state.registerEx!],
          ['login', ctx.state.loginBody!, ctx.state.loginEx!],
        ] as const) {
          const user = body.user as UserRecord;
          ctx.expect(
            !('user_pass' in user),
            `${what} returns user.user_pass (a password hash); the document names it for user-info only`,
            ex,
          );
        }
      },
    },
    {
      id: 'SHOP-AUTH-06',
      title: 'login with a wrong password: status false, a message, no token',
      needs: ['account'],
      run: async (ctx: C) => {
        const ex = await login(ctx, ctx.state.account!.username, `${ctx.state.account!.password}x`);
        const body = envelope(ctx, ex, 'login');
        ctx.expect(body.status === false, `wrong password: expected status false, got ${String(body.status)}`, ex);
        ctx.expect(body.message.trim() !== '', 'wrong password: expected a failure message (invalid login details), got ""', ex);
        ctx.expect(tokenOf(ctx, body) === undefined, 'wrong password: a token came back', ex);
      },
    },
    {
      id: 'SHOP-ENV-03',
      title: 'a failed login answers status false',
      run: async (ctx: C) => {
        const ex = await login(ctx, ctx.names.username(), 'Not-the-password-1');
        const body = bareEnvelope(ctx, ex);
        ctx.expect(body.status === false, `login of an unknown user: expected status false, got ${String(body.status)}`, ex);
      },
    },
    {
      id: 'SHOP-AUTH-05',
      title: 'login without password / without username: errors keyed by the field',
      run: async (ctx: C) => {
        const noPass = await call(ctx, 'POST', '/auth/login', { form: { username: ctx.names.username() } });
        expectFieldError(ctx, noPass, envelope(ctx, noPass, 'login'), 'password', 'login without password');
        const noUser = await call(ctx, 'POST', '/auth/login', { form: { password: 'Some-pass-123' } });
        expectFieldError(ctx, noUser, envelope(ctx, noUser, 'login'), 'username', 'login without username');
      },
    },
    {
      // Found by mutation testing: errors that also named the field sent correctly survived the suite.
      id: 'SHOP-AUTH-14',
      title: 'errors name only the fields at fault: login without one field, register with one field taken',
      needs: ['account'],
      run: async (ctx: C) => {
        const a = ctx.state.account!;
        const tries: { what: string; path: string; form: Record<string, string>; at: string; sent: string }[] = [
          {
            what: 'login without password',
            path: '/auth/login',
            form: { username: ctx.names.username() },
            at: 'password',
            sent: 'username',
          },
          {
            what: 'login without username',
            path: '/auth/login',
            form: { password: 'Some-pass-123' },
            at: 'username',
            sent: 'password',
          },
          {
            what: 'register with an existing username and a fresh email',
            path: '/auth/register',
            form: { ...newAccountForm(ctx), username: a.username },
            at: 'username',
            sent: 'email',
          },
          {
            what: 'register with an existing email and a fresh username',
            path: '/auth/register',
            form: { ...newAccountForm(ctx), email: a.email },
            at: 'email',
            sent: 'username',
          },
        ];
        for (const t of tries) {
          const ex = await call(ctx, 'POST', t.path, { form: t.form });
          const body = envelope(ctx, ex, t.path === '/auth/login' ? 'login' : 'register');
          expectFieldError(ctx, ex, body, t.at, t.what);
          ctx.expect(
            !(t.sent in errorsObject(body)!),
            `${t.what}: errors also names ${t.sent}, which was sent and is not at fault: ${JSON.stringify(body.errors)}`,
            ex,
          );
        }
      },
    },
    {
      // Found by the mutation audit: a register that named only the email when both were taken survived the suite.
      id: 'SHOP-AUTH-15',
      title: 'register with an existing username and an existing email: errors keyed by both',
      needs: ['account'],
      run: async (ctx: C) => {
        const a = ctx.state.account!;
        const form = { ...newAccountForm(ctx), username: a.username, email: a.email };
        const ex = await call(ctx, 'POST', '/auth/register', { form });
        const body = envelope(ctx, ex, 'register');
        for (const field of ['username', 'email']) {
          expectFieldError(ctx, ex, body, field, 'register with an existing username and an existing email');
        }
      },
    },
    {
      id: 'SHOP-ENV-04',
      title: 'register with no field filled: errors is an object keyed by field names, each with a message',
      run: async (ctx: C) => {
        const ex = await call(ctx, 'POST', '/auth/register', { form: { first_name: '' } });
        const body = envelope(ctx, ex, 'register');
        ctx.expect(body.status === false, `register with no field filled: expected status false, got ${String(body.status)}`, ex);
        const errors = errorsObject(body);
        // A target may report the first missing field only; every key it reports must be a field.
        ctx.expect(
          errors && Object.keys(errors).length > 0,
          `expected errors as an object keyed by field name, got ${JSON.stringify(body.errors)}`,
          ex,
        );
        const fields = ['username', 'first_name', 'last_name', 'password', 'email'];
        const stray = Object.keys(errors).filter((k) => !fields.includes(k));
        ctx.expect(stray.length === 0, `errors keys ${stray.join(', ')} are not fields of the register body`, ex);
        for (const k of Object.keys(errors)) expectFieldError(ctx, ex, body, k, 'register with no field filled');
      },
    },
    {
      id: 'SHOP-AUTH-07',
      title: 'register with an existing username: errors.username',
      needs: ['account'],
      run: async (ctx: C) => {
        const form = { ...newAccountForm(ctx), username: ctx.state.account!.username };
        const ex = await call(ctx, 'POST', '/auth/register', { form });
        expectFieldError(ctx, ex, envelope(ctx, ex, 'register'), 'username', 'register with an existing username');
      },
    },
    {
      id: 'SHOP-AUTH-08',
      title: 'register with an existing email: errors.email',
      needs: ['account'],
      run: async (ctx: C) => {
        const form = { ...newAccountForm(ctx), email: ctx.state.account!.email };
        const ex = await call(ctx, 'POST', '/auth/register', { form });
        expectFieldError(ctx, ex, envelope(ctx, ex, 'register'), 'email', 'register with an existing email');
      },
    },
    {
      // The existing email behind a leading space: a target that looks the email up as sent and stores it trimmed (a
      // sanitizer drops whitespace) registers a second account with it. A refusal keeps the rule whatever its key (taken,
      // or not a valid email); an acceptance that stores the space kept another string.
      id: 'SHOP-AUTH-08',
      title: 'register with an existing email behind a leading space: refused, or not stored as that email',
      needs: ['account'],
      run: async (ctx: C) => {
        const existing = ctx.state.account!.email;
        const form = { ...newAccountForm(ctx), email: ` ${existing}` };
        const ex = await call(ctx, 'POST', '/auth/register', { form });
        const body = envelope(ctx, ex, 'register');
        const stored = body.status === true ? (body.user as { user_email?: unknown } | undefined)?.user_email : undefined;
        ctx.expect(
          stored !== existing,
          `register with " ${existing}" (the email of ${ctx.state.account!.username} behind a space) answered status true with user_email "${existing}": a second account with an email that already exists`,
          ex,
        );
      },
    },
    {
      // Uniqueness holds for writes that race: a target that checks the username and email, then inserts, with no
      // constraint in between, lets two identical registers sent together both succeed. Two requests and a login.
      id: 'SHOP-AUTH-16',
      title:
        'two identical registers sent at the same time: one status true, one refused keyed username or email; the account logs in',
      run: async (ctx: C) => {
        const form = newAccountForm(ctx);
        const both = await Promise.all([0, 1].map(() => call(ctx, 'POST', '/auth/register', { form: { ...form } })));
        const answers = both.map((ex) => ({ ex, body: envelope(ctx, ex, 'register') }));
        const won = answers.filter((a) => a.body.status === true).length;
        // Two refusals keep the rule (nothing was registered twice) but leave the race unobserved.
        if (won === 0)
          ctx.skip(
            `neither of two identical registers of ${form.username} sent together was accepted: ${answers.map((a) => JSON.stringify(a.body.errors)).join(' / ')}`,
          );
        ctx.expect(
          won === 1,
          `two identical registers of ${form.username} / ${form.email} sent together both answered status true: the username and email are unique, so one of them should be refused`,
          ...both,
        );
        const lost = answers.find((a) => a.body.status !== true)!;
        const errors = errorsObject(lost.body);
        ctx.expect(
          errors !== undefined && ('username' in errors || 'email' in errors),
          `the register that lost the race should be refused with errors keyed username or email (already existing), got errors ${JSON.stringify(lost.body.errors)}`,
          lost.ex,
        );
        const back = await login(ctx, form.username, form.password);
        const body = bareEnvelope(ctx, back);
        ctx.expect(
          body.status === true,
          `the account ${form.username} registered by the race does not log in: "${body.message}"`,
          back,
        );
      },
    },
    {
      id: 'SHOP-AUTH-09',
      title: 'register with a username holding other characters than letters and digits: errors.username',
      run: async (ctx: C) => {
        for (const bad of [`${ctx.names.username()}-x`, `${ctx.names.username()} x`, `${ctx.names.username()}_x`]) {
          const ex = await call(ctx, 'POST', '/auth/register', { form: { ...newAccountForm(ctx), username: bad } });
          expectFieldError(ctx, ex, envelope(ctx, ex, 'register'), 'username', `register with username "${bad}"`);
        }
      },
    },
    {
      // A pattern anchored with PCRE's $ (no D modifier) matches before a final line feed: "name\n" passes and is
      // stored as sent. A trim before the rule (servers trim input fields) stores the letters and digits: conforms.
      id: 'SHOP-AUTH-09',
      title: 'register with a username ending in a line feed: refused, or stored without it',
      run: async (ctx: C) => {
        const name = `${ctx.names.username()}\n`;
        // Multipart carries a line break as CR LF (the HTML form encoding): the bare line feed goes url-encoded,
        // which PHP's $_POST reads as it reads multipart.
        const ex = await ctx.http.send({
          method: 'POST',
          url: `${apiRoot(ctx)}/auth/register`,
          urlencoded: { ...newAccountForm(ctx), username: name },
        });
        const body = envelope(ctx, ex, 'register');
        if (body.status !== true) return;
        const login = (body.user as UserRecord | undefined)?.user_login;
        ctx.expect(
          typeof login === 'string' && /^[A-Za-z0-9]+$/.test(login),
          `register with username ${JSON.stringify(name)} (url-encoded) was accepted with user.user_login ${JSON.stringify(login)}: a username holding a character other than letters and digits`,
          ex,
        );
      },
    },
    {
      id: 'SHOP-AUTH-10',
      title: 'register without each required field: errors keyed by that field, and no account (its login fails)',
      run: async (ctx: C) => {
        for (const field of ['first_name', 'last_name', 'password', 'email'] as const) {
          const form: Record<string, string> = { ...newAccountForm(ctx) };
          delete form[field];
          const ex = await call(ctx, 'POST', '/auth/register', { form });
          expectFieldError(ctx, ex, envelope(ctx, ex, 'register'), field, `register without ${field}`);
          if (field === 'password') continue;
          // A refused register registers nothing: a target that creates the account before it checks the field
          // answers the refusal, yet the username logs in (and a corrected retry finds it taken).
          const back = await login(ctx, form.username!, form.password!);
          ctx.expect(
            tryJson(back)?.status !== true,
            `register without ${field} was refused, yet its username and password log in: the account was created without a required field`,
            ex,
            back,
          );
        }
      },
    },
    {
      // A name present but empty is as missing as an absent one (the sibling of SHOP-ORD-10 on register): a target that
      // checks the names with isset() registers an account without them.
      id: 'SHOP-AUTH-17',
      title: 'register with first_name or last_name sent empty: errors keyed by that field',
      run: async (ctx: C) => {
        for (const field of ['first_name', 'last_name'] as const) {
          const form: Record<string, string> = { ...newAccountForm(ctx), [field]: '' };
          const ex = await call(ctx, 'POST', '/auth/register', { form });
          expectFieldError(ctx, ex, envelope(ctx, ex, 'register'), field, `register with ${field} ""`);
        }
      },
    },
    {
      id: 'SHOP-AUTH-11',
      title: 'every token endpoint refuses a request without the token header, asking for it',
      run: async (ctx: C) => {
        for (const e of TOKEN_ENDPOINTS) {
          const ex = await call(ctx, e.method, e.path, e.form ? { form: e.form } : {});
          const body = bareEnvelope(ctx, ex);
          ctx.expect(
            body.status === false,
            `${e.method} ${e.path} without the token: expected status false, got ${String(body.status)}`,
            ex,
          );
          ctx.expect(
            /token/i.test(body.message),
            `${e.method} ${e.path} without the token: expected a message asking for the token in the header, got "${body.message}"`,
            ex,
          );
        }
      },
    },
  ],
};
