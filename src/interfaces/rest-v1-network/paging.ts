import type { CheckContext } from '../../checks/context.js';
import type { CheckSpec } from '../../checks/model.js';
import { type Json, net } from './client.js';
import { conforms, listOf, succeeded } from './expect.js';

/**
 * Paging checks of one list endpoint (Part 1, Pagination: `start` offset, `limit` count), for the
 * SFC_NET_USERNAME account whose lists hold at least 3 items. `token` reads the area's state.
 */
export function pagingChecks<S>(
  list: { id: string; path: string; key: string },
  token: (ctx: CheckContext<S>) => string | undefined,
): CheckSpec<S>[] {
  const page = async (ctx: CheckContext<S>, query?: { start?: number; limit?: number }) => {
    const t = token(ctx);
    if (!t) ctx.skip('no token of SFC_NET_USERNAME (its login failed or is not configured)');
    const call = await net(ctx).get(list.path, { token: t, ...(query ? { query } : {}) });
    succeeded(ctx, call, `${list.path}${query ? `?start=${query.start ?? ''}&limit=${query.limit ?? ''}` : ''}`);
    conforms(ctx, call, list.id);
    return { call, items: listOf(ctx, call, list.key) };
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
      title: `${list.path}?limit=1 gives at most one item`,
      async run(ctx: CheckContext<S>) {
        const { call, items } = await page(ctx, { start: 0, limit: 1 });
        ctx.expect(items.length <= 1, `${list.path}?limit=1: expected at most 1 item, got ${items.length}`, call.ex);
      },
    },
    {
      id: 'NET-PAGE-03',
      title: `${list.path}?start=1&limit=1 gives the second item of start=0&limit=2`,
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
      },
    },
  ];
}
