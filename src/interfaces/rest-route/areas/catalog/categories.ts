import type { CheckSpec } from '../../../../checks/model.js';
import type { Exchange } from '../../../../http/exchange.js';
import { provision } from '../../accounts.js';
import { bodyOf, call, dataOf, envelope, ROUTES, records, shown } from '../../client.js';
import { categoryListings, listing, session, walk } from './queries.js';
import { type C, CATEGORIES_LISTED, type CatalogState } from './state.js';

// The category tree (first: it provisions the customer), then the listing's category_ids filter, which runs after the searches.

export const categoryTreeChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'RR-CAT-01',
    title: 'GET category answers with the category tree and language',
    run: async (ctx: C) => {
      ctx.state.me = await provision(ctx);
      const ex = await call(ctx, 'GET', ROUTES.category, { session: session(ctx) });
      ctx.state.categories = records(dataOf(bodyOf(ex)).categories);
      envelope(ctx, ex, 'common-category.get');
    },
  },
  {
    id: 'RR-CAT-02',
    title: 'children is an array of Category at every level',
    needs: ['categories'],
    run: async (ctx: C) => {
      const all = walk(ctx.state.categories ?? []);
      if (all.length === 0) ctx.skip('the target lists no category');
      const bad = all.filter((c) => !Array.isArray(c.children));
      ctx.expect(bad.length === 0, `categories ${bad.map((c) => c.category_id).join(', ')} have no children array`);
      const nested = all.filter((c) => records(c.children).length > 0).length;
      ctx.note(`${all.length} categories, ${nested} with children`);
    },
  },
  {
    id: 'RR-CAT-03',
    title: "a child's parent_id is its parent's category_id",
    needs: ['categories'],
    run: async (ctx: C) => {
      const wrong: string[] = [];
      let seen = 0;
      for (const parent of walk(ctx.state.categories ?? []))
        for (const child of records(parent.children)) {
          seen++;
          if (String(child.parent_id) !== String(parent.category_id))
            wrong.push(`${child.category_id} under ${parent.category_id} says parent_id ${JSON.stringify(child.parent_id)}`);
        }
      if (seen === 0) ctx.skip('no category has children');
      ctx.expect(wrong.length === 0, `parent_id does not match the tree: ${wrong.slice(0, 5).join('; ')}`);
    },
  },
  {
    // Found by mutation testing: a tree that listed every category at the top level too survived the suite.
    id: 'RR-CAT-04',
    title: 'a category nested as a child is not also listed at the top level',
    needs: ['categories'],
    run: async (ctx: C) => {
      const top = ctx.state.categories ?? [];
      const nested = new Set(walk(top.flatMap((c) => records(c.children))).map((c) => String(c.category_id)));
      if (nested.size === 0) ctx.skip('no category has children');
      const twice = top.filter((c) => nested.has(String(c.category_id))).map((c) => String(c.category_id));
      ctx.expect(
        twice.length === 0,
        `categories ${twice.slice(0, 8).join(', ')} are listed at the top level and also as the child of another category`,
      );
    },
  },
];

export const categoryFilterChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'RR-LIST-05',
    title: 'category_ids filters: results differ between categories; an unknown id returns nothing',
    needs: ['categories', 'products'],
    run: async (ctx: C) => {
      const all = walk(ctx.state.categories ?? []);
      if (all.length === 0) ctx.skip('the target lists no category');
      const sets = new Map<string, string>();
      const evidence: Exchange[] = [];
      const lists = await categoryListings(ctx);
      ctx.state.categoryLists = lists;
      for (const { category, ex, products } of lists) {
        evidence.push(ex);
        ctx.expect(bodyOf(ex)?.status === true, `listing of category ${category} failed: ${shown(ex)}`, ex);
        // A filter run with PHP's array_filter() keeps the keys: products comes back as an object.
        const got = dataOf(bodyOf(ex)).products;
        ctx.expect(
          got === undefined || Array.isArray(got),
          `listing of category ${category} answers products as ${JSON.stringify(got).slice(0, 80)}…, not an array of Product summaries`,
          ex,
        );
        if (products.length > 0)
          sets.set(
            category,
            products
              .map((p) => String(p.product_id))
              .sort()
              .join(','),
          );
      }
      // Found by mutation testing: a filter that listed nothing for every category survived the suite.
      // The seed is unknown, but products the listing shows belong to some category of the tree.
      const listed = (ctx.state.products ?? []).length;
      for (const c of all.slice(CATEGORIES_LISTED, 40)) {
        if (sets.size > 0 || listed === 0) break;
        const { ex, products } = await listing(ctx, { category_ids: String(c.category_id) });
        evidence.push(ex);
        if (products.length > 0) sets.set(String(c.category_id), products.map((p) => String(p.product_id)).join(','));
      }
      if (sets.size === 0 && listed > 0 && all.length <= 40)
        ctx.fail(
          `the unfiltered listing shows ${listed} product(s), yet category_ids of each of the ${all.length} categories of the tree lists none: the filter drops every product`,
          ...evidence.slice(0, 3),
        );
      // The unknown id is 0 when the tree holds no category 0 (the top level's parent_id, no category):
      // a past-the-end id alone let a filter applied only `if (!empty(...))` pass, where PHP's empty()
      // takes "0" for missing and lists the whole catalog. Same request, no extra one.
      const unknown = all.some((c) => String(c.category_id).trim() === '0')
        ? String(Math.max(0, ...all.map((c) => Number(c.category_id) || 0)) + 100_000)
        : '0';
      const { ex, products } = await listing(ctx, { category_ids: unknown });
      ctx.expect(
        products.length === 0,
        `category ${unknown}, which the tree does not hold, returned ${products.length} products${unknown === '0' && products.length > 0 && products.length === (ctx.state.products ?? []).length ? ' (every product of the unfiltered listing: "0" was read as no category)' : ''}`,
        ex,
      );
      // A second unknown id holds the digits of a category that lists products (200 holds 20): ids of
      // the tree and 0 alone let a filter that looks for each product's category id in the request's
      // string (PHP's strpos() over category_ids) pass. One request more.
      const holder = [...sets.keys()].find((c) => /^\d{1,12}$/.test(c));
      if (holder !== undefined) {
        const known = new Set(all.map((c) => String(c.category_id).trim()));
        let digits = `${holder}0`;
        while (known.has(digits) && digits.length < 15) digits += '0';
        if (!known.has(digits)) {
          const { ex: dx, products: held } = await listing(ctx, { category_ids: digits });
          ctx.expect(
            held.length === 0,
            `category ${digits}, which the tree does not hold, returned ${held.length} products${held.length > 0 ? ` (it holds the digits of category ${holder}, which lists ${sets.get(holder)?.split(',').length ?? 0})` : ''}`,
            dx,
          );
        }
      }
      // The "results differ" half needs two categories that list products; without them it is
      // not judged, and the check does not pass on the unknown-id half alone.
      if (sets.size < 2)
        ctx.skip(
          `${sets.size} of the ${all.length} categories tried list products, so whether results differ between categories cannot be judged (the unknown id ${unknown} did return no products)`,
        );
      const distinct = new Set(sets.values());
      ctx.expect(
        distinct.size >= 2,
        `every category returned the same products (${[...distinct][0]}): the filter has no effect`,
        ...evidence.slice(0, 2),
      );
    },
  },
  {
    // Every search went out alone or within a category that held the product searched for, so a listing
    // query whose search condition lost its parentheses (`category AND name LIKE ... OR model = ...`: a
    // product whose model is the search listed whatever category_ids names) showed nowhere. An id that
    // names no category lists no product, with a search too; whether a model is searched is the target's.
    id: 'RR-LIST-05',
    title: "an id that names no category, with search a listed product's model, returns no products",
    needs: ['categories', 'products'],
    run: async (ctx: C) => {
      const all = walk(ctx.state.categories ?? []);
      const product = (ctx.state.products ?? []).find((p) => typeof p.model === 'string' && p.model.trim() !== '');
      if (!product) ctx.skip('no listed product has a model to search for');
      const unknown = all.some((c) => String(c.category_id).trim() === '0')
        ? String(Math.max(0, ...all.map((c) => Number(c.category_id) || 0)) + 100_000)
        : '0';
      const model = String(product.model).trim();
      const { ex, products } = await listing(ctx, { category_ids: unknown, search: model });
      ctx.expect(
        products.length === 0,
        `category ${unknown}, which the tree does not hold, with search ${JSON.stringify(model)} (the model of product ${product.product_id}) returned ${products.length} products: ${products
          .slice(0, 4)
          .map((p) => `${p.product_id} ${p.name}`)
          .join(', ')}`,
        ex,
      );
    },
  },
];
