// register and login are how a client gets a token: they must answer without one, however the document is written.
import type { CheckSpec } from '../../../../checks/model.js';
import { type GraphQLResult, hasErrors } from '../../../../graphql/client.js';
import {
  customerInput,
  freshAccount,
  gql,
  login,
  loginToken,
  newAccountAwkward,
  op,
  phoneForm,
  refusal,
  short,
} from '../../client.js';
import type { AuthState, C } from './state.js';

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

export const withoutTokenChecks: CheckSpec<AuthState>[] = [
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
          ctx.note(`login through ${form} was refused with a token too (${refusal(withToken, 'login')}): the form is not taken`);
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
];
