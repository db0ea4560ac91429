import type { CheckSpec } from '../../../../checks/model.js';
import { envelope, getProduct } from '../../client.js';
import type { C, CatalogState } from './state.js';

// One product by id: a listed one, the same without a token, and one that does not exist.

export const singleProductChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'SHOP-PROD-13',
    title: 'a listed product by id: status true, data {id, type, name, slug} of that product',
    needs: ['page1'],
    run: async (ctx: C) => {
      const want = ctx.state.page1!.products[0]!;
      const ex = await getProduct(ctx, want.id, { known: true });
      const body = envelope(ctx, ex, 'product');
      ctx.expect(
        body.status === true,
        `GET /product/${want.id}: expected status true, got ${String(body.status)}: "${body.message}"`,
        ex,
      );
      const data = body.data as { id: number; name: string };
      ctx.expect(
        data.id === want.id,
        `GET /product/${want.id} answered product id ${JSON.stringify(data.id)}, the listing ${JSON.stringify(want.id)}`,
        ex,
      );
      ctx.expect(
        data.name === want.name,
        `GET /product/${want.id}: name "${data.name}" differs from the listing's "${want.name}"`,
        ex,
      );
      ctx.state.productId = want.id;
    },
  },
  {
    id: 'SHOP-PROD-15',
    title: 'the single product is served without the token header',
    needs: ['productId'],
    run: async (ctx: C) => {
      const ex = await getProduct(ctx, ctx.state.productId!);
      const body = envelope(ctx, ex, 'product');
      ctx.expect(
        body.status === true,
        `GET /product/${ctx.state.productId} without a token: status ${String(body.status)}: "${body.message}"`,
        ex,
      );
    },
  },
  {
    id: 'SHOP-PROD-14',
    title: 'a product id that does not exist: status false and a message',
    run: async (ctx: C) => {
      const ex = await getProduct(ctx, 987654321);
      const body = envelope(ctx, ex, 'product');
      ctx.expect(body.status === false, `GET /product/987654321: expected status false, got ${String(body.status)}`, ex);
      ctx.expect(body.message.trim() !== '', 'GET /product/987654321: expected a "product does not exist" message, got ""', ex);
    },
  },
];
