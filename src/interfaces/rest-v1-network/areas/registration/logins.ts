// What C registered with (case, spaces, a long password, marked names) must be what its login accepts and answers.
import type { CheckSpec } from '../../../../checks/model.js';
import { type Call, isObject, net } from '../../client.js';
import { conforms, described, envelope, refused, succeeded } from '../../expect.js';
import { type Account, register, registerForm } from '../../provision.js';
import { A, C_NAMES, type Ctx, TAIL, type TreeState } from './state.js';

/** JSON with every character past ASCII as \uXXXX: a precomposed and a decomposed letter print alike. */
const escaped = (v: unknown) =>
  JSON.stringify(v).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const loginChecks: CheckSpec<TreeState>[] = [
  {
    id: 'NET-AUTH-01',
    title:
      "C logs in with the username and password it registered with (a username with capitals, a password beginning with a space and holding <i>, %41, two spaces, a backslash and accented letters past 72 bytes), answered with C's user and net_user",
    needs: ['c'],
    async run(ctx: Ctx) {
      // Login is the only way back into an account: what register stored must be what login verifies.
      const c = ctx.state.c as Account;
      const call = await net(ctx).login(c.username, c.password);
      ctx.state.cLogin = call;
      succeeded(ctx, call, `login as ${c.username} with the password sent at register (${JSON.stringify(c.password)})`);
      conforms(ctx, call, 'auth-login');
      // Whether user_login keeps the case sent is not shown: the account is C's either way.
      const login = isObject(call.body.user) ? call.body.user.user_login : undefined;
      ctx.expect(
        typeof login === 'string' && login.toLowerCase() === c.username.toLowerCase(),
        `login as ${c.username}: user.user_login is ${JSON.stringify(login)}`,
        call.ex,
      );
      // And its net_user is C's binary record, the one its register answered (C was placed at A's right).
      const key = c.netUser?.user_key;
      if (typeof key === 'string' && key !== '') {
        const got = isObject(call.body.net_user) ? call.body.net_user : undefined;
        ctx.expect(
          got?.user_key === key,
          `login as ${c.username}: expected net_user of user_key ${key} (its register's), got ${JSON.stringify(got ? { user_key: got.user_key, user_name: got.user_name } : call.body.net_user)}`,
          c.call.ex,
          call.ex,
        );
      }
    },
  },
  {
    id: 'NET-AUTH-03',
    title: "login as C with C's password changed past its 72nd byte only (its last characters): refused",
    needs: ['c'],
    async run(ctx: Ctx) {
      // A password is the whole string: a hash that reads only a prefix of it (bcrypt: 72 bytes) takes
      // any password alike in that prefix.
      const c = ctx.state.c as Account;
      if (!c.password.endsWith(TAIL) || Buffer.byteLength(c.password.slice(0, -TAIL.length)) < 72)
        ctx.skip("C's password does not run past 72 bytes before its tail");
      const wrong = `${c.password.slice(0, -TAIL.length)}Yy8`;
      const call = await net(ctx).login(c.username, wrong);
      refused(ctx, call, `login as ${c.username} with the password C registered with but its last 3 characters`);
      ctx.expect(!net(ctx).tokenOf(call.body), 'a refused login must not carry a token', call.ex);
    },
  },
  {
    id: 'NET-AUTH-09',
    title:
      "C's login answers the names C registered with (an ampersand, an apostrophe, a combining mark), not HTML-escaped or normalised",
    needs: ['cLogin'],
    async run(ctx: Ctx) {
      const call = ctx.state.cLogin as Call;
      if (call.body.status !== true) ctx.skip(`C's login was refused (NET-AUTH-01): ${described(call)}`);
      const user = isObject(call.body.user) ? call.body.user : {};
      const got = { first_name: user.first_name, last_name: user.last_name };
      ctx.expect(
        got.first_name === C_NAMES.first_name && got.last_name === C_NAMES.last_name,
        `login as C: expected the names registered, ${escaped(C_NAMES)}, got ${escaped(got)}`,
        (ctx.state.c as Account).call.ex,
        call.ex,
      );
    },
  },
  {
    id: 'NET-AUTH-01',
    title:
      "register C's username in lower case (a new e-mail and password) at E's free left: refused, or a new account that logs in with the username and password it registered with",
    needs: ['c', 'e'],
    async run(ctx: Ctx) {
      // Whether usernames differing in letter case only are one username is not shown: a refusal conforms.
      // An account register accepted is one login must reach: a target whose register compares the case and
      // whose login does not gives the new account's login to C, and refuses the new password.
      const c = ctx.state.c as Account;
      const e = ctx.state.e as Account;
      const twin = c.username.toLowerCase();
      const form = registerForm(ctx, { sponsor: A(ctx).username, parent: e.username, position: 'left' }, { username: twin });
      const { call } = await register(ctx, form);
      envelope(ctx, call, `register ${twin} (C, ${c.username}, in lower case)`);
      if (call.body.status !== true) {
        ctx.note(`register refused ${twin} beside C (${c.username}): usernames are one whatever their case`);
        return;
      }
      const login = await net(ctx).login(twin, String(form.password));
      succeeded(
        ctx,
        login,
        `login as ${twin} with the password it registered with (register accepted it beside C, ${c.username}, registered before)`,
      );
      const email = isObject(login.body.user) ? login.body.user.user_email : undefined;
      ctx.expect(
        typeof email === 'string' && email.toLowerCase() === String(form.email).toLowerCase(),
        `login as ${twin}: expected the account registered as ${twin} (${form.email}), got user_email ${JSON.stringify(email)}`,
        call.ex,
        login.ex,
      );
    },
  },
];
