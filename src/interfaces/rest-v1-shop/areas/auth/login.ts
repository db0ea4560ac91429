// The account logs in, and what register and login answer holds up: values as sent, tokens taken, no password hash.
import type { CheckSpec } from '../../../../checks/model.js';
import { bareEnvelope, call, conformsTo, getProduct, listProducts, tokenOf, tryJson } from '../../client.js';
import { login, newAccountForm, register } from '../../flows.js';
import type { AuthState, C, UserRecord } from './state.js';
import { expectTokenAccepted } from './token-expectations.js';

export const loginChecks: CheckSpec<AuthState>[] = [
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
];
