// Adding to the cart and reading its lines: the steps that checks in several files take before they judge.
import type { GraphQLResult } from '../../../../graphql/client.js';
import { accepted, addToCart, cartLines, quantityOf, short } from '../../client.js';
import type { C } from './state.js';

/** Adds `quantity` of the product with the token; fails unless accepted; remembers the summary. */
export async function add(ctx: C, quantity: number): Promise<{ res: GraphQLResult; summary: unknown }> {
  const res = await addToCart(ctx, ctx.state.token!, ctx.state.product!, quantity);
  const summary = accepted(ctx, res, 'addProductToCart');
  ctx.state.summary = summary;
  return { res, summary };
}

export function lineIds(summary: unknown, product: string): string[] {
  return cartLines(summary)
    .filter((l) => String(l.product_id) === product)
    .map((l) => String(l.cart_id));
}

/** Lines as product and quantity, for messages. */
export const brief = (summary: unknown) =>
  short(cartLines(summary).map((l) => ({ cart_id: l.cart_id, product_id: l.product_id, quantity: l.quantity })));

/**
 * With a second product in the cart, fails unless its line still holds `ctx.state.secondQuantity`:
 * an update or delete of the other line, or an add of the other product, leaves it as it was. The
 * quantity seen becomes the one the next check expects, so one wrong step fails one check.
 */
export function expectSecondKept(ctx: C, res: GraphQLResult, summary: unknown, what: string): void {
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
