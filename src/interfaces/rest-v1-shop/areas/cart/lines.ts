import type { Exchange } from '../../../../http/exchange.js';
import { tryJson } from '../../client.js';
import { addItem, type CartData, type CartItem, getCart, removeItem, updateQuantities } from '../../flows.js';
import { type C, QTY } from './state.js';

// Finding a cart's lines whatever its shape, and putting the area's lines back after a check that changes them.

export const itemOf = (cart: CartData, productId: number) => linesOf(cart).find((i) => Number(i.product_id) === productId);

/**
 * The lines of a cart answer's data whatever its shape (cart_items as a list, as an object of kept PHP keys, or missing),
 * for a check that judges quantities: the shape is SHOP-CART-04's to judge, and a check must not crash on it.
 */
export function linesOf(data: unknown): CartItem[] {
  const items: unknown = typeof data === 'object' && data !== null ? (data as { cart_items?: unknown }).cart_items : undefined;
  const lines = Array.isArray(items) ? items : typeof items === 'object' && items !== null ? Object.values(items) : [];
  return lines.filter((i): i is CartItem => typeof i === 'object' && i !== null);
}

/** Puts the area's line (the product x QTY) back in the account's cart; reads raw, so a broken cart judges nothing here. */
export async function restoreLine(ctx: C, key: string): Promise<void> {
  const token = ctx.state.account!.token;
  const cartOf = (ex: Exchange): CartData | undefined => {
    const body = tryJson(ex);
    return body?.status === true ? (body.data as CartData) : undefined;
  };
  const line = linesOf(cartOf(await getCart(ctx, token))).find((i) => i.key === key);
  if (line && Number(line.quantity) === QTY) return;
  if (line) {
    await updateQuantities(ctx, token, { [key]: QTY });
    return;
  }
  await addItem(ctx, token, ctx.state.product!.id, QTY);
  const again = cartOf(await getCart(ctx, token));
  const added = again && itemOf(again, ctx.state.product!.id);
  if (added) ctx.state.key = added.key;
}

/**
 * The cart back to the area's product alone with `quantity` units, whatever the check before left: other lines removed,
 * the area's line updated or added again (its key kept in the state, a target may give a line added again a new key).
 */
export async function restoreAlone(ctx: C, quantity: number): Promise<void> {
  const token = ctx.state.account!.token;
  const productId = ctx.state.product!.id;
  const read = async () => {
    const body = tryJson(await getCart(ctx, token));
    // cart_items written as an object (kept PHP keys, which SHOP-CART-19 judges) still lists the lines to put back.
    return body?.status === true ? linesOf(body.data) : [];
  };
  const lines = await read();
  for (const line of lines) if (Number(line.product_id) !== productId) await removeItem(ctx, token, line.key);
  const line = lines.find((l) => Number(l.product_id) === productId);
  if (line) {
    ctx.state.key = line.key;
    if (Number(line.quantity) !== quantity) await updateQuantities(ctx, token, { [line.key]: quantity });
    return;
  }
  await addItem(ctx, token, productId, quantity);
  const added = (await read()).find((l) => Number(l.product_id) === productId);
  if (added) ctx.state.key = added.key;
}

/** The second account's line of the area's product as its cart lists it (undefined: not listed, or no cart read). */
export async function otherLine(ctx: C): Promise<{ ex: Exchange; line: CartData['cart_items'][number] | undefined }> {
  const ex = await getCart(ctx, ctx.state.other!.token);
  const body = tryJson(ex);
  return { ex, line: body?.status === true ? itemOf(body.data as CartData, ctx.state.product!.id) : undefined };
}

/** Puts 1 unit of the area's product in the second account's cart and returns its line; skips when the add is refused. */
export async function addOtherLine(ctx: C): Promise<CartData['cart_items'][number]> {
  const productId = ctx.state.product!.id;
  const add = await addItem(ctx, ctx.state.other!.token, productId, 1);
  const added = tryJson(add);
  if (added?.status !== true)
    ctx.skip(`the second account could not add product ${productId} to its cart: "${String(added?.message)}"`);
  const { ex, line } = await otherLine(ctx);
  ctx.expect(line, `product ${productId} added by the second account is not in its cart`, add, ex);
  return line;
}
