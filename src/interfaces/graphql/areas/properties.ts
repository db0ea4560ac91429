import fc from 'fast-check';
import { digitString, notDigits, pageArgs, quantityBelowOne, validQuantity } from '../../../arbitraries/gql-inputs.js';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { checkProperty } from '../../../checks/properties.js';
import { type GraphQLOptions, type GraphQLResult, hasErrors } from '../../../graphql/client.js';
import {
  type Account,
  accepted,
  addToCart,
  cartLines,
  customerInput,
  emptyCart,
  freshAccount,
  gql,
  loginToken,
  newAccount,
  newSession,
  num,
  op,
  phoneForm,
  productId,
  quantityOf,
  refusal,
  SeededCustomer,
  short,
} from '../client.js';
import { expectEmptyCartTaken } from '../model-cart.js';
import { noSecretsCheck } from './common.js';

/**
 * Boundary properties of the limits document 3 states: telephone and postcode are strings of
 * digits, quantities are Int, `orders` pages by start and limit. Lengths of CustomerInput fields
 * are not stated, so none is asserted.
 */
interface PropState {
  token: string;
  product: string;
  /** Refusals seen by the properties, for the "names the field" checks. */
  digitRefusals: { field: string; res: GraphQLResult; account: Account }[];
  quantityRefusals: GraphQLResult[];
}
type C = CheckContext<PropState>;

/** Runs of a property whose every run registers an account (a password hash on the target): a twentieth of `--runs`, at least 3. */
export function registrationRuns(runs: number): number {
  return Math.min(runs, Math.max(3, Math.ceil(runs / 20)));
}

/** The refusal's own words (errors and message), where a field name would be. */
function refusalText(res: GraphQLResult): string {
  return JSON.stringify([res.errors ?? null, res.body?.message ?? null]).toLowerCase();
}

const notServerError = (ctx: C, res: GraphQLResult, what: string) =>
  ctx.expect(
    res.exchange.response !== undefined && res.exchange.response.status < 500,
    `${what}: expected an answer without 5xx, got ${res.exchange.response?.status ?? res.exchange.error}`,
    res.exchange,
  );

/** The cart's quantity of the product, read by adding 1 (the only read of the cart): the 1 is counted. */
async function readQuantity(ctx: C): Promise<number> {
  const res = await addToCart(ctx, ctx.state.token!, ctx.state.product!, 1);
  return quantityOf(accepted(ctx, res, 'addProductToCart'), ctx.state.product!);
}

/** Keeps the cart small, far from any ceiling the target may have (none is stated). */
async function resetWhenLarge(ctx: C, quantity: number): Promise<number> {
  if (quantity < 500) return quantity;
  // Its result is not shown (NS-GQL-03): only errors count; the next read judges the effect.
  expectEmptyCartTaken(ctx, await emptyCart(ctx, { token: ctx.state.token! }));
  return 0;
}

export const propertiesArea: AreaSpec<PropState> = {
  interface: 'graphql',
  name: 'properties',
  checks: [
    {
      id: 'GQL-REG-04',
      title: 'register accepts any telephone and postcode that are strings of digits (in the form the target took, AMB-GQL-02)',
      async run(ctx: C) {
        await newAccount(ctx); // probes the telephone/postcode form once
        const form = phoneForm(ctx) ?? 'string';
        await checkProperty(
          ctx,
          'graphql register digits accepted',
          fc.record({
            telephone: digitString({ minLength: 7, maxLength: 9 }),
            postcode: digitString({ minLength: 4, maxLength: 8 }),
          }),
          async ({ telephone, postcode }) => {
            const input = {
              ...customerInput(ctx, freshAccount(ctx), form),
              telephone: form === 'string' ? telephone : Number(telephone),
              postcode: form === 'string' ? postcode : Number(postcode),
            };
            const res = await op(ctx, 'register', { input });
            ctx.expect(
              res.data?.register === true && !hasErrors(res.errors),
              `telephone ${telephone} and postcode ${postcode} (${form}s of digits): expected register: true, got ${refusal(res, 'register') ?? short(res.data?.register)}`,
              res.exchange,
            );
          },
          { runs: registrationRuns(ctx.settings.runs) },
        );
      },
    },
    {
      id: 'GQL-PROP-01',
      title: 'register with a telephone or postcode holding a non-digit is refused, and no account is made',
      async run(ctx: C) {
        const seen: PropState['digitRefusals'] = [];
        ctx.state.digitRefusals = seen;
        await checkProperty(
          ctx,
          'graphql register non-digits refused',
          fc.record({ field: fc.constantFrom('telephone', 'postcode'), value: notDigits({ minLength: 4, maxLength: 10 }) }),
          async ({ field, value }) => {
            const account = freshAccount(ctx);
            const input = { ...customerInput(ctx, account, 'string'), [field]: value };
            // Sent past the suite's own request schema, which refuses the value: that is the point.
            const sent = await gql(ctx).run('register', { input });
            notServerError(ctx, sent, `${field} ${JSON.stringify(value)}`);
            ctx.expect(
              refusal(sent, 'register') !== undefined,
              `${field} ${JSON.stringify(value)} is not a string of digits, yet register answered ${short(sent.data?.register)}`,
              sent.exchange,
            );
            seen.push({ field, res: sent, account });
          },
          // A sign in front and a decimal point pass PHP's is_numeric(), which a handler may use where ctype_digit()
          // was meant: run on every seed, not only where the generator happens to place them so.
          {
            examples: [
              { field: 'telephone', value: '12345.6789' },
              { field: 'postcode', value: '+1234' },
            ],
          },
        );
        // A refusal makes no account: one that still wrote (the customer row inserted before the field was
        // checked, e.g. the postcode with the address, without a transaction) leaves an account that logs in.
        // The first refusal of each field (1 login each, 2 requests).
        for (const field of ['telephone', 'postcode']) {
          const first = seen.find((s) => s.field === field);
          if (!first) continue;
          const res = await op(ctx, 'login', { email: first.account.email, password: first.account.password });
          const token = loginToken(ctx, res);
          if (typeof token === 'string' && token.length > 0)
            ctx.fail(
              `register with a ${field} that is not digits was refused, yet the account it sent logs in with its password`,
              first.res.exchange,
              res.exchange,
            );
        }
      },
    },
    {
      id: 'GQL-PROP-02',
      title: 'the refusal of a telephone or postcode that is not digits names the field',
      needs: ['digitRefusals'],
      async run(ctx: C) {
        const seen = ctx.state.digitRefusals!;
        if (seen.length === 0) ctx.skip('no refusal was recorded');
        const silent = seen.filter((s) => !refusalText(s.res).includes(s.field));
        ctx.expect(
          silent.length === 0,
          `${silent.length} of ${seen.length} refusals do not name the field, e.g. ${silent[0]?.field}: ${refusalText(silent[0]?.res ?? seen[0]!.res).slice(0, 200)}`,
          ...silent.slice(0, 2).map((s) => s.res.exchange),
        );
      },
    },
    {
      id: 'GQL-CART-04',
      title: 'addProductToCart of any quantity from the edge 1 upwards adds exactly that quantity',
      async run(ctx: C) {
        const product = productId(ctx);
        const session = await newSession(ctx);
        Object.assign(ctx.state, { token: session.token, product, quantityRefusals: [] });
        ctx.onTeardown(async () => {
          await emptyCart(ctx, { token: session.token });
        });
        let known = await readQuantity(ctx);
        await checkProperty(ctx, 'graphql add quantity', validQuantity({ maxValid: 50 }), async (q) => {
          known = await resetWhenLarge(ctx, known);
          const res = await addToCart(ctx, session.token, product, q);
          const after = quantityOf(accepted(ctx, res, 'addProductToCart'), product);
          // Resynchronised before judging, so that shrinking replays from what the cart really holds.
          const held = known;
          known = after;
          ctx.expect(after === held + q, `cart held ${held}, added ${q}: expected ${held + q}, found ${after}`, res.exchange);
        });
      },
    },
    {
      id: 'GQL-CART-13',
      title:
        'addProductToCart with a quantity below 1 (0, negative, down to the smallest Int) is refused or adds nothing; no 5xx',
      needs: ['token', 'product'],
      async run(ctx: C) {
        const { token, product } = ctx.state as Required<PropState>;
        await checkProperty(ctx, 'graphql add quantity below 1', quantityBelowOne(), async (q) => {
          const res = await addToCart(ctx, token, product, q);
          notServerError(ctx, res, `quantity ${q}`);
          const why = refusal(res, 'addProductToCart');
          if (why) {
            ctx.state.quantityRefusals!.push(res);
            return;
          }
          const bad = cartLines(res.data?.addProductToCart).filter((l) => (num(l.quantity) ?? 1) < 1);
          ctx.expect(
            bad.length === 0,
            `quantity ${q} was accepted and left a line of quantity ${short(bad[0]?.quantity)}`,
            res.exchange,
          );
        });
      },
    },
    {
      id: 'GQL-CART-07',
      title: 'updateCartProduct to any quantity from the edge 1 upwards sets the line to it',
      needs: ['token', 'product'],
      async run(ctx: C) {
        const { token, product } = ctx.state as Required<PropState>;
        await checkProperty(ctx, 'graphql update quantity', validQuantity({ maxValid: 50 }), async (q) => {
          const line = await ownLine(ctx, token, product);
          const res = await op(ctx, 'updateCartProduct', { cart_id: line, quantity: q }, { token });
          ctx.expect(
            res.data?.updateCartProduct === true,
            `updateCartProduct of own line ${line} to ${q}: expected true, got ${refusal(res, 'updateCartProduct') ?? short(res.data?.updateCartProduct)}`,
            res.exchange,
          );
          const read = await addToCart(ctx, token, product, 1);
          const after = quantityOf(accepted(ctx, read, 'addProductToCart'), product);
          ctx.expect(
            after === q + 1,
            `after updating to ${q} and adding 1, expected ${q + 1}, found ${after}`,
            res.exchange,
            read.exchange,
          );
        });
      },
    },
    {
      id: 'GQL-PROP-04',
      title: 'updateCartProduct to a quantity below 1 is refused or removes the line; never a line below 1, never 5xx',
      needs: ['token', 'product'],
      async run(ctx: C) {
        const { token, product } = ctx.state as Required<PropState>;
        await checkProperty(ctx, 'graphql update quantity below 1', quantityBelowOne(), async (q) => {
          const line = await ownLine(ctx, token, product);
          const before = await readQuantity(ctx);
          const res = await op(ctx, 'updateCartProduct', { cart_id: line, quantity: q }, { token });
          notServerError(ctx, res, `update to ${q}`);
          if (refusal(res, 'updateCartProduct')) ctx.state.quantityRefusals!.push(res);
          const read = await addToCart(ctx, token, product, 1);
          const summary = accepted(ctx, read, 'addProductToCart');
          const bad = cartLines(summary).filter((l) => (num(l.quantity) ?? 1) < 1);
          ctx.expect(
            bad.length === 0,
            `after updating to ${q}, a line has quantity ${short(bad[0]?.quantity)}`,
            res.exchange,
            read.exchange,
          );
          const after = quantityOf(summary, product);
          // Unchanged (refused) is before + 1 (the read); removed is 1 (the read alone).
          ctx.expect(
            after === before + 1 || after === 1,
            `after updating to ${q}: expected the line unchanged (${before + 1}) or removed (1), found ${after}`,
            res.exchange,
            read.exchange,
          );
        });
      },
    },
    {
      id: 'GQL-PROP-03',
      title: 'the refusals of quantities below 1 name the field quantity',
      needs: ['quantityRefusals'],
      async run(ctx: C) {
        const seen = ctx.state.quantityRefusals!;
        if (seen.length === 0) ctx.skip('the target refused no quantity below 1 (it added nothing instead)');
        const silent = seen.filter((r) => !refusalText(r).includes('quantity'));
        ctx.expect(
          silent.length === 0,
          `${silent.length} of ${seen.length} refusals do not name quantity, e.g. ${refusalText(silent[0] ?? seen[0]!).slice(0, 200)}`,
          ...silent.slice(0, 2).map((r) => r.exchange),
        );
      },
    },
    {
      id: 'GQL-ORD-02',
      title: 'orders(start, limit) at the edges (0, 1, small pages, Int extremes) returns at most limit entries; no 5xx',
      needs: ['token'],
      async run(ctx: C) {
        // A new customer has no orders (document 3 places none): the entries are seen on the
        // customer the settings name (SFC_GQL_EMAIL), when they name one.
        const seeded = SeededCustomer.of(ctx);
        let most = 0;
        await checkProperty(ctx, 'graphql orders paging', pageArgs(), async ({ start, limit }) => {
          const call = (o: GraphQLOptions) => op(ctx, 'orders', { start, limit }, o);
          const res = seeded ? await seeded.send(ctx, call) : await call({ token: ctx.state.token! });
          notServerError(ctx, res, `orders(start ${start}, limit ${limit})`);
          if (start < 0 || limit < 0) return; // negative paging: not shown (NS-GQL-09)
          const list = res.data?.orders;
          // A refusal returns no entries, so it keeps the bound; which pages a target takes (a limit of 0,
          // the Int extremes) is not shown (NS-GQL-09). Only lists are counted.
          if (!Array.isArray(list)) return;
          most = Math.max(most, list.length);
          ctx.expect(
            list.length <= limit,
            `orders(start ${start}, limit ${limit}) returned ${list.length} entries`,
            res.exchange,
          );
        });
        if (most === 0)
          ctx.skip(
            seeded
              ? 'orders returned no entry for any page of the SFC_GQL_EMAIL customer, so the limit was only seen on empty lists (no 5xx was seen)'
              : 'orders returned no entry: a new customer has none and document 3 places none; set SFC_GQL_EMAIL and SFC_GQL_PASSWORD to a customer with orders (no 5xx was seen)',
          );
      },
    },
    noSecretsCheck<PropState>(),
  ],
};

/** A cart_id of the product in the own cart, adding 1 when there is none. */
async function ownLine(ctx: C, token: string, product: string): Promise<string> {
  const res = await addToCart(ctx, token, product, 1);
  const [line] = cartLines(accepted(ctx, res, 'addProductToCart')).filter((l) => String(l.product_id) === product);
  if (!line) ctx.fail(`expected a line of product ${product} after adding it`, res.exchange);
  return String(line.cart_id);
}
