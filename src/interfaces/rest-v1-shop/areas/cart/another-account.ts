import type { CheckSpec } from '../../../../checks/model.js';
import { envelope, expectFieldError, tryJson } from '../../client.js';
import { type CartData, getCart, readCart, removeItem, updateQuantities } from '../../flows.js';
import { addOtherLine, linesOf, otherLine, restoreLine } from './lines.js';
import { type C, type CartState, QTY } from './state.js';

// A second account and my cart: it must neither see nor change my line, nor may my token change its line.

export const otherAccountChecks: CheckSpec<CartState>[] = [
  {
    id: 'SHOP-SEC-03',
    title: 'another account does not see my cart items',
    needs: ['key'],
    run: async (ctx: C) => {
      const ex = await getCart(ctx, ctx.state.other!.token);
      const body = envelope(ctx, ex, 'cart');
      const keys = body.status === true ? (body.data as CartData).cart_items.map((i) => i.key) : [];
      ctx.expect(!keys.includes(ctx.state.key!), `another account's GET /cart lists my cart item ${ctx.state.key}`, ex);
    },
  },
  {
    id: 'SHOP-SEC-04',
    title: 'another account cannot remove or update my cart item',
    needs: ['key'],
    run: async (ctx: C) => {
      const key = ctx.state.key!;
      let intact = false;
      try {
        const a = await removeItem(ctx, ctx.state.other!.token, key);
        const b = await updateQuantities(ctx, ctx.state.other!.token, { [key]: 0 });
        const { ex, data } = await readCart(ctx, ctx.state.account!.token);
        const item = data.cart_items.find((i) => i.key === key);
        intact = item !== undefined && Number(item.quantity) === QTY;
        ctx.expect(intact, `my cart item ${key} changed after another account removed/updated it`, a, b, ex);
      } finally {
        // An ADVISORY finding must not fail the MUST checks that follow on the same line (CART-15, -19, -13, -16):
        // the line is put back as it was, under its new key if the other account removed it.
        if (!intact) await restoreLine(ctx, key);
      }
    },
  },
];

// These run after the removal checks (index.ts), where the area always ran them: the checks share one cart.
export const otherKeyChecks: CheckSpec<CartState>[] = [
  {
    // The key of another account's line is not in the token's cart: a target that removes by key alone (no owner
    // condition on remove-item) answers success and takes the line out of the other cart.
    id: 'SHOP-CART-14',
    title: "remove-item with the key of another account's line: status false, the line stays in that account's cart",
    needs: ['account', 'product'],
    run: async (ctx: C) => {
      const other = ctx.state.other!.token;
      const line = await addOtherLine(ctx);
      const ex = await removeItem(ctx, ctx.state.account!.token, line.key);
      const body = envelope(ctx, ex, 'cart-remove-item');
      ctx.expect(
        body.status === false,
        `remove-item with the key of another account's line: expected status false (the key is not in the token's cart), got ${String(body.status)}: "${body.message}"`,
        ex,
      );
      const after = await getCart(ctx, other);
      const cart = envelope(ctx, after, 'cart');
      const kept = cart.status === true && linesOf(cart.data).some((i) => i.key === line.key);
      ctx.expect(kept, "remove-item with another account's key was refused, yet the line left that account's cart", ex, after);
    },
  },
  {
    // The sibling of the check above: update-quantities must find the key in the token's cart too. A target that
    // sets the line by key alone answers success and changes the other account's quantity.
    id: 'SHOP-CART-17',
    title: "update-quantities with the key of another account's line: errors keyed by that key, the line keeps its quantity",
    needs: ['account', 'product'],
    run: async (ctx: C) => {
      const other = ctx.state.other!.token;
      // The line the check above added to the other cart, added again if that check removed it or did not run.
      const line = (await otherLine(ctx)).line ?? (await addOtherLine(ctx));
      const want = Number(line.quantity) + 3;
      const ex = await updateQuantities(ctx, ctx.state.account!.token, { [line.key]: want });
      const body = envelope(ctx, ex, 'cart-update-quantities');
      const after = await getCart(ctx, other);
      const cart = envelope(ctx, after, 'cart');
      const now = cart.status === true ? linesOf(cart.data).find((i) => i.key === line.key) : undefined;
      expectFieldError(ctx, ex, body, line.key, "update-quantities with the key of another account's line");
      ctx.expect(
        now && Number(now.quantity) === Number(line.quantity),
        `update-quantities to ${want} with another account's key was refused, yet that account's line now shows ${now ? `quantity ${now.quantity}` : 'nothing (gone)'} (was ${line.quantity})`,
        ex,
        after,
      );
    },
  },
  {
    // The key of another account's line after one of the token's own, in one request: a target that checks the owner
    // of the first key only trusts the second and sets that account's line. The own line is sent with the quantity it
    // has, so whether a refused request applies its other entries is not what is judged.
    id: 'SHOP-CART-17',
    title: "update-quantities of an own line, then another account's line: errors keyed by that key, the line keeps its quantity",
    needs: ['account', 'product', 'key'],
    run: async (ctx: C) => {
      const token = ctx.state.account!.token;
      const key = ctx.state.key!;
      const mine = tryJson(await getCart(ctx, token));
      const own = mine?.status === true ? linesOf(mine.data).find((i) => i.key === key) : undefined;
      if (!own) ctx.skip(`the area's line ${key} is not in the cart (a check before left it otherwise)`);
      const line = (await otherLine(ctx)).line ?? (await addOtherLine(ctx));
      const want = Number(line.quantity) + 3;
      const ex = await updateQuantities(ctx, token, { [key]: own.quantity, [line.key]: want });
      const body = envelope(ctx, ex, 'cart-update-quantities');
      const after = await getCart(ctx, ctx.state.other!.token);
      const cart = envelope(ctx, after, 'cart');
      const now = cart.status === true ? linesOf(cart.data).find((i) => i.key === line.key) : undefined;
      ctx.expect(
        now && Number(now.quantity) === Number(line.quantity),
        `update-quantities of my line ${key} and, second, another account's line ${line.key} to ${want}: that account's line now shows ${now ? `quantity ${now.quantity}` : 'nothing (gone)'} (was ${line.quantity})`,
        ex,
        after,
      );
      expectFieldError(ctx, ex, body, line.key, "update-quantities with the key of another account's line after an own key");
      // The key at fault first, an own line with the quantity it has last: the refusal names the key at fault, not
      // the last key of the request (a loop variable read after its loop).
      const bad = `sfc${ctx.names.username()}`;
      const first = await updateQuantities(ctx, token, { [bad]: 1, [key]: own.quantity });
      expectFieldError(
        ctx,
        first,
        envelope(ctx, first, 'cart-update-quantities'),
        bad,
        'update-quantities of an unknown key, then an own line with its quantity',
      );
    },
  },
];
