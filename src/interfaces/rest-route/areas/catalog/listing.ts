import type { CheckSpec } from '../../../../checks/model.js';
import { asRecord, bodyOf, call, dataOf, envelope, ROUTES, records } from '../../client.js';
import { listing, session } from './queries.js';
import type { C, CatalogState } from './state.js';

// The unfiltered product listing and how its summaries are written; the summary checks run after the category filter.

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A formatted amount: symbols (no digits) around one number grouped by `thousands` with an optional `point` fraction. */
function moneyForm(point: string, thousands: string): RegExp {
  const whole = thousands === '' ? '\\d+' : `\\d{1,3}(?:${literal(thousands)}\\d{3})*`;
  return new RegExp(`^[^\\d]*${whole}(?:${literal(point)}\\d+)?[^\\d]*$`);
}

export const listingChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'RR-LIST-01',
    title: 'GET product/listing answers with product summaries, sort options and language',
    needs: ['me'],
    run: async (ctx: C) => {
      const ex = await call(ctx, 'GET', ROUTES.listing, { session: session(ctx) });
      ctx.state.products = records(dataOf(bodyOf(ex)).products);
      envelope(ctx, ex, 'product-listing.get');
    },
  },
  {
    id: 'RR-LIST-02',
    title: 'each sort option value is <sort>-<order>, order ASC or DESC',
    needs: ['products'],
    run: async (ctx: C) => {
      const ex = await call(ctx, 'GET', ROUTES.listing, { session: session(ctx) });
      const sorts = records(dataOf(bodyOf(ex)).sorts);
      if (sorts.length === 0) ctx.skip('the listing carries no sort option');
      const bad = sorts.filter((s) => s.value !== `${s.sort}-${s.order}` || !['ASC', 'DESC'].includes(String(s.order)));
      ctx.expect(bad.length === 0, `sort options whose value is not sort-order: ${JSON.stringify(bad.slice(0, 3))}`, ex);
    },
  },
];

export const summaryChecks: CheckSpec<CatalogState>[] = [
  {
    // Found by mutation testing: prices written "$NaN", "$1true558.80" or without grouping survived the suite.
    id: 'RR-LIST-06',
    title: 'price, special and tax are formatted currency strings (language decimal_point and thousand_point)',
    needs: ['products'],
    run: async (ctx: C) => {
      const ex = await call(ctx, 'GET', ROUTES.listing, { session: session(ctx) });
      const products = records(dataOf(bodyOf(ex)).products);
      if (products.length === 0) ctx.skip('the listing returned no product');
      const lang = asRecord(bodyOf(ex)?.language) ?? {};
      const point = typeof lang.decimal_point === 'string' && lang.decimal_point !== '' ? lang.decimal_point : '.';
      const thousands = typeof lang.thousand_point === 'string' ? lang.thousand_point : ',';
      const form = moneyForm(point, thousands);
      const bad: string[] = [];
      for (const p of products)
        for (const k of ['price', 'special', 'tax']) {
          const v = p[k];
          if (k === 'special' && v === '') continue;
          if (typeof v !== 'string' || !form.test(v)) bad.push(`product ${p.product_id} ${k} ${JSON.stringify(v)}`);
        }
      ctx.expect(
        bad.length === 0,
        `${bad.length} amounts are not a number written with decimal_point ${JSON.stringify(point)} and thousand_point ${JSON.stringify(thousands)} (currency symbols around it): ${bad.slice(0, 6).join('; ')}`,
        ex,
      );
    },
  },
  {
    // The amounts were judged on the unfiltered listing only, so a search that builds its summaries
    // through another path (amounts past 1,000 written without the thousands separator) showed nowhere.
    id: 'RR-LIST-06',
    title: 'a search finding a product priced past 1,000 writes its amounts with thousand_point too',
    needs: ['products'],
    run: async (ctx: C) => {
      const grouped = (ctx.state.products ?? [])
        .map((p) => ({ p, digits: String(p.price ?? '').replace(/\D/g, '').length }))
        .sort((a, b) => b.digits - a.digits)[0];
      const word = String(grouped?.p.name ?? '')
        .match(/[A-Za-z0-9]{3,}/g)
        ?.sort((a, b) => b.length - a.length)[0];
      // An amount of 1,000 or more has a whole part of four digits at least: with cents, six digits.
      if (!grouped || grouped.digits < 6 || !word)
        ctx.skip('no listed product priced past 1,000 has a name word of 3 or more letters to search for');
      const { ex, products } = await listing(ctx, { search: word });
      const found = products.find((p) => String(p.product_id) === String(grouped.p.product_id));
      if (!found)
        ctx.skip(`search ${JSON.stringify(word)} does not list product ${grouped.p.product_id} (RR-LIST-03 judges that)`);
      const lang = asRecord(bodyOf(ex)?.language) ?? {};
      const point = typeof lang.decimal_point === 'string' && lang.decimal_point !== '' ? lang.decimal_point : '.';
      const thousands = typeof lang.thousand_point === 'string' ? lang.thousand_point : ',';
      const form = moneyForm(point, thousands);
      const bad = products.flatMap((p) =>
        ['price', 'special', 'tax']
          .filter((k) => !(k === 'special' && p[k] === '') && (typeof p[k] !== 'string' || !form.test(p[k] as string)))
          .map((k) => `product ${p.product_id} ${k} ${JSON.stringify(p[k])}`),
      );
      ctx.expect(
        bad.length === 0,
        `search ${JSON.stringify(word)} answers ${bad.length} amounts that are not a number written with decimal_point ${JSON.stringify(point)} and thousand_point ${JSON.stringify(thousands)} (the unfiltered listing writes product ${grouped.p.product_id}'s price ${JSON.stringify(grouped.p.price)}): ${bad.slice(0, 6).join('; ')}`,
        ex,
      );
    },
  },
  {
    // Found by mutation testing: summaries carrying the HTML of the stored description survived the suite.
    id: 'RR-LIST-07',
    title: 'the description of a product summary carries no markup',
    needs: ['products'],
    run: async (ctx: C) => {
      const products = ctx.state.products ?? [];
      if (products.length === 0) ctx.skip('the listing returned no product');
      const tagged = products.filter((p) => typeof p.description === 'string' && /<\/?[A-Za-z][^<>]*>/.test(p.description));
      ctx.expect(
        tagged.length === 0,
        `product summaries whose description carries markup: ${tagged
          .slice(0, 4)
          .map((p) => `${p.product_id} ${JSON.stringify(String(p.description).slice(0, 60))}`)
          .join('; ')}`,
      );
    },
  },
];
