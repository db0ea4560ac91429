import { searchStrays } from '../../../../checks/search.js';
import type { Exchange } from '../../../../http/exchange.js';
import { envelope, getProduct, listProducts } from '../../client.js';
import type { ProductSummary } from '../../flows.js';
import { type C, type ListedPage, type ListingData, MAX_PAGES } from './state.js';

// Reading the listing a page at a time or every page of it, and judging which products it lists.

/** One listing page: schema-checked, data returned (data may be missing on a failure). */
export async function page(
  ctx: C,
  params: Record<string, string | number>,
): Promise<{ ex: Exchange; status: boolean; message: string; data?: ListingData }> {
  const ex = await listProducts(ctx, params);
  const body = envelope(ctx, ex, 'products');
  return { ex, status: body.status, message: body.message, ...(body.data ? { data: body.data as ListingData } : {}) };
}

/** A listing that found nothing: no products (or total_pages 0), whatever the status (AMB-SHOP-05). */
export const isEmpty = (r: { data?: ListingData }): boolean =>
  !r.data || r.data.products.length === 0 || r.data.total_pages === 0;

/** Every product id of a filtered listing, page by page. */
export async function allOf(
  ctx: C,
  params: Record<string, string | number>,
): Promise<{ products: ProductSummary[]; last: Exchange; pages: ListedPage[] }> {
  const products: ProductSummary[] = [];
  const pages: ListedPage[] = [];
  let last: Exchange | undefined;
  for (let p = 1; p <= MAX_PAGES; p++) {
    const r = await page(ctx, { ...params, page: p });
    last = r.ex;
    if (isEmpty(r)) break;
    products.push(...r.data!.products);
    pages.push({ ids: r.data!.products.map((x) => x.id), ex: r.ex });
    if (p >= r.data!.total_pages) break;
  }
  return { products, last: last!, pages };
}

/** Listed products without `word` in their name, sku or detail (a target may match content too). */
export const strays = (ctx: C, products: ProductSummary[], word: string) =>
  searchStrays(products, word, {
    summary: (p) => `${p.name} ${String(p.sku ?? '')}`,
    detail: (p) => getProduct(ctx, p.id, { known: true }),
  });

export function expectSubset(ctx: C, ids: number[], all: number[], what: string, ex: Exchange): void {
  const extra = ids.filter((id) => !all.includes(id));
  ctx.expect(extra.length === 0, `${what} lists product ids the unfiltered listing lacks: ${extra.join(', ')}`, ex);
}
