import type { CheckSpec } from '../../../../checks/model.js';
import type { Exchange } from '../../../../http/exchange.js';
import { num } from '../../flows.js';
import { allOf, expectSubset, isEmpty, page } from './pages.js';
import type { C, CatalogState } from './state.js';

// categories=<slug> (SFC_SHOP_CATEGORY): what it lists alone, beside a search or a price range, in a comma list, and its pages.

export const categoryChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'SHOP-PROD-08',
    title: 'categories=<slug> lists products of a category, none for an unknown slug',
    needs: ['allIds'],
    run: async (ctx: C) => {
      const slug = ctx.data('SFC_SHOP_CATEGORY');
      if (!slug) ctx.skip('SFC_SHOP_CATEGORY (a category slug holding products) is not set');
      const { products, last, pages } = await allOf(ctx, { categories: slug });
      ctx.expect(products.length > 0, `categories=${slug} lists no product`, last);
      ctx.state.categoryIds = products.map((p) => p.id).sort((a, b) => a - b);
      ctx.state.categoryPages = pages;
      expectSubset(
        ctx,
        products.map((p) => p.id),
        ctx.state.allIds!,
        `categories=${slug}`,
        last,
      );
      const unknown = await page(ctx, { page: 1, categories: `sfc-${ctx.names.username()}-none` });
      ctx.expect(isEmpty(unknown), `an unknown category slug lists ${unknown.data?.products.length} products`, unknown.ex);
      // The category holds with another filter beside it: a search for the sku of a product outside the category lists
      // nothing outside it, whether the search reads skus or not (found by the fault catalog: an OR clause for skus
      // appended to the WHERE without parentheses lists that product whatever the other filters say).
      const inCategory = new Set(ctx.state.categoryIds);
      const outsider = ctx.state.allProducts?.find(
        (p) => !inCategory.has(p.id) && typeof p.sku === 'string' && /^[A-Za-z0-9-]{3,}$/.test(p.sku),
      );
      if (!outsider) {
        ctx.note(`no product outside categories=${slug} has a sku to search for: the category beside a search is not judged`);
        return;
      }
      const sku = outsider.sku as string;
      const beside = await allOf(ctx, { categories: slug, search: sku });
      const outside = beside.products.filter((p) => !inCategory.has(p.id)).map((p) => `${p.id} ("${p.name}")`);
      ctx.expect(
        outside.length === 0,
        `categories=${slug}&search=${sku} (the sku of product ${outsider.id}, not of that category) lists products outside categories=${slug}: ${outside.join(', ')}`,
        beside.last,
      );
    },
  },
  {
    // The pages of a filtered listing are disjoint too. The unfiltered catalog may hold whole pages only; a category
    // whose last page is partial shows a target that fills that page from the page before it. No request more.
    id: 'SHOP-PROD-04',
    title: 'the pages of a filtered listing (categories=<slug>) list each product once',
    needs: ['categoryPages'],
    run: async (ctx: C) => {
      const slug = ctx.data('SFC_SHOP_CATEGORY')!;
      const pages = ctx.state.categoryPages!;
      if (pages.length < 2) ctx.skip(`categories=${slug} lists a single page`);
      const seen = new Map<number, number>();
      const repeats: string[] = [];
      pages.forEach((p, i) => {
        for (const id of p.ids) {
          const at = seen.get(id);
          if (at === undefined) seen.set(id, i + 1);
          else repeats.push(`${id} (pages ${at} and ${i + 1})`);
        }
      });
      ctx.expect(
        repeats.length === 0,
        `categories=${slug}: its ${pages.length} pages list products more than once: ${repeats.join(', ')}`,
        ...pages.map((p) => p.ex),
      );
    },
  },
  {
    // categories is a comma list, read whole: a target that reads only its first (or last) slug lists the slug's
    // products in one order and none in the other. Whether several slugs mean any or all of them is not stated;
    // either reading gives one answer in both orders, the slug's products (any) or none (all).
    id: 'SHOP-PROD-18',
    title: "categories=<slug>,<unknown> and categories=<unknown>,<slug> list the same products: the slug's, or none",
    needs: ['categoryIds'],
    run: async (ctx: C) => {
      const slug = ctx.data('SFC_SHOP_CATEGORY')!;
      const unknown = `sfc-${ctx.names.username()}-none`;
      const known = JSON.stringify(ctx.state.categoryIds!);
      const listed: { list: string; ids: string; last: Exchange }[] = [];
      for (const list of [`${slug},${unknown}`, `${unknown},${slug}`]) {
        const { products, last } = await allOf(ctx, { categories: list });
        const ids = JSON.stringify(products.map((p) => p.id).sort((a, b) => a - b));
        ctx.expect(
          ids === known || products.length === 0,
          `categories=${list} lists ${products.length} products that are neither those of categories=${slug} (${known}) nor none: ${ids}`,
          last,
        );
        listed.push({ list, ids, last });
      }
      const [a, b] = listed as [(typeof listed)[number], (typeof listed)[number]];
      ctx.expect(
        a.ids === b.ids,
        `the order of the slugs changes the listing: categories=${a.list} lists ${a.ids}, categories=${b.list} lists ${b.ids} (is only one slug of the list read?)`,
        a.last,
        b.last,
      );
    },
  },
  {
    // The category holds beside a price range too: the range spans the category's own prices, so the listing is the
    // category's products (found by the fault catalog: a price branch that builds the query's arguments afresh drops
    // the category, and the listing holds every product in the range). One listing, a page or two.
    id: 'SHOP-PROD-08',
    title: 'categories=<slug> with a price range around its products lists products of that category only',
    needs: ['categoryIds', 'allProducts'],
    run: async (ctx: C) => {
      const slug = ctx.data('SFC_SHOP_CATEGORY')!;
      const inCategory = new Set(ctx.state.categoryIds!);
      const prices = ctx.state
        .allProducts!.filter((p) => inCategory.has(p.id))
        .map((p) => num(p.price))
        .filter((n): n is number => n !== undefined);
      if (prices.length === 0) ctx.skip(`no product of categories=${slug} has a numeric price`);
      const [lo, hi] = [Math.min(...prices).toFixed(2), Math.max(...prices).toFixed(2)];
      const { products, last } = await allOf(ctx, { categories: slug, price_from: lo, price_to: hi });
      const outside = products.filter((p) => !inCategory.has(p.id)).map((p) => `${p.id} ("${p.name}")`);
      ctx.expect(
        outside.length === 0,
        `categories=${slug}&price_from=${lo}&price_to=${hi} (the prices of that category's products) lists products outside categories=${slug}: ${outside.join(', ')}`,
        last,
      );
    },
  },
  {
    // total_pages pages over what the listing matched, not over the catalog: a listing with no match answers
    // total_pages 0 (B. Shop variant), and page (8. Limits) pages that same filtered listing.
    id: 'SHOP-PROD-05',
    title: 'total_pages of a filtered listing (categories=<slug>) is consistent: its last page lists products, the next none',
    needs: ['page1'],
    run: async (ctx: C) => {
      const slug = ctx.data('SFC_SHOP_CATEGORY');
      if (!slug) ctx.skip('SFC_SHOP_CATEGORY (a category slug holding products) is not set');
      const first = await page(ctx, { page: 1, categories: slug });
      ctx.expect(first.data && !isEmpty(first), `categories=${slug}&page=1 lists no product`, first.ex);
      const total = first.data.total_pages;
      const last = await page(ctx, { page: total, categories: slug });
      ctx.expect(!isEmpty(last), `categories=${slug}: page ${total} (its total_pages) lists no product`, first.ex, last.ex);
      const after = await page(ctx, { page: total + 1, categories: slug });
      ctx.expect(
        isEmpty(after),
        `categories=${slug}: page ${total + 1}, after its total_pages ${total}, still lists ${after.data?.products.length} products`,
        first.ex,
        after.ex,
      );
    },
  },
];
