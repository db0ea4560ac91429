import fc from 'fast-check';
import type { CheckContext } from '../../checks/context.js';
import type { CheckSpec } from '../../checks/model.js';
import type { Exchange } from '../../http/exchange.js';
import { isObject, type Json, net } from './client.js';
import { conforms, listOf, succeeded } from './expect.js';

/**
 * Paging checks of one list endpoint (Part 1, Pagination: `start` offset, `limit` count), for the
 * SFC_NET_USERNAME account whose lists hold at least 3 items. `token` reads the area's state.
 */
export function pagingChecks<S>(
  list: { id: string; path: string; key: string },
  token: (ctx: CheckContext<S>) => string | undefined,
): CheckSpec<S>[] {
  /** The path with the query as sent, for messages. */
  const shown = (query?: { start?: number; limit?: number }) => {
    const sent = Object.entries(query ?? {}).map(([k, v]) => `${k}=${v}`);
    return `${list.path}${sent.length > 0 ? `?${sent.join('&')}` : ''}`;
  };
  const page = async (ctx: CheckContext<S>, query?: { start?: number; limit?: number }) => {
    const t = token(ctx);
    if (!t) ctx.skip('no token of SFC_NET_USERNAME (its login failed or is not configured)');
    const call = await net(ctx).get(list.path, { token: t, ...(query ? { query } : {}) });
    succeeded(ctx, call, shown(query));
    conforms(ctx, call, list.id);
    return { call, items: listOf(ctx, call, list.key) };
  };
  // On a list of 0 or 1 items every page is trivially a slice of at most one item: nothing is judged.
  const enough = async (ctx: CheckContext<S>) => {
    const { items } = await page(ctx);
    if (items.length < 2)
      ctx.skip(`${list.path} holds ${items.length} item(s) for SFC_NET_USERNAME unpaged; paging cannot be seen on fewer than 2`);
  };
  const ident = (r: Json | undefined) => JSON.stringify(r ? [r.id, r.payout_id, r.insert_date, r.amount] : null);
  return [
    {
      id: 'NET-PAGE-01',
      title: `${list.path} without start and limit answers its list`,
      async run(ctx: CheckContext<S>) {
        await page(ctx);
      },
    },
    {
      id: 'NET-PAGE-02',
      title: `${list.path}?limit=1, with start=0, alone and with start=2, gives at most one item`,
      async run(ctx: CheckContext<S>) {
        // Each parameter is optional on its own: limit without start is a page too. start=2 too: a query built
        // as LIMIT limit, start (MySQL takes the offset first) answers no rows for start=0 and two for start=2.
        for (const query of [{ start: 0, limit: 1 }, { limit: 1 }, { start: 2, limit: 1 }]) {
          const { call, items } = await page(ctx, query);
          ctx.expect(items.length <= 1, `${shown(query)}: expected at most 1 item, got ${items.length}`, call.ex);
        }
        // After the pages, so that a list that reads empty unpaged does not hide a page that gave too many.
        await enough(ctx);
      },
    },
    {
      id: 'NET-PAGE-03',
      title: `${list.path}?start=1&limit=1 gives the second item of start=0&limit=2, start=1 alone begins with it, and a page past those items repeats none of them`,
      async run(ctx: CheckContext<S>) {
        const two = await page(ctx, { start: 0, limit: 2 });
        if (two.items.length < 2) ctx.skip(`${list.path} holds fewer than 2 items for SFC_NET_USERNAME; cannot see an offset`);
        const second = await page(ctx, { start: 1, limit: 1 });
        ctx.expect(
          second.items.length === 1 && ident(second.items[0]) === ident(two.items[1]),
          `expected start=1&limit=1 to give ${ident(two.items[1])}, got ${second.items.map(ident).join(', ') || 'nothing'}`,
          two.call.ex,
          second.call.ex,
        );
        // start without limit: the page size is not shown (NS-NET-07), where the page begins is.
        const rest = await page(ctx, { start: 1 });
        ctx.expect(
          rest.items.length > 0 && ident(rest.items[0]) === ident(two.items[1]),
          `expected start=1 (no limit) to begin with ${ident(two.items[1])}, got ${rest.items.map(ident).join(', ') || 'nothing'}`,
          two.call.ex,
          rest.call.ex,
        );
        // start is an offset: the page at 1 + (items from 1) begins after every item seen, so none of
        // them comes again (past the end: an empty list, or a refusal, which is not judged).
        const after = 1 + rest.items.length;
        const past = await net(ctx).get(list.path, { token: token(ctx), query: { start: after, limit: 2 } });
        const seen = new Set([...two.items, ...rest.items].map(ident));
        const again = (Array.isArray(past.body[list.key]) ? (past.body[list.key] as unknown[]).filter(isObject) : [])
          .map(ident)
          .filter((i) => seen.has(i));
        ctx.expect(
          past.body.status !== true || again.length === 0,
          `${shown({ start: after, limit: 2 })} (past the ${after} items start=0 and start=1 gave): expected none of them again, got ${again.join(', ')}`,
          rest.call.ex,
          past.ex,
        );
      },
    },
    {
      id: 'NET-PAGE-03',
      title: `${list.path}: any page start/limit is the matching slice of the list (property, seeded)`,
      async run(ctx: CheckContext<S>) {
        const t = token(ctx);
        if (!t) ctx.skip('no token of SFC_NET_USERNAME (its login failed or is not configured)');
        await enough(ctx);
        let why = '';
        let evidence: Exchange[] = [];
        const items = (body: Json) =>
          Array.isArray(body[list.key]) ? (body[list.key] as unknown[]).filter(isObject) : undefined;
        // Small pages only: the maximum limit is not shown (NS-NET-07), so start + limit stays at 8 or less.
        const property = fc.asyncProperty(
          fc.integer({ min: 0, max: 4 }),
          fc.integer({ min: 1, max: 4 }),
          async (start, limit) => {
            const whole = await net(ctx).get(list.path, { token: t, query: { start: 0, limit: start + limit } });
            const part = await net(ctx).get(list.path, { token: t, query: { start, limit } });
            const all = items(whole.body);
            const got = items(part.body);
            const want = all?.slice(start, start + limit).map(ident);
            if (!all || !got || JSON.stringify(want) !== JSON.stringify(got.map(ident))) {
              why = `start=${start}&limit=${limit}: expected ${JSON.stringify(want)} (the slice of start=0&limit=${start + limit}), got ${JSON.stringify(got?.map(ident))}`;
              evidence = [whole.ex, part.ex];
              return false;
            }
            return true;
          },
        );
        const runs = Math.max(1, Math.min(ctx.settings.runs, 25));
        const result = await fc.check(property, { seed: ctx.settings.seed, numRuns: runs, endOnFailure: true });
        if (result.failed)
          ctx.fail(`${why} (replay: --seed ${ctx.settings.seed}, counterexample path ${result.counterexamplePath})`, ...evidence);
      },
    },
  ];
}
