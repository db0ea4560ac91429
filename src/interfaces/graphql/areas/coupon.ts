import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { codeList, couponOff } from '../../../checks/target-data.js';
import type { GraphQLResult } from '../../../graphql/client.js';
import {
  type Account,
  accepted,
  addToCart,
  answerRefusal,
  cartLines,
  emptyCart,
  expectSelection,
  login,
  newSession,
  num,
  op,
  productId,
  record,
  refusal,
  secondProduct,
  short,
  validateData,
} from '../client.js';
import { couponDue } from '../model-cart.js';
import { noSecretsCheck } from './common.js';

/** addCoupon ("4. Endpoints", Coupon result in "2. Resources and their fields"). */
interface CouponState {
  /** The customer whose cart the area fills (GQL-COUP-03 registers it), for a second login of it. */
  account: Account;
  token: string;
  product: string;
  code: string;
  applied: GraphQLResult;
  /** cart_id of the product's line, for the quantity change before GQL-COUP-05's summary. */
  line: string;
  /** GQL-COUP-05's cart summary: the lines and prices the coupon is applied to again after a change. */
  summary: Record<string, unknown>;
  /** The answer that carried `summary`. */
  summaryRes: GraphQLResult;
  /** GQL-STATE-01's Coupon result after the change (a subtotal of 1,000 or more where the data allows). */
  reapplied: GraphQLResult;
  /** The token of GQL-COUP-05's second login of the customer. */
  second: string;
}
type C = CheckContext<CouponState>;

/** A subtotal where PHP's number_format puts its first thousands separator. */
const THOUSAND = 1000;

function couponCode(ctx: C): string {
  return ctx.data('SFC_GQL_COUPON') ?? ctx.skip('SFC_GQL_COUPON is not set: no valid coupon code to apply');
}

/** GQL-COUP-06 on a Coupon result: total = subtotal + coupon_discount + tax (skips when they are not numbers). */
function expectCouponSum(ctx: C, res: GraphQLResult): void {
  const result = record(res.data?.addCoupon);
  const [total, subtotal, discount, tax] = ['total', 'subtotal', 'coupon_discount', 'tax'].map((k) => num(result?.[k]));
  if (total === undefined || subtotal === undefined || discount === undefined)
    ctx.skip(`total, subtotal or coupon_discount is not a number: ${short(result)}`);
  const want = subtotal + discount + (tax ?? 0);
  ctx.expect(
    Math.abs(total - want) < 0.005,
    `expected total = subtotal + coupon_discount + tax = ${want}, got ${short(result?.total)} (${short(result)})`,
    res.exchange,
  );
}

/**
 * GQL-COUP-03 and GQL-COUP-07: `code` is refused, or answered with nothing applied (no coupon_code of it, no negative
 * coupon_discount), since the error shape is not shown. True when it was refused outright.
 */
function expectNotApplied(ctx: C, res: GraphQLResult, code: string, what: string): boolean {
  if (refusal(res, 'addCoupon')) return true;
  const result = record(res.data?.addCoupon);
  const discount = num(result?.coupon_discount);
  ctx.expect(
    String(result?.coupon_code ?? '') !== code && (discount === undefined || discount >= 0),
    `expected ${what} to be refused or to apply nothing, got ${short(result)}`,
    res.exchange,
  );
  return false;
}

export const couponArea: AreaSpec<CouponState> = {
  interface: 'graphql',
  name: 'coupon',
  checks: [
    {
      id: 'GQL-COUP-03',
      title:
        'addCoupon with a code no coupon has (an unknown one, the valid code cut short or with its last character as _, a numeric valid code behind a 0) is refused',
      async run(ctx: C) {
        const product = productId(ctx);
        const session = await newSession(ctx);
        Object.assign(ctx.state, { account: session, token: session.token, product });
        ctx.onTeardown(async () => {
          await emptyCart(ctx, { token: session.token });
        });
        const added = accepted(ctx, await addToCart(ctx, session.token, product, 1), 'addProductToCart');
        const line = cartLines(added).find((l) => String(l.product_id) === product);
        if (line) ctx.state.line = String(line.cart_id);
        const unknown = `NOPE${ctx.names.username()}`.slice(0, 20);
        const res = await op(ctx, 'addCoupon', { code: unknown }, { token: session.token });
        if (!expectNotApplied(ctx, res, unknown, 'the unknown code'))
          ctx.note('the unknown code was not refused with an error, but no discount was applied');
        // Codes no coupon has but near the valid one. The valid code cut short by one character: a lookup by prefix
        // (LIKE 'code%') would apply the coupon it begins. A numeric valid code behind a 0: a lookup by PHP's ==
        // (in_array or array_search, not strict) takes "02222" for 2222 and applies that coupon (1 request, only
        // where the code is digits). A coupon that really has such a code answers with that code, which is kept.
        const valid = ctx.data('SFC_GQL_COUPON');
        if (!valid || valid.length < 2) return;
        // The valid code with its last character as _: a lookup by LIKE without a wildcard of its own (LIKE for a
        // match whatever the case) takes the _ the client sent for any one character (1 request).
        const near: [string, string][] = [
          [valid.slice(0, -1), 'cut short'],
          [`${valid.slice(0, -1)}_`, 'with its last character as _'],
        ];
        if (/^\d+$/.test(valid)) near.push([`0${valid}`, 'behind a 0, the same number']);
        for (const [code, how] of near) {
          const nearRes = await op(ctx, 'addCoupon', { code }, { token: session.token });
          if (refusal(nearRes, 'addCoupon')) continue;
          const result = record(nearRes.data?.addCoupon);
          if (result?.coupon_code !== undefined && String(result.coupon_code) === code) {
            ctx.note(`the code ${JSON.stringify(code)} (SFC_GQL_COUPON ${how}) was accepted as a coupon of its own`);
            continue;
          }
          const discount = num(result?.coupon_discount);
          ctx.expect(
            String(result?.coupon_code ?? '') !== valid && (discount === undefined || discount >= 0),
            `expected ${JSON.stringify(code)} (SFC_GQL_COUPON ${JSON.stringify(valid)} ${how}), which no coupon has, to be refused; it applied ${short(result)}`,
            nearRes.exchange,
          );
        }
      },
    },
    {
      // Codes the operator names as existing but unusable (the reference's expired, used-up, disabled and minimum-total
      // coupons): a resolver that finds a code and applies it without judging its dates, uses, status or minimum gets
      // past GQL-COUP-03, whose codes no coupon has. Before the valid coupon is applied; one request per code.
      id: 'GQL-COUP-07',
      title:
        'addCoupon with each code of a coupon that exists but must not apply to the cart (SFC_GQL_UNUSABLE_COUPONS) is refused or applies nothing',
      needs: ['token'],
      async run(ctx: C) {
        const codes = codeList(ctx.data('SFC_GQL_UNUSABLE_COUPONS'));
        if (codes.length === 0) ctx.skip('SFC_GQL_UNUSABLE_COUPONS (codes of coupons that exist but must not apply) is not set');
        for (const code of codes) {
          const res = await op(ctx, 'addCoupon', { code }, { token: ctx.state.token! });
          expectNotApplied(ctx, res, code, `${JSON.stringify(code)} (SFC_GQL_UNUSABLE_COUPONS)`);
        }
      },
    },
    {
      id: 'GQL-COUP-01',
      title: 'addCoupon with a valid code returns the Coupon result (sort_order integers)',
      needs: ['token'],
      async run(ctx: C) {
        const code = couponCode(ctx);
        // A cart of two lines (the second product after the first): the Coupon result's money, judged
        // by GQL-COUP-06, then covers both lines.
        const second = secondProduct(ctx);
        if (second) {
          const added = await addToCart(ctx, ctx.state.token!, second, 1);
          const why = refusal(added, 'addProductToCart');
          if (why)
            ctx.note(
              `adding 1 of SFC_GQL_SECOND_PRODUCT_ID ${second} was refused (${why}): the coupon is applied to a cart of one line`,
            );
        } else ctx.note('SFC_GQL_SECOND_PRODUCT_ID is not set: the coupon is applied to a cart of one line');
        const res = await op(ctx, 'addCoupon', { code }, { token: ctx.state.token! });
        accepted(ctx, res, 'addCoupon');
        ctx.state.code = code;
        ctx.state.applied = res;
        validateData(ctx, res, 'addCoupon');
      },
    },
    {
      id: 'GQL-ENV-03',
      title: 'addCoupon returns exactly the selected fields',
      needs: ['applied'],
      async run(ctx: C) {
        expectSelection(ctx, ctx.state.applied!);
      },
    },
    {
      id: 'GQL-COUP-02',
      title: 'coupon_discount is negative when the coupon applies',
      needs: ['applied'],
      async run(ctx: C) {
        const res = ctx.state.applied!;
        const discount = record(res.data?.addCoupon)?.coupon_discount;
        const n = num(discount);
        ctx.expect(n !== undefined && n < 0, `expected a negative coupon_discount, got ${short(discount)}`, res.exchange);
      },
    },
    {
      id: 'GQL-COUP-06',
      title: 'the Coupon result is consistent: total = subtotal + coupon_discount + tax',
      needs: ['applied'],
      async run(ctx: C) {
        expectCouponSum(ctx, ctx.state.applied!);
      },
    },
    {
      id: 'GQL-COUP-04',
      title: 'coupon_code of the Coupon result is the code applied',
      needs: ['applied', 'code'],
      async run(ctx: C) {
        const res = ctx.state.applied!;
        const got = record(res.data?.addCoupon)?.coupon_code;
        ctx.expect(
          String(got) === ctx.state.code,
          `expected coupon_code ${JSON.stringify(ctx.state.code)}, got ${short(got)}`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-COUP-05',
      title: 'the next cart summary, after a quantity change of the line, carries the coupon_code and a negative coupon_discount',
      needs: ['applied', 'code', 'product'],
      async run(ctx: C) {
        // A quantity change between coupon and summary: an update that resets the cart's state drops the coupon.
        const line = ctx.state.line;
        if (line) {
          const update = await op(ctx, 'updateCartProduct', { cart_id: line, quantity: 2 }, { token: ctx.state.token! });
          const why = refusal(update, 'updateCartProduct');
          if (why)
            ctx.note(`updateCartProduct of own line ${line} to 2 was refused (${why}): the summary follows the coupon directly`);
        } else ctx.note('no cart line was seen after adding the product: the summary follows the coupon directly');
        const res = await addToCart(ctx, ctx.state.token!, ctx.state.product!, 1);
        const summary = record(accepted(ctx, res, 'addProductToCart'));
        if (summary) Object.assign(ctx.state, { summary, summaryRes: res });
        const discount = num(summary?.coupon_discount);
        ctx.expect(
          String(summary?.coupon_code) === ctx.state.code,
          `expected coupon_code ${JSON.stringify(ctx.state.code)}, got ${short(summary?.coupon_code)}`,
          res.exchange,
        );
        ctx.expect(
          discount !== undefined && discount < 0,
          `expected a negative coupon_discount, got ${short(summary?.coupon_discount)}`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-01',
      title: 'the cart summary with the coupon applied has the document types (coupon_discount a number, as the others)',
      needs: ['summary', 'summaryRes'],
      async run(ctx: C) {
        // GQL-COUP-05's summary: the cart area's summaries carry no coupon, and a discount of 0 hides how one is written.
        const { summary, summaryRes } = ctx.state as Required<CouponState>;
        ctx.validate('graphql/schemas/cart-summary.schema.json', { ...summary, items: [] }, summaryRes.exchange, 'cart summary');
      },
    },
    {
      id: 'GQL-STATE-01',
      title:
        'addCoupon after a quantity change answers the cart as changed: subtotal the sum of price x quantity, discount and total from it',
      needs: ['applied', 'code', 'summary'],
      async run(ctx: C) {
        // The random sequences seldom change a quantity and apply the coupon next with nothing read
        // between: a Coupon result taken from totals cached at the last add shows only there.
        const lines = cartLines(ctx.state.summary).map((l) => ({
          cartId: String(l.cart_id),
          quantity: num(l.quantity),
          price: num(l.price),
        }));
        const line = lines[0];
        if (!line || lines.some((l) => l.quantity === undefined || l.price === undefined))
          ctx.skip(`GQL-COUP-05's summary has no line, or one without a numeric quantity and price: ${short(lines)}`);
        // More units (no product minimum can refuse them): enough, within 20, for a subtotal of 1,000 or more, where
        // an amount formatted with a thousands separator shows; one more unit if the target refuses that many.
        const held = line.quantity as number;
        const before = lines.reduce((sum, l) => sum + (l.price as number) * (l.quantity as number), 0);
        const price = line.price as number;
        const more = price > 0 ? Math.ceil((THOUSAND - before) / price) : 0;
        const tries = [...new Set([held + Math.min(Math.max(more, 1), 20), held + 1])];
        let update: GraphQLResult | undefined;
        let why: string | undefined;
        let quantity = held;
        for (const q of tries) {
          quantity = q;
          update = await op(ctx, 'updateCartProduct', { cart_id: line.cartId, quantity }, { token: ctx.state.token! });
          why = refusal(update, 'updateCartProduct');
          if (!why) break;
          ctx.note(`updateCartProduct of own line ${line.cartId} to ${quantity} was refused (${why})`);
        }
        if (why || !update)
          ctx.skip(`updateCartProduct of own line ${line.cartId} to ${tries.join(' or ')} was refused (${why})`);
        line.quantity = quantity;
        const res = await op(ctx, 'addCoupon', { code: ctx.state.code! }, { token: ctx.state.token! });
        ctx.state.reapplied = res;
        const result = record(accepted(ctx, res, 'addCoupon'));
        const want = lines.reduce((sum, l) => sum + (l.price as number) * (l.quantity as number), 0);
        if (want < THOUSAND) ctx.note(`the cart's subtotal after the change is ${want}, below 1,000`);
        const [subtotal, discount, total, tax] = ['subtotal', 'coupon_discount', 'total', 'tax'].map((k) => num(result?.[k]));
        const trail = [update.exchange, res.exchange];
        ctx.expect(
          subtotal !== undefined && Math.abs(subtotal - want) < 0.005,
          `after updateCartProduct of line ${line.cartId} to ${quantity}, the cart holds ${short(lines)}: expected addCoupon's subtotal ${want}, got ${short(result?.subtotal)}`,
          ...trail,
        );
        const off = couponOff(ctx.data('SFC_GQL_COUPON_OFF'));
        if (off && discount !== undefined) {
          const { due, slack } = couponDue(off, want);
          ctx.expect(
            Math.abs(discount - due) <= slack,
            `expected coupon_discount ${due} on the subtotal ${want} (SFC_GQL_COUPON_OFF), got ${discount}`,
            ...trail,
          );
        }
        if (discount !== undefined && total !== undefined)
          ctx.expect(
            Math.abs(want + discount + (tax ?? 0) - total) < 0.005,
            `expected total = ${want} + coupon_discount ${discount} + tax ${tax ?? 0}, got ${total}`,
            ...trail,
          );
      },
    },
    {
      id: 'GQL-COUP-06',
      title:
        'the Coupon result of the changed cart (a subtotal of 1,000 or more) is consistent: total = subtotal + coupon_discount + tax',
      needs: ['reapplied'],
      async run(ctx: C) {
        // GQL-STATE-01's result: amounts past a thousands separator, which a cart of a few units never reaches.
        expectCouponSum(ctx, ctx.state.reapplied!);
      },
    },
    {
      id: 'GQL-COUP-05',
      title:
        "another login of the customer, whose cart summary holds the cart's lines, carries the coupon applied under the first login",
      needs: ['applied', 'code', 'product', 'account'],
      async run(ctx: C) {
        const { account, code, product } = ctx.state as Required<CouponState>;
        // Whether a cart follows its customer into another login is not stated: judged only where the second login's
        // summary holds the lines of the first (more than the 1 unit it adds), the cart the coupon was applied to.
        // The second login's token adds (a target that ends older tokens on login keeps it valid). 2 requests.
        const { token } = await login(ctx, account);
        ctx.state.second = token;
        ctx.onTeardown(async () => {
          await emptyCart(ctx, { token });
        });
        const res = await addToCart(ctx, token, product, 1);
        const summary = record(accepted(ctx, res, 'addProductToCart'));
        const lines = cartLines(summary);
        const held = lines.reduce((sum, l) => sum + (num(l.quantity) ?? 0), 0);
        if (held <= 1)
          ctx.skip(
            `the second login's cart holds only the unit it added (${short(lines.map((l) => ({ product_id: l.product_id, quantity: l.quantity })))}): a cart per login, whose coupon is not judged`,
          );
        const discount = num(summary?.coupon_discount);
        ctx.expect(
          String(summary?.coupon_code) === code && discount !== undefined && discount < 0,
          `the cart holds ${held} units under a second login of its customer, but its summary shows coupon_code ${short(summary?.coupon_code)} and coupon_discount ${short(summary?.coupon_discount)}: expected the coupon ${JSON.stringify(code)} applied under the first login and a negative discount`,
          ctx.state.applied!.exchange,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-HTTP-02',
      title:
        'addCoupon of the valid code on an emptied cart (applied or refused: the document leaves it open) is answered in JSON',
      needs: ['second', 'code'],
      async run(ctx: C) {
        // A Coupon result worked out from the subtotal (a share of it, a ratio) divides by 0 on an empty cart. 2 requests.
        const token = ctx.state.second!;
        const emptied = await emptyCart(ctx, { token });
        const why = answerRefusal(emptied);
        if (why) ctx.skip(`emptyCart was refused (${why}): no empty cart to apply the coupon to`);
        const res = await op(ctx, 'addCoupon', { code: ctx.state.code! }, { token });
        ctx.json(res.exchange);
      },
    },
    noSecretsCheck<CouponState>(),
  ],
};
