// updateCartProduct and deleteCartProduct change the line they name and only it, whichever of two lines that is.
import type { CheckSpec } from '../../../../checks/model.js';
import { addToCart, gql, op, quantityOf, record, refusal, secondProductId, short, validateData } from '../../client.js';
import { add, brief, expectSecondKept, lineIds } from './lines.js';
import type { C, CartState } from './state.js';

export const lineChangeChecks: CheckSpec<CartState>[] = [
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
];
