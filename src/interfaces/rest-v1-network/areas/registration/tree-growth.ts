// The tree as it grows after A's first read: registers sent at once at C's sides, A's tree read again, a deep chain.
import type { CheckSpec } from '../../../../checks/model.js';
import { net } from '../../client.js';
import { conforms, described, envelope, succeeded } from '../../expect.js';
import { type Account, anchorAccount, register, registerForm } from '../../provision.js';
import { reserve } from '../../reservations.js';
import { childAt, toNode } from '../../tree.js';
import { keyOf } from './helpers.js';
import { A, type Ctx, type TreeState } from './state.js';

/** Links of the deep chain (NET-GEN-01): the reference cuts its tree at 10 levels, so 10 reach the cut. */
const CHAIN = 10;

export const treeGrowthChecks: CheckSpec<TreeState>[] = [
  {
    id: 'NET-REG-02',
    title: "one new register body sent twice at the same time (a double submit) at C's free left: at most one is accepted",
    needs: ['c'],
    async run(ctx: Ctx) {
      // The username and e-mail are unique: whichever of the two is handled second registers a username
      // that exists by then. A target that checks and then inserts without a unique key lets both through.
      const c = ctx.state.c as Account;
      // Sponsored by SFC_NET_USERNAME, above A: neither parent nor sponsor is A, whose tree the NET-GEN-03 at the
      // end reads again.
      const sponsor = (ctx.state.root as Account).username;
      const form = registerForm(ctx, { sponsor, parent: c.username, position: 'left' });
      const both = await Promise.all([register(ctx, form), register(ctx, form)]);
      for (const [i, r] of both.entries()) envelope(ctx, r.call, `register ${form.username} (copy ${i + 1} of 2, sent at once)`);
      const accepted = both.filter((r) => r.call.body.status === true);
      const kids = ctx.state.cChildren ?? { left: [], right: [] };
      ctx.state.cChildren = { ...kids, left: accepted.flatMap((r) => [String(form.username), keyOf(r.account)]) };
      if (accepted.length === 0)
        ctx.skip(`neither copy was accepted at C's free left: ${both.map((r) => described(r.call)).join('; ')}`);
      ctx.expect(
        accepted.length === 1,
        `two registers of ${form.username} (${form.email}) sent at once both answered status true: the username and e-mail are unique, so the one handled second must be refused`,
        ...both.map((r) => r.call.ex),
      );
    },
  },
  {
    id: 'NET-REG-07',
    title: "two registers of two new accounts sent at the same time at C's free right: at most one is accepted",
    needs: ['c'],
    async run(ctx: Ctx) {
      // The side holds one child: whichever register is handled second asks for a side taken by then. A
      // target that reads "is it free" and then inserts, with no unique key on parent and side, places both.
      const c = ctx.state.c as Account;
      // Sponsored by SFC_NET_USERNAME, as the register at C's left above.
      const sponsor = (ctx.state.root as Account).username;
      const forms = [0, 1].map(() => registerForm(ctx, { sponsor, parent: c.username, position: 'right' }));
      const both = await Promise.all(forms.map((form) => register(ctx, form)));
      for (const [i, r] of both.entries())
        envelope(ctx, r.call, `register ${forms[i]?.username} at C's right (one of two sent at once)`);
      const accepted = both.filter((r) => r.call.body.status === true);
      const kids = ctx.state.cChildren ?? { left: [], right: [] };
      ctx.state.cChildren = {
        ...kids,
        right: both.flatMap((r, i) => (r.account ? [String(forms[i]?.username), keyOf(r.account)] : [])),
      };
      if (accepted.length === 0)
        ctx.skip(`neither register was accepted at C's free right: ${both.map((r) => described(r.call)).join('; ')}`);
      ctx.expect(
        accepted.length === 1,
        `two registers of different accounts (${forms.map((f) => f.username).join(', ')}) sent at once at C's right (${c.username}) both answered status true: the side holds one child, so the one handled second must be refused`,
        ...both.map((r) => r.call.ex),
      );
    },
  },
  {
    id: 'NET-GEN-03',
    title:
      "A's tree, read again after the registers at C's left and right (parent C, sponsor SFC_NET_USERNAME), shows them below C",
    needs: ['tree', 'c', 'cChildren'],
    async run(ctx: Ctx) {
      // A read its tree (NET-GEN-01) before them, and is neither their parent nor their sponsor: a target that
      // caches a member's tree and clears only the parent's and the sponsor's serves A the tree it read.
      const c = ctx.state.c as Account;
      const kids = ctx.state.cChildren as { left: string[]; right: string[] };
      if (kids.left.length + kids.right.length === 0)
        ctx.skip("no register at C's left or right was accepted (NET-REG-02, NET-REG-07)");
      const call = await net(ctx).get('/user_geneology', { token: A(ctx).token });
      succeeded(ctx, call, 'user_geneology of A, again');
      const root = toNode(call.body.geneology_data);
      const cNode = root ? childAt(root, 'right') : undefined;
      for (const side of ['left', 'right'] as const) {
        const names = kids[side].filter((n) => n !== '').map((n) => n.toLowerCase());
        if (names.length === 0) continue;
        const node = cNode ? childAt(cNode, side) : undefined;
        // Named as NET-GEN-03 above names a member: its username or its user_key.
        ctx.expect(
          node !== undefined && (names.includes(node.name.toLowerCase()) || names.includes(node.userKey.toLowerCase())),
          `A's tree read again: expected ${names.join(' or ')} at ${side} of C (${c.username}), registered there after A's first read, found ${cNode ? JSON.stringify(node?.name ?? null) : `no C at A's right (${JSON.stringify(root?.children.map((n) => n.name))})`}`,
          call.ex,
        );
      }
    },
  },
  {
    id: 'NET-GEN-01',
    title: `a chain of ${CHAIN} registrations, each at the left of the one before, below a new account: every node its tree shows, to the deepest, is a geneology node`,
    async run(ctx: Ctx) {
      // The documents give no depth, so a target may cut a deep tree (the reference shows 10 levels); but
      // the read still succeeds, and each node it shows is "a geneology node" (Part 2), down to its
      // children. A target whose tree code breaks only that deep (a placeholder child where it cuts, or
      // a recursion that never ends there) is seen only with a tree this deep.
      const top = await anchorAccount(ctx);
      let last = top;
      for (let i = 1; i <= CHAIN; i++) {
        const form = registerForm(ctx, { sponsor: top.username, parent: last.username, position: 'left' });
        // The next one's position, before this one exists: no other area's registerInTree takes it first.
        reserve(ctx, String(form.username), 'left');
        const { call, account } = await register(ctx, form);
        if (!account) ctx.skip(`could not register link ${i} of the chain, at the left of ${last.username}: ${described(call)}`);
        last = account;
      }
      const call = await net(ctx).get('/user_geneology', { token: top.token });
      succeeded(ctx, call, `user_geneology of ${top.username}, ${CHAIN} levels above the last of its chain`);
      conforms(ctx, call, 'user-geneology');
    },
  },
];
