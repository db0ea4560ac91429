// What register must refuse (a missing field, a confirm unlike the password) and which passwords it must take.
import type { CheckSpec } from '../../../../checks/model.js';
import { hasErrors } from '../../../../graphql/client.js';
import { customerInput, freshAccount, gql, login, loginToken, op, phoneForm, refusal, register, short } from '../../client.js';
import { loginWorks } from './accounts.js';
import type { AuthState, C } from './state.js';

/** The ASCII special characters (OWASP's list without the space): "letters, digits and special characters" ("8. Limits"). */
const SPECIAL = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

export const registerRuleChecks: CheckSpec<AuthState>[] = [
  {
    id: 'GQL-REG-02',
    title:
      'register without any one CustomerInput field is refused (all fields are required), and without firstname no account is made',
    async run(ctx: C) {
      const form = phoneForm(ctx) ?? 'string';
      // "CustomerInput (input object of register; all required)": each field left out in turn.
      const fields = Object.keys(customerInput(ctx, freshAccount(ctx), form));
      for (const field of fields) {
        const account = freshAccount(ctx);
        const input = customerInput(ctx, account, form);
        delete input[field];
        if (field === 'password') delete input.confirm;
        // Sent without the suite's request-schema check: the missing field is the point.
        const res = await gql(ctx).run('register', { input });
        ctx.expect(
          res.data?.register !== true || hasErrors(res.errors),
          `register without ${field}: expected a refusal, got register: true`,
          res.exchange,
        );
        if (field === 'firstname') {
          const loggedIn = await loginWorks(ctx, account);
          if (loggedIn)
            ctx.fail('register without firstname was refused, yet the account can log in', res.exchange, loggedIn.exchange);
        }
      }
    },
  },
  {
    id: 'GQL-REG-02',
    title: 'register with firstname sent as null (a required field without a value) is refused',
    async run(ctx: C) {
      // "all required": in GraphQL a field sent as null has no value, as one left out. A check that the key is
      // there (array_key_exists) takes the null. Sent past the suite's request schema, which refuses it. 1 request.
      const input = { ...customerInput(ctx, freshAccount(ctx), phoneForm(ctx) ?? 'string'), firstname: null };
      const res = await gql(ctx).run('register', { input });
      ctx.expect(
        res.data?.register !== true || hasErrors(res.errors),
        'register with firstname: null: expected a refusal (every CustomerInput field is required), got register: true',
        res.exchange,
      );
    },
  },
  {
    id: 'GQL-ENV-04',
    title: 'a refused register never answers register: true (true is the success answer)',
    needs: ['account'],
    async run(ctx: C) {
      // "register: Boolean (true on success)": true with errors beside it looks like success.
      const form = phoneForm(ctx) ?? 'string';
      const fresh = freshAccount(ctx);
      const noFirstname = customerInput(ctx, fresh, form);
      delete noFirstname.firstname;
      const cases: [string, Record<string, unknown>][] = [
        ['an e-mail already registered', customerInput(ctx, { ...freshAccount(ctx), email: ctx.state.account!.email }, form)],
        [
          'confirm differing from password',
          { ...customerInput(ctx, freshAccount(ctx), form), confirm: `${fresh.password}-other` },
        ],
        ['no firstname', noFirstname],
      ];
      for (const [what, input] of cases) {
        const res = await gql(ctx).run('register', { input });
        ctx.expect(
          res.data?.register !== true,
          `register with ${what}: expected a refusal (false, null or no result), got register: true${hasErrors(res.errors) ? ' beside errors' : ''}`,
          res.exchange,
        );
      }
    },
  },
  {
    id: 'GQL-REG-06',
    title:
      'register whose confirm differs from password is refused, and no account is made; also a confirm equal to the password as a number only ("1500" for "+1.5e3")',
    async run(ctx: C) {
      const account = freshAccount(ctx);
      const input = { ...customerInput(ctx, account, phoneForm(ctx) ?? 'string'), confirm: `${account.password}-other` };
      const res = await op(ctx, 'register', { input });
      ctx.expect(
        res.data?.register !== true || hasErrors(res.errors),
        'expected a refusal when confirm differs from password, got register: true',
        res.exchange,
      );
      // A refusal that still wrote (the comparison below the insert) leaves an account that logs in.
      const loggedIn = await loginWorks(ctx, account);
      if (loggedIn)
        ctx.fail(
          'register whose confirm differs from password was refused, yet the account can log in with that password',
          res.exchange,
          loggedIn.exchange,
        );
      // A confirm that differs as text but reads as the same number: a comparison by PHP's != (not !==)
      // takes the two numeric strings as numbers. The password holds digits, a letter and special characters.
      const numeric = customerInput(ctx, { ...freshAccount(ctx), password: '+1.5e3' }, phoneForm(ctx) ?? 'string');
      const loose = await op(ctx, 'register', { input: { ...numeric, confirm: '1500' } });
      ctx.expect(
        loose.data?.register !== true || hasErrors(loose.errors),
        'expected a refusal when confirm "1500" differs from password "+1.5e3" (the same number, not the same text), got register: true',
        loose.exchange,
      );
    },
  },
  {
    id: 'GQL-REG-05',
    title:
      'passwords of letters, digits and special characters (every ASCII one) register and log in, one with a space at each end too if register takes it; records whether letters alone are refused (AMB-GQL-03)',
    async run(ctx: C) {
      const account = { ...freshAccount(ctx), password: `Ab1-#$%&*-${ctx.names.label('p')}` };
      const res = await register(ctx, account);
      ctx.expect(
        res.data?.register === true,
        `expected register: true for password of letters, digits and special characters, got ${refusal(res, 'register')}`,
        res.exchange,
      );
      await login(ctx, account);
      // Every ASCII special character, in two passwords of at most 20 characters: quotes and the
      // backslash are where an escaping applied on one side only (register or login) shows.
      for (const special of [SPECIAL.slice(0, 15), SPECIAL.slice(15)]) {
        const other = { ...freshAccount(ctx), password: `Ab1${special}` };
        const reg = await register(ctx, other);
        ctx.expect(
          reg.data?.register === true && !hasErrors(reg.errors),
          `expected register: true for password ${JSON.stringify(other.password)} (letters, digits and special characters), got ${refusal(reg, 'register') ?? short(reg.data?.register)}`,
          reg.exchange,
        );
        const res = await op(ctx, 'login', { email: other.email, password: other.password });
        const token = loginToken(ctx, res);
        ctx.expect(
          typeof token === 'string' && token.length > 0,
          `password ${JSON.stringify(other.password)} was accepted at register, but login with it gives no token: ${refusal(res, 'login') ?? short(res.data?.login)}`,
          reg.exchange,
          res.exchange,
        );
      }
      // A space at each end: whether the space is a special character is not stated, so a refusal is only
      // noted; a password register accepts must log in as sent (a trim on one side only loses its ends).
      const spaced = { ...freshAccount(ctx), password: ` Ab1-${ctx.names.label('p')} ` };
      const reg = await register(ctx, spaced);
      if (reg.data?.register === true && !hasErrors(reg.errors)) {
        const res = await op(ctx, 'login', { email: spaced.email, password: spaced.password });
        const token = loginToken(ctx, res);
        ctx.expect(
          typeof token === 'string' && token.length > 0,
          `password ${JSON.stringify(spaced.password)} (a space at each end) was accepted at register, but login with it gives no token: ${refusal(res, 'login') ?? short(res.data?.login)}`,
          reg.exchange,
          res.exchange,
        );
      } else
        ctx.note(
          `register refused the password ${JSON.stringify(spaced.password)} (a space at each end): ${refusal(reg, 'register') ?? short(reg.data?.register)}`,
        );
      const lettersOnly = { ...freshAccount(ctx), password: 'OnlyLettersHere' };
      const probe = await gql(ctx).run('register', { input: customerInput(ctx, lettersOnly, phoneForm(ctx) ?? 'string') });
      ctx.choose('AMB-GQL-03', probe.data?.register === true && !hasErrors(probe.errors) ? 'charset' : 'composition');
    },
  },
  {
    id: 'GQL-REG-05',
    title: 'a password with letters outside ASCII (é, ß, Ü), where register takes it, logs in',
    async run(ctx: C) {
      // Every other password is ASCII: a login that converts the password (utf8_decode) before hashing, unlike
      // register, loses these letters. Which letters count is not stated, so a refusal at register is a skip. 2 requests.
      const account = { ...freshAccount(ctx), password: `${ctx.names.password()}éßÜ` };
      const reg = await register(ctx, account);
      if (reg.data?.register !== true || hasErrors(reg.errors))
        ctx.skip(
          `register refused the password ${JSON.stringify(account.password)} (${refusal(reg, 'register') ?? short(reg.data?.register)}): letters outside ASCII are not judged`,
        );
      const res = await op(ctx, 'login', { email: account.email, password: account.password });
      const token = loginToken(ctx, res);
      ctx.expect(
        typeof token === 'string' && token.length > 0,
        `password ${JSON.stringify(account.password)} was accepted at register, but login with it gives no token: ${refusal(res, 'login') ?? short(res.data?.login)}`,
        reg.exchange,
        res.exchange,
      );
    },
  },
];
