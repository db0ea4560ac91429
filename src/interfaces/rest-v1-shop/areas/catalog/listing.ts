import type { CheckSpec } from '../../../../checks/model.js';
import { bareEnvelope, conformsTo, envelope, expectFieldError, getProduct, listProducts } from '../../client.js';
import { register } from '../../flows.js';
import { allOf, isEmpty, page } from './pages.js';
import { type C, type CatalogState, type ListingData, MAX_PAGES } from './state.js';

// The unfiltered listing: page 1's shape, the summaries, paging; then the listing asked without page and with a token.

export const listingChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'SHOP-PROD-01',
    title: 'products page 1: status true, data {slider, currency, total_pages, products}',
    run: async (ctx: C) => {
      const ex = await listProducts(ctx, { page: 1 });
      const body = bareEnvelope(ctx, ex);
      const data = body.data as ListingData | undefined;
      ctx.expect(
        body.status === true,
        `GET /products?page=1: expected status true, got ${String(body.status)}: "${body.message}"`,
        ex,
      );
      ctx.expect(data && typeof data === 'object', 'GET /products?page=1: data is missing', ex);
      ctx.expect(
        Array.isArray(data.products) && data.products.length > 0,
        'GET /products?page=1 lists no product; the suite needs a catalog',
        ex,
      );
      ctx.expect(
        Number(data.total_pages) >= 1,
        `total_pages should be at least 1 when page 1 lists products, got ${data.total_pages}`,
        ex,
      );
      ctx.state.page1 = data;
      // The schema last: a page whose summaries have a mistyped field is still a page, so SHOP-PROD-02 and
      // the checks after it judge it and name the requirement the field breaks instead of being skipped.
      conformsTo(ctx, ex, body, 'products');
    },
  },
  {
    id: 'SHOP-PROD-03',
    title: 'the listing and the single product answer GET or POST (the probe records which)',
    needs: ['page1'],
    run: async (ctx: C) => {
      const id = ctx.state.page1!.products[0]!.id;
      const ex = await getProduct(ctx, id, { known: true });
      const body = bareEnvelope(ctx, ex);
      ctx.expect(
        body.status === true,
        `the single product ${id} answered neither GET nor POST with status true: "${body.message}"`,
        ex,
      );
    },
  },
  {
    id: 'SHOP-PROD-02',
    title: 'product summaries carry id (integer), type, name, image, price, regular_price, sale_price, sku; ids unique in a page',
    needs: ['page1'],
    run: async (ctx: C) => {
      const r = await page(ctx, { page: 1 });
      ctx.expect(r.data, 'page 1 has no data', r.ex);
      r.data.products.forEach((p, i) => {
        ctx.validate('rest-v1-shop/schemas/product-summary.schema.json', p, r.ex, `products[${i}]`);
      });
      const ids = r.data.products.map((p) => p.id);
      ctx.expect(new Set(ids).size === ids.length, `page 1 lists an id twice: ${ids.join(', ')}`, r.ex);
    },
  },
  {
    id: 'SHOP-PROD-05',
    title: 'total_pages is consistent: the last page lists products, the page after it none',
    needs: ['page1'],
    run: async (ctx: C) => {
      const { products, last } = await allOf(ctx, {});
      ctx.state.allProducts = products;
      ctx.state.allIds = products.map((p) => p.id);
      const total = ctx.state.page1!.total_pages;
      if (total > MAX_PAGES) ctx.note(`total_pages ${total}: only the first ${MAX_PAGES} pages were read`);
      const lastPage = await page(ctx, { page: Math.min(total, MAX_PAGES) });
      ctx.expect(!isEmpty(lastPage), `page ${total} (total_pages) lists no product`, lastPage.ex, last);
      if (total <= MAX_PAGES) {
        const after = await page(ctx, { page: total + 1 });
        ctx.expect(
          isEmpty(after),
          `page ${total + 1}, after total_pages ${total}, still lists ${after.data?.products.length} products`,
          after.ex,
        );
      }
    },
  },
  {
    id: 'SHOP-PROD-04',
    title: 'page 2 lists other products than page 1',
    needs: ['page1'],
    run: async (ctx: C) => {
      if (ctx.state.page1!.total_pages < 2)
        ctx.skip(`total_pages is ${ctx.state.page1!.total_pages}: the catalog has a single page`);
      const r = await page(ctx, { page: 2 });
      ctx.expect(r.data && r.data.products.length > 0, 'page 2 lists no product although total_pages >= 2', r.ex);
      const one = ctx.state.page1!.products.map((p) => p.id);
      const both = r.data.products.filter((p) => one.includes(p.id)).map((p) => p.id);
      ctx.expect(both.length === 0, `page 2 repeats products of page 1: ${both.join(', ')}`, r.ex);
    },
  },
];

// Run last in the area, as they were written: how the listing answers a request without page or with a token.
export const listingRequestChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'SHOP-PROD-16',
    title: 'the listing without page (required): status false, errors.page',
    run: async (ctx: C) => {
      const ex = await listProducts(ctx, {});
      expectFieldError(ctx, ex, envelope(ctx, ex, 'products'), 'page', 'GET /products without page');
    },
  },
  {
    id: 'SHOP-PROD-17',
    title: 'the listing answers when the token header is sent (as in its sample)',
    run: async (ctx: C) => {
      const { account } = await register(ctx);
      const ex = await listProducts(ctx, { page: 1 }, account.token, true);
      const body = envelope(ctx, ex, 'products');
      ctx.expect(
        body.status === true,
        `GET /products?page=1 with a token: expected status true, got ${String(body.status)}: "${body.message}"`,
        ex,
      );
    },
  },
];
