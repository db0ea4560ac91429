import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { adjacentWords, plusReading, searchStrays } from '../../../checks/search.js';
import type { Exchange } from '../../../http/exchange.js';
import { bareEnvelope, conformsTo, envelope, expectFieldError, getProduct, listProducts, listProductsRaw } from '../client.js';
import { num, type ProductSummary, register } from '../flows.js';

// Products and product (no account needed, except to send a token where a target wants one).

interface ListingData {
  slider: unknown[];
  currency: string;
  total_pages: number;
  products: ProductSummary[];
}

interface CatalogState {
  page1: ListingData;
  /** Every product id of the unfiltered listing (up to 10 pages). */
  allIds: number[];
  allProducts: ProductSummary[];
  productId: number;
  /** Every product id of categories=SFC_SHOP_CATEGORY (SHOP-PROD-08), sorted. */
  categoryIds: number[];
  /** The pages of that listing as read, in order: each page's product ids and its exchange. */
  categoryPages: ListedPage[];
}

type C = CheckContext<CatalogState>;
const MAX_PAGES = 10;

/** One listing page: schema-checked, data returned (data may be missing on a failure). */
async function page(
  ctx: C,
  params: Record<string, string | number>,
): Promise<{ ex: Exchange; status: boolean; message: string; data?: ListingData }> {
  const ex = await listProducts(ctx, params);
  const body = envelope(ctx, ex, 'products');
  return { ex, status: body.status, message: body.message, ...(body.data ? { data: body.data as ListingData } : {}) };
}

/** A listing that found nothing: no products (or total_pages 0), whatever the status (AMB-SHOP-05). */
const isEmpty = (r: { data?: ListingData }): boolean => !r.data || r.data.products.length === 0 || r.data.total_pages === 0;

interface ListedPage {
  ids: number[];
  ex: Exchange;
}

/** Every product id of a filtered listing, page by page. */
async function allOf(
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
const strays = (ctx: C, products: ProductSummary[], word: string) =>
  searchStrays(products, word, {
    summary: (p) => `${p.name} ${String(p.sku ?? '')}`,
    detail: (p) => getProduct(ctx, p.id, { known: true }),
  });

function expectSubset(ctx: C, ids: number[], all: number[], what: string, ex: Exchange): void {
  const extra = ids.filter((id) => !all.includes(id));
  ctx.expect(extra.length === 0, `${what} lists product ids the unfiltered listing lacks: ${extra.join(', ')}`, ex);
}

export const catalogArea: AreaSpec<CatalogState> = {
  interface: 'rest-v1-shop',
  name: 'catalog',
  checks: [
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
      title:
        'product summaries carry id (integer), type, name, image, price, regular_price, sale_price, sku; ids unique in a page',
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
            if (!ex)
              ctx.skip('the listing answers POST only (AMB-SHOP-01): its search is a form field, where "+" is a plus sign');
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
    ...(['featured', 'instock'] as const).map((flag) => ({
      id: flag === 'featured' ? 'SHOP-PROD-09' : 'SHOP-PROD-10',
      title: `${flag}=1 is accepted and lists only products of the unfiltered listing`,
      needs: ['allIds' as const],
      run: async (ctx: C) => {
        // Accepted: status true; or, where nothing matches, the no-match answer (data with no
        // products or total_pages 0), whose status may be false (AMB-SHOP-05).
        const first = await page(ctx, { [flag]: 1, page: 1 });
        ctx.expect(
          first.status === true || (first.data !== undefined && isEmpty(first)),
          `${flag}=1 was not accepted: status false without the no-match listing (message ${JSON.stringify(first.message)})`,
          first.ex,
        );
        const { products, last } = await allOf(ctx, { [flag]: 1 });
        if (products.length === 0) ctx.note(`${flag}=1 listed no product (the meaning of the flag values is not shown)`);
        expectSubset(
          ctx,
          products.map((p) => p.id),
          ctx.state.allIds!,
          `${flag}=1`,
          last,
        );
        if (products.length === ctx.state.allIds!.length)
          ctx.note(`${flag}=1 listed every product (the meaning of the flag values is not shown)`);
      },
    })),
    {
      id: 'SHOP-PROD-11',
      title: 'price_from / price_to list only products whose price is in the range',
      needs: ['allProducts'],
      run: async (ctx: C) => {
        const prices = ctx.state
          .allProducts!.map((p) => num(p.price))
          .filter((n): n is number => n !== undefined)
          .sort((a, b) => a - b);
        if (prices.length < 2) ctx.skip('fewer than two products with a numeric price');
        const quartile = prices[Math.floor(prices.length / 4)]!;
        const hi = prices[Math.floor((prices.length * 3) / 4)]!;
        // One cent above a listed price (found by mutation testing: amounts with cents were misread and
        // products below price_from listed), unless no product would then be in the range.
        const lo = prices.some((p) => p > quartile + 0.005 && p <= hi + 0.005) ? Math.round(quartile * 100 + 1) / 100 : quartile;
        const { products, last } = await allOf(ctx, { price_from: lo.toFixed(2), price_to: hi.toFixed(2) });
        ctx.expect(
          products.length > 0,
          `price_from=${lo}&price_to=${hi} lists no product although some are priced in the range`,
          last,
        );
        const out = products.filter((p) => {
          const n = num(p.price);
          return n !== undefined && (n < lo - 0.005 || n > hi + 0.005);
        });
        ctx.expect(
          out.length === 0,
          `price range ${lo}..${hi} lists ${out.map((p) => `${p.id} at ${p.price}`).join(', ')}`,
          last,
        );
        // Whole amounts, as a client types them: "12" is as much an amount as "12.00" (found by mutation
        // testing: bounds without decimals were refused and no check sent one).
        const wholeFrom = Math.floor(prices[0]!);
        const wholeTo = Math.ceil(prices[prices.length - 1]!);
        const whole = await allOf(ctx, { price_from: String(wholeFrom), price_to: String(wholeTo) });
        ctx.expect(
          whole.products.length > 0,
          `price_from=${wholeFrom}&price_to=${wholeTo} (whole amounts around every listed price) lists no product`,
          whole.last,
        );
        // Each bound alone is a filter too (both are optional query fields): price_from=hi lists nothing cheaper,
        // price_to=lo nothing dearer. A target that filters only when both are sent lists the whole catalog.
        // price_to=0, written "0" as a client types it, is a bound like any other: nothing priced above 0 is listed
        // (found by the fault catalog: a bound behind PHP's `! empty()` is passed over when it is "0", and the listing
        // holds every product).
        for (const [name, bound, sent, outside] of [
          ['price_from', hi, hi.toFixed(2), (n: number) => n < hi - 0.005],
          ['price_to', lo, lo.toFixed(2), (n: number) => n > lo + 0.005],
          ['price_to', 0, '0', (n: number) => n > 0.005],
        ] as const) {
          const one = await allOf(ctx, { [name]: sent });
          const inside = prices.filter((n) => !outside(n) && Math.abs(n - bound) > 0.005).length;
          ctx.expect(
            one.products.length > 0 || inside === 0,
            `${name}=${sent} alone lists no product although ${inside} listed price(s) lie strictly on its side`,
            one.last,
          );
          const wrong = one.products.filter((p) => {
            const n = num(p.price);
            return n !== undefined && outside(n);
          });
          ctx.expect(
            wrong.length === 0,
            `${name}=${sent} alone lists ${wrong.map((p) => `${p.id} at ${p.price}`).join(', ')}`,
            one.last,
          );
        }
      },
    },
    {
      // The price a product lists is the price the range holds it to, on sale or not: a range from one cent above a sale
      // price up to that product's regular price leaves the product out (found by the fault catalog: a filter on the
      // regular price lists it at its sale price, below price_from). One listing, usually one page.
      id: 'SHOP-PROD-11',
      title: 'a range above the sale price of a product on sale, up to its regular price, lists no product below it',
      needs: ['allProducts'],
      run: async (ctx: C) => {
        const onSale = ctx.state.allProducts!.find((p) => {
          const [price, regular] = [num(p.price), num(p.regular_price)];
          return price !== undefined && regular !== undefined && regular >= price + 0.02;
        });
        if (!onSale) ctx.skip('no listed product has a regular_price above its price (none is on sale)');
        const lo = Math.round(num(onSale.price)! * 100 + 1) / 100;
        const hi = num(onSale.regular_price)!;
        const { products, last } = await allOf(ctx, { price_from: lo.toFixed(2), price_to: hi.toFixed(2) });
        const out = products.filter((p) => {
          const n = num(p.price);
          return n !== undefined && (n < lo - 0.005 || n > hi + 0.005);
        });
        ctx.expect(
          out.length === 0,
          `price_from=${lo.toFixed(2)}&price_to=${hi.toFixed(2)} (above the price ${onSale.price} of product ${onSale.id}, up to its regular_price ${onSale.regular_price}) lists ${out
            .map((p) => `${p.id} at ${p.price} (regular ${String(p.regular_price)})`)
            .join(', ')}: is the range applied to the regular price?`,
          last,
        );
      },
    },
    {
      // The cents of a price count: price_to one cent below a price with cents leaves that product out (found by the fault
      // catalog: a meta_query of type NUMERIC casts the price to SIGNED, 19.99 to 19, and lists it under price_to=19.98).
      // The cheapest such price, so the listing is short. One listing, usually one page.
      id: 'SHOP-PROD-11',
      title: 'price_to one cent below a price with cents lists no product above price_to',
      needs: ['allProducts'],
      run: async (ctx: C) => {
        const withCents = ctx.state
          .allProducts!.filter((p) => {
            const n = num(p.price);
            return n !== undefined && Math.round(n * 100) % 100 !== 0;
          })
          .sort((a, b) => num(a.price)! - num(b.price)! || a.id - b.id)[0];
        if (!withCents) ctx.skip('no listed product has a price with cents');
        const to = (Math.round(num(withCents.price)! * 100) - 1) / 100;
        const { products, last } = await allOf(ctx, { price_to: to.toFixed(2) });
        const out = products.filter((p) => {
          const n = num(p.price);
          return n !== undefined && n > to + 0.005;
        });
        ctx.expect(
          out.length === 0,
          `price_to=${to.toFixed(2)} (a cent below the price ${withCents.price} of product ${withCents.id}) lists ${out
            .map((p) => `${p.id} at ${p.price}`)
            .join(', ')}: are the cents of the price dropped before the comparison?`,
          last,
        );
      },
    },
    {
      id: 'SHOP-PROD-12',
      title: 'sort_by=modified&sort_order=desc is accepted and lists the same products',
      needs: ['allIds'],
      run: async (ctx: C) => {
        const { products, last } = await allOf(ctx, { sort_by: 'modified', sort_order: 'desc' });
        const ids = products.map((p) => p.id).sort((a, b) => a - b);
        const all = [...ctx.state.allIds!].sort((a, b) => a - b);
        ctx.expect(
          JSON.stringify(ids) === JSON.stringify(all),
          `sorted listing has ${ids.length} products, unsorted ${all.length}, or other ids`,
          last,
        );
      },
    },
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
  ],
};
