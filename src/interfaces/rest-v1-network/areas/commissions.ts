import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec, CheckSpec } from '../../../checks/model.js';
import { isObject, net } from '../client.js';
import { LISTS } from '../endpoints.js';
import { conforms, described, listOf, noServerErrorCheck, succeeded } from '../expect.js';
import { pagingChecks } from '../paging.js';
import { type Account, rootAccount } from '../provision.js';
import { nodes, toNode } from '../tree.js';

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
      const records = listOf(ctx, call, list.key);
      if (records.length === 0) ctx.skip(`${list.path} is empty for SFC_NET_USERNAME: no commission to judge the owner of`);
      const foreign = records.filter((r) => r.user_key !== own);
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
    {
      id: 'NET-COM-05',
      title:
        "each pair commission's childs names two distinct user keys: members of the holder's tree, or keys of the holder's key form where they lie below the tree shown",
      needs: ['root'],
      async run(ctx: Ctx) {
        const root = ctx.state.root as Account;
        const call = await net(ctx).get('/pair_commission', { token: root.token, query: { start: 0, limit: 10 } });
        succeeded(ctx, call, '/pair_commission');
        const records = listOf(ctx, call, 'pair_commission');
        if (records.length === 0) ctx.skip('SFC_NET_USERNAME has no pair commission to look at');
        const tree = await net(ctx).get('/user_geneology', { token: root.token });
        const top = toNode(tree.body.geneology_data);
        if (!top) ctx.skip(`the geneology tree of SFC_NET_USERNAME could not be read (${described(tree)})`);
        // "a serialized list of two child keys, as a string": whatever the serialization, the two
        // keys are in the text; the children of a pair are members below the holder.
        const keys = nodes(top)
          .map((n) => n.userKey)
          .filter((k): k is string => typeof k === 'string' && k.length > 0 && k !== root.netUser?.user_key);
        // The document does not say how deep /user_geneology goes: children of a pair may lie below
        // the levels a target shows. Those are recognised by the form of the holder's own user_key
        // (same length, letters and digits), the only key form the target's data gives.
        const own = typeof root.netUser?.user_key === 'string' ? root.netUser.user_key : '';
        const keyForm = (t: string) => /^[A-Za-z0-9]+$/.test(own) && t.length === own.length && t !== own;
        let deep = false;
        for (const r of records.filter(isObject)) {
          const childs = typeof r.childs === 'string' ? r.childs : '';
          const named = new Set(keys.filter((k) => childs.includes(k)));
          if (named.size < 2) {
            const shaped = new Set((childs.match(/[A-Za-z0-9]+/g) ?? []).filter(keyForm));
            if (shaped.size >= 2) {
              deep = true;
              continue;
            }
          }
          ctx.expect(
            named.size >= 2,
            `pair commission ${JSON.stringify(r.id)}: childs ${JSON.stringify(r.childs)} names ${named.size} user key(s) of the holder's tree and no two keys of the form of ${JSON.stringify(own)}, expected two`,
            call.ex,
            tree.ex,
          );
        }
        if (deep) ctx.note("some childs name keys below the tree /user_geneology shows: judged by the holder's key form only");
      },
    },
    noServerErrorCheck(),
  ],
};
