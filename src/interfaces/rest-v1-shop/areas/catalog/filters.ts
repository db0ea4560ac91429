import type { CheckSpec } from '../../../../checks/model.js';
import { num } from '../../flows.js';
import { allOf, expectSubset, isEmpty, page } from './pages.js';
import type { C, CatalogState } from './state.js';

// The listing's other filters: featured and instock flags, the price range (bounds, sale prices, cents), the sort order.

export const filterChecks: CheckSpec<CatalogState>[] = [
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
      ctx.expect(out.length === 0, `price range ${lo}..${hi} lists ${out.map((p) => `${p.id} at ${p.price}`).join(', ')}`, last);
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
];
