import type { CheckSpec } from '../../../../checks/model.js';
import type { Exchange } from '../../../../http/exchange.js';
import { call, envelope, tryJson } from '../../client.js';
import { type CartData, near, num, onSale, readCart, updateQuantities } from '../../flows.js';
import { itemOf } from './lines.js';
import { type C, type CartState, QTY } from './state.js';

// What GET /cart and /cart/count answer for the added line: fields, quantity, count and totals.

export const contentsChecks: CheckSpec<CartState>[] = [
  {
    id: 'SHOP-CART-04',
    title: 'GET /cart: coupon_status, coupon_errors, data {cart_items, cart_totals, coupon_discount_totals, currency}',
    needs: ['product'],
    run: async (ctx: C) => {
      const { body, data } = await readCart(ctx, ctx.state.account!.token);
      ctx.choose('AMB-SHOP-06', Array.isArray(body.coupon_errors) ? 'array' : 'object');
      ctx.state.cart = data;
    },
  },
  {
    id: 'SHOP-CART-05',
    title: 'each cart item carries the Part 2 fields with their types',
    needs: ['cart'],
    run: async (ctx: C) => {
      const { ex, data } = await readCart(ctx, ctx.state.account!.token);
      // The product was added earlier in the area: an empty cart would leave the item fields unseen.
      ctx.expect(
        data.cart_items.length > 0,
        'GET /cart lists no cart item after the product was added, so no item carries the Part 2 fields',
        ex,
      );
      data.cart_items.forEach((item, i) => {
        ctx.validate('rest-v1-shop/schemas/cart-item.schema.json', item, ex, `cart_items[${i}]`);
      });
      const first = data.cart_items[0];
      if (first) ctx.choose('AMB-SHOP-03', typeof first.product_id === 'number' ? 'integer' : 'string');
    },
  },
  {
    id: 'SHOP-CART-06',
    title: 'cart_totals carries the Part 2 fields',
    needs: ['cart'],
    run: async (ctx: C) => {
      const { ex, data } = await readCart(ctx, ctx.state.account!.token);
      ctx.validate('rest-v1-shop/schemas/cart-totals.schema.json', data.cart_totals, ex, 'cart_totals');
    },
  },
  {
    id: 'SHOP-CART-07',
    title: 'the cart lists the product added with its quantity',
    needs: ['cart'],
    run: async (ctx: C) => {
      const { ex, data } = await readCart(ctx, ctx.state.account!.token);
      const item = itemOf(data, ctx.state.product!.id);
      ctx.expect(item, `the cart does not list product ${ctx.state.product!.id} just added`, ex);
      ctx.expect(
        Number(item.quantity) === QTY,
        `cart quantity of product ${ctx.state.product!.id}: expected ${QTY}, got ${item.quantity}`,
        ex,
      );
      ctx.state.key = item.key;
    },
  },
  {
    id: 'SHOP-CART-08',
    title: 'data.cart_item_count agrees with the cart',
    needs: ['cart', 'addCount'],
    run: async (ctx: C) => {
      const items = ctx.state.cart!.cart_items;
      const lines = items.length;
      const quantity = items.reduce((n, i) => n + Number(i.quantity), 0);
      const count = ctx.state.addCount!;
      ctx.expect(
        count === lines || count === quantity,
        `cart_item_count ${count} is neither the number of lines (${lines}) nor the sum of quantities (${quantity})`,
        ctx.state.addEx!,
      );
      if (lines !== quantity) ctx.choose('AMB-SHOP-04', count === lines ? 'lines' : 'quantity');
    },
  },
  {
    id: 'SHOP-CART-09',
    title: 'without coupons, line_subtotal and line_total are price x quantity',
    needs: ['cart', 'product'],
    run: async (ctx: C) => {
      const { ex, data } = await readCart(ctx, ctx.state.account!.token);
      const price = num(ctx.state.product!.price);
      if (price === undefined) ctx.skip(`the listed price "${ctx.state.product!.price}" is not a number`);
      if (!onSale(ctx.state.product!))
        ctx.note(`product ${ctx.state.product!.id} is not on sale: a cart priced at regular prices would not show here`);
      const item = itemOf(data, ctx.state.product!.id);
      ctx.expect(item, 'the added product left the cart', ex);
      const want = price * Number(item.quantity);
      ctx.expect(
        near(item.line_subtotal, want),
        `line_subtotal ${item.line_subtotal} should be ${price} x ${item.quantity} = ${want}`,
        ex,
      );
      ctx.expect(
        near(item.line_total, want),
        `line_total ${item.line_total} should be ${price} x ${item.quantity} = ${want} (no coupon)`,
        ex,
      );
    },
  },
  {
    id: 'SHOP-CART-10',
    title: 'cart_totals add up (contents = subtotal - discount; total = contents + shipping + fees + taxes)',
    needs: ['cart'],
    run: async (ctx: C) => {
      const { ex, data } = await readCart(ctx, ctx.state.account!.token);
      expectTotalsAddUp(ctx, data, ex);
    },
  },
  {
    // Amounts of 1,000 or more: the carts of the other checks stay below, where a target that writes its totals with
    // a thousands separator ("1,008.00", PHP's number_format defaults) answers plain decimals. One update raises the line.
    id: 'SHOP-CART-10',
    title: 'a cart worth 1,000 or more: cart_totals are decimals that add up',
    needs: ['key', 'product'],
    run: async (ctx: C) => {
      const price = num(ctx.state.product!.price);
      if (price === undefined || price <= 0) ctx.skip(`the listed price "${ctx.state.product!.price}" is not a positive number`);
      const quantity = Math.max(QTY, Math.ceil(1000 / price));
      const key = ctx.state.key!;
      const token = ctx.state.account!.token;
      try {
        const ex = await updateQuantities(ctx, token, { [key]: quantity });
        const body = tryJson(ex);
        // The document gives no stock or quantity limit, nor says what a shop does past its stock.
        if (body?.status !== true)
          ctx.skip(`update-quantities to ${quantity} (a line of 1,000 or more) was refused: "${String(body?.message)}"`);
        const cart = await readCart(ctx, token);
        expectTotalsAddUp(ctx, cart.data, cart.ex, ex);
      } finally {
        await updateQuantities(ctx, token, { [key]: QTY });
      }
    },
  },
  {
    id: 'SHOP-CART-12',
    title: 'GET /cart/count with a token answers the envelope',
    needs: ['cart'],
    run: async (ctx: C) => {
      const ex = await call(ctx, 'GET', '/cart/count', { token: ctx.state.account!.token });
      envelope(ctx, ex, 'cart-count');
    },
  },
];

/** SHOP-CART-10 on one cart answer: contents = subtotal - discount, total = contents + shipping + fees + taxes, subtotal = the lines. */
function expectTotalsAddUp(ctx: C, data: CartData, ...evidence: Exchange[]): void {
  const t = Object.fromEntries(Object.entries(data.cart_totals).map(([k, v]) => [k, num(v) ?? Number.NaN]));
  const v = (k: string) => t[k] ?? Number.NaN;
  const contents = v('subtotal') - v('discount_total');
  ctx.expect(
    near(v('cart_contents_total'), contents),
    `cart_contents_total ${String(data.cart_totals.cart_contents_total)} should be subtotal - discount_total = ${contents}`,
    ...evidence,
  );
  const total =
    v('cart_contents_total') + v('shipping_total') + v('fee_total') + v('cart_contents_tax') + v('shipping_tax') + v('fee_tax');
  ctx.expect(
    near(v('total'), total),
    `total ${String(data.cart_totals.total)} should be contents + shipping + fees + their taxes = ${total}`,
    ...evidence,
  );
  const lines = data.cart_items.reduce((n, i) => n + i.line_subtotal, 0);
  ctx.expect(
    near(v('subtotal'), lines),
    `subtotal ${String(data.cart_totals.subtotal)} should be the sum of line_subtotal = ${lines}`,
    ...evidence,
  );
}
