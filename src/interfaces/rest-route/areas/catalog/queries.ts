import { searchStrays } from '../../../../checks/search.js';
import type { Exchange } from '../../../../http/exchange.js';
import type { Provisioned } from '../../accounts.js';
import { bodyOf, call, dataOf, ROUTES, records, type Session } from '../../client.js';
import { type C, CATEGORIES_LISTED, type Rec } from './state.js';

// The requests several catalog files send (listing, detail, category listings) and the readings of their answers.

export const session = (ctx: C): Session => (ctx.state.me as Provisioned).session;

export async function listing(ctx: C, query: Record<string, string>): Promise<{ ex: Exchange; products: Rec[] }> {
  const ex = await call(ctx, 'GET', ROUTES.listing, { session: session(ctx), query });
  return { ex, products: records(dataOf(bodyOf(ex)).products) };
}

/** Every category of the tree, depth first. */
export function walk(list: Rec[], out: Rec[] = []): Rec[] {
  for (const c of list) {
    out.push(c);
    walk(records(c.children), out);
  }
  return out;
}

export const text = (p: Rec) => `${p.name ?? ''} ${p.model ?? ''} ${p.description ?? ''}`.toLowerCase();

/** GET product/product of one product_id. */
export const productDetail = (ctx: C, productId: unknown) =>
  call(ctx, 'GET', ROUTES.product, { session: session(ctx), query: { product_id: String(productId) } });

/** The listing of each of the first CATEGORIES_LISTED categories of the tree, in tree order. */
export async function categoryListings(ctx: C): Promise<Array<{ category: string; ex: Exchange; products: Rec[] }>> {
  const lists = [];
  for (const c of walk(ctx.state.categories ?? []).slice(0, CATEGORIES_LISTED)) {
    const { ex, products } = await listing(ctx, { category_ids: String(c.category_id) });
    lists.push({ category: String(c.category_id), ex, products });
  }
  return lists;
}

/** Listed products without `word` in their summary or their detail (row 17). */
export const strays = (ctx: C, products: Rec[], word: string) =>
  searchStrays(products, word, { summary: text, detail: (p) => productDetail(ctx, p.product_id) });
