import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec, CheckSpec } from '../../../checks/model.js';
import { net } from '../client.js';
import { LISTS } from '../endpoints.js';
import { conforms, listOf, noServerErrorCheck, succeeded } from '../expect.js';
import { pagingChecks } from '../paging.js';
import { type Account, rootAccount } from '../provision.js';

/** The pair, level and bonus commission lists of SFC_NET_USERNAME: shape, ownership, paging. */
interface CommissionState {
  root: Account;
}

type Ctx = CheckContext<CommissionState>;

const REQUIREMENT: Record<string, string> = {
  'pair-commission': 'NET-COM-01',
  'level-commission': 'NET-COM-02',
  'bonus-commission': 'NET-COM-03',
};

const perList = LISTS.filter((l) => l.id !== 'payout-list').flatMap((list): CheckSpec<CommissionState>[] => [
  {
    id: REQUIREMENT[list.id] as string,
    title: `${list.path} answers ${list.key}, an array of its records`,
    needs: ['root'],
    async run(ctx: Ctx) {
      const call = await net(ctx).get(list.path, { token: (ctx.state.root as Account).token });
      succeeded(ctx, call, list.path);
      conforms(ctx, call, list.id);
      if (listOf(ctx, call, list.key).length === 0) ctx.note(`${list.path} is empty for SFC_NET_USERNAME (records not seen)`);
    },
  },
  {
    id: 'NET-COM-04',
    title: `${list.path} holds only the holder's own commissions`,
    needs: ['root'],
    async run(ctx: Ctx) {
      const root = ctx.state.root as Account;
      const own = root.netUser?.user_key;
      if (typeof own !== 'string') ctx.skip('the login of SFC_NET_USERNAME carried no net_user.user_key');
      const call = await net(ctx).get(list.path, { token: root.token });
      succeeded(ctx, call, list.path);
      const foreign = listOf(ctx, call, list.key).filter((r) => r.user_key !== own);
      ctx.expect(
        foreign.length === 0,
        `expected user_key ${own} only, got ${JSON.stringify(foreign.map((r) => r.user_key))}`,
        call.ex,
      );
    },
  },
  ...pagingChecks<CommissionState>(list, (ctx) => ctx.state.root?.token),
]);

export const commissionsArea: AreaSpec<CommissionState> = {
  interface: 'rest-v1-network',
  name: 'commissions',
  checks: [
    {
      id: 'NET-AUTH-01',
      title: 'login as SFC_NET_USERNAME (the account whose commissions are read)',
      async run(ctx: Ctx) {
        ctx.state.root = await rootAccount(ctx);
        conforms(ctx, ctx.state.root.call, 'auth-login');
      },
    },
    ...perList,
    noServerErrorCheck(),
  ],
};
