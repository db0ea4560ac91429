import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type GraphQLResult, hasErrors } from '../../../graphql/client.js';
import { type Account, gql, graphqlUrl, login, newAccount, op } from '../client.js';
import { leakedInternals, noSecretsCheck } from './common.js';

/** The transport and the envelope: where operations go, what comes back, malformed requests. */
interface ProtocolState {
  account: Account;
  loginRes: GraphQLResult;
  malformed: { label: string; res: GraphQLResult }[];
}

type C = CheckContext<ProtocolState>;

export const protocolArea: AreaSpec<ProtocolState> = {
  interface: 'graphql',
  name: 'protocol',
  checks: [
    {
      id: 'GQL-HTTP-01',
      title: 'register is served by POST {base_url}/index.php?route=<vendor>_graphql/<vendor>_graphql with a JSON body',
      async run(ctx: C) {
        ctx.note(`endpoint: ${graphqlUrl(ctx.settings.baseUrl ?? '', ctx.settings.vendor)}`);
        ctx.state.account = await newAccount(ctx);
      },
    },
    {
      id: 'GQL-HTTP-01',
      title: 'login is served at the same endpoint',
      needs: ['account'],
      async run(ctx: C) {
        ctx.state.loginRes = (await login(ctx, ctx.state.account!)).res;
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
      async run(ctx: C) {
        const res = ctx.state.loginRes!;
        const body = ctx.json<Record<string, unknown>>(res.exchange);
        const data = body.data as Record<string, unknown> | null;
        if (!(data !== null && typeof data === 'object' && !Array.isArray(data)))
          ctx.fail(`expected a top-level data object, got ${JSON.stringify(data)}`, res.exchange);
        ctx.expect(
          'login' in data,
          `expected data to hold the result under "login", got keys ${JSON.stringify(Object.keys(data))}`,
          res.exchange,
        );
        ctx.validate('graphql/schemas/envelope.schema.json', body, res.exchange, 'response body');
      },
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
        'malformed requests (bad JSON, no query, syntax error, unknown field, wrong variable type, wrong content type) get no 5xx',
      async run(ctx: C) {
        const client = gql(ctx);
        const cases: [string, Promise<GraphQLResult>][] = [
          ['body that is not JSON', client.raw({ raw: '{"query": "mutation {' })],
          ['JSON without query', client.raw({ json: { variables: {} } })],
          ['empty body', client.raw({ raw: '' })],
          ['query that is not a string', client.raw({ json: { query: 42 } })],
          ['GraphQL syntax error', client.raw({ json: { query: 'mutation { login(email: "a" ' } })],
          ['unknown field', client.raw({ json: { query: 'query { sfcNoSuchField }' } })],
          [
            'variable of the wrong type',
            client.raw({
              json: { query: 'mutation m($q: Int!) { updateCartProduct(cart_id: "1", quantity: $q) }', variables: { q: 'many' } },
            }),
          ],
          ['form-encoded body', client.raw({ raw: 'query=%7B__typename%7D', contentType: 'application/x-www-form-urlencoded' })],
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
        for (const m of ctx.state.malformed!.filter((x) => x.label === 'GraphQL syntax error' || x.label === 'unknown field')) {
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
          ['GraphQL syntax error', 'unknown field', 'variable of the wrong type'].includes(x.label),
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
