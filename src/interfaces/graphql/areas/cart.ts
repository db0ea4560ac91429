import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { forgedTokens, malformedTokens } from '../../../checks/tokens.js';
import type { GraphQLResult } from '../../../graphql/client.js';
import {
  type Account,
  accepted,
  addToCart,
  cartLines,
  emptyCart,
  emptyCartForm,
  expectRefused,
  expectSelection,
  gql,
  loginToken,
  newSession,
  num,
  op,
  optionsForm,
  productId,
  quantityOf,
  record,
  refusal,
  secondProductId,
  short,
  validateData,
} from '../client.js';
import { expectEmptyCartTaken } from '../model-cart.js';
import { noSecretsCheck } from './common.js';

/** The cart mutations with a bearer token: add, update, delete, empty ("4. Endpoints", "1. What the service does"). */
interface CartState {
  token: string;
  /** The account of `token`: GQL-CART-11 logs it in a second time, and `token` becomes that login's. */
  account: Account;
  product: string;
  first: GraphQLResult;
  /** The latest cart summary seen. */
  summary: unknown;
  emptied: boolean;
  /** SFC_GQL_SECOND_PRODUCT_ID once its line is in the cart beside the product's (a cart of two lines). */
  second: string;
  /** The quantity the second product's line must hold: other lines' updates and deletes leave it alone. */
  secondQuantity: number;
  /** The add that put the second product's line beside the product's: GQL-ENV-03 judges its selection. */
  secondAdd: GraphQLResult;
  /** cart_ids GQL-CART-08 deleted (answered true): GQL-CART-09 updates one and expects it still gone. */
  deleted: string[];
  /** The add GQL-CART-09 read the cart with after a deleteCartProduct: GQL-CART-01 judges its summary's types. */
  afterDelete: GraphQLResult;
}
type C = CheckContext<CartState>;

/** Adds `quantity` of the product with the token; fails unless accepted; remembers the summary. */
async function add(ctx: C, quantity: number): Promise<{ res: GraphQLResult; summary: unknown }> {
  const res = await addToCart(ctx, ctx.state.token!, ctx.state.product!, quantity);
  const summary = accepted(ctx, res, 'addProductToCart');
  ctx.state.summary = summary;
  return { res, summary };
}

function lineIds(summary: unknown, product: string): string[] {
  return cartLines(summary)
    .filter((l) => String(l.product_id) === product)
    .map((l) => String(l.cart_id));
}

/** Lines as product and quantity, for messages. */
const brief = (summary: unknown) =>
  short(cartLines(summary).map((l) => ({ cart_id: l.cart_id, product_id: l.product_id, quantity: l.quantity })));

/**
 * GQL-CART-05 on a summary: each line's total is its own price times its own quantity, and
 * subtotal is the sum of the line totals (to the cent; types not shown, NS-GQL-12).
 */
function expectConsistent(ctx: C, res: GraphQLResult, summary: unknown): void {
  const lines = cartLines(summary);
  if (lines.length === 0) ctx.fail('expected at least one line', res.exchange);
  let sum = 0;
  for (const l of lines) {
    const price = num(l.price);
    const quantity = num(l.quantity);
    const total = num(l.total);
    if (price === undefined || quantity === undefined || total === undefined)
      ctx.skip(
        `line price, quantity or total is not a number (types not shown, NS-GQL-12): ${short({ price: l.price, quantity: l.quantity, total: l.total })}`,
      );
    ctx.expect(
      Math.abs(price * quantity - total) < 0.01,
      `line ${String(l.cart_id)} (product ${String(l.product_id)}): expected total = price x quantity = ${price * quantity}, got ${total}`,
      res.exchange,
    );
    sum += total;
  }
  const subtotal = num(record(summary)?.subtotal);
  ctx.expect(
    subtotal !== undefined && Math.abs(subtotal - sum) < 0.01,
    `expected subtotal = sum of the ${lines.length} line totals = ${sum}, got ${short(record(summary)?.subtotal)} (lines ${brief(summary)})`,
    res.exchange,
  );
}

/**
 * Before GQL-CART-11 empties the cart: logs the account in a second time (another device), whose token the
 * area sends from then on. Whether a login ends the account's older tokens is not shown (token lifetime), so
 * the first token is not sent again. Whether the two logins share one cart is not stated; either way
 * GQL-CART-10 then expects the second token's cart empty, so a line kept because it was last added to under
 * the first login shows there.
 */
async function secondLogin(ctx: C): Promise<void> {
  const account = ctx.state.account!;
  const res = await op(ctx, 'login', { email: account.email, password: account.password });
  const token = loginToken(ctx, res);
  if (refusal(res, 'login') || typeof token !== 'string' || !token) {
    ctx.note(
      `a second login of the account was refused (${refusal(res, 'login') ?? short(res.data?.login)}): emptyCart empties a cart of one login`,
    );
    return;
  }
  ctx.state.token = token;
}

/**
 * With a second product in the cart, fails unless its line still holds `ctx.state.secondQuantity`:
 * an update or delete of the other line, or an add of the other product, leaves it as it was. The
 * quantity seen becomes the one the next check expects, so one wrong step fails one check.
 */
function expectSecondKept(ctx: C, res: GraphQLResult, summary: unknown, what: string): void {
  const second = ctx.state.second;
  const want = ctx.state.secondQuantity;
  if (second === undefined || want === undefined) return;
  const q = quantityOf(summary, second);
  ctx.state.secondQuantity = q;
  ctx.expect(
    q === want,
    `${what}: the line of product ${second} should hold ${want}, found ${q} (lines ${brief(summary)})`,
    res.exchange,
  );
}

export const cartArea: AreaSpec<CartState> = {
  interface: 'graphql',
  name: 'cart',
  checks: [
    {
      id: 'GQL-CART-03',
      title: 'addProductToCart with empty options is accepted for a product without required options (AMB-GQL-04)',
      async run(ctx: C) {
        const product = productId(ctx);
        const session = await newSession(ctx);
        Object.assign(ctx.state, { token: session.token, product, account: session });
        ctx.onTeardown(async () => {
          await emptyCart(ctx, { token: ctx.state.token ?? session.token });
        });
        const { res } = await add(ctx, 1);
        ctx.state.first = res;
      },
    },
    {
      id: 'GQL-CART-01',
      title: 'the Cart summary has its fields with the document types',
      needs: ['first'],
      async run(ctx: C) {
        const res = ctx.state.first!;
        const summary = record(res.data?.addProductToCart);
        if (!summary) ctx.fail('expected the cart summary to be an object', res.exchange);
        ctx.expect(Array.isArray(summary.items), `expected items to be a list, got ${short(summary.items)}`, res.exchange);
        // The lines are GQL-CART-02's subject: judge the summary's own fields here.
        ctx.validate('graphql/schemas/cart-summary.schema.json', { ...summary, items: [] }, res.exchange, 'cart summary');
      },
    },
    {
      id: 'GQL-CART-02',
      title: 'every cart line has the cart line fields (image a relative path)',
      needs: ['first'],
      async run(ctx: C) {
        const res = ctx.state.first!;
        const items = record(res.data?.addProductToCart)?.items;
        ctx.expect(
          Array.isArray(items) && items.length > 0,
          'expected at least one cart line after adding a product',
          res.exchange,
        );
        items.forEach((line, i) => {
          ctx.validate('graphql/schemas/cart-line.schema.json', line, res.exchange, `items[${i}]`);
        });
      },
    },
    {
      id: 'GQL-ENV-03',
      title: 'addProductToCart returns exactly the selected fields, with all of them and with a few fields of items',
      needs: ['first'],
      async run(ctx: C) {
        expectSelection(ctx, ctx.state.first!);
        // The suite's operation selects every line field: only a partial selection shows lines that ignore it.
        const res = await gql(ctx).runText(
          'mutation addProductToCart($input: CartProductInput!) { addProductToCart(input: $input) { subtotal items { product_id quantity } } }',
          { input: { product_id: ctx.state.product!, quantity: 1, options: optionsForm(ctx) === 'list' ? [] : {} } },
          { token: ctx.state.token! },
        );
        accepted(ctx, res, 'addProductToCart');
        expectSelection(ctx, res);
      },
    },
    {
      id: 'GQL-CART-04',
      title: 'after adding 1 of the product the cart holds a line of that product with quantity 1',
      needs: ['first'],
      async run(ctx: C) {
        const res = ctx.state.first!;
        const summary = res.data?.addProductToCart;
        const q = quantityOf(summary, ctx.state.product!);
        ctx.expect(
          q === 1,
          `expected product ${ctx.state.product} with quantity 1 in a new cart, found quantity ${q} (lines: ${short(cartLines(summary).map((l) => ({ product_id: l.product_id, quantity: l.quantity })))})`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-05',
      title:
        'a second product (SFC_GQL_SECOND_PRODUCT_ID) added beside the first: each of the two lines totals its own price x quantity, subtotal is their sum',
      needs: ['summary'],
      async run(ctx: C) {
        const second = secondProductId(ctx);
        // 2 of it beside 2 of the first product: two lines of different quantities (and, on most
        // targets, prices), so a subtotal or line total taken from one line does not add up.
        const res = await addToCart(ctx, ctx.state.token!, second, 2);
        const summary = accepted(ctx, res, 'addProductToCart');
        ctx.state.summary = summary;
        const q = quantityOf(summary, second);
        ctx.expect(
          q === 2 && quantityOf(summary, ctx.state.product!) > 0,
          `after adding 2 of product ${second} to a cart holding product ${ctx.state.product}, expected both lines (${second} with 2), got ${brief(summary)}`,
          res.exchange,
        );
        Object.assign(ctx.state, { second, secondQuantity: 2, secondAdd: res });
        expectConsistent(ctx, res, summary);
      },
    },
    {
      id: 'GQL-ENV-03',
      title:
        'the summary of a cart holding the second product (SFC_GQL_SECOND_PRODUCT_ID) returns exactly the selected fields, its line too',
      needs: ['secondAdd'],
      async run(ctx: C) {
        // The first summary holds the first product only: a line field that carries more than its selection for
        // some products only (a download's entries, say) shows on the other product's line. No request of its own.
        expectSelection(ctx, ctx.state.secondAdd!);
      },
    },
    {
      id: 'GQL-CART-05',
      title: 'each line total is price times quantity and subtotal is the sum of the line totals',
      needs: ['summary'],
      async run(ctx: C) {
        // With the second product's line (the check before), the product's line is judged beside it.
        const { res, summary } = await add(ctx, 1);
        expectConsistent(ctx, res, summary);
        expectSecondKept(ctx, res, summary, 'after adding 1 of the first product');
      },
    },
    {
      id: 'GQL-CART-06',
      title: 'updateCartProduct of an own line returns true, also to the quantity it already has',
      needs: ['summary'],
      async run(ctx: C) {
        const [cartId, ...rest] = lineIds(ctx.state.summary, ctx.state.product!);
        if (!cartId) ctx.skip('no line of the product to update');
        // A target that keeps one line per add: fold the cart down to one line first.
        for (const id of rest) await op(ctx, 'deleteCartProduct', { cart_id: id }, { token: ctx.state.token! });
        const res = await op(ctx, 'updateCartProduct', { cart_id: cartId, quantity: 3 }, { token: ctx.state.token! });
        validateData(ctx, res, 'updateCartProduct');
        ctx.expect(
          res.data?.updateCartProduct === true,
          `expected updateCartProduct: true, got ${refusal(res, 'updateCartProduct') ?? short(res.data?.updateCartProduct)}`,
          res.exchange,
        );
        // The same quantity again changes no row: success read from affected rows would say false here.
        const again = await op(ctx, 'updateCartProduct', { cart_id: cartId, quantity: 3 }, { token: ctx.state.token! });
        ctx.expect(
          again.data?.updateCartProduct === true,
          `updateCartProduct of own line ${cartId} to the quantity it already has (3): expected true, got ${refusal(again, 'updateCartProduct') ?? short(again.data?.updateCartProduct)}`,
          res.exchange,
          again.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-06',
      title: "updateCartProduct of the second of two lines (the second product's) returns true",
      needs: ['summary'],
      async run(ctx: C) {
        secondProductId(ctx);
        const second = ctx.state.second;
        if (second === undefined) ctx.skip('no cart of two lines: the second product was not added');
        const [cartId] = lineIds(ctx.state.summary, second);
        if (!cartId) ctx.skip(`no line of product ${second} to update`);
        // The line listed after the first product's: an update that acts on the cart's first line shows in GQL-CART-07.
        const res = await op(ctx, 'updateCartProduct', { cart_id: cartId, quantity: 5 }, { token: ctx.state.token! });
        ctx.expect(
          res.data?.updateCartProduct === true,
          `updateCartProduct of own line ${cartId} (product ${second}) to 5: expected true, got ${refusal(res, 'updateCartProduct') ?? short(res.data?.updateCartProduct)}`,
          res.exchange,
        );
        ctx.state.secondQuantity = 5;
      },
    },
    {
      id: 'GQL-CART-07',
      title:
        "after updateCartProduct to 3 and adding 1 more, the cart holds 4 of the product (and the second product's line the 5 it was updated to)",
      needs: ['summary'],
      async run(ctx: C) {
        const { res, summary } = await add(ctx, 1);
        // The second line first: it records what the cart holds for the checks after this one.
        expectSecondKept(ctx, res, summary, 'each update changes the line it names');
        const q = quantityOf(summary, ctx.state.product!);
        ctx.expect(q === 4, `expected quantity 3 (updated) + 1 (added) = 4, found ${q} (lines ${brief(summary)})`, res.exchange);
      },
    },
    {
      id: 'GQL-CART-07',
      title: 'updateCartProduct to 4294967298 (past a 32-bit Int) is refused, or the line holds that quantity after',
      needs: ['summary'],
      async run(ctx: C) {
        const product = ctx.state.product!;
        const [cartId] = lineIds(ctx.state.summary, product);
        if (!cartId) ctx.skip('no line of the product to update');
        // 2^32 + 2 is no GraphQL Int, so a refusal conforms; read through a 32-bit integer it is 2. Sent as text:
        // the suite's own variables schema holds quantity to 32 bits.
        const huge = 2 ** 32 + 2;
        const res = await gql(ctx).runText(
          'mutation updateCartProduct($cart_id: ID!, $quantity: Int!) { updateCartProduct(cart_id: $cart_id, quantity: $quantity) }',
          { cart_id: cartId, quantity: huge },
          { token: ctx.state.token! },
        );
        const why = refusal(res, 'updateCartProduct');
        if (why) {
          ctx.note(`updateCartProduct to ${huge} was refused (${why})`);
          return;
        }
        // Accepted: the line must hold what was sent (GQL-CART-08 then deletes the product's lines).
        const read = await addToCart(ctx, ctx.state.token!, product, 1);
        if (refusal(read, 'addProductToCart'))
          ctx.skip(
            `after updateCartProduct to ${huge} was accepted, adding 1 to read the cart was refused: ${refusal(read, 'addProductToCart')}`,
          );
        const summary = read.data?.addProductToCart;
        ctx.state.summary = summary;
        const q = quantityOf(summary, product);
        ctx.expect(
          q === huge + 1,
          `updateCartProduct of line ${cartId} to ${huge} answered true; after adding 1, expected ${huge + 1}, found ${q} (lines ${brief(summary)})`,
          res.exchange,
          read.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-08',
      title: 'deleteCartProduct of own lines returns true',
      needs: ['summary'],
      async run(ctx: C) {
        const ids = lineIds(ctx.state.summary, ctx.state.product!);
        if (ids.length === 0) ctx.skip('no line of the product to delete');
        ctx.state.deleted = [];
        for (const id of ids) {
          const res = await op(ctx, 'deleteCartProduct', { cart_id: id }, { token: ctx.state.token! });
          if (res.data?.deleteCartProduct === true) ctx.state.deleted.push(id);
          validateData(ctx, res, 'deleteCartProduct');
          ctx.expect(
            res.data?.deleteCartProduct === true,
            `expected deleteCartProduct: true for cart_id ${id}, got ${refusal(res, 'deleteCartProduct') ?? short(res.data?.deleteCartProduct)}`,
            res.exchange,
          );
        }
      },
    },
    {
      id: 'GQL-CART-09',
      title:
        "after deleting the lines of the product, an update of a deleted line and adding 1, the cart holds 1 of it (and the second product's line as it was)",
      needs: ['summary'],
      async run(ctx: C) {
        // A delete that only flags the line, undone by an update that finds it by cart_id, brings it back. Whether
        // such an update is refused is not stated: its answer is noted, the cart read after judges.
        const deleted = ctx.state.deleted?.[0];
        const update = deleted
          ? await op(ctx, 'updateCartProduct', { cart_id: deleted, quantity: 3 }, { token: ctx.state.token! })
          : undefined;
        if (update && !refusal(update, 'updateCartProduct'))
          ctx.note(`updateCartProduct of line ${deleted}, deleted before, answered ${short(update.data?.updateCartProduct)}`);
        const { res, summary } = await add(ctx, 1);
        expectSecondKept(ctx, res, summary, 'deleteCartProduct removes the line it names');
        const q = quantityOf(summary, ctx.state.product!);
        ctx.expect(
          q === 1,
          `expected the deleted lines gone (quantity 1 after adding 1${deleted ? `, line ${deleted} updated to 3 after its delete` : ''}), found ${q} (lines ${brief(summary)})`,
          ...(update ? [update.exchange] : []),
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-09',
      title:
        'deleteCartProduct of the later of two lines removes that line only: adding 2 again gives a line of 2, the other line is kept',
      needs: ['summary'],
      async run(ctx: C) {
        secondProductId(ctx);
        const second = ctx.state.second;
        if (second === undefined) ctx.skip('no cart of two lines: the second product was not added');
        const product = ctx.state.product!;
        // The product's line, added again after the second product's: now the later of the two.
        const ids = lineIds(ctx.state.summary, product);
        const cartId = ids[ids.length - 1];
        if (!cartId || quantityOf(ctx.state.summary, second) === 0) ctx.skip(`no two lines (products ${product} and ${second})`);
        const del = await op(ctx, 'deleteCartProduct', { cart_id: cartId }, { token: ctx.state.token! });
        ctx.expect(
          del.data?.deleteCartProduct === true,
          `deleteCartProduct of own line ${cartId}: expected true, got ${refusal(del, 'deleteCartProduct') ?? short(del.data?.deleteCartProduct)}`,
          del.exchange,
        );
        const { res, summary } = await add(ctx, 2);
        ctx.state.afterDelete = res;
        const q = quantityOf(summary, product);
        ctx.expect(
          q === 2,
          `after deleting line ${cartId} of product ${product} and adding 2, expected 2 of it, found ${q} (lines ${brief(summary)})`,
          del.exchange,
          res.exchange,
        );
        expectSecondKept(ctx, res, summary, `deleteCartProduct of line ${cartId}`);
      },
    },
    {
      id: 'GQL-CART-01',
      title: 'the cart summary read after a deleteCartProduct has the document types (weight, tax, total, subtotal numbers)',
      needs: ['afterDelete'],
      async run(ctx: C) {
        // GQL-CART-01's first check judges a fresh cart's first add; a summary recomputed after a delete is
        // otherwise read through num(), which takes a decimal string. No request more.
        const res = ctx.state.afterDelete!;
        const summary = record(res.data?.addProductToCart);
        if (!summary) ctx.skip('the add after the delete answered no summary (GQL-CART-09 judges it)');
        ctx.validate('graphql/schemas/cart-summary.schema.json', { ...summary, items: [] }, res.exchange, 'cart summary');
      },
    },
    {
      id: 'GQL-CART-11',
      title: 'emptyCart is accepted; records whether its result is a scalar or an object (AMB-GQL-05)',
      needs: ['token'],
      async run(ctx: C) {
        await secondLogin(ctx);
        const res = await emptyCart(ctx, { token: ctx.state.token! });
        // Its result is not shown (NS-GQL-03): a null or false value is not a refusal; the effect is GQL-CART-10's.
        expectEmptyCartTaken(ctx, res);
        validateData(ctx, res, 'emptyCart');
        ctx.state.emptied = true;
      },
    },
    {
      id: 'GQL-CART-10',
      title:
        'after emptyCart under a second login of the account (of a cart of two lines when a second product is set, last added to under the first login), adding 2 of the product leaves exactly one line with quantity 2',
      needs: ['emptied'],
      async run(ctx: C) {
        const { res, summary } = await add(ctx, 2);
        const lines = cartLines(summary);
        const only = lines[0];
        ctx.expect(
          lines.length === 1 && only && String(only.product_id) === ctx.state.product && num(only.quantity) === 2,
          `after emptyCart under a second login (the cart last added to under the first), expected one line (product ${ctx.state.product}, quantity 2), got ${short(lines.map((l) => ({ product_id: l.product_id, quantity: l.quantity })))}`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-04',
      title: 'two adds of 1 of the product in the cart, sent at the same time, both count: with one more add, 3 more of it',
      needs: ['emptied', 'summary'],
      async run(ctx: C) {
        const product = ctx.state.product!;
        const held = quantityOf(ctx.state.summary, product);
        if (held < 1) ctx.skip(`GQL-CART-10 left no line of product ${product} to add to`);
        // Each add raises the line it finds: a read and a write without a lock lose one of two overlapping adds.
        const racing = await Promise.all([0, 1].map(() => addToCart(ctx, ctx.state.token!, product, 1)));
        for (const r of racing) accepted(ctx, r, 'addProductToCart');
        const { res, summary } = await add(ctx, 1);
        const q = quantityOf(summary, product);
        ctx.expect(
          q === held + 3,
          `the cart held ${held} of product ${product}; after two adds of 1 sent at the same time and one more add of 1, expected ${held + 3}, found ${q} (lines ${brief(summary)})`,
          ...racing.map((r) => r.exchange),
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-12',
      title: 'addProductToCart with a product_id no product has is refused and adds no line',
      needs: ['token'],
      async run(ctx: C) {
        const missing = '987654321';
        const res = await addToCart(ctx, ctx.state.token!, missing, 1);
        // No ambiguity covers it: refused (an error, status false, or a null or false result: NS-GQL-08) ...
        const found = cartLines(res.data?.addProductToCart).some((l) => String(l.product_id) === missing);
        ctx.expect(!found, `product ${missing} (no such product) was added to the cart`, res.exchange);
        expectRefused(ctx, res, 'addProductToCart', `addProductToCart of product ${missing}, which no product has`);
        // ... and no line added: the cart, read by adding 1 of the real product, holds none of it.
        const read = await add(ctx, 1);
        const held = cartLines(read.summary).filter((l) => String(l.product_id) === missing);
        ctx.expect(
          held.length === 0,
          `after the refusal the cart holds a line of product ${missing} (no such product): ${short(held[0])}`,
          res.exchange,
          read.res.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-12',
      title:
        "addProductToCart with the product's ID followed by a letter (no product's ID) is refused, never read as the product's ID",
      needs: ['token', 'summary'],
      async run(ctx: C) {
        const product = ctx.state.product!;
        // An ID read through an integer cast (PHP's (int) of "40x" is 40) adds the product the digits name.
        const missing = `${product}x`;
        const held = quantityOf(ctx.state.summary, product);
        const res = await addToCart(ctx, ctx.state.token!, missing, 1);
        const why = refusal(res, 'addProductToCart');
        if (why) {
          ctx.note(`addProductToCart of product_id ${missing} was refused (${why})`);
          return;
        }
        const summary = res.data?.addProductToCart;
        ctx.state.summary = summary; // the cart as it now is, for the checks after this one
        // Accepted: only a product whose ID is exactly that one may have been added.
        ctx.expect(
          cartLines(summary).some((l) => String(l.product_id) === missing),
          `addProductToCart of product_id ${missing}, which no product has, was answered with a cart holding no line of it; product ${product} went from ${held} to ${quantityOf(summary, product)} (lines ${brief(summary)})`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-13',
      title: 'quantity 0 or negative is refused or adds nothing, and never answers 5xx',
      needs: ['token', 'product'],
      async run(ctx: C) {
        for (const quantity of [0, -1]) {
          const res = await addToCart(ctx, ctx.state.token!, ctx.state.product!, quantity);
          ctx.expect(
            (res.exchange.response?.status ?? 500) < 500,
            `quantity ${quantity}: expected no 5xx, got ${res.exchange.response?.status ?? res.exchange.error}`,
            res.exchange,
          );
          const bad = cartLines(res.data?.addProductToCart).filter((l) => (num(l.quantity) ?? 1) <= 0);
          ctx.expect(
            bad.length === 0,
            `quantity ${quantity}: the cart now holds a line with quantity ${short(bad[0]?.quantity)}`,
            res.exchange,
          );
        }
      },
    },
    {
      id: 'GQL-AUTH-03',
      title: 'every cart mutation without a bearer token is refused and changes nothing',
      needs: ['token', 'product'],
      async run(ctx: C) {
        const before = await add(ctx, 1);
        const base = quantityOf(before.summary, ctx.state.product!);
        const [line] = lineIds(before.summary, ctx.state.product!);
        const cartId = line ?? '1';
        if (!emptyCartForm(ctx)) ctx.note('emptyCart was sent in its scalar reading (the probe had not run)');
        const cases: [string, string, Promise<GraphQLResult>][] = [
          ['addProductToCart', 'addProductToCart', addToCart(ctx, undefined, ctx.state.product!, 5)],
          ['updateCartProduct', 'updateCartProduct', op(ctx, 'updateCartProduct', { cart_id: cartId, quantity: 9 })],
          ['deleteCartProduct', 'deleteCartProduct', op(ctx, 'deleteCartProduct', { cart_id: cartId })],
          ['addCoupon', 'addCoupon', op(ctx, 'addCoupon', { code: ctx.data('SFC_GQL_COUPON') ?? 'SFC-ANY' })],
          ['emptyCart', 'emptyCart', emptyCart(ctx, {})],
        ];
        for (const [what, field, pending] of cases) {
          const res = await pending;
          const why = expectRefused(ctx, res, field, `${what} without a token`);
          if (res.exchange.response && res.exchange.response.status >= 500)
            ctx.note(`${what} without a token was refused with HTTP ${res.exchange.response.status}: ${why}`);
        }
        const after = await add(ctx, 1);
        const q = quantityOf(after.summary, ctx.state.product!);
        ctx.expect(
          q === base + 1,
          `expected the token-less calls to change nothing (quantity ${base} + 1 = ${base + 1}), found ${q}`,
          after.res.exchange,
        );
      },
    },
    {
      id: 'GQL-AUTH-04',
      title: 'a malformed bearer token (not a JWT, altered signature) is refused',
      needs: ['token', 'product'],
      async run(ctx: C) {
        for (const bad of malformedTokens(ctx.state.token!)) {
          const res = await addToCart(ctx, bad.token, ctx.state.product!, 1);
          expectRefused(ctx, res, 'addProductToCart', `addProductToCart with ${bad.label}`);
        }
      },
    },
    {
      id: 'GQL-AUTH-05',
      title: 'a token the service did not sign (RS256 with a foreign key, alg none) is refused',
      needs: ['token', 'product'],
      async run(ctx: C) {
        // GQL-TOK-02 sends the HS256 tokens too; this requirement names these two kinds.
        const named = (await forgedTokens(ctx.state.token!)).filter((t) => !t.label.startsWith('HS256'));
        for (const bad of named) {
          const res = await addToCart(ctx, bad.token, ctx.state.product!, 1);
          expectRefused(ctx, res, 'addProductToCart', `addProductToCart with ${bad.label}`);
        }
      },
    },
    {
      id: 'GQL-AUTH-02',
      title: 'add, update, delete and empty are each accepted with Authorization: Bearer <token>',
      needs: ['token', 'product'],
      async run(ctx: C) {
        const token = ctx.state.token!;
        const { summary } = await add(ctx, 1);
        const [cartId] = lineIds(summary, ctx.state.product!);
        if (!cartId) ctx.fail('expected a line of the product after adding it');
        accepted(ctx, await op(ctx, 'updateCartProduct', { cart_id: cartId, quantity: 2 }, { token }), 'updateCartProduct');
        accepted(ctx, await op(ctx, 'deleteCartProduct', { cart_id: cartId }, { token }), 'deleteCartProduct');
        // emptyCart's result is not shown (NS-GQL-03): taken means no error, and the cart is empty after.
        expectEmptyCartTaken(ctx, await emptyCart(ctx, { token }));
        const after = await add(ctx, 1);
        const lines = cartLines(after.summary);
        ctx.expect(
          lines.length === 1 && quantityOf(after.summary, ctx.state.product!) === 1,
          `after emptyCart with the bearer token, adding 1 should leave one line of 1, got ${short(lines.map((l) => ({ product_id: l.product_id, quantity: l.quantity })))}`,
          after.res.exchange,
        );
      },
    },
    {
      id: 'GQL-AUTH-06',
      title: 'addProductToCart is accepted with the scheme written in lower case (Authorization: bearer <token>)',
      needs: ['token', 'summary'],
      async run(ctx: C) {
        // The auth scheme is case-insensitive (RFC 9110, 11.1), which the document's "Bearer" does not restate: a
        // SHOULD, not GQL-AUTH-02's MUST. A token read after the exact text "Bearer " is lost here.
        const product = ctx.state.product!;
        const held = quantityOf(ctx.state.summary, product);
        const res = await addToCart(ctx, undefined, product, 1, { headers: { authorization: `bearer ${ctx.state.token!}` } });
        const summary = accepted(ctx, res, 'addProductToCart');
        ctx.state.summary = summary;
        const q = quantityOf(summary, product);
        ctx.expect(
          q === held + 1,
          `the cart held ${held} of product ${product}; after adding 1 with Authorization: bearer <token>, expected ${held + 1}, found ${q}`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-14',
      title: 'addProductToCart with product_id written as an integer (an ID, as GraphQL coerces it) adds 1 of the product',
      needs: ['token', 'summary'],
      async run(ctx: C) {
        const product = ctx.state.product!;
        // Every other add sends the ID as a string: a schema that types product_id String refuses the integer.
        if (!/^[1-9]\d{0,8}$/.test(product)) ctx.skip(`SFC_GQL_PRODUCT_ID ${product} is not an integer to send as one`);
        const held = quantityOf(ctx.state.summary, product);
        const res = await op(
          ctx,
          'addProductToCart',
          { input: { product_id: Number(product), quantity: 1, options: optionsForm(ctx) === 'list' ? [] : {} } },
          { token: ctx.state.token! },
        );
        const summary = accepted(ctx, res, 'addProductToCart');
        ctx.state.summary = summary;
        const q = quantityOf(summary, product);
        ctx.expect(
          q === held + 1,
          `the cart held ${held} of product ${product}; after adding 1 with product_id ${Number(product)} (an integer), expected ${held + 1}, found ${q}`,
          res.exchange,
        );
      },
    },
    noSecretsCheck<CartState>(),
  ],
};
