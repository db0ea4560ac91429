// A login that must fail: wrong or unknown credentials, a missing field, and errors that name only the field at fault.
import type { CheckSpec } from '../../../../checks/model.js';
import { bareEnvelope, call, envelope, errorsObject, expectFieldError, tokenOf } from '../../client.js';
import { login, newAccountForm } from '../../flows.js';
import type { AuthState, C } from './state.js';

export const loginRefusalChecks: CheckSpec<AuthState>[] = [
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
];
