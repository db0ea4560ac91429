import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type GraphQLResult, hasErrors } from '../../../graphql/client.js';
import { prepareUnchecked } from '../../../graphql/documents.js';
import {
  type Account,
  accepted,
  addToCart,
  customerInput,
  emptyCart,
  freshAccount,
  gql,
  graphqlUrl,
  login,
  loginToken,
  newAccount,
  op,
  optionsForm,
  phoneForm,
  productId,
  quantityOf,
  record,
  refusal,
  short,
} from '../client.js';
import { leakedInternals, noSecretsCheck } from './common.js';

/** The transport and the envelope: where operations go, what comes back, malformed requests. */
interface ProtocolState {
  account: Account;
  registerRes: GraphQLResult;
  loginRes: GraphQLResult;
  token: string;
  malformed: { label: string; res: GraphQLResult }[];
}

type C = CheckContext<ProtocolState>;

/** A JSON value written as a GraphQL literal (object keys are field names, so they stay bare). */
function graphqlLiteral(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(graphqlLiteral).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${graphqlLiteral(x)}`)
      .join(', ')}}`;
  // A JSON string, number, boolean or null is also a GraphQL literal of it.
  return JSON.stringify(v);
}

/**
 * Sends an operation whose arguments are written inline (no variables). Validated against the SDL
 * when it can be; the readings the SDL does not spell (integer telephone, options as an object:
 * AMB-GQL-02, AMB-GQL-04) go unvalidated, as the probes of those readings do.
 */
function sendInline(ctx: C, text: string, checked: boolean, options: { token?: string } = {}): Promise<GraphQLResult> {
  const client = gql(ctx);
  const prepared = checked ? client.book.prepare(text, 'inline arguments') : prepareUnchecked(text, ctx.settings.vendor);
  return client.send(prepared, {}, options);
}

/** GQL-ENV-01 for one operation: a top-level data object holds its result under the field name. */
function underData(ctx: C, res: GraphQLResult, field: string): void {
  const body = ctx.json<Record<string, unknown>>(res.exchange);
  const data = body?.data as Record<string, unknown> | null | undefined;
  if (!(data !== null && typeof data === 'object' && !Array.isArray(data)))
    ctx.fail(`expected a top-level data object, got ${JSON.stringify(data)}`, res.exchange);
  ctx.expect(
    field in data,
    `expected data to hold the result under "${field}", got keys ${JSON.stringify(Object.keys(data))}`,
    res.exchange,
  );
  ctx.validate('graphql/schemas/envelope.schema.json', body, res.exchange, 'response body');
}

export const protocolArea: AreaSpec<ProtocolState> = {
  interface: 'graphql',
  name: 'protocol',
  checks: [
    {
      id: 'GQL-HTTP-01',
      title: 'register is served by POST {base_url}/index.php?route=<vendor>_graphql/<vendor>_graphql with a JSON body',
      async run(ctx: C) {
        ctx.note(`endpoint: ${graphqlUrl(ctx.settings.baseUrl ?? '', ctx.settings.vendor)}`);
        ctx.state.account = await newAccount(ctx, (res) => {
          ctx.state.registerRes = res;
        });
      },
    },
    {
      id: 'GQL-HTTP-01',
      title: 'login is served at the same endpoint',
      needs: ['account'],
      async run(ctx: C) {
        const { token } = await login(ctx, ctx.state.account!, (res) => {
          ctx.state.loginRes = res;
        });
        ctx.state.token = token;
      },
    },
    {
      id: 'GQL-HTTP-01',
      title: 'login sent as application/json; charset=utf-8 (the media type with a parameter) is served as with application/json',
      needs: ['account'],
      async run(ctx: C) {
        const client = gql(ctx);
        const a = ctx.state.account!;
        const body = { query: client.book.operation('login').text, variables: { email: a.email, password: a.password } };
        const res = await client.raw({ raw: JSON.stringify(body), contentType: 'application/json; charset=utf-8' });
        const token = loginToken(ctx, res);
        ctx.expect(
          typeof token === 'string' && token.length > 0,
          `login with Content-Type "application/json; charset=utf-8": expected a token, as with application/json, got ${refusal(res, 'login') ?? short(res.data?.login)}`,
          res.exchange,
        );
        // A second login of the account: whether it ends the first one's token is not shown (token lifetime), so
        // GQL-HTTP-03 sends this one.
        ctx.state.token = token;
      },
    },
    {
      id: 'GQL-HTTP-04',
      title:
        'register, login and addProductToCart with their arguments written inline (no variables) work as with variables, a password with a quote and a backslash too',
      needs: ['account'],
      async run(ctx: C) {
        // The reading of telephone and postcode (AMB-GQL-02) was probed by the register of GQL-HTTP-01.
        const phone = phoneForm(ctx) ?? 'string';
        // A quote and a backslash in the password ("letters, digits and special characters"): written inline they are
        // the escapes \" and \\, which a query text altered before parsing (stripslashes) loses. No request more.
        const account = freshAccount(ctx);
        account.password = `${account.password}"q\\`;
        const reg = await sendInline(
          ctx,
          `mutation register { register(input: ${graphqlLiteral(customerInput(ctx, account, phone))}) }`,
          phone === 'string',
        );
        ctx.expect(
          reg.data?.register === true,
          `register with its CustomerInput inline (password ${JSON.stringify(account.password)}): expected register: true, got ${refusal(reg, 'register') ?? short(reg.data?.register)}`,
          reg.exchange,
        );
        const lg = await sendInline(
          ctx,
          `mutation login { login(email: ${graphqlLiteral(account.email)}, password: ${graphqlLiteral(account.password)}) { svc_token } }`,
          true,
        );
        const token = record(accepted(ctx, lg, 'login'))?.[`${ctx.settings.vendor}_token`];
        if (typeof token !== 'string' || token.length === 0)
          ctx.fail(`login with email and password inline: expected a token, got ${short(lg.data?.login)}`, lg.exchange);
        const product = productId(ctx);
        ctx.onTeardown(async () => {
          await emptyCart(ctx, { token });
        });
        // One add through variables settles the reading of options (AMB-GQL-04), then the same inline.
        accepted(ctx, await addToCart(ctx, token, product, 1), 'addProductToCart');
        const form = optionsForm(ctx) ?? 'object';
        const add = await sendInline(
          ctx,
          `mutation addProductToCart { addProductToCart(input: {product_id: ${graphqlLiteral(product)}, quantity: 2, options: ${form === 'object' ? '{}' : '[]'}}) { items { product_id quantity } } }`,
          form === 'list',
          { token },
        );
        const summary = accepted(ctx, add, 'addProductToCart');
        const q = quantityOf(summary, product);
        ctx.expect(
          q === 3,
          `addProductToCart of 2 with its input inline after 1 through variables: expected 3 of product ${product}, found ${q}`,
          add.exchange,
        );
      },
    },
    {
      id: 'GQL-REG-03',
      title: 'register with its CustomerInput inline and an e-mail already registered is refused, as through variables',
      needs: ['account'],
      async run(ctx: C) {
        // A duplicate check that reads the e-mail from the variables never sees one written inline.
        const phone = phoneForm(ctx) ?? 'string';
        const again = { ...freshAccount(ctx), email: ctx.state.account!.email };
        const res = await sendInline(
          ctx,
          `mutation register { register(input: ${graphqlLiteral(customerInput(ctx, again, phone))}) }`,
          phone === 'string',
        );
        ctx.expect(
          res.data?.register !== true || hasErrors(res.errors),
          `register with its CustomerInput inline and the registered e-mail ${again.email}: expected a refusal, got register: true`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-HTTP-02',
      title: 'the responses to register, login and a failed login are JSON',
      needs: ['loginRes'],
      async run(ctx: C) {
        ctx.json(ctx.state.loginRes!.exchange);
        const failed = await op(ctx, 'login', { email: ctx.state.account!.email, password: 'Wrong-pass-1!' });
        ctx.json(failed.exchange);
      },
    },
    {
      id: 'GQL-ENV-01',
      title: 'the login result comes back under data.login',
      needs: ['loginRes'],
      run: async (ctx: C) => underData(ctx, ctx.state.loginRes!, 'login'),
    },
    {
      // Judged on register too: a target that answers without the data object fails register first, and
      // login, which needs the account, then never runs.
      id: 'GQL-ENV-01',
      title: 'the register result comes back under data.register',
      needs: ['registerRes'],
      run: async (ctx: C) => underData(ctx, ctx.state.registerRes!, 'register'),
    },
    {
      id: 'GQL-ENV-02',
      title: 'records whether responses carry the status/errors/message envelope (AMB-GQL-01)',
      needs: ['loginRes', 'account'],
      async run(ctx: C) {
        const ok = ctx.state.loginRes!;
        const failed = await op(ctx, 'login', { email: ctx.state.account!.email, password: 'Wrong-pass-2!' });
        let enveloped = false;
        for (const res of [ok, failed]) {
          const body = ctx.json<Record<string, unknown>>(res.exchange);
          ctx.validate('graphql/schemas/envelope.schema.json', body, res.exchange, 'response body');
          enveloped ||= 'status' in body || 'message' in body;
        }
        ctx.choose('AMB-GQL-01', enveloped ? 'status-envelope' : 'data-only');
      },
    },
    {
      id: 'GQL-HTTP-03',
      title:
        'malformed requests (bad JSON, no query, syntax error, unknown field, wrong variable type, wrong content type, two operations) get no 5xx',
      async run(ctx: C) {
        const client = gql(ctx);
        const cases: [string, Promise<GraphQLResult>][] = [
          ['body that is not JSON', client.raw({ raw: '{"query": "mutation {' })],
          ['JSON without query', client.raw({ json: { variables: {} } })],
          ['empty body', client.raw({ raw: '' })],
          ['query that is not a string', client.raw({ json: { query: 42 } })],
          ['GraphQL syntax error', client.raw({ json: { query: 'mutation { login(email: "a" ' } })],
          ['unknown field', client.raw({ json: { query: 'query { sfcNoSuchField }' } })],
          // With a token too: a target that asks every unknown field for a token would refuse the first for that alone.
          ...(ctx.state.token
            ? [
                [
                  'unknown field (with the login token)',
                  client.raw({ json: { query: 'query { sfcNoSuchField }' } }, { token: ctx.state.token }),
                ] as [string, Promise<GraphQLResult>],
              ]
            : []),
          [
            'variable of the wrong type',
            client.raw({
              json: { query: 'mutation m($q: Int!) { updateCartProduct(cart_id: "1", quantity: $q) }', variables: { q: 'many' } },
            }),
          ],
          ['form-encoded body', client.raw({ raw: 'query=%7B__typename%7D', contentType: 'application/x-www-form-urlencoded' })],
          // The document's body {query, variables} names no operation: a document of two leaves none to run. Without
          // a token, as a client that has not logged in: a token check that looks for the one operation fails on it.
          [
            'two operations, the body naming none to run',
            client.raw({ json: { query: 'query SfcA { __typename } query SfcB { __typename }', variables: {} } }),
          ],
        ];
        const malformed: ProtocolState['malformed'] = [];
        for (const [label, pending] of cases) malformed.push({ label, res: await pending });
        ctx.state.malformed = malformed;
        const bad = malformed.filter((m) => !m.res.exchange.response || m.res.exchange.response.status >= 500);
        if (bad.length > 0)
          ctx.fail(
            `expected no 5xx and an answer for every malformed request; got ${bad.map((b) => `${b.label}: ${b.res.exchange.response ? `HTTP ${b.res.exchange.response.status}` : b.res.exchange.error}`).join('; ')}`,
            ...bad.map((b) => b.res.exchange),
          );
      },
    },
    {
      id: 'GQL-ENV-04',
      title: 'a GraphQL syntax error and an unknown field are reported as failures, not as success',
      needs: ['malformed'],
      async run(ctx: C) {
        for (const m of ctx.state.malformed!.filter(
          (x) => x.label === 'GraphQL syntax error' || x.label.startsWith('unknown field'),
        )) {
          const body = m.res.body;
          const recognisable = !body || hasErrors(m.res.errors) || body.status === false || !m.res.data;
          ctx.expect(
            recognisable,
            `${m.label}: expected errors, status false or no data, got ${m.res.exchange.response?.body.slice(0, 200)}`,
            m.res.exchange,
          );
        }
      },
    },
    {
      id: 'GQL-HTTP-02',
      title: 'GraphQL-level failures (syntax error, unknown field, wrong variable type) are answered in JSON',
      needs: ['malformed'],
      async run(ctx: C) {
        for (const m of ctx.state.malformed!.filter((x) =>
          [
            'GraphQL syntax error',
            'unknown field',
            'unknown field (with the login token)',
            'variable of the wrong type',
          ].includes(x.label),
        ))
          ctx.json(m.res.exchange);
      },
    },
    {
      id: 'GQL-SEC-02',
      title: 'the answers to malformed requests leak no stack trace, SQL or file path',
      needs: ['malformed'],
      async run(ctx: C) {
        for (const m of ctx.state.malformed!) {
          const leak = leakedInternals(m.res.exchange);
          ctx.expect(!leak, `${m.label}: the answer shows internals ("${leak}")`, m.res.exchange);
        }
      },
    },
    noSecretsCheck<ProtocolState>(),
  ],
};
