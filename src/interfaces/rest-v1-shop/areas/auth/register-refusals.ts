// A register that must be refused: a username or email taken (also in a race), a bad username, a missing field.
import type { CheckSpec } from '../../../../checks/model.js';
import { apiRoot, bareEnvelope, call, envelope, errorsObject, expectFieldError, tryJson } from '../../client.js';
import { login, newAccountForm } from '../../flows.js';
import type { AuthState, C, UserRecord } from './state.js';

export const registerRefusalChecks: CheckSpec<AuthState>[] = [
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
];
