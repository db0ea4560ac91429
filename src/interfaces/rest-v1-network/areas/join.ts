import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type Call, isObject, net } from '../client.js';
import {
  conforms,
  described,
  listOf,
  noServerError,
  noServerErrorCheck,
  placementRefusalKeyed,
  refused,
  refusedWithFieldError,
  succeeded,
} from '../expect.js';
import { type Account, anchorAccount, register, registerForm, rootAccount } from '../provision.js';
import { childAt, type TreeNode, toNode } from '../tree.js';

/**
 * Join_net: an account registered without a place in the binary tree (AMB-NET-03: the register
 * row marks only net_user[address] as required) joins under a sponsor and a parent. The anchor is
 * a fresh account in the tree whose two sides are free.
 */
interface JoinState {
  anchor: Account;
  /** A registered account not yet placed, or undefined when the target places everyone at register. */
  unplaced: Account;
  /** The accepted Join_net of `unplaced` at the anchor's right (the anchor's left still free). */
  joined: Call;
  /** NET-JOIN-04's refusal at a taken position, read by NET-REG-14. */
  taken: Call;
  /** The unplaced account NET-JOIN-04 saw refused: still not placed, so it may join at a free position. */
  refusedJoiner: Account;
}

type Ctx = CheckContext<JoinState>;

const anchor = (ctx: Ctx) => ctx.state.anchor as Account;

/** Registers without sponsor, parent and position; records which reading of the register row the target follows. */
async function unplacedAccount(ctx: Ctx): Promise<Account | undefined> {
  const form = registerForm(ctx, {});
  const { call, account } = await register(ctx, form);
  if (!account) {
    ctx.choose('AMB-NET-03', 'placement-required');
    ctx.note(`register without sponsor, parent and position is refused (${described(call)})`);
    return undefined;
  }
  ctx.choose('AMB-NET-03', 'placement-optional');
  const placed = isObject(call.body.net_user) && ['left', 'right'].includes(String(call.body.net_user.position));
  if (placed) {
    ctx.note('the target placed an account registered without sponsor, parent and position');
    return undefined;
  }
  return account;
}

const join = (ctx: Ctx, token: string, form: Record<string, string>) => net(ctx).post('/Join_net', { token, form });

export const joinArea: AreaSpec<JoinState> = {
  interface: 'rest-v1-network',
  name: 'join',
  checks: [
    {
      id: 'NET-JOIN-02',
      title: 'Join_net without each of sponsor_name, parent_name, position: refused with errors keyed by it',
      async run(ctx: Ctx) {
        ctx.state.anchor = await anchorAccount(ctx);
        const full = { sponsor_name: anchor(ctx).username, parent_name: anchor(ctx).username, position: 'left' };
        for (const field of ['sponsor_name', 'parent_name', 'position'] as const) {
          const form: Record<string, string> = { ...full };
          delete form[field];
          refusedWithFieldError(ctx, await join(ctx, anchor(ctx).token, form), field, `Join_net without ${field}`);
        }
      },
    },
    {
      id: 'NET-JOIN-03',
      title: 'Join_net with position "middle": refused',
      needs: ['anchor'],
      async run(ctx: Ctx) {
        const form = { sponsor_name: anchor(ctx).username, parent_name: anchor(ctx).username, position: 'middle' };
        refused(ctx, await join(ctx, anchor(ctx).token, form), 'Join_net with position "middle"');
      },
    },
    {
      id: 'NET-ENV-05',
      title: 'an account not yet placed in the tree: user_geneology, payout_list, bank_details and withdrawal get no HTTP 5xx',
      needs: ['anchor'],
      async run(ctx: Ctx) {
        const u = await unplacedAccount(ctx);
        if (!u) ctx.skip('no account without a place in the tree can be made through this target (see the AMB-NET-03 choice)');
        ctx.state.unplaced = u;
        // What such an account gets is not shown (NS-NET-09); only that its requests do not crash the service.
        for (const path of ['/user_geneology', '/payout_list', '/bank_details', '/withdrawal'])
          noServerError(ctx, await net(ctx).get(path, { token: u.token }), `GET ${path} of an account not yet placed`);
      },
    },
    {
      id: 'NET-COM-04',
      title: "an account not yet placed in the tree: /pair_commission lists none of SFC_NET_USERNAME's commissions",
      needs: ['unplaced'],
      async run(ctx: Ctx) {
        // Its own commissions only (none yet, or whatever the target pays a newcomer): a list whose filter
        // on the holder is dropped when the holder has no binary record answers every member's records.
        const root = await rootAccount(ctx);
        const theirs = root.netUser?.user_key;
        if (typeof theirs !== 'string' || theirs === '') ctx.skip('the login of SFC_NET_USERNAME carried no net_user.user_key');
        const u = ctx.state.unplaced as Account;
        const call = await net(ctx).get('/pair_commission', { token: u.token });
        // What the lists answer such an account is not shown (NS-NET-09): a refusal lists no one's records.
        if (call.body.status !== true)
          ctx.skip(`pair_commission of an account not yet placed is refused (${described(call)}): nothing listed to judge`);
        const foreign = listOf(ctx, call, 'pair_commission').filter((r) => r.user_key === theirs);
        ctx.expect(
          foreign.length === 0,
          `pair_commission of ${u.username} (registered without a place): expected none of SFC_NET_USERNAME's (user_key ${theirs}), got ${foreign.length}: ${JSON.stringify(foreign.map((r) => r.id))}`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-JOIN-01',
      title:
        "an account registered without a place joins at the anchor's right (its left free), sponsored by the anchor's sponsor: status true",
      needs: ['anchor'],
      async run(ctx: Ctx) {
        const u = ctx.state.unplaced ?? (await unplacedAccount(ctx));
        if (!u) ctx.skip('no account without a place in the tree can be made through this target (see the AMB-NET-03 choice)');
        ctx.state.unplaced = u;
        // Right while left is free: a target that places at the first free side shows it (NET-JOIN-05).
        // The sponsor is the anchor's own sponsor (SFC_NET_USERNAME, above the anchor), not the parent: a
        // target that reads the two names the wrong way round places the account under the sponsor.
        const sponsor = ctx.data('SFC_NET_USERNAME') || anchor(ctx).username;
        const form = { sponsor_name: sponsor, parent_name: anchor(ctx).username, position: 'right' };
        const call = await join(ctx, u.token, form);
        succeeded(ctx, call, `Join_net under ${anchor(ctx).username} (right), sponsored by ${sponsor}`);
        conforms(ctx, call, 'join-net');
        ctx.state.joined = call;
      },
    },
    {
      id: 'NET-JOIN-05',
      title: "the account joined at the anchor's right sits there in the anchor's tree, and not at its left",
      needs: ['anchor', 'unplaced', 'joined'],
      async run(ctx: Ctx) {
        const u = ctx.state.unplaced as Account;
        const joined = ctx.state.joined as Call;
        if (joined.body.status !== true) ctx.skip('Join_net was not accepted (NET-JOIN-01)');
        const tree = await net(ctx).get('/user_geneology', { token: anchor(ctx).token });
        succeeded(ctx, tree, `user_geneology of ${anchor(ctx).username}`);
        const root = toNode(tree.body.geneology_data);
        if (!root) ctx.fail(`user_geneology: expected geneology_data, got ${described(tree)}`, tree.ex);
        // Named as NET-GEN-03 names a member: its username, or the user_key a join answer may carry.
        const key = isObject(joined.body.net_user) ? joined.body.net_user.user_key : undefined;
        const isU = (n: TreeNode | undefined) => n !== undefined && (n.name === u.username || n.userKey === key);
        const right = childAt(root, 'right');
        ctx.expect(
          isU(right) && !isU(childAt(root, 'left')),
          `Join_net of ${u.username} under ${anchor(ctx).username} at right: the tree shows ${JSON.stringify(
            root.children.map((c) => ({ name: c.name, position: c.position })),
          )}`,
          joined.ex,
          tree.ex,
        );
      },
    },
    {
      id: 'NET-JOIN-04',
      title: "a second unplaced account joining at the anchor's right, now taken: refused",
      needs: ['anchor', 'joined'],
      async run(ctx: Ctx) {
        const v = await unplacedAccount(ctx);
        if (!v) ctx.skip('no second account without a place in the tree could be made');
        const form = { sponsor_name: anchor(ctx).username, parent_name: anchor(ctx).username, position: 'right' };
        const call = await join(ctx, v.token, form);
        ctx.state.taken = call;
        if (call.body.status === false) ctx.state.refusedJoiner = v;
        refused(ctx, call, 'Join_net at a taken position');
      },
    },
    {
      id: 'NET-JOIN-01',
      title: "the account refused at the anchor's taken right (NET-JOIN-04) joins at its free left: status true",
      needs: ['anchor', 'refusedJoiner'],
      async run(ctx: Ctx) {
        // The refusal placed no one, so the account is still "a registered user not yet placed": a
        // target that stored part of the refused join would now answer it is already a member.
        const v = ctx.state.refusedJoiner as Account;
        const form = { sponsor_name: anchor(ctx).username, parent_name: anchor(ctx).username, position: 'left' };
        const call = await join(ctx, v.token, form);
        succeeded(
          ctx,
          call,
          `Join_net of ${v.username} under ${anchor(ctx).username} (left, free), after its refused join at right`,
        );
      },
    },
    {
      id: 'NET-REG-14',
      title: 'the refused Join_net at a taken position keys errors by a placement field',
      needs: ['taken'],
      async run(ctx: Ctx) {
        const call = ctx.state.taken as Call;
        if (call.body.status !== false) ctx.skip('Join_net at a taken position was not refused (NET-JOIN-04)');
        placementRefusalKeyed(ctx, call, 'Join_net at a taken position');
      },
    },
    noServerErrorCheck(),
  ],
};
