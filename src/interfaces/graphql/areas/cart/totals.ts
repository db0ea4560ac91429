// Line totals and subtotal must add up, judged on a cart of two lines so one line's figures cannot stand in for both.
import type { CheckSpec } from '../../../../checks/model.js';
import type { GraphQLResult } from '../../../../graphql/client.js';
import {
  accepted,
  addToCart,
  type Ctx,
  cartLines,
  expectSelection,
  num,
  quantityOf,
  record,
  secondProductId,
  short,
} from '../../client.js';
import { add, brief, expectSecondKept } from './lines.js';
import type { C, CartState } from './state.js';

/**
 * GQL-CART-05 on a summary: each line's total is its own price times its own quantity, and
 * subtotal is the sum of the line totals (to the cent; types not shown, NS-GQL-12).
 */
export function expectConsistent(ctx: Ctx, res: GraphQLResult, summary: unknown): void {
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

export const totalChecks: CheckSpec<CartState>[] = [
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
];
