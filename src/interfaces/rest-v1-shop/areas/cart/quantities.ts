import type { CheckSpec } from '../../../../checks/model.js';
import { envelope, expectFieldError } from '../../client.js';
import { addPurchasable, readCart, skipIfOutOfStock, updateQuantities } from '../../flows.js';
import { itemOf, restoreAlone } from './lines.js';
import type { C, CartState } from './state.js';

// update-quantities accepted and refused on the area's line, one key or several in a request.

export const quantityChecks: CheckSpec<CartState>[] = [
  {
    id: 'SHOP-CART-15',
    title: 'update-quantities to 3: status true, same shape as remove-item, the cart shows 3',
    needs: ['key'],
    run: async (ctx: C) => {
      const key = ctx.state.key!;
      const ex = await updateQuantities(ctx, ctx.state.account!.token, { [key]: 3 });
      const body = envelope(ctx, ex, 'cart-update-quantities');
      if (body.status !== true) await skipIfOutOfStock(ctx, [[ctx.state.product!.id, 3]], 'update-quantities to 3 was refused');
      ctx.expect(
        body.status === true,
        `update-quantities: expected status true, got ${String(body.status)}: "${body.message}"`,
        ex,
      );
      const cart = await readCart(ctx, ctx.state.account!.token);
      const item = cart.data.cart_items.find((i) => i.key === key);
      ctx.expect(item && Number(item.quantity) === 3, `after update to 3 the cart shows quantity ${item?.quantity}`, ex, cart.ex);
      // The quantity the line has is valid too (fault catalog: `$wpdb->update()` changing no row read as a bad key).
      const again = await updateQuantities(ctx, ctx.state.account!.token, { [key]: 3 });
      const againBody = envelope(ctx, again, 'cart-update-quantities');
      ctx.expect(
        againBody.status === true,
        `update-quantities to 3 of a line at 3: expected status true, got ${String(againBody.status)}: "${againBody.message}" ${JSON.stringify(againBody.errors).slice(0, 200)}`,
        again,
      );
    },
  },
  {
    // Several items in one request: the body is cart_data[<cart_item_key>]=<quantity> "for each item" (B. Shop
    // variant), so every entry is applied, not the first only.
    id: 'SHOP-CART-15',
    title: 'update-quantities of two items in one request: status true, the cart shows both new quantities',
    needs: ['key', 'product'],
    run: async (ctx: C) => {
      const key = ctx.state.key!;
      const token = ctx.state.account!.token;
      const { product } = await addPurchasable(ctx, token, 1, [ctx.state.product!.id]);
      const before = await readCart(ctx, token);
      const second = itemOf(before.data, product.id);
      ctx.expect(second, `product ${product.id} added second is not in the cart`, before.ex);
      try {
        // Both quantities change (3 -> 2 and 1 -> 2): a target that applies only one entry leaves the other as it was.
        const want = { [key]: 2, [second.key]: 2 };
        const ex = await updateQuantities(ctx, token, want);
        const body = envelope(ctx, ex, 'cart-update-quantities');
        if (body.status !== true)
          await skipIfOutOfStock(
            ctx,
            [
              [ctx.state.product!.id, 2],
              [product.id, 2],
            ],
            'update-quantities of two items to 2 was refused',
          );
        ctx.expect(
          body.status === true,
          `update-quantities of two items: expected status true, got ${String(body.status)}: "${body.message}"`,
          ex,
        );
        const after = await readCart(ctx, token);
        const wrong = Object.entries(want).flatMap(([k, q]) => {
          const item = after.data.cart_items.find((i) => i.key === k);
          return item && Number(item.quantity) === q ? [] : [`${k}: ${item ? item.quantity : 'gone'} (sent ${q})`];
        });
        ctx.expect(
          wrong.length === 0,
          `after update-quantities of two items to 2 the cart shows ${wrong.join(', ')}`,
          ex,
          after.ex,
        );
        // A zero on the line the cart lists first, a new quantity on the other, in one request: a target that removes
        // the line while walking the lines by index passes over the one after it, whose quantity is then not applied.
        const [zeroed, kept] = after.data.cart_items.map((i) => i.key);
        if (zeroed === undefined || kept === undefined) return;
        const mixed = await updateQuantities(ctx, token, { [zeroed]: 0, [kept]: 3 });
        const mixedBody = envelope(ctx, mixed, 'cart-update-quantities');
        const keptProduct = Number(after.data.cart_items.find((i) => i.key === kept)?.product_id);
        if (mixedBody.status !== true && Number.isInteger(keptProduct))
          await skipIfOutOfStock(ctx, [[keptProduct, 3]], `update-quantities of ${kept} to 3 was refused`);
        ctx.expect(
          mixedBody.status === true,
          `update-quantities of ${zeroed} to 0 and ${kept} to 3: expected status true, got ${String(mixedBody.status)}: "${mixedBody.message}"`,
          mixed,
        );
        const last = await readCart(ctx, token);
        const gone = last.data.cart_items.find((i) => i.key === zeroed);
        const other = last.data.cart_items.find((i) => i.key === kept);
        ctx.expect(
          !gone && other && Number(other.quantity) === 3,
          `after update-quantities of ${zeroed} to 0 and ${kept} to 3 in one request the cart shows ${zeroed}: ${gone ? gone.quantity : 'gone'}, ${kept}: ${other ? other.quantity : 'gone'}`,
          mixed,
          last.ex,
        );
      } finally {
        // Back to the area's cart (the first item x3 alone), one item per request: the restore does not lean on what was judged.
        await restoreAlone(ctx, 3);
      }
    },
  },
  {
    id: 'SHOP-CART-17',
    title: 'update-quantities with a key that is not in the cart: status false, errors keyed by that key',
    needs: ['key'],
    run: async (ctx: C) => {
      const bad = `sfc${ctx.names.username()}`;
      const ex = await updateQuantities(ctx, ctx.state.account!.token, { [bad]: 1 });
      const body = envelope(ctx, ex, 'cart-update-quantities');
      expectFieldError(ctx, ex, body, bad, 'update-quantities with an unknown key');
    },
  },
  {
    // Found by mutation testing: a handler that skipped the quantity check survived the suite.
    id: 'SHOP-CART-19',
    title: 'update-quantities with a quantity that is not an integer: status false, the quantity unchanged',
    needs: ['key'],
    run: async (ctx: C) => {
      const key = ctx.state.key!;
      const token = ctx.state.account!.token;
      const before = (await readCart(ctx, token)).data.cart_items.find((i) => i.key === key)?.quantity;
      const ex = await updateQuantities(ctx, token, { [key]: 'abc' });
      const body = envelope(ctx, ex, 'cart-update-quantities');
      // A crash (5xx) that happens to roll back is not a refusal.
      ctx.expect(
        body.status === false && (ex.response?.status ?? 0) < 500,
        `update-quantities to "abc": expected a refusal (status false, no 5xx), got HTTP ${ex.response?.status} status ${String(body.status)}`,
        ex,
      );
      const after = await readCart(ctx, token);
      const now = after.data.cart_items.find((i) => i.key === key)?.quantity;
      ctx.expect(now === before, `after update to "abc" the quantity went from ${before} to ${now}`, ex, after.ex);
    },
  },
];
