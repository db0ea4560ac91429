import { deeplyNestedBody, MULTIPART_WITHOUT_BOUNDARY, NESTING_DEPTH } from '../../../arbitraries/hostile.js';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { GraphQLResult } from '../../../graphql/client.js';
import { responseJson } from '../../../http/exchange.js';
import {
  accepted,
  addToCart,
  cartLines,
  customerInput,
  emptyCart,
  freshAccount,
  gql,
  loginToken,
  newSession,
  productId,
  refusal,
} from '../client.js';
import { leakedInternals, noSecretsCheck } from './common.js';

/**
 * Malformed and invalid requests, one per operation and kind: the answer is JSON in the
 * document's form ("Responses are JSON with a top-level data object"), not a 5xx, and a request
 * the operation cannot run is recognisably refused. Sent with a valid token, so that the
 * malformation, not a missing token, is what the target answers.
 */
type Kind =
  | 'malformed JSON'
  | 'wrong content type'
  | 'missing variables'
  | 'wrong types'
  | 'unknown fields'
  | 'long strings'
  | 'empty body';
interface Sent {
  kind: Kind;
  operation: string;
  res: GraphQLResult;
}
interface NegState {
  token: string;
  /** Valid variables of each operation, the base of every malformed variant. */
  valid: Record<string, Record<string, unknown>>;
  sent: Sent[];
}
type C = CheckContext<NegState>;

const LONG = 'A'.repeat(65_536);

/** The same value with every string replaced by a 64 KiB one. */
function longStrings(v: unknown): unknown {
  if (typeof v === 'string') return LONG;
  if (Array.isArray(v)) return v.map(longStrings);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, longStrings(x)]));
  return v;
}

/** The same value with every leaf of the wrong type: strings become objects, numbers and booleans strings, objects a string. */
function wrongTypes(v: Record<string, unknown>): Record<string, unknown> {
  const flip = (x: unknown): unknown =>
    typeof x === 'string' ? { nested: 'x' } : typeof x === 'number' ? 'many' : typeof x === 'boolean' ? 'yes' : 'x';
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, flip(x)]));
}

function hasString(v: unknown): boolean {
  if (typeof v === 'string') return true;
  if (Array.isArray(v)) return v.some(hasString);
  return !!v && typeof v === 'object' && Object.values(v).some(hasString);
}

/** The operation text with an argument no schema has (for operations without an input object). */
function withUnknownArgument(text: string, name: string): string {
  if (text.includes(`${name}(`)) return text.replace(`${name}(`, `${name}(sfc_unknown: 1, `);
  return text.replace(new RegExp(`\\b${name}\\b(?!\\s*\\()(?=\\s*(\\{|\\n|$))`), `${name}(sfc_unknown: 1)`);
}

/**
 * A malformed login the target still served issued the customer a new token: whether that ends the one held
 * is not shown (token lifetime), so the newest one `sent` carries is the area's token from then on.
 */
function newestToken(ctx: C, sent: Sent[], token: string): string {
  for (const s of sent) {
    const issued = loginToken(ctx, s.res);
    if (typeof issued === 'string' && issued) token = issued;
  }
  ctx.state.token = token;
  return token;
}

/** Sends one kind of malformation for every operation it applies to. */
async function sendKind(ctx: C, kind: Kind): Promise<void> {
  const client = gql(ctx);
  let token = ctx.state.token!;
  const sentBefore = ctx.state.sent!.length;
  for (const [operation, variables] of Object.entries(ctx.state.valid!)) {
    token = newestToken(ctx, ctx.state.sent!.slice(sentBefore), token);
    const text = client.book.operation(operation).text;
    const body = { query: text, variables };
    let res: GraphQLResult | undefined;
    switch (kind) {
      case 'malformed JSON': {
        const json = JSON.stringify(body);
        res = await client.raw({ raw: json.slice(0, json.length - 3) }, { token });
        break;
      }
      case 'wrong content type':
        // Also a multipart content type without the boundary its parts need: unreadable, not a crash.
        ctx.state.sent!.push({
          kind,
          operation: `${operation} (multipart without boundary)`,
          res: await client.raw({ raw: JSON.stringify(body), contentType: MULTIPART_WITHOUT_BOUNDARY }, { token }),
        });
        res = await client.raw({ raw: JSON.stringify(body), contentType: 'text/plain' }, { token });
        break;
      case 'missing variables':
        if (Object.keys(variables).length > 0) res = await client.raw({ json: { query: text, variables: {} } }, { token });
        break;
      case 'wrong types':
        if (Object.keys(variables).length > 0) {
          // Also every variable an array nested thousands deep (as text: stringifying it would recurse).
          ctx.state.sent!.push({
            kind,
            operation: `${operation} (nested ${NESTING_DEPTH} deep)`,
            res: await client.raw(
              { raw: `{"query":${JSON.stringify(text)},"variables":${deeplyNestedBody(Object.keys(variables))}}` },
              { token },
            ),
          });
          res = await client.raw({ json: { query: text, variables: wrongTypes(variables) } }, { token });
        }
        break;
      case 'unknown fields': {
        const input = variables.input;
        res =
          input && typeof input === 'object'
            ? await client.raw(
                { json: { query: text, variables: { ...variables, input: { ...input, sfc_unknown: 'x' } } } },
                { token },
              )
            : await client.raw({ json: { query: withUnknownArgument(text, operation), variables } }, { token });
        break;
      }
      case 'long strings':
        if (hasString(variables)) res = await client.raw({ json: { query: text, variables: longStrings(variables) } }, { token });
        // Every string long is refused by the first field checked. Long strings only in register's fields that may be
        // empty (fax, company, address_2), the rest valid, reach the store: a target that leaves them unchecked meets
        // its columns' widths there, and its answer must still be JSON. A fresh account: the e-mail is unused.
        if (operation === 'register') {
          const input = { ...customerInput(ctx, freshAccount(ctx)), fax: LONG, company: LONG, address_2: LONG };
          ctx.state.sent!.push({
            kind,
            operation: 'register (only fax, company and address_2 long)',
            res: await client.raw({ json: { query: text, variables: { input } } }, { token }),
          });
        }
        break;
      case 'empty body':
        break;
    }
    if (res) ctx.state.sent!.push({ kind, operation, res });
  }
  token = newestToken(ctx, ctx.state.sent!.slice(sentBefore), token);
  if (kind === 'empty body') {
    // One endpoint serves every operation: an empty body names none, so it is sent once.
    for (const contentType of ['application/json', 'text/plain'])
      ctx.state.sent!.push({
        kind,
        operation: `(any, ${contentType})`,
        res: await client.raw({ raw: '', contentType }, { token }),
      });
  }
  const bad = ctx.state.sent!.filter(
    (s) => s.kind === kind && (!s.res.exchange.response || s.res.exchange.response.status >= 500),
  );
  if (bad.length > 0)
    ctx.fail(
      `${kind}: expected no 5xx, got ${bad.map((b) => `${b.operation}: ${b.res.exchange.response?.status ?? b.res.exchange.error}`).join('; ')}`,
      ...bad.slice(0, 3).map((b) => b.res.exchange),
    );
}

const KINDS: Kind[] = [
  'malformed JSON',
  'wrong content type',
  'missing variables',
  'wrong types',
  'unknown fields',
  'long strings',
  'empty body',
];

export const negativeArea: AreaSpec<NegState> = {
  interface: 'graphql',
  name: 'negative',
  checks: [
    {
      id: 'GQL-AUTH-02',
      title: 'a customer with a cart line, whose token the malformed requests carry',
      async run(ctx: C) {
        const product = productId(ctx);
        const s = await newSession(ctx);
        const res = await addToCart(ctx, s.token, product, 1);
        const [line] = cartLines(accepted(ctx, res, 'addProductToCart'));
        ctx.state.token = s.token;
        ctx.state.sent = [];
        // The line added above is left otherwise; a malformed login the target served may have issued a newer token.
        ctx.onTeardown(async () => {
          await emptyCart(ctx, { token: newestToken(ctx, ctx.state.sent ?? [], ctx.state.token ?? s.token) });
        });
        ctx.state.valid = {
          login: { email: s.email, password: s.password },
          register: { input: customerInput(ctx, freshAccount(ctx)) },
          addProductToCart: { input: { product_id: product, quantity: 1, options: {} } },
          updateCartProduct: { cart_id: String(line?.cart_id ?? '1'), quantity: 2 },
          deleteCartProduct: { cart_id: '987654321' },
          addCoupon: { code: ctx.data('SFC_GQL_COUPON') ?? 'SFC-ANY' },
          emptyCart: {},
          customerByEmail: { email: s.email },
          orders: { start: 0, limit: 2 },
        };
      },
    },
    ...KINDS.map((kind) => ({
      id: 'GQL-HTTP-03',
      title: `${kind}, sent for every operation: no 5xx`,
      needs: ['valid' as const],
      run: (ctx: C) => sendKind(ctx, kind),
    })),
    {
      id: 'GQL-HTTP-02',
      title: 'every answer to the malformed requests is JSON',
      needs: ['sent'],
      async run(ctx: C) {
        const sent = ctx.state.sent!;
        if (sent.length === 0) ctx.skip('nothing was sent');
        const bad = sent.filter((s) => s.res.body === undefined && s.res.exchange.response !== undefined);
        const notJson = bad.filter((s) => responseJson(s.res.exchange) === undefined);
        ctx.expect(
          notJson.length === 0,
          `${notJson.length} of ${sent.length} answers are not JSON: ${notJson.map((s) => `${s.kind} ${s.operation} (HTTP ${s.res.exchange.response?.status})`).join('; ')}`,
          ...notJson.slice(0, 3).map((s) => s.res.exchange),
        );
      },
    },
    {
      id: 'GQL-NEG-01',
      title: 'every answer to the malformed requests is a JSON object carrying data or errors',
      needs: ['sent'],
      async run(ctx: C) {
        const sent = ctx.state.sent!;
        const bad = sent.filter(
          (s) => s.res.body === undefined || ctx.schemas.check('graphql/schemas/envelope.schema.json', s.res.body).length > 0,
        );
        ctx.expect(
          bad.length === 0,
          `${bad.length} of ${sent.length} answers carry neither data nor errors: ${bad.map((s) => `${s.kind} ${s.operation}`).join('; ')}`,
          ...bad.slice(0, 3).map((s) => s.res.exchange),
        );
      },
    },
    {
      id: 'GQL-ENV-04',
      title: 'requests without their required variables, or with variables of the wrong type, are recognisably refused',
      needs: ['sent'],
      async run(ctx: C) {
        const judged = ctx.state.sent!.filter((s) => s.kind === 'missing variables' || s.kind === 'wrong types');
        if (judged.length === 0) ctx.skip('nothing was sent');
        const looksOk = judged.filter((s) => refusal(s.res, s.operation) === undefined);
        ctx.expect(
          looksOk.length === 0,
          `${looksOk.length} of ${judged.length} look like success: ${looksOk.map((s) => `${s.kind} ${s.operation}`).join('; ')}`,
          ...looksOk.slice(0, 3).map((s) => s.res.exchange),
        );
      },
    },
    {
      id: 'GQL-SEC-02',
      title: 'no answer to the malformed requests leaks a stack trace, SQL or a file path',
      needs: ['sent'],
      async run(ctx: C) {
        const leaks = ctx.state.sent!.map((s) => ({ s, leak: leakedInternals(s.res.exchange) })).filter((x) => x.leak);
        ctx.expect(
          leaks.length === 0,
          `${leaks.length} answers show internals, e.g. ${leaks[0]?.s.kind} ${leaks[0]?.s.operation}: "${leaks[0]?.leak}"`,
          ...leaks.slice(0, 3).map((x) => x.s.res.exchange),
        );
      },
    },
    noSecretsCheck<NegState>(),
  ],
};
