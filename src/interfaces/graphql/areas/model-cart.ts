import fc from 'fast-check';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { checkProperty, commandSequences } from '../../../checks/properties.js';
import { couponOff } from '../../../checks/target-data.js';
import { emptyCart, newSession, productId, secondProduct } from '../client.js';
import { type CartModel, type CartReal, cartCommands, finalRead } from '../model-cart.js';
import { noSecretsCheck } from './common.js';

/** The cart as a state machine: random command sequences, each on a fresh account, against a model. */
interface ModelState {
  done: boolean;
}
type C = CheckContext<ModelState>;

/**
 * Runs of the state machine: each run registers and logs in a fresh account (two password
 * hashes on the target) and sends up to 18 requests, so it gets a twentieth of `--runs`, at
 * least 8 (20 -> 8, 1000 -> 50): a deep run stays inside the per-check time limit.
 */
export function stateRuns(runs: number): number {
  return Math.min(runs, Math.max(8, Math.ceil(runs / 20)));
}

export const modelCartArea: AreaSpec<ModelState> = {
  interface: 'graphql',
  name: 'model-cart',
  checks: [
    {
      id: 'GQL-STATE-01',
      title:
        'random sequences of add (of either product), update, delete, coupon and empty keep the cart summary equal to a model (lines, quantities, subtotal, coupon, total)',
      async run(ctx: C) {
        const product = productId(ctx);
        const second = secondProduct(ctx);
        if (!second) ctx.note('SFC_GQL_SECOND_PRODUCT_ID is not set: the sequences add one product, so every cart has one line');
        const coupon = ctx.data('SFC_GQL_COUPON');
        if (!coupon) ctx.note('SFC_GQL_COUPON is not set: the coupon commands are left out of the sequences');
        const off = couponOff(ctx.data('SFC_GQL_COUPON_OFF'));
        if (coupon && !off)
          ctx.note('SFC_GQL_COUPON_OFF is not set: coupon_discount is judged by its sign and bound, not by its amount');
        // Command sequences inside checkProperty (not checkCommands): one more add after the sequence
        // reads the whole cart back, so a sequence ending in update, delete or empty is judged too.
        await checkProperty(
          ctx,
          'graphql cart state machine',
          commandSequences(cartCommands(), 16),
          async (cmds) => {
            const session = await newSession(ctx);
            // Each run's fresh account keeps its cart lines otherwise; its only token is this login's.
            ctx.onTeardown(async () => {
              await emptyCart(ctx, { token: session.token });
            });
            const model: CartModel = { lines: [], coupon: 'none', prices: {} };
            const real: CartReal = {
              ctx,
              token: session.token,
              products: second ? [product, second] : [product],
              trail: [],
              ...(coupon ? { coupon } : {}),
              ...(off ? { couponOff: off } : {}),
            };
            await fc.asyncModelRun(() => ({ model, real }), cmds);
            await finalRead(model, real);
          },
          { runs: stateRuns(ctx.settings.runs) },
        );
        ctx.state.done = true;
      },
    },
    noSecretsCheck<ModelState>(),
  ],
};
