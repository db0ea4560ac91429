import type { CheckSpec } from '../../../../checks/model.js';
import { call, envelope, expectFieldError, tryJson } from '../../client.js';
import {
  addItem,
  addPurchasable,
  type CartData,
  emptyCartOnTeardown,
  getCart,
  onSale,
  register,
  removeItem,
} from '../../flows.js';
import { itemOf } from './lines.js';
import { type C, type CartState, QTY } from './state.js';

// The accounts, then add-item accepted and refused: the line every later check of the area reads.

export const addItemChecks: CheckSpec<CartState>[] = [
  {
    id: 'SHOP-AUTH-01',
    title: 'register the accounts of the cart flow',
    run: async (ctx: C) => {
      ctx.state.account = (await register(ctx)).account;
      ctx.state.other = (await register(ctx)).account;
    },
  },
  {
    id: 'SHOP-CART-11',
    title: 'the empty cart of a new account: status false and an empty-cart message',
    needs: ['account'],
    run: async (ctx: C) => {
      const ex = await getCart(ctx, ctx.state.account!.token);
      const body = envelope(ctx, ex, 'cart');
      ctx.expect(body.status === false, `GET /cart of an empty cart: expected status false, got ${String(body.status)}`, ex);
      ctx.expect(body.message.trim() !== '', 'GET /cart of an empty cart: expected an empty-cart message, got ""', ex);
    },
  },
  {
    id: 'SHOP-CART-02',
    title: 'add-item without product_id / without quantity: errors keyed by the field',
    needs: ['account'],
    run: async (ctx: C) => {
      const token = ctx.state.account!.token;
      const a = await call(ctx, 'POST', '/cart/add-item', { token, form: { quantity: 1 } });
      expectFieldError(ctx, a, envelope(ctx, a, 'cart-add-item'), 'product_id', 'add-item without product_id');
      const b = await call(ctx, 'POST', '/cart/add-item', { token, form: { product_id: 1 } });
      expectFieldError(ctx, b, envelope(ctx, b, 'cart-add-item'), 'quantity', 'add-item without quantity');
    },
  },
  {
    id: 'SHOP-CART-03',
    title: 'add-item of a product that does not exist: status false and a message',
    needs: ['account'],
    run: async (ctx: C) => {
      const ex = await addItem(ctx, ctx.state.account!.token, 987654321, 1);
      const body = envelope(ctx, ex, 'cart-add-item');
      ctx.expect(body.status === false, `add-item of product 987654321: expected status false, got ${String(body.status)}`, ex);
      ctx.expect(body.message.trim() !== '', 'add-item of a missing product: expected a failure message, got ""', ex);
    },
  },
  {
    id: 'SHOP-CART-01',
    title: `add a listed product with quantity ${QTY}: status true, coupon fields, data.cart_item_count`,
    needs: ['account'],
    run: async (ctx: C) => {
      emptyCartOnTeardown(ctx, ctx.state.account!.token);
      emptyCartOnTeardown(ctx, ctx.state.other!.token);
      // A product on sale when the listing shows one: its price is then the sale price, which a cart that prices
      // its lines at the regular price shows in SHOP-CART-09 (the other areas' carts hold products at full price).
      const { product, body, ex } = await addPurchasable(ctx, ctx.state.account!.token, QTY, [], onSale);
      const count = (body.data as { cart_item_count: number }).cart_item_count;
      ctx.expect(count > 0, `after add-item, cart_item_count should be positive, got ${count}`, ex);
      ctx.state.product = product;
      ctx.state.addCount = count;
      ctx.state.addEx = ex;
    },
  },
  {
    id: 'SHOP-CART-18',
    title: 'add-item with a quantity that is not an integer: status false',
    needs: ['account', 'product'],
    run: async (ctx: C) => {
      for (const q of ['two', '1.5']) {
        const ex = await addItem(ctx, ctx.state.other!.token, ctx.state.product!.id, q);
        const body = envelope(ctx, ex, 'cart-add-item');
        ctx.expect(body.status === false, `add-item with quantity "${q}": expected status false, got ${String(body.status)}`, ex);
      }
    },
  },
  {
    // The properties area adds its zero to a product its cart holds already; a target that checks the quantity only
    // where it merges into a line stores a line of 0 for a product the cart does not hold. The second account's cart
    // is still empty here (the checks above were refused).
    id: 'SHOP-PROP-06',
    title: 'add-item with quantity 0 of a product not in the cart: errors keyed quantity, no line for it',
    needs: ['account', 'product'],
    run: async (ctx: C) => {
      const token = ctx.state.other!.token;
      const productId = ctx.state.product!.id;
      const ex = await addItem(ctx, token, productId, 0);
      const body = envelope(ctx, ex, 'cart-add-item');
      const after = await getCart(ctx, token);
      const cart = tryJson(after);
      const line = cart?.status === true ? itemOf(cart.data as CartData, productId) : undefined;
      // The later checks add their own line of this product to this cart: none is left behind, whatever is judged.
      if (line) await removeItem(ctx, token, line.key);
      expectFieldError(ctx, ex, body, 'quantity', `add-item of product ${productId}, not in the cart, with quantity 0`);
      ctx.expect(
        !line,
        `add-item of product ${productId} with quantity 0 left a line of quantity ${line?.quantity} in a cart that did not hold it`,
        ex,
        after,
      );
    },
  },
  {
    // Found by mutation testing: a handler that refused these without naming the field survived the suite.
    // Sharpened in the eighteenth fault wave (SHOP-ADD-PRODUCT-ID-ABSINT): a product_id cast to an integer first.
    id: 'SHOP-CART-20',
    title: 'add-item with a product_id or a quantity that is not an integer: errors keyed by that field',
    needs: ['account', 'product'],
    run: async (ctx: C) => {
      const token = ctx.state.other!.token;
      const a = await addItem(ctx, token, 'abc', 1);
      expectFieldError(ctx, a, envelope(ctx, a, 'cart-add-item'), 'product_id', 'add-item with product_id "abc"');
      // A fraction that starts with a real product's id: a target that casts before it validates (PHP absint(),
      // intval()) refuses "abc" as 0 yet reads this one as the product and adds it.
      const fraction = `${ctx.state.product!.id}.5`;
      const f = await addItem(ctx, token, fraction, 1);
      expectFieldError(ctx, f, envelope(ctx, f, 'cart-add-item'), 'product_id', `add-item with product_id "${fraction}"`);
      const b = await addItem(ctx, token, ctx.state.product!.id, 'two');
      expectFieldError(ctx, b, envelope(ctx, b, 'cart-add-item'), 'quantity', 'add-item with quantity "two"');
    },
  },
];
