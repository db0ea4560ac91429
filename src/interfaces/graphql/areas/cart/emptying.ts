// emptyCart empties the cart (under a second login of the account too), and adds to the emptied cart count, two at once included.
import type { CheckSpec } from '../../../../checks/model.js';
import {
  accepted,
  addToCart,
  cartLines,
  emptyCart,
  loginToken,
  num,
  op,
  quantityOf,
  refusal,
  short,
  validateData,
} from '../../client.js';
import { expectEmptyCartTaken } from '../../model-cart.js';
import { add, brief } from './lines.js';
import type { C, CartState } from './state.js';

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

export const emptyingChecks: CheckSpec<CartState>[] = [
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
];
