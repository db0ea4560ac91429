import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import { envelope } from '../client.js';
import {
  type Account,
  addPurchasable,
  type CartData,
  emptyCartOnTeardown,
  getCart,
  mapKeys,
  near,
  num,
  readCart,
  register,
} from '../flows.js';

// Coupons are applied per request (GET /cart?coupons[]=...): a valid one discounts, an unknown one
// is reported in coupon_errors under its code.

interface CouponState {
  account: Account;
  plain: CartData;
  withCoupon: CartData;
  /** The GET /cart with the coupon: the evidence of the checks that judge its numbers. */
  couponEx: Exchange;
  code: string;
}

type C = CheckContext<CouponState>;

const total = (cart: CartData, key: string): number => num(cart.cart_totals[key]) ?? Number.NaN;
/** The entry of a code in a map keyed by codes; codes compare case-insensitively (stores often lower-case them). */
const entry = (map: unknown, code: string): string | undefined =>
  mapKeys(map).find((k) => k.toLowerCase() === code.toLowerCase());

export const couponsArea: AreaSpec<CouponState> = {
  interface: 'rest-v1-shop',
  name: 'coupons',
  checks: [
    {
      id: 'SHOP-AUTH-01',
      title: 'register the account of the coupon flow',
      run: async (ctx: C) => {
        ctx.state.account = (await register(ctx)).account;
      },
    },
    {
      id: 'SHOP-CART-01',
      title: 'put a product in the cart (quantity 2)',
      needs: ['account'],
      run: async (ctx: C) => {
        emptyCartOnTeardown(ctx, ctx.state.account!.token);
        await addPurchasable(ctx, ctx.state.account!.token, 2);
        ctx.state.plain = (await readCart(ctx, ctx.state.account!.token)).data;
      },
    },
    {
      id: 'SHOP-COUP-01',
      title: 'a valid coupon (SFC_SHOP_COUPON): coupon_status true, coupon_discount_totals maps the code to a number',
      needs: ['plain'],
      run: async (ctx: C) => {
        const code = ctx.data('SFC_SHOP_COUPON');
        if (!code) ctx.skip('SFC_SHOP_COUPON (a valid coupon code of the target) is not set');
        const { ex, body, data } = await readCart(ctx, ctx.state.account!.token, [code]);
        ctx.expect(
          body.coupon_status === true,
          `coupons[]=${code}: expected coupon_status true, got ${String(body.coupon_status)} (${JSON.stringify(body.coupon_errors)})`,
          ex,
        );
        const k = entry(data.coupon_discount_totals, code);
        ctx.expect(k, `coupon_discount_totals does not name ${code}: ${JSON.stringify(data.coupon_discount_totals)}`, ex);
        const amount = (data.coupon_discount_totals as Record<string, number>)[k];
        ctx.expect(
          typeof amount === 'number',
          `coupon_discount_totals.${k} should be a number, got ${JSON.stringify(amount)}`,
          ex,
        );
        ctx.state.withCoupon = data;
        ctx.state.couponEx = ex;
        ctx.state.code = code;
      },
    },
    {
      id: 'SHOP-COUP-02',
      title: 'the valid coupon lowers the cart by its discount',
      needs: ['plain', 'withCoupon'],
      run: async (ctx: C) => {
        const plain = ctx.state.plain!;
        const cut = ctx.state.withCoupon!;
        const discount = total(cut, 'discount_total');
        ctx.expect(
          discount > 0,
          `discount_total with coupon ${ctx.state.code} should be positive, got ${cut.cart_totals.discount_total}`,
          ctx.state.couponEx!,
        );
        const drop = total(plain, 'total') - total(cut, 'total');
        const withTax = discount + (num(cut.cart_totals.discount_tax) ?? 0);
        ctx.expect(
          near(drop, withTax, 0.02),
          `the total dropped by ${drop} with the coupon; discount_total + discount_tax is ${withTax}`,
          ctx.state.couponEx!,
        );
        const tenth = total(plain, 'subtotal') / 10;
        if (!near(discount, tenth))
          ctx.note(`discount ${discount} is not 10% of the subtotal (${tenth}); the reference's SAVE10 is 10%`);
      },
    },
    {
      id: 'SHOP-COUP-04',
      title: 'discount_total equals the sum of coupon_discount_totals',
      needs: ['withCoupon'],
      run: async (ctx: C) => {
        const cut = ctx.state.withCoupon!;
        const map = cut.coupon_discount_totals as Record<string, number>;
        const sum = mapKeys(map).reduce((n, k) => n + (map[k] ?? 0), 0);
        ctx.expect(
          near(sum, total(cut, 'discount_total')),
          `coupon_discount_totals add up to ${sum}; discount_total is ${cut.cart_totals.discount_total}`,
          ctx.state.couponEx!,
        );
      },
    },
    {
      id: 'SHOP-CART-10',
      title:
        'with the coupon, cart_totals still add up (contents = subtotal - discount; total = contents + shipping + fees + taxes)',
      needs: ['withCoupon'],
      run: async (ctx: C) => {
        const t = (k: string) => total(ctx.state.withCoupon!, k);
        const contents = t('subtotal') - t('discount_total');
        ctx.expect(
          near(t('cart_contents_total'), contents),
          `cart_contents_total ${t('cart_contents_total')} should be subtotal - discount_total = ${contents}`,
          ctx.state.couponEx!,
        );
        const sum =
          t('cart_contents_total') +
          t('shipping_total') +
          t('fee_total') +
          t('cart_contents_tax') +
          t('shipping_tax') +
          t('fee_tax');
        ctx.expect(
          near(t('total'), sum),
          `total ${t('total')} should be contents + shipping + fees + their taxes = ${sum}`,
          ctx.state.couponEx!,
        );
      },
    },
    {
      id: 'SHOP-COUP-03',
      title: 'an unknown coupon: coupon_status false, coupon_errors keyed by the code with a message',
      needs: ['plain'],
      run: async (ctx: C) => {
        const code = `nosuch${ctx.names.username()}`;
        // The cart itself may still answer status true: only the coupon fields are judged.
        const ex = await getCart(ctx, ctx.state.account!.token, [code]);
        const body = envelope(ctx, ex, 'cart');
        ctx.expect(
          body.coupon_status === false,
          `coupons[]=${code}: expected coupon_status false, got ${String(body.coupon_status)}`,
          ex,
        );
        const k = entry(body.coupon_errors, code);
        ctx.expect(k, `coupon_errors should be an object keyed "${code}", got ${JSON.stringify(body.coupon_errors)}`, ex);
        const msg = (body.coupon_errors as Record<string, unknown>)[k];
        ctx.expect(
          typeof msg === 'string' && msg !== '',
          `coupon_errors.${k} should be a message, got ${JSON.stringify(msg)}`,
          ex,
        );
      },
    },
  ],
};
