import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { accepted, addToCart, cartLines, emptyCart, newSession, op, productId, quantityOf, short } from '../client.js';
import { noSecretsCheck } from './common.js';

/** One customer cannot change another's cart (ADVISORY: beyond the document). */
interface SecurityState {
  done: boolean;
}
type C = CheckContext<SecurityState>;

export const securityArea: AreaSpec<SecurityState> = {
  interface: 'graphql',
  name: 'security',
  checks: [
    {
      id: 'GQL-SEC-01',
      title: "updateCartProduct and deleteCartProduct of another customer's cart_id leave that line as it was",
      async run(ctx: C) {
        const product = productId(ctx);
        const a = await newSession(ctx);
        const b = await newSession(ctx);
        ctx.onTeardown(async () => {
          await emptyCart(ctx, { token: a.token });
          await emptyCart(ctx, { token: b.token });
        });
        const first = await addToCart(ctx, a.token, product, 1);
        const [line] = cartLines(accepted(ctx, first, 'addProductToCart')).filter((l) => String(l.product_id) === product);
        if (!line) ctx.fail(`expected a line of product ${product} in the cart`, first.exchange);
        const cartId = String(line.cart_id);
        const update = await op(ctx, 'updateCartProduct', { cart_id: cartId, quantity: 7 }, { token: b.token });
        const del = await op(ctx, 'deleteCartProduct', { cart_id: cartId }, { token: b.token });
        const after = await addToCart(ctx, a.token, product, 1);
        const q = quantityOf(accepted(ctx, after, 'addProductToCart'), product);
        ctx.expect(
          q === 2,
          `expected A's cart to hold 1 + 1 = 2 of the product after B's update (${short(update.data?.updateCartProduct)}) and delete (${short(del.data?.deleteCartProduct)}) of A's cart_id ${cartId}; found ${q}`,
          update.exchange,
          del.exchange,
          after.exchange,
        );
        ctx.state.done = true;
      },
    },
    noSecretsCheck<SecurityState>(),
  ],
};
