// A's geneology tree read once the accounts are placed: its root, its children, their links and userData.
import type { CheckSpec } from '../../../../checks/model.js';
import { isObject, type Json, net } from '../../client.js';
import { conforms, succeeded } from '../../expect.js';
import type { Account } from '../../provision.js';
import { childAt, nodes, type TreeNode, toNode } from '../../tree.js';
import { keyOf } from './helpers.js';
import { A, type Ctx, type TreeState } from './state.js';

function geneology(ctx: Ctx): { root: Json; child: (side: string) => Json | undefined } {
  const root = ctx.state.tree as Json;
  const kids = Array.isArray(root.children) ? root.children.filter(isObject) : [];
  const child = (side: string) => kids.find((k) => isObject(k.userData) && k.userData.position === side);
  return { root, child };
}

export const geneologyChecks: CheckSpec<TreeState>[] = [
  {
    id: 'NET-GEN-01',
    title: "A's user_geneology answers geneology_data, a geneology node",
    needs: ['a', 'b'],
    async run(ctx: Ctx) {
      const call = await net(ctx).get('/user_geneology', { token: A(ctx).token });
      succeeded(ctx, call, 'user_geneology');
      conforms(ctx, call, 'user-geneology');
      ctx.state.tree = call.body.geneology_data as Json;
    },
  },
  {
    id: 'NET-GEN-02',
    title: 'the root of the tree is the token holder (isLoggedUser true, userKey its user_key)',
    needs: ['tree'],
    async run(ctx: Ctx) {
      const { root } = geneology(ctx);
      ctx.expect(root.isLoggedUser === true, `expected isLoggedUser true at the root, got ${JSON.stringify(root.isLoggedUser)}`);
      ctx.expect(root.userKey === keyOf(A(ctx)), `expected root userKey ${keyOf(A(ctx))}, got ${JSON.stringify(root.userKey)}`);
    },
  },
  {
    id: 'NET-GEN-03',
    title: "A's tree shows B at left and C at right",
    needs: ['tree', 'b', 'c'],
    async run(ctx: Ctx) {
      const { child } = geneology(ctx);
      for (const [side, acc] of [
        ['left', ctx.state.b],
        ['right', ctx.state.c],
      ] as const) {
        const node = child(side);
        ctx.expect(node, `expected a child at ${side} of A (${acc?.username}), found none`);
        ctx.expect(
          node.userKey === keyOf(acc) || node.name === acc?.username,
          `expected ${acc?.username} (${keyOf(acc)}) at ${side}, found ${JSON.stringify({ name: node.name, userKey: node.userKey })}`,
        );
      }
    },
  },
  {
    id: 'NET-GEN-06',
    title:
      "in A's tree, B and C are not the logged user, their userData names A as parent, and as sponsor B's (A) and C's (SFC_NET_USERNAME), C registered after B",
    needs: ['tree', 'b', 'c'],
    async run(ctx: Ctx) {
      const { child } = geneology(ctx);
      // B was registered with A as sponsor and parent, C after it with A as parent and SFC_NET_USERNAME as
      // sponsor: C's registration leaves B's sponsor as it was. How userData names a member is not shown,
      // so a username, user_key or user ID all name it.
      const names = (acc: Account) =>
        [acc.username.toLowerCase(), keyOf(acc).toLowerCase(), String(acc.user.ID ?? '')].filter((v) => v !== '');
      const a = A(ctx);
      const root = ctx.state.root as Account;
      for (const [side, acc, sponsor, label] of [
        ['left', ctx.state.b, a, 'A'],
        ['right', ctx.state.c, root, 'SFC_NET_USERNAME'],
      ] as const) {
        const node = child(side);
        if (!node) ctx.fail(`expected a child at ${side} of A (${acc?.username}), found none`);
        ctx.expect(
          node.isLoggedUser === false,
          `${acc?.username} at ${side}: expected isLoggedUser false (A is the caller), got ${JSON.stringify(node.isLoggedUser)}`,
        );
        const data = isObject(node.userData) ? node.userData : {};
        for (const [field, who, whoLabel] of [
          ['sponsor', sponsor, label],
          ['parent', a, 'A'],
        ] as const)
          ctx.expect(
            names(who).includes(String(data[field] ?? '').toLowerCase()),
            `${acc?.username} at ${side}: expected userData.${field} to name ${whoLabel} (${names(who).join(' or ')}), got ${JSON.stringify(data[field])}`,
          );
      }
    },
  },
  {
    id: 'NET-GEN-06',
    title: "in A's tree, D (under B, sponsored by A) is not the logged user, and its userData names A as sponsor and B as parent",
    needs: ['tree', 'b', 'd'],
    async run(ctx: Ctx) {
      const b = ctx.state.b as Account;
      const d = ctx.state.d as Account;
      const root = toNode(ctx.state.tree) as TreeNode;
      const bNode = childAt(root, 'left');
      const node = bNode ? childAt(bNode, 'right') : undefined;
      if (!node || !(node.userKey === keyOf(d) || node.name === d.username))
        ctx.fail(`expected D (${d.username}) at the right of B (${b.username}) in A's tree, found ${JSON.stringify(node?.name)}`);
      ctx.expect(node.raw.isLoggedUser === false, `D: expected isLoggedUser false, got ${JSON.stringify(node.raw.isLoggedUser)}`);
      // As above: a username, user_key or user ID names a member.
      const names = (acc: Account) =>
        [acc.username.toLowerCase(), keyOf(acc).toLowerCase(), String(acc.user.ID ?? '')].filter((v) => v !== '');
      const data = isObject(node.raw.userData) ? node.raw.userData : {};
      for (const [field, acc, label] of [
        ['sponsor', A(ctx), 'A'],
        ['parent', b, 'B'],
      ] as const)
        ctx.expect(
          names(acc).includes(String(data[field] ?? '').toLowerCase()),
          `D: expected userData.${field} to name ${label} (${names(acc).join(' or ')}), got ${JSON.stringify(data[field])}`,
        );
    },
  },
  {
    id: 'NET-GEN-04',
    title: "in A's tree, each side's link is false where a child sits and a registration URL where none does",
    needs: ['tree', 'b', 'c'],
    async run(ctx: Ctx) {
      // Every node of one snapshot, not just B: other areas may place accounts below B meanwhile.
      const all = nodes(toNode(ctx.state.tree) as TreeNode);
      for (const n of all)
        for (const side of ['left', 'right'] as const) {
          const link = side === 'left' ? n.leftLink : n.rightLink;
          const taken = childAt(n, side) !== undefined;
          ctx.expect(
            taken ? link === false : typeof link === 'string' && link.length > 0,
            `${n.name || n.userKey}: ${side} side ${taken ? 'taken' : 'free'}, expected ${side}_link ${taken ? 'false' : 'a registration URL'}, got ${JSON.stringify(link)}`,
          );
        }
      const root = all[0] as TreeNode;
      ctx.expect(
        root.leftLink === false && root.rightLink === false,
        `A: both sides are taken (B, C), got ${JSON.stringify([root.leftLink, root.rightLink])}`,
      );
    },
  },
  {
    id: 'NET-GEN-05',
    title: "every leaf of A's tree (B had no children when registered) carries children as the empty string",
    needs: ['tree', 'b'],
    async run(ctx: Ctx) {
      const leaves = nodes(toNode(ctx.state.tree) as TreeNode).filter((n) => n.children.length === 0);
      ctx.expect(leaves.length > 0, "expected at least one leaf in A's tree (B or C)");
      for (const n of leaves)
        ctx.expect(
          n.rawChildren === '',
          `${n.name || n.userKey}, a leaf: expected children "", got ${JSON.stringify(n.rawChildren)}`,
        );
    },
  },
];
