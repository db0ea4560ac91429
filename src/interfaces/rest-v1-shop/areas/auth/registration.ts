// First the api root the area calls, then the account every later check logs in or reuses: its register is judged here.
import type { CheckSpec } from '../../../../checks/model.js';
import { apiRoot, tokenOf, tryJson } from '../../client.js';
import { login, register } from '../../flows.js';
import type { AuthState, C, UserRecord } from './state.js';
import { expectRs256 } from './token-expectations.js';

export const registrationChecks: CheckSpec<AuthState>[] = [
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
];
