import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type GraphQLResult, hasErrors } from '../../../graphql/client.js';
import {
  type Account,
  type Ctx,
  customerInput,
  expectRefused,
  expectSelection,
  freshAccount,
  gql,
  login,
  loginToken,
  newAccount,
  newAccountAwkward,
  op,
  phoneForm,
  record,
  refusal,
  register,
  short,
  validateData,
} from '../client.js';
import { noSecretsCheck } from './common.js';

/** register and login: "4. Endpoints" rows 1-2, "5. Authentication", "8. Limits". */
interface AuthState {
  account: Account;
  token: string;
  loginRes: GraphQLResult;
  /** The account GQL-REG-01 registered, its e-mail's domain in capitals, when register returned true. */
  capitals: Account;
  /** The account's e-mail in upper case, when login took it for the account (GQL-LOGIN-03): one e-mail to the target. */
  caseless: string;
  /** Every answer to a login written through a fragment (GQL-AUTH-01), taken or not: GQL-HTTP-03 judges their status. */
  fragmentLogins: GraphQLResult[];
}

/**
 * A login whose root field is selected through a fragment: inline (no type condition, so no type name is
 * assumed) and named on the mutation type (the suite's SDL calls it Mutation; the document gives no name);
 * and one under @include with a variable (true), which the server reads from the variables.
 */
const FRAGMENT_LOGINS: [string, string][] = [
  [
    'an inline fragment',
    'mutation ($email: String!, $password: String!) { ... { login(email: $email, password: $password) { svc_token } } }',
  ],
  [
    'a named fragment on Mutation',
    'mutation ($email: String!, $password: String!) { ...SfcLogin } fragment SfcLogin on Mutation { login(email: $email, password: $password) { svc_token } }',
  ],
  [
    '@include(if: $go) with $go true',
    'mutation ($email: String!, $password: String!, $go: Boolean!) { login(email: $email, password: $password) @include(if: $go) { svc_token } }',
  ],
];

/** The e-mail with its domain's labels capitalised (sfc-...@Example.Test): a valid address, prefix kept. */
const capitalDomain = (email: string): string =>
  email.replace(/@(.+)$/, (_, domain: string) => `@${domain.replace(/(^|\.)([a-z])/g, (m) => m.toUpperCase())}`);

/** The login response when `account` can log in (after a refused register no account may exist), else undefined. */
async function loginWorks(ctx: Ctx, account: Account): Promise<GraphQLResult | undefined> {
  const res = await op(ctx, 'login', { email: account.email, password: account.password });
  const token = loginToken(ctx, res);
  return typeof token === 'string' && token.length > 0 ? res : undefined;
}

type C = CheckContext<AuthState>;

/** The ASCII special characters (OWASP's list without the space): "letters, digits and special characters" ("8. Limits"). */
const SPECIAL = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

export const authArea: AreaSpec<AuthState> = {
  interface: 'graphql',
  name: 'auth',
  checks: [
    {
      id: 'GQL-AUTH-01',
      title: 'register and login succeed without an Authorization header',
      async run(ctx: C) {
        // Names with quotes, markup and accents: GQL-LOGIN-03 reads them back from this login.
        const account = await newAccountAwkward(ctx);
        const { token, res } = await login(ctx, account);
        for (const ex of ctx.http.exchanges.slice(-2))
          if (ex.request.headers.authorization) throw new Error('suite bug: register/login sent an Authorization header');
        Object.assign(ctx.state, { account, token, loginRes: res });
      },
    },
    {
      id: 'GQL-AUTH-01',
      title: 'register under an operation name the client chose, and login as an anonymous operation, succeed without a token',
      needs: ['account'],
      async run(ctx: C) {
        // An operation's name is the client's choice (or none): a gate that reads "public" from it refuses these.
        const account = freshAccount(ctx);
        const reg = await gql(ctx).runText('mutation SignUp($input: CustomerInput!) { register(input: $input) }', {
          input: customerInput(ctx, account, phoneForm(ctx) ?? 'string'),
        });
        ctx.expect(
          reg.data?.register === true && !hasErrors(reg.errors),
          `register as "mutation SignUp", without a token: expected register: true, got ${refusal(reg, 'register') ?? short(reg.data?.register)}`,
          reg.exchange,
        );
        const a = ctx.state.account!;
        const res = await gql(ctx).runText(
          'mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { svc_token } }',
          { email: a.email, password: a.password },
        );
        const token = loginToken(ctx, res);
        ctx.expect(
          typeof token === 'string' && token.length > 0,
          `login as an anonymous operation, without a token: expected ${ctx.settings.vendor}_token, got ${refusal(res, 'login') ?? short(res.data?.login)}`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-AUTH-01',
      title:
        'login written through a fragment (inline, and named on the mutation type) or under @include(if: $go) succeeds without a token wherever the same request with a token does',
      needs: ['account'],
      async run(ctx: C) {
        // Fragments and @include are part of any GraphQL document ("1. What the service does"). A gate that reads the
        // public fields from the root selection alone takes the fragment for a field that needs the token, or fails
        // on it (or on a directive whose variable it did not take).
        // Judged against the same request with a fresh token: a target that takes neither does not take the form
        // (the mutation type's name is not shown), which is not this requirement's subject. 1 request per form
        // where it is taken without a token; 3 where it is not (a login for the token, the form with it).
        const a = ctx.state.account!;
        const credentials = { email: a.email, password: a.password };
        const tokenOf = (res: GraphQLResult) => {
          const token = loginToken(ctx, res);
          return typeof token === 'string' && token.length > 0 ? token : undefined;
        };
        const took = (res: GraphQLResult) => !refusal(res, 'login') && tokenOf(res) !== undefined;
        const sent: GraphQLResult[] = [];
        ctx.state.fragmentLogins = sent;
        for (const [form, text] of FRAGMENT_LOGINS) {
          const variables = text.includes('$go') ? { ...credentials, go: true } : credentials;
          const bare = await gql(ctx).runText(text, variables);
          sent.push(bare);
          if (took(bare)) continue;
          const token = tokenOf(await op(ctx, 'login', credentials));
          if (!token) {
            ctx.note(`login through ${form} was refused without a token, and a plain login too: not compared`);
            continue;
          }
          const withToken = await gql(ctx).runText(text, variables, { token });
          sent.push(withToken);
          if (!took(withToken)) {
            ctx.note(
              `login through ${form} was refused with a token too (${refusal(withToken, 'login')}): the form is not taken`,
            );
            continue;
          }
          ctx.fail(
            `login through ${form} without a token was refused (${refusal(bare, 'login') ?? short(bare.data?.login)}), yet taken with a bearer token: login needs no token`,
            bare.exchange,
            withToken.exchange,
          );
        }
      },
    },
    {
      id: 'GQL-HTTP-03',
      title: 'the logins written through a fragment or under @include, taken or not, are answered without a 5xx',
      needs: ['fragmentLogins'],
      async run(ctx: C) {
        // A target that does not take a fragment at the root (or the directive) refuses it as a request it cannot
        // serve: not with a 5xx (a step that fails on the fragment). GQL-AUTH-01's answers, no request of its own.
        for (const res of ctx.state.fragmentLogins!)
          ctx.expect(
            res.exchange.response !== undefined && res.exchange.response.status < 500,
            `a login written through a fragment or under @include was answered ${res.exchange.response ? `HTTP ${res.exchange.response.status}` : res.exchange.error}`,
            res.exchange,
          );
      },
    },
    {
      id: 'GQL-REG-01',
      title: 'register with every CustomerInput field returns register: true',
      async run(ctx: C) {
        // Capitals in the e-mail (its domain): GQL-LOGIN-01 logs this account in with the e-mail as sent.
        const account = freshAccount(ctx);
        account.email = capitalDomain(account.email);
        const res = await register(ctx, account);
        if (res.data?.register === true && !hasErrors(res.errors)) ctx.state.capitals = account;
        validateData(ctx, res, 'register');
        ctx.expect(
          res.data?.register === true,
          `expected register: true, got ${refusal(res, 'register') ?? short(res.data?.register)}`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-REG-01',
      title: 'an e-mail holding an underscore registers beside one that differs from it there by a hyphen',
      async run(ctx: C) {
        // first_last@ and first-last@ are two addresses: a duplicate check by LIKE reads _ as any character.
        const base = ctx.names.email();
        const hyphen = { ...freshAccount(ctx), email: base.replace('@', '-u@') };
        const underscore = { ...freshAccount(ctx), email: base.replace('@', '_u@') };
        const first = await register(ctx, hyphen);
        if (first.data?.register !== true || hasErrors(first.errors))
          ctx.skip(
            `register of ${hyphen.email} was refused (${refusal(first, 'register') ?? short(first.data?.register)}): no pair to compare`,
          );
        const res = await register(ctx, underscore);
        if (res.data?.register === true && !hasErrors(res.errors)) return;
        // Which characters an e-mail may hold is not stated: judged only where an underscore registers on its own.
        const alone = { ...freshAccount(ctx), email: ctx.names.email().replace('@', '_v@') };
        const probe = await register(ctx, alone);
        if (probe.data?.register !== true || hasErrors(probe.errors))
          ctx.skip(
            `register refuses an e-mail holding an underscore (${alone.email}: ${refusal(probe, 'register') ?? short(probe.data?.register)}), so ${underscore.email} is not judged`,
          );
        ctx.fail(
          `register of ${underscore.email} was refused (${refusal(res, 'register') ?? short(res.data?.register)}) after ${hyphen.email} was registered, though ${alone.email} registers: the two e-mails differ (an _ matched as a wildcard?)`,
          first.exchange,
          res.exchange,
          probe.exchange,
        );
      },
    },
    {
      id: 'GQL-REG-04',
      title: 'telephone and postcode are accepted as strings of digits (also with a leading zero) or as integers (AMB-GQL-02)',
      async run(ctx: C) {
        await newAccount(ctx);
        const form = phoneForm(ctx);
        if (!form) ctx.fail('neither strings of digits nor integers were accepted for telephone and postcode');
        ctx.choose('AMB-GQL-02', form);
        if (form === 'integer') {
          ctx.note('telephone and postcode were taken as integers: a leading zero, which only a string keeps, is not sent');
          return;
        }
        // Strings of digits beginning with 0 (a London number, a Boston postcode): an integer round
        // trip in the validation refuses exactly these, and every generated value begins otherwise.
        const input = {
          ...customerInput(ctx, freshAccount(ctx), 'string'),
          telephone: `0${ctx.names.phone().slice(1)}`,
          postcode: '02134',
        };
        const res = await op(ctx, 'register', { input });
        ctx.expect(
          res.data?.register === true && !hasErrors(res.errors),
          `telephone ${JSON.stringify(input.telephone)} and postcode ${JSON.stringify(input.postcode)} (strings of digits with a leading zero): expected register: true, got ${refusal(res, 'register') ?? short(res.data?.register)}`,
          res.exchange,
        );
      },
    },
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
    {
      id: 'GQL-REG-03',
      title:
        'a second register with an e-mail already registered is refused, and the account registered first still logs in with its own password and names',
      needs: ['account', 'loginRes'],
      async run(ctx: C) {
        const first = ctx.state.account!;
        const again = { ...freshAccount(ctx), email: first.email };
        const res = await register(ctx, again);
        ctx.expect(
          res.data?.register !== true || hasErrors(res.errors),
          'expected the duplicate e-mail to be refused, got register: true',
          res.exchange,
        );
        // A refusal that still wrote (an upsert reporting the duplicate afterwards) shows on the first account.
        const back = await loginWorks(ctx, first);
        if (!back)
          ctx.fail(
            'the duplicate register was refused, yet the account registered first no longer logs in with its own password',
            res.exchange,
          );
        // Names as the first login gave them (how a target stores names is GQL-LOGIN-03's subject).
        const names = (r: GraphQLResult | undefined) => {
          const user = record(record(r?.data?.login)?.user_data);
          return JSON.stringify([user?.firstname, user?.lastname]);
        };
        ctx.expect(
          names(back) === names(ctx.state.loginRes),
          `after the refused duplicate register, expected user_data names ${names(ctx.state.loginRes)} as at the first login, got ${names(back)}`,
          res.exchange,
          back.exchange,
        );
      },
    },
    {
      id: 'GQL-REG-03',
      title:
        'a register of the registered e-mail behind a leading space is refused, or its password does not log in as that e-mail',
      needs: ['account'],
      async run(ctx: C) {
        const first = ctx.state.account!;
        // An e-mail looked up as sent and stored trimmed lets the registered address in a second time.
        const again = { ...freshAccount(ctx), email: ` ${first.email}` };
        const res = await register(ctx, again);
        const why = refusal(res, 'register');
        if (why) {
          ctx.note(`register of " ${first.email}" was refused (${why})`);
          return;
        }
        // Accepted: a target that kept the space holds another e-mail; the registered one must not open with this password.
        const second = await loginWorks(ctx, { ...again, email: first.email });
        ctx.expect(
          !second,
          `register of " ${first.email}" (a leading space) answered register: true, and ${first.email} now logs in with that register's password: a second account holds a registered e-mail`,
          res.exchange,
          ...(second ? [second.exchange] : []),
        );
      },
    },
    {
      id: 'GQL-REG-03',
      title: 'a register of the registered e-mail in upper case, where login takes that spelling for the account, is refused',
      needs: ['account'],
      async run(ctx: C) {
        const first = ctx.state.account!;
        const typed = ctx.state.caseless;
        // Whether e-mails differing in case are one e-mail is not stated: judged only where the target's own login
        // took the upper-case spelling for the account (GQL-LOGIN-03). A duplicate check that compares case (= on
        // PostgreSQL, a binary collation) registers it again. 1 request.
        if (!typed)
          ctx.skip(
            `login did not take ${first.email} typed in upper case for the account: whether another case is another e-mail is the target's reading`,
          );
        const input = customerInput(ctx, { ...freshAccount(ctx), email: typed }, phoneForm(ctx) ?? 'string');
        const res = await op(ctx, 'register', { input });
        ctx.expect(
          res.data?.register !== true || hasErrors(res.errors),
          `a register of ${JSON.stringify(typed)} answered register: true, though login takes that spelling for the account registered as ${JSON.stringify(first.email)}: the e-mail is unique (a duplicate check that compares case?)`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-REG-03',
      title:
        'a second register of an e-mail holding a capital outside ASCII (an internationalised address) is refused, as any duplicate',
      async run(ctx: C) {
        // A duplicate check of LOWER(email) against PHP's strtolower(), which folds A to Z only, never finds an e-mail
        // with Ü in it, so the same e-mail registers again. 2 requests.
        const first = { ...freshAccount(ctx), email: ctx.names.email().replace('@', '-\u00dcnal@') };
        const res = await register(ctx, first);
        // Which characters an e-mail may hold is not stated: judged only where register takes this one.
        if (res.data?.register !== true || hasErrors(res.errors))
          ctx.skip(
            `register of ${first.email} was refused (${refusal(res, 'register') ?? short(res.data?.register)}): no registered e-mail with a capital outside ASCII to register again`,
          );
        const again = await register(ctx, { ...freshAccount(ctx), email: first.email });
        ctx.expect(
          again.data?.register !== true || hasErrors(again.errors),
          `a second register of ${first.email}, an e-mail already registered (register: true), was answered register: true: the e-mail is unique (a capital outside ASCII missed by a byte-wise lowercasing?)`,
          res.exchange,
          again.exchange,
        );
      },
    },
    {
      id: 'GQL-REG-03',
      title:
        'two registers of one new e-mail sent at the same time: one is refused, and the account logs in with the names of the one accepted',
      async run(ctx: C) {
        // A check of the e-mail and an insert without a unique key let both through when they overlap.
        const email = ctx.names.email();
        const twins = [0, 1].map(() => ({ ...freshAccount(ctx), email }));
        const form = phoneForm(ctx) ?? 'string';
        const results = await Promise.all(twins.map((a) => op(ctx, 'register', { input: customerInput(ctx, a, form) })));
        const trail = results.map((r) => r.exchange);
        const won = results.map((r) => r.data?.register === true && !hasErrors(r.errors));
        ctx.expect(
          !(won[0] && won[1]),
          `two registers of ${email} sent at the same time both answered register: true; the e-mail is unique, so one must be refused`,
          ...trail,
        );
        const i = won.indexOf(true);
        const winner = twins[i];
        // Two refusals keep the rule (nothing was registered twice) but leave the race unobserved.
        if (!winner)
          ctx.skip(
            `neither of two registers of ${email} sent at the same time was accepted: ${results.map((r) => refusal(r, 'register')).join(' / ')}`,
          );
        // Read back: the account is the one accepted (a refused twin that still wrote shows in the names).
        const back = await loginWorks(ctx, winner);
        const user = record(record(back?.data?.login)?.user_data);
        ctx.expect(
          back && user?.firstname === winner.firstname && user?.lastname === winner.lastname,
          `after two registers of ${email} at the same time, the one accepted (${winner.firstname} ${winner.lastname}) ${back ? `logs in as ${short([user?.firstname, user?.lastname])}` : 'does not log in with its password'}`,
          ...trail,
          ...ctx.http.exchanges.slice(-1),
        );
      },
    },
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
    noSecretsCheck<AuthState>(),
  ],
};
