import type { CheckSpec } from '../../../../checks/model.js';
import { adjacentWords, plusReading } from '../../../../checks/search.js';
import type { Exchange } from '../../../../http/exchange.js';
import { envelope, listProductsRaw } from '../../client.js';
import { allOf, isEmpty, page, strays } from './pages.js';
import { type C, type CatalogState, type ListingData, MAX_PAGES } from './state.js';

// search=: no match, a name word on page 1 and beyond it, "_" and "%" as text, "+" as a space.

export const searchChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'SHOP-PROD-06',
    title: 'a search with no match answers a no-products message and total_pages 0',
    run: async (ctx: C) => {
      const r = await page(ctx, { page: 1, search: `zzqx${ctx.names.username()}nomatch` });
      ctx.choose('AMB-SHOP-05', r.status ? 'true' : 'false');
      ctx.expect(r.message.trim() !== '', 'no-match listing: expected a no-products message, got ""', r.ex);
      ctx.expect(r.data, 'no-match listing: data (with total_pages 0) is missing', r.ex);
      ctx.expect(r.data.total_pages === 0, `no-match listing: expected total_pages 0, got ${r.data.total_pages}`, r.ex);
      ctx.expect(r.data.products.length === 0, `no-match listing lists ${r.data.products.length} products`, r.ex);
      // Found by mutation testing: a no-match listing that answered the products-found message survived.
      const found = await page(ctx, { page: 1 });
      if (found.status === true && found.data && found.data.products.length > 0)
        ctx.expect(
          r.message.trim() !== found.message.trim(),
          `no-match listing: the message "${r.message}" is the one of a listing that found products, not a no-products message`,
          r.ex,
          found.ex,
        );
    },
  },
  {
    id: 'SHOP-PROD-07',
    title: 'search by a word of a product name finds that product, and lists no product without the word',
    needs: ['page1'],
    run: async (ctx: C) => {
      const words = ctx.state.page1!.products.flatMap((p) =>
        p.name.split(/\s+/).map((w) => ({ w: w.replace(/[^A-Za-z0-9]/g, ''), p })),
      );
      const pick = words.filter((x) => x.w.length >= 3).sort((a, b) => b.w.length - a.w.length)[0];
      if (!pick) ctx.skip('no product name on page 1 has a word of 3 or more letters');
      const { products, last } = await allOf(ctx, { search: pick.w });
      ctx.expect(
        products.some((p) => p.id === pick.p.id),
        `search=${pick.w} does not list product ${pick.p.id} ("${pick.p.name}")`,
        last,
      );
      // "lists the products whose name holds the keywords": the others are not listed either.
      const found = await strays(ctx, products, pick.w);
      ctx.expect(
        found.strays.length === 0,
        `search=${pick.w} lists products that do not hold it in their name, sku or detail: ${found.strays
          .map((p) => `${p.id} ("${p.name}")`)
          .join(', ')}`,
        last,
        ...found.evidence,
      );
    },
  },
  {
    // A search runs over the whole catalog, not over one page of it: a product of a later page, found by a
    // word no page-1 name holds, so a search that only filters the catalog page it was asked for finds nothing.
    id: 'SHOP-PROD-07',
    title: 'search by a word of a product name beyond page 1 finds that product',
    needs: ['page1', 'allProducts'],
    run: async (ctx: C) => {
      const firstPage = ctx.state.page1!.products;
      const onFirst = new Set(firstPage.map((p) => p.id));
      const firstWords = firstPage.map((p) => p.name.toLowerCase()).join(' ');
      const pick = ctx.state
        .allProducts!.filter((p) => !onFirst.has(p.id))
        .flatMap((p) => p.name.split(/[^A-Za-z0-9]+/).map((w) => ({ w, p })))
        .filter((x) => x.w.length >= 3 && !firstWords.includes(x.w.toLowerCase()))
        .sort((a, b) => b.w.length - a.w.length || a.p.id - b.p.id)[0];
      if (!pick) ctx.skip('no product beyond page 1 has a name word of 3 or more letters that page 1 does not hold');
      const { products, last } = await allOf(ctx, { search: pick.w });
      ctx.expect(
        products.some((p) => p.id === pick.p.id),
        `search=${pick.w} does not list product ${pick.p.id} ("${pick.p.name}"), which the unfiltered listing shows beyond page 1`,
        last,
      );
    },
  },
  {
    // Keywords are text: "_" and "%" are characters to find, not LIKE wildcards left unescaped, which would list the
    // product whose name word the wildcard stands in.
    id: 'SHOP-PROD-07',
    title: 'a search for a name word with "_" or "%" in place of a letter lists no product without that text',
    needs: ['page1'],
    run: async (ctx: C) => {
      const pick = ctx.state
        .page1!.products.flatMap((p) => p.name.split(/[^A-Za-z]+/))
        .filter((w) => w.length >= 5)
        .sort((a, b) => b.length - a.length || a.localeCompare(b))[0];
      if (!pick) ctx.skip('no product name on page 1 has a word of 5 or more letters');
      const mid = Math.floor(pick.length / 2);
      for (const wildcard of ['_', '%']) {
        const term = `${pick.slice(0, mid)}${wildcard}${pick.slice(mid + 1)}`;
        const { products, last } = await allOf(ctx, { search: term });
        const found = await strays(ctx, products, term);
        ctx.expect(
          found.strays.length === 0,
          `search=${term} lists products that do not hold "${term}" in their name, sku or detail (is "${wildcard}" read as a wildcard?): ${found.strays
            .map((p) => `${p.id} ("${p.name}")`)
            .join(', ')}`,
          last,
          ...found.evidence,
        );
      }
    },
  },
  {
    // A space in a query value written "+", as HTML forms, URLSearchParams and PHP's http_build_query write it (every
    // other request of the suite writes %20): a target that decodes its query with rawurldecode() looks for "a+b".
    // Two adjacent words of one name: that product holds them whether keywords mean all, any or a phrase.
    id: 'SHOP-PROD-07',
    title: 'search=<two words of a product name joined by "+"> lists that product',
    needs: ['page1'],
    run: async (ctx: C) => {
      const pick = ctx.state.page1!.products.map((p) => ({ p, pair: adjacentWords(p.name) })).find((x) => x.pair);
      if (!pick?.pair) ctx.skip('no product name on page 1 has two adjacent words of 3 or more letters or digits');
      // Pages through the listing for the product; the last exchange is the evidence.
      const r = await plusReading(pick.pair, async (search) => {
        let last: Exchange | undefined;
        for (let p = 1; p <= MAX_PAGES; p++) {
          const ex = await listProductsRaw(ctx, `page=${p}&search=${search}`);
          if (!ex) ctx.skip('the listing answers POST only (AMB-SHOP-01): its search is a form field, where "+" is a plus sign');
          last = ex;
          const data = envelope(ctx, ex, 'products').data as ListingData | undefined;
          if (!data || isEmpty({ data })) break;
          if (data.products.some((q) => q.id === pick.p.id)) return { found: true, ex };
          if (p >= data.total_pages) break;
        }
        return { found: false, ex: last! };
      });
      if (r.read === 'space') return;
      // A target that lists it under neither encoding is not judged here (a two-word search is read as it chooses).
      if (r.read === 'unjudged')
        ctx.skip(`neither search=${r.search.plus} nor ${r.search.encoded} lists product ${pick.p.id} ("${pick.p.name}")`);
      ctx.fail(
        `search=${r.search.plus} ("+" for the space, as a form writes it) does not list product ${pick.p.id} ("${pick.p.name}"), which search=${r.search.encoded} lists: the "+" was not read as a space`,
        r.plus,
        r.encoded,
      );
    },
  },
];
