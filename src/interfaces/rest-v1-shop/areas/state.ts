import type { AreaSpec } from '../../../checks/model.js';
import { checkCommands } from '../../../checks/properties.js';
import { cappedRuns } from '../budget.js';
import type { Ctx } from '../client.js';
import { cartCommands, cartProducts, freshCart } from '../model-cart.js';

// Model-based runs of the cart (fc.commands): every run starts from a fresh account, applies a
// random sequence of add / update (zero removes) / remove / list (with coupons) / count, and
// compares the target's cart with the model after every step.

interface StateState {
  products: number[];
}

/**
 * One registration per run plus up to MAX_COMMANDS x 2-3 requests (about 10 a run on average,
 * measured: 184-199 requests for 20 runs): the runs are --runs up to what fits the check's time
 * limit (100 at the request budget), so --runs 1000 stays a minute. Sequences of up to 16 (not
 * 10) commands: a zero quantity that is kept instead of removing its line was then caught by both
 * machines with each of seeds 1 to 8, against 5 of 8 with 10.
 */
const MAX_COMMANDS = 16;
const REQUESTS_PER_RUN = 10;

const runsOf = (ctx: Ctx): number => cappedRuns(ctx, REQUESTS_PER_RUN);

export const stateArea: AreaSpec<StateState> = {
  interface: 'rest-v1-shop',
  name: 'state',
  checks: [
    {
      id: 'SHOP-CART-01',
      title: 'find products a cart accepts (a scratch account, emptied again)',
      run: async (ctx) => {
        ctx.state.products = await cartProducts(ctx);
      },
    },
    {
      id: 'SHOP-STATE-01',
      title: 'model run: after any add / update (zero removes) / remove sequence the cart lists exactly the model items',
      needs: ['products'],
      run: async (ctx) => {
        const products = ctx.state.products!;
        await checkCommands(ctx, 'shop cart items', cartCommands(products, false), () => freshCart(ctx, 'items'), {
          runs: runsOf(ctx),
          maxCommands: MAX_COMMANDS,
        });
      },
    },
    {
      id: 'SHOP-STATE-02',
      title: 'model run with coupons: counts, line subtotals and totals add up after every step',
      needs: ['products'],
      run: async (ctx) => {
        const coupon = ctx.data('SFC_SHOP_COUPON');
        if (!coupon) ctx.note('SFC_SHOP_COUPON is not set: the model run lists the cart without a valid coupon');
        const products = ctx.state.products!;
        await checkCommands(ctx, 'shop cart totals', cartCommands(products, true), () => freshCart(ctx, 'totals', coupon), {
          runs: runsOf(ctx),
          maxCommands: MAX_COMMANDS,
        });
      },
    },
  ],
};
