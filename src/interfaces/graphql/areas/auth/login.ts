// login's answer (the token, user_data, the selected fields) and its refusals of a wrong password or e-mail.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { CheckSpec } from '../../../../checks/model.js';
import { hasErrors } from '../../../../graphql/client.js';
import {
  expectRefused,
  expectSelection,
  freshAccount,
  gql,
  loginToken,
  op,
  record,
  refusal,
  register,
  short,
  validateData,
} from '../../client.js';
import { loginWorks } from './accounts.js';
import type { AuthState, C } from './state.js';

export const loginChecks: CheckSpec<AuthState>[] = [
  {
    id: 'GQL-LOGIN-01',
    title:
      'login returns <vendor>_token and user_data {firstname, lastname, email}, also for an account whose e-mail holds capitals',
    needs: ['loginRes'],
    async run(ctx: C) {
      // The account GQL-REG-01 registered with capitals in its e-mail logs in with that e-mail as sent.
      const capitals = ctx.state.capitals;
      if (capitals) {
        const works = await loginWorks(ctx, capitals);
        ctx.expect(
          works,
          `login with ${JSON.stringify(capitals.email)}, the e-mail an account was registered with (register: true), returned no token`,
          ...ctx.http.exchanges.slice(-1),
        );
      } else ctx.note('GQL-REG-01 registered no account: the login of an e-mail with capitals is not judged');
      validateData(ctx, ctx.state.loginRes!, 'login');
    },
  },
  {
    id: 'GQL-LOGIN-01',
    title: 'an account registered with a + in its e-mail (sub-addressing) logs in with that e-mail',
    async run(ctx: C) {
      // A + read as a form's space (urldecode) on the login path alone loses the account.
      const account = freshAccount(ctx);
      account.email = account.email.replace('@', '+sub@');
      const res = await register(ctx, account);
      // Which characters an e-mail may hold is not stated: judged only where register takes this one.
      if (res.data?.register !== true || hasErrors(res.errors))
        ctx.skip(
          `register of ${account.email} was refused (${refusal(res, 'register') ?? short(res.data?.register)}): no account with a + in its e-mail to log in`,
        );
      const back = await op(ctx, 'login', { email: account.email, password: account.password });
      const token = loginToken(ctx, back);
      ctx.expect(
        typeof token === 'string' && token.length > 0,
        `login with ${JSON.stringify(account.email)}, the e-mail an account was registered with (register: true): expected a token, got ${refusal(back, 'login') ?? short(back.data?.login)}`,
        res.exchange,
        back.exchange,
      );
    },
  },
  {
    id: 'GQL-ENV-03',
    title: 'login returns exactly the selected fields, and only the token when only the token is selected',
    needs: ['loginRes', 'account'],
    async run(ctx: C) {
      expectSelection(ctx, ctx.state.loginRes!);
      const a = ctx.state.account!;
      const res = await gql(ctx).runText(
        'mutation login($email: String!, $password: String!) { login(email: $email, password: $password) { svc_token } }',
        {
          email: a.email,
          password: a.password,
        },
      );
      const result = record(res.data?.login);
      ctx.expect(result, `expected a login result, got ${refusal(res, 'login')}`, res.exchange);
      expectSelection(ctx, res);
    },
  },
  {
    id: 'GQL-LOGIN-02',
    title: 'the token is a JWT whose protected header says alg RS256',
    needs: ['token', 'loginRes'],
    async run(ctx: C) {
      const token = ctx.state.token!;
      const ex = ctx.state.loginRes!.exchange;
      let alg: unknown;
      try {
        alg = decodeProtectedHeader(token).alg;
        decodeJwt(token);
      } catch (e) {
        ctx.fail(
          `expected a JWT (header.payload.signature, base64url JSON), got one jose cannot decode: ${(e as Error).message}`,
          ex,
        );
      }
      ctx.expect(alg === 'RS256', `expected protected header alg "RS256", got ${JSON.stringify(alg)}`, ex);
      ctx.expect(token.split('.')[2]?.length, 'expected a signature segment; the token is unsigned', ex);
    },
  },
  {
    id: 'GQL-LOGIN-03',
    title: 'user_data is the firstname, lastname and email of the account, as sent (an apostrophe, quotes, markup, accents)',
    needs: ['loginRes', 'account'],
    async run(ctx: C) {
      const a = ctx.state.account!;
      const res = ctx.state.loginRes!;
      const user = record(record(res.data?.login)?.user_data);
      if (!user) ctx.fail('expected user_data to be an object', res.exchange);
      const got = { firstname: user.firstname, lastname: user.lastname, email: user.email };
      const want = { firstname: a.firstname, lastname: a.lastname, email: a.email };
      ctx.expect(
        JSON.stringify(got) === JSON.stringify(want),
        `expected user_data ${JSON.stringify(want)}, got ${JSON.stringify(got)}`,
        res.exchange,
      );
    },
  },
  {
    id: 'GQL-LOGIN-03',
    title: "a login with the e-mail typed in upper case, where it is accepted, answers the account's e-mail as registered",
    needs: ['account'],
    async run(ctx: C) {
      const a = ctx.state.account!;
      const typed = a.email.toUpperCase();
      if (typed === a.email) ctx.skip(`the account's e-mail ${a.email} has no letter to write in another case`);
      // Whether login matches an e-mail case-insensitively is not stated: only an accepted login is judged, and
      // its user_data is the account's, not an echo of the argument. 1 request.
      const res = await op(ctx, 'login', { email: typed, password: a.password });
      const user = record(record(res.data?.login)?.user_data);
      if (!user)
        ctx.skip(
          `login with ${typed} was refused (${refusal(res, 'login') ?? short(res.data?.login)}): the target matches e-mails by case`,
        );
      ctx.state.caseless = typed;
      ctx.expect(
        user.email === a.email,
        `login typed as ${JSON.stringify(typed)} was accepted for the account registered as ${JSON.stringify(a.email)}: expected user_data.email ${JSON.stringify(a.email)}, got ${short(user.email)}`,
        res.exchange,
      );
    },
  },
  {
    id: 'GQL-LOGIN-04',
    title: 'login with a wrong password or an unknown e-mail is refused and returns no token',
    needs: ['account'],
    async run(ctx: C) {
      const a = ctx.state.account!;
      for (const [what, vars] of [
        ['wrong password', { email: a.email, password: `${a.password}x` }],
        ['unknown e-mail', { email: ctx.names.email(), password: a.password }],
      ] as const) {
        const res = await op(ctx, 'login', vars);
        const token = loginToken(ctx, res);
        ctx.expect(!(typeof token === 'string' && token.length > 0), `${what}: expected no token, got one`, res.exchange);
      }
    },
  },
  {
    id: 'GQL-LOGIN-04',
    title:
      'an account whose password runs past 72 bytes in 35 characters refuses a login whose password differs after the 72nd byte',
    async run(ctx: C) {
      // A store that hashes with bcrypt (password_hash) reads only the first 72 bytes, and every other password of the
      // suite is shorter. Three-byte characters put the 73rd byte within 35 characters, a length targets take (the
      // platform caps passwords at 40 characters, the document states no length, so a refusal at register is a skip).
      const base = ctx.names.password().slice(0, 12);
      let head = `${base}${'€'.repeat(Math.floor((72 - Buffer.byteLength(base)) / 3))}`;
      while (Buffer.byteLength(head) < 72) head += 'x';
      const account = { ...freshAccount(ctx), password: `${head}-T1` };
      const reg = await register(ctx, account);
      if (reg.data?.register !== true || hasErrors(reg.errors))
        ctx.skip(
          `register refused a password of ${account.password.length} characters, ${Buffer.byteLength(account.password)} bytes (${refusal(reg, 'register') ?? short(reg.data?.register)}): passwords past 72 bytes are not judged`,
        );
      const wrong = `${head}-T2`;
      const res = await op(ctx, 'login', { email: account.email, password: wrong });
      const token = loginToken(ctx, res);
      ctx.expect(
        !(typeof token === 'string' && token.length > 0),
        `the account registered with a password of ${Buffer.byteLength(account.password)} bytes ending "-T1" gave a token to a login with the same first 72 bytes and the ending "-T2": a wrong password (compared on its first 72 bytes only?)`,
        reg.exchange,
        res.exchange,
      );
    },
  },
  {
    id: 'GQL-ENV-04',
    title: 'a refused login says so (errors, status false, or a null login)',
    needs: ['account'],
    async run(ctx: C) {
      const a = ctx.state.account!;
      const res = await op(ctx, 'login', { email: a.email, password: `${a.password}x` });
      expectRefused(ctx, res, 'login', 'login with a wrong password');
    },
  },
];
