import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type BadToken, forgedTokens, malformedTokens, resignedTokens } from '../../../checks/tokens.js';
import type { GraphQLOptions, GraphQLResult } from '../../../graphql/client.js';
import {
  accepted,
  addToCart,
  answerRefusal,
  cartLines,
  couponShown,
  emptyCart,
  expectSelection,
  gql,
  newSession,
  op,
  productId,
  quantityOf,
  record,
  refusal,
  SeededCustomer,
  short,
} from '../client.js';
import { expectEmptyCartTaken } from '../model-cart.js';
import { noSecretsCheck } from './common.js';

/**
 * Tokens and other customers ("5. Authentication": the login token, RS256, on every cart
 * mutation). ADVISORY: the document states the algorithm, not what a target must refuse; a target
 * that takes these tokens lets anyone act as any customer.
 */
type Session = { email: string; password: string; token: string };
interface TokState {
  a: Session;
  b: Session;
  product: string;
  /** A's line and its quantity before the hostile calls. */
  line: string;
  quantity: number;
  /** B's cart was emptied after B's token was last sent (before B's login in GQL-ENV-03): the teardown leaves it. */
  bEmptied: boolean;
  /** The latest read of A's cart (expectCartUnchanged's add of 1). */
  aRead: GraphQLResult;
  /** GQL-TOK-03's read of A's cart, taken while B's own cart holds the coupon B applied (A never applied one). */
  aReadBesideCoupon: GraphQLResult;
}
type C = CheckContext<TokState>;

/** One call of each operation that takes a token, aimed at A's data; `token` undefined sends none. */
function calls(ctx: C, token: string | undefined): { operation: string; send: () => Promise<GraphQLResult> }[] {
  const s = ctx.state as Required<TokState>;
  const o = token === undefined ? {} : { token };
  const coupon = ctx.data('SFC_GQL_COUPON') ?? 'SFC-ANY';
  return [
    { operation: 'addProductToCart', send: () => addToCart(ctx, token, s.product, 5) },
    { operation: 'updateCartProduct', send: () => op(ctx, 'updateCartProduct', { cart_id: s.line, quantity: 9 }, o) },
    { operation: 'deleteCartProduct', send: () => op(ctx, 'deleteCartProduct', { cart_id: s.line }, o) },
    { operation: 'addCoupon', send: () => op(ctx, 'addCoupon', { code: coupon }, o) },
    { operation: 'emptyCart', send: () => emptyCart(ctx, o) },
    { operation: 'customerByEmail', send: () => op(ctx, 'customerByEmail', { email: s.a.email }, o) },
    { operation: 'orders', send: () => op(ctx, 'orders', { start: 0, limit: 10 }, o) },
  ];
}

/** Why the answer is not a refusal, or undefined when it is one (or, for the two queries, when it discloses nothing of A). */
function accepted_(ctx: C, operation: string, res: GraphQLResult): string | undefined {
  if (!refusal(res, operation)) {
    const v = res.data?.[operation];
    if (operation === 'customerByEmail') {
      const list = Array.isArray(v) ? v : [v];
      const mine = list.some((x) => String(record(x)?.email ?? '').toLowerCase() === ctx.state.a!.email.toLowerCase());
      return mine ? `it returned A's record ${short(v)}` : undefined;
    }
    if (operation === 'orders') return Array.isArray(v) && v.length > 0 ? `it listed orders ${short(v)}` : undefined;
    return `it answered ${short(v)}`;
  }
  return undefined;
}

/** Sends every call with every token; fails listing the ones taken; then checks A's cart is as it was. */
async function sweep(ctx: C, tokens: BadToken[]): Promise<void> {
  const taken: { what: string; res: GraphQLResult }[] = [];
  for (const bad of tokens)
    for (const call of calls(ctx, bad.token === '' ? undefined : bad.token)) {
      const res = await call.send();
      const why = accepted_(ctx, call.operation, res);
      if (why) taken.push({ what: `${call.operation} with ${bad.label}: ${why}`, res });
    }
  if (taken.length > 0)
    ctx.fail(
      `${taken.length} call(s) were not refused:\n  ${taken
        .slice(0, 10)
        .map((t) => t.what.slice(0, 240))
        .join('\n  ')}`,
      ...taken.slice(0, 3).map((t) => t.res.exchange),
    );
  await expectCartUnchanged(ctx);
}

/** A's cart still holds its line with its quantity and no coupon: read by adding 1. */
async function expectCartUnchanged(ctx: C): Promise<void> {
  const s = ctx.state as Required<TokState>;
  const res = await addToCart(ctx, s.a.token, s.product, 1);
  s.aRead = res;
  const summary = accepted(ctx, res, 'addProductToCart');
  const q = quantityOf(summary, s.product);
  const code = record(summary)?.coupon_code;
  ctx.expect(q === s.quantity + 1, `A's cart changed: expected ${s.quantity} + 1 = ${s.quantity + 1}, found ${q}`, res.exchange);
  ctx.expect(
    code === '' || code === null || code === undefined,
    `A's cart carries coupon ${short(code)} that only the hostile calls applied`,
    res.exchange,
  );
  // The read added 1: the next sweep expects the quantity seen now (no update, which it would also judge).
  const [line] = cartLines(summary).filter((l) => String(l.product_id) === s.product);
  if (line) s.line = String(line.cart_id);
  s.quantity = q;
}

export const tokenAbuseArea: AreaSpec<TokState> = {
  interface: 'graphql',
  name: 'token-abuse',
  checks: [
    {
      id: 'GQL-AUTH-02',
      title: 'two customers, A with a line of 2 of the product in the cart',
      async run(ctx: C) {
        const product = productId(ctx);
        const a = await newSession(ctx);
        const b = await newSession(ctx);
        ctx.onTeardown(async () => {
          await emptyCart(ctx, { token: a.token });
          // After B's login (GQL-ENV-03) B's token may have ended (token lifetime is not shown): B's cart was emptied then.
          if (!ctx.state.bEmptied) await emptyCart(ctx, { token: b.token });
        });
        // Probes AMB-GQL-05 with a real token; its result is not shown (NS-GQL-03), so only errors count.
        expectEmptyCartTaken(ctx, await emptyCart(ctx, { token: a.token }));
        const res = await addToCart(ctx, a.token, product, 2);
        const [line] = cartLines(accepted(ctx, res, 'addProductToCart'));
        if (!line) ctx.fail('expected a line after adding the product', res.exchange);
        Object.assign(ctx.state, { a, b, product, line: String(line.cart_id), quantity: 2 });
      },
    },
    {
      id: 'GQL-CART-04',
      title: "A's add of 1 and B's add of 3, sent at the same time, each land in the sender's own cart",
      needs: ['line'],
      async run(ctx: C) {
        const s = ctx.state as Required<TokState>;
        // Areas run one at a time under a rate limit: only here do two customers' adds overlap. A customer kept per
        // worker, not per request, puts both in one cart.
        const [mine, theirs] = await Promise.all([
          addToCart(ctx, s.a.token, s.product, 1),
          addToCart(ctx, s.b.token, s.product, 3),
        ]);
        const qa = quantityOf(accepted(ctx, mine, 'addProductToCart'), s.product);
        const qb = quantityOf(accepted(ctx, theirs, 'addProductToCart'), s.product);
        const held = s.quantity;
        s.quantity = qa; // the later checks expect A's line as it is now
        ctx.expect(
          qa === held + 1 && qb === 3,
          `A's cart held ${held} of product ${s.product}, B's none; after A added 1 and B added 3 at the same time, A's answer holds ${qa} (expected ${held + 1}) and B's ${qb} (expected 3)`,
          mine.exchange,
          theirs.exchange,
        );
      },
    },
    {
      id: 'GQL-TOK-01',
      title: 'every operation that takes a token refuses a missing, malformed, expired or re-signed token and changes nothing',
      needs: ['line'],
      async run(ctx: C) {
        const real = ctx.state.a!.token;
        await sweep(ctx, [{ label: 'no token', token: '' }, ...malformedTokens(real), ...resignedTokens(real)]);
      },
    },
    {
      id: 'GQL-TOK-02',
      title: 'every operation that takes a token refuses alg none, HS256 with a guessed or empty key, and a foreign RS256 key',
      needs: ['line'],
      async run(ctx: C) {
        // The document publishes no key (no JWKS): HS256 is signed with guessed secrets instead of the public key.
        ctx.note('no public key is published for document 3: HS256 tokens were signed with "secret" and with an empty key');
        await sweep(ctx, await forgedTokens(ctx.state.a!.token));
      },
    },
    {
      id: 'GQL-TOK-03',
      title: "B's token cannot change A's cart (add, update, delete, coupon, empty) nor read A's customer record",
      needs: ['line'],
      async run(ctx: C) {
        const s = ctx.state as Required<TokState>;
        const o = { token: s.b.token };
        // B's coupon last, on a line of B's, so that B's own cart holds it when A's cart is read (GQL-STATE-01 after this check).
        const seen: GraphQLResult[] = [
          await op(ctx, 'updateCartProduct', { cart_id: s.line, quantity: 9 }, o),
          await op(ctx, 'deleteCartProduct', { cart_id: s.line }, o),
          await emptyCart(ctx, o),
          await addToCart(ctx, s.b.token, s.product, 1),
          await op(ctx, 'addCoupon', { code: ctx.data('SFC_GQL_COUPON') ?? 'SFC-ANY' }, o),
        ];
        const bCoupon = ctx.data('SFC_GQL_COUPON') !== undefined && !refusal(seen[4] as GraphQLResult, 'addCoupon');
        const lookup = await op(ctx, 'customerByEmail', { email: s.a.email }, o);
        const why = accepted_(ctx, 'customerByEmail', lookup);
        if (why) ctx.fail(`customerByEmail of A's e-mail with B's token: ${why}`, lookup.exchange);
        // Document 3 places no orders: only a customer the target already holds orders for
        // (SFC_GQL_EMAIL / SFC_GQL_PASSWORD) makes this comparison bite; A otherwise has none.
        const seeded = SeededCustomer.of(ctx);
        const ids = (res: GraphQLResult) =>
          (Array.isArray(res.data?.orders) ? res.data.orders : []).map((o) => String(record(o)?.order_id));
        const list = (options: GraphQLOptions) => op(ctx, 'orders', { start: 0, limit: 100 }, options);
        const theirs = seeded ? await seeded.send(ctx, list) : await list({ token: s.a.token });
        const mine = await op(ctx, 'orders', { start: 0, limit: 100 }, o);
        const shared = ids(mine).filter((id) => ids(theirs).includes(id));
        if (shared.length > 0)
          ctx.fail(`orders with B's token lists another customer's orders: ${shared.join(', ')}`, theirs.exchange, mine.exchange);
        if (ids(theirs).length === 0) ctx.note('the other customer has no orders: the orders comparison saw two empty lists');
        delete ctx.state.aRead;
        try {
          await expectCartUnchanged(ctx);
        } catch (e) {
          ctx.note(`B's calls: ${seen.map((r) => short(r.data)).join('; ')}`);
          throw e;
        } finally {
          if (bCoupon && ctx.state.aRead) ctx.state.aReadBesideCoupon = ctx.state.aRead;
        }
      },
    },
    {
      id: 'GQL-STATE-01',
      title: "A's cart, read while B's own cart holds the coupon B applied, carries no coupon: A applied none",
      needs: ['aReadBesideCoupon'],
      async run(ctx: C) {
        // GQL-TOK-03's read of A's cart, no request more. A's own sequence (empty, adds) applied no coupon, so its
        // model has none: a coupon kept where every customer's cart reads it (one session for all) shows here.
        const res = ctx.state.aReadBesideCoupon!;
        const summary = record(res.data?.addProductToCart);
        if (!summary) ctx.skip(`the read of A's cart answered no summary (GQL-TOK-03 judges it): ${short(res.data)}`);
        const shown = couponShown(summary);
        ctx.expect(
          shown.length === 0,
          `A applied no coupon; after B applied ${JSON.stringify(ctx.data('SFC_GQL_COUPON'))} to B's own cart, A's cart summary shows one: ${shown.join(', ')}`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-ENV-03',
      title: 'a smaller selection gets only what it selects (login without the token field returns no token)',
      needs: ['line'],
      async run(ctx: C) {
        const s = ctx.state as Required<TokState>;
        const client = gql(ctx);
        // B's login last, each answer awaited before the next is sent: whether a login ends the account's older
        // tokens is not shown (token lifetime), so B's cart is emptied before it, with B's token, and not after.
        const cases: [string, () => Promise<GraphQLResult>][] = [
          [
            'addProductToCart',
            () =>
              client.runText(
                'mutation addProductToCart($input: CartProductInput!) { addProductToCart(input: $input) { total } }',
                {
                  input: { product_id: s.product, quantity: 1, options: {} },
                },
                { token: s.b.token },
              ),
          ],
          [
            'addCoupon',
            () =>
              client.runText(
                'mutation addCoupon($code: ID!) { addCoupon(code: $code) { total } }',
                {
                  code: ctx.data('SFC_GQL_COUPON') ?? 'SFC-ANY',
                },
                { token: s.b.token },
              ),
          ],
          [
            'login',
            () =>
              client.runText(
                'mutation login($email: String!, $password: String!) { login(email: $email, password: $password) { user_data { email } } }',
                {
                  email: s.b.email,
                  password: s.b.password,
                },
              ),
          ],
        ];
        const refused: string[] = [];
        for (const [field, send] of cases) {
          if (field === 'login') {
            // Not judged: the teardown's emptyCart of B, sent while B's token is B's newest (the add above filled it).
            const emptied = await emptyCart(ctx, { token: s.b.token });
            ctx.state.bEmptied = !answerRefusal(emptied);
          }
          const res = await send();
          const why = refusal(res, field);
          if (why) {
            refused.push(`${field}: ${why}`); // judged by the scenario areas; here only what comes back
            continue;
          }
          expectSelection(ctx, res);
        }
        if (refused.length === cases.length)
          ctx.skip(`every smaller selection was refused, so no result was there to judge: ${refused.join('; ').slice(0, 400)}`);
        if (refused.length > 0) ctx.note(`not judged (refused): ${refused.join('; ').slice(0, 400)}`);
      },
    },
    noSecretsCheck<TokState>(),
  ],
};
