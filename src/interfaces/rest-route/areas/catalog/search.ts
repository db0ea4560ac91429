import type { CheckSpec } from '../../../../checks/model.js';
import { adjacentWords, plusReading } from '../../../../checks/search.js';
import type { Exchange } from '../../../../http/exchange.js';
import { authHeaders, bodyOf, dataOf, ROUTES, records, routeUrl, shown } from '../../client.js';
import { listing, session, strays, text, walk } from './queries.js';
import type { C, CatalogState, Rec } from './state.js';

// The listing's search (row 17): what it finds, what it must not, and SQL-looking strings, which run last of the area's own checks.

export const searchChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'RR-LIST-03',
    title: 'search returns only products carrying the word, and finds a product by a word of its name',
    needs: ['products'],
    run: async (ctx: C) => {
      const pick = (ctx.state.products ?? [])
        .map((p) => ({
          p,
          word: String(p.name ?? '')
            .match(/[A-Za-z0-9]{3,}/g)
            ?.sort((a, b) => b.length - a.length)[0],
        }))
        .find((x) => x.word);
      if (!pick?.word) ctx.skip('no listed product has a name word of 3 or more letters to search for');
      const word = pick.word.toLowerCase();
      const { ex, products } = await listing(ctx, { search: pick.word });
      ctx.expect(
        products.some((p) => String(p.product_id) === String(pick.p.product_id)),
        `search ${JSON.stringify(pick.word)} does not return product ${pick.p.product_id} (${pick.p.name})`,
        ex,
      );
      const found = await strays(ctx, products, word);
      ctx.expect(
        found.strays.length === 0,
        `search ${JSON.stringify(pick.word)} returned products without the word in their summary or detail: ${found.strays.map((p) => p.name).join(', ')}`,
        ex,
        ...found.evidence,
      );
    },
  },
  {
    // The search above looks for the first listed product, so a search that filters only the
    // first page of the catalog (a store's product limit) and misses every later product showed nowhere.
    id: 'RR-LIST-03',
    title: 'search finds the last listed product with a name word by that word too',
    needs: ['products'],
    run: async (ctx: C) => {
      const products = ctx.state.products ?? [];
      const pick = products
        .map((p) => ({
          p,
          word: String(p.name ?? '')
            .match(/[A-Za-z0-9]{3,}/g)
            ?.sort((a, b) => b.length - a.length)[0],
        }))
        .reverse()
        .find((x) => x.word);
      if (!pick?.word) ctx.skip('no listed product has a name word of 3 or more letters to search for');
      if (products.length < 2 || pick.p === products[0])
        ctx.skip('the listing holds one product with a name word: the search above covers it');
      const { ex, products: found } = await listing(ctx, { search: pick.word });
      ctx.expect(
        found.some((p) => String(p.product_id) === String(pick.p.product_id)),
        `search ${JSON.stringify(pick.word)} does not return product ${pick.p.product_id} (${pick.p.name}), listed at ${products.indexOf(pick.p) + 1} of ${products.length} without a search`,
        ex,
      );
    },
  },
  {
    // Row 16 gives the listing both filters. Every other check sends one at a time, so a listing
    // that drops search whenever a category is named showed nowhere.
    id: 'RR-LIST-03',
    title: 'search within a category (with category_ids) returns only products carrying the word',
    needs: ['categories', 'products'],
    run: async (ctx: C) => {
      // A category listing two products, one with a name word the other does not carry.
      let pick: { category: string; product: Rec; word: string; ex: Exchange } | undefined;
      for (const c of walk(ctx.state.categories ?? []).slice(0, 6)) {
        const { ex, products } = await listing(ctx, { category_ids: String(c.category_id) });
        for (const product of products) {
          const word = String(product.name ?? '')
            .match(/[A-Za-z0-9]{3,}/g)
            ?.find((w) => products.some((q) => !text(q).includes(w.toLowerCase())));
          if (word) {
            pick = { category: String(c.category_id), product, word, ex };
            break;
          }
        }
        if (pick) break;
      }
      if (!pick) ctx.skip('no category of the first six lists two products of which one lacks a name word of the other');
      const { ex, products } = await listing(ctx, { category_ids: pick.category, search: pick.word });
      if (bodyOf(ex)?.status !== true)
        ctx.skip(`the target did not answer search together with category_ids with success, so it is not judged: ${shown(ex)}`);
      const word = pick.word.toLowerCase();
      const found = await strays(ctx, products, word);
      ctx.expect(
        found.strays.length === 0,
        `search ${JSON.stringify(pick.word)} with category_ids ${pick.category} returned products without the word in their summary or detail: ${found.strays.map((p) => p.name).join(', ')}`,
        ex,
        pick.ex,
        ...found.evidence,
      );
      ctx.expect(
        products.some((p) => String(p.product_id) === String(pick.product.product_id)),
        `search ${JSON.stringify(pick.word)} with category_ids ${pick.category} does not return product ${pick.product.product_id} (${pick.product.name}), which the category lists`,
        ex,
        pick.ex,
      );
    },
  },
  {
    // RR-SEC-07 sends % and _ alone and judges the envelope only, so a search put into LIKE
    // without escaping its wildcards (a word holding _ or % matching names that lack it) showed nowhere.
    id: 'RR-LIST-03',
    title: 'a search word holding _ or % returns only products carrying it as written',
    needs: ['products'],
    run: async (ctx: C) => {
      const pick = (ctx.state.products ?? [])
        .map((p) => ({
          p,
          word: String(p.name ?? '')
            .match(/[A-Za-z0-9]{4,}/g)
            ?.sort((a, b) => b.length - a.length)[0],
        }))
        .find((x) => x.word);
      if (!pick?.word) ctx.skip('no listed product has a name word of 4 or more letters to build the search from');
      const w = pick.word;
      // A letter of the word replaced by _, and its middle by %: as wildcards both match the product's name.
      for (const term of [`${w.slice(0, 2)}_${w.slice(3)}`, `${w.slice(0, 1)}%${w.slice(-1)}`]) {
        const { ex, products } = await listing(ctx, { search: term });
        const found = await strays(ctx, products, term);
        ctx.expect(
          found.strays.length === 0,
          `search ${JSON.stringify(term)} (from ${JSON.stringify(w)} of product ${pick.p.product_id}) returned products without ${JSON.stringify(term)} as written in their summary or detail: ${found.strays.map((p) => p.name).join(', ')}`,
          ex,
          ...found.evidence,
        );
      }
    },
  },
  {
    // Every query went out through encodeURIComponent (a space as %20), so a module decoding its
    // query with rawurldecode() (a + kept as a +) showed nowhere: forms and most clients write a space as +.
    id: 'RR-LIST-03',
    title: 'a search of two name words with + for the space (form encoding) finds the product',
    needs: ['products'],
    run: async (ctx: C) => {
      const pick = (ctx.state.products ?? [])
        .map((p) => ({ p, words: adjacentWords(String(p.name ?? '')) }))
        .find((x) => x.words);
      if (!pick?.words) ctx.skip('no listed product has two adjacent name words of 3 or more letters');
      const headers = authHeaders(session(ctx).token, session(ctx).header);
      const r = await plusReading(pick.words, async (search) => {
        const ex = await ctx.http.send({ method: 'GET', url: `${routeUrl(ctx, ROUTES.listing)}&search=${search}`, headers });
        const found = records(dataOf(bodyOf(ex)).products).some((p) => String(p.product_id) === String(pick.p.product_id));
        return { found, ex };
      });
      if (r.read === 'space') return;
      // Whether several words mean all or any is not stated; a phrase of the name is found under
      // either, and a target that finds it in neither encoding is not judged here.
      if (r.read === 'unjudged')
        ctx.skip(
          `neither search=${r.search.plus} nor ${r.search.encoded} returns product ${pick.p.product_id}: two-word searches are not judged`,
        );
      ctx.fail(
        `search=${r.search.plus} (form encoding) does not return product ${pick.p.product_id} (${pick.p.name}), which search=${r.search.encoded} returns: the + was not read as a space`,
        r.plus,
        r.encoded,
      );
    },
  },
  {
    id: 'RR-LIST-04',
    title: 'a search word no product carries returns no product',
    needs: ['me'],
    run: async (ctx: C) => {
      const { ex, products } = await listing(ctx, { search: `zqx${ctx.names.runId}qzx` });
      ctx.expect(bodyOf(ex)?.status === true, `the search was not answered with success: ${shown(ex)}`, ex);
      ctx.expect(products.length === 0, `expected no product, got ${products.length}`, ex);
    },
  },
];

export const sqlSearchChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'RR-SEC-07',
    title: 'SQL-looking search strings are answered in the envelope without a 5xx',
    needs: ['me', 'products'],
    run: async (ctx: C) => {
      for (const search of ["' OR '1'='1", '"; DROP TABLE product; --', '%', '_']) {
        const { ex } = await listing(ctx, { search });
        ctx.expect((ex.response?.status ?? 0) < 500, `search ${JSON.stringify(search)} got ${shown(ex)}`, ex);
        ctx.validate('rest-route/schemas/envelope.schema.json', ctx.json(ex), ex);
      }
      const { ex, products } = await listing(ctx, {});
      ctx.expect(
        products.length === (ctx.state.products ?? []).length,
        'the unfiltered listing changed after the SQL-looking searches',
        ex,
      );
    },
  },
];
