// The first add to a new cart: the summary and lines it answers, their fields and selection, and the quantity of 1.
import type { CheckSpec } from '../../../../checks/model.js';
import {
  accepted,
  cartLines,
  emptyCart,
  expectSelection,
  gql,
  newSession,
  optionsForm,
  productId,
  quantityOf,
  record,
  short,
} from '../../client.js';
import { add } from './lines.js';
import type { C, CartState } from './state.js';

export const firstAddChecks: CheckSpec<CartState>[] = [
  {
    id: 'GQL-CART-03',
    title: 'addProductToCart with empty options is accepted for a product without required options (AMB-GQL-04)',
    async run(ctx: C) {
      const product = productId(ctx);
      const session = await newSession(ctx);
      Object.assign(ctx.state, { token: session.token, product, account: session });
      ctx.onTeardown(async () => {
        await emptyCart(ctx, { token: ctx.state.token ?? session.token });
      });
      const { res } = await add(ctx, 1);
      ctx.state.first = res;
    },
  },
  {
    id: 'GQL-CART-01',
    title: 'the Cart summary has its fields with the document types',
    needs: ['first'],
    async run(ctx: C) {
      const res = ctx.state.first!;
      const summary = record(res.data?.addProductToCart);
      if (!summary) ctx.fail('expected the cart summary to be an object', res.exchange);
      ctx.expect(Array.isArray(summary.items), `expected items to be a list, got ${short(summary.items)}`, res.exchange);
      // The lines are GQL-CART-02's subject: judge the summary's own fields here.
      ctx.validate('graphql/schemas/cart-summary.schema.json', { ...summary, items: [] }, res.exchange, 'cart summary');
    },
  },
  {
    id: 'GQL-CART-02',
    title: 'every cart line has the cart line fields (image a relative path)',
    needs: ['first'],
    async run(ctx: C) {
      const res = ctx.state.first!;
      const items = record(res.data?.addProductToCart)?.items;
      ctx.expect(
        Array.isArray(items) && items.length > 0,
        'expected at least one cart line after adding a product',
        res.exchange,
      );
      items.forEach((line, i) => {
        ctx.validate('graphql/schemas/cart-line.schema.json', line, res.exchange, `items[${i}]`);
      });
    },
  },
  {
    id: 'GQL-ENV-03',
    title: 'addProductToCart returns exactly the selected fields, with all of them and with a few fields of items',
    needs: ['first'],
    async run(ctx: C) {
      expectSelection(ctx, ctx.state.first!);
      // The suite's operation selects every line field: only a partial selection shows lines that ignore it.
      const res = await gql(ctx).runText(
        'mutation addProductToCart($input: CartProductInput!) { addProductToCart(input: $input) { subtotal items { product_id quantity } } }',
        { input: { product_id: ctx.state.product!, quantity: 1, options: optionsForm(ctx) === 'list' ? [] : {} } },
        { token: ctx.state.token! },
      );
      accepted(ctx, res, 'addProductToCart');
      expectSelection(ctx, res);
    },
  },
  {
    id: 'GQL-CART-04',
    title: 'after adding 1 of the product the cart holds a line of that product with quantity 1',
    needs: ['first'],
    async run(ctx: C) {
      const res = ctx.state.first!;
      const summary = res.data?.addProductToCart;
      const q = quantityOf(summary, ctx.state.product!);
      ctx.expect(
        q === 1,
        `expected product ${ctx.state.product} with quantity 1 in a new cart, found quantity ${q} (lines: ${short(cartLines(summary).map((l) => ({ product_id: l.product_id, quantity: l.quantity })))})`,
        res.exchange,
      );
    },
  },
];
