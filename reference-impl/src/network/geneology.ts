import { withCaller } from './earnings.js';
import { findNetUser, generalSetting, type NetUserRow, netUserJson } from './records.js';
import { fail, type Json, money, ok, originOf, paging, queryOf } from './util.js';

/** Deep trees are cut here: a client draws a few levels, and the response stays bounded. */
const MAX_DEPTH = 10;

/**
 * GET /user_geneology: the caller's binary subtree. A node's left_link/right_link is false when the
 * side is taken, otherwise the registration URL for that free side; a leaf's children is "".
 */
export const userGeneology = withCaller((request, caller, _key, ctx) => {
  const db = ctx.db;
  const members = db.prepare('SELECT * FROM net_net_users').all() as NetUserRow[];
  const me = members.find((m) => m.user_id === caller.userId);
  if (!me) return fail('You are not a member of the binary network yet.');

  const byKey = new Map(members.map((m) => [m.user_key, m]));
  const childrenOf = new Map<string, NetUserRow[]>();
  for (const m of members) {
    if (!m.parent_key) continue;
    const list = childrenOf.get(m.parent_key) ?? [];
    list.push(m);
    childrenOf.set(m.parent_key, list);
  }
  const earned = new Map(
    (
      db.prepare('SELECT user_key, SUM(total_amount) AS c FROM net_payouts GROUP BY user_key').all() as Array<{
        user_key: string;
        c: number;
      }>
    ).map((r) => [r.user_key, r.c]),
  );
  const withdrawn = new Map(
    (
      db.prepare('SELECT user_id, SUM(amount) AS c FROM net_withdrawals GROUP BY user_id').all() as Array<{
        user_id: number;
        c: number;
      }>
    ).map((r) => [r.user_id, r.c]),
  );
  const origin = originOf(request);
  const registerUrl = String(generalSetting(db, origin).net_register_url ?? `${origin}/network/register`);
  const downlineCount = new Map<string, number>();
  const countDown = (n: NetUserRow): number => {
    const known = downlineCount.get(n.user_key);
    if (known !== undefined) return known;
    const kids = childrenOf.get(n.user_key) ?? [];
    const total = kids.reduce((sum, k) => sum + 1 + countDown(k), 0);
    downlineCount.set(n.user_key, total);
    return total;
  };
  const link = (n: NetUserRow, side: 'left' | 'right'): string | false =>
    (childrenOf.get(n.user_key) ?? []).some((c) => c.position === side)
      ? false
      : `${registerUrl}?sponsor=${encodeURIComponent(me.user_name)}&parent=${encodeURIComponent(n.user_name)}&position=${side}`;

  const node = (n: NetUserRow, depth: number): Json => {
    const kids = depth < MAX_DEPTH ? (childrenOf.get(n.user_key) ?? []) : [];
    kids.sort((a, b) => (a.position === b.position ? 0 : a.position === 'left' ? -1 : 1));
    return {
      name: n.user_name,
      imageUrl: `${origin}/network/images/avatar.png`,
      userData: {
        sponsor: n.sponsor_key ? (byKey.get(n.sponsor_key)?.user_name ?? '') : '',
        parent: n.parent_key ? (byKey.get(n.parent_key)?.user_name ?? '') : '',
        position: n.position ?? '',
        total_earning: money(earned.get(n.user_key) ?? 0),
        total_widral: money(withdrawn.get(n.user_id) ?? 0),
        downlines: String(countDown(n)),
        left_link: link(n, 'left'),
        right_link: link(n, 'right'),
      },
      profileUrl: `${origin}/network/profile/${encodeURIComponent(n.user_key)}`,
      isLoggedUser: n.user_id === caller.userId,
      userKey: n.user_key,
      children: kids.length > 0 ? kids.map((k) => node(k, depth + 1)) : '',
    };
  };
  return ok('Geneology.', { geneology_data: node(me, 0) });
});

/**
 * GET /downliners: the path of the document's pagination illustration (response "not shown").
 * Served as the caller's downline, breadth first, as net_user records paged by start and limit.
 */
export const downliners = withCaller((request, caller, _key, ctx) => {
  const paged = paging(queryOf(request));
  if ('errors' in paged) return fail('Please correct the errors.', paged.errors);
  const me = findNetUser(ctx.db, caller.userId);
  if (!me) return fail('You are not a member of the binary network yet.');
  const children = ctx.db.prepare('SELECT * FROM net_net_users WHERE parent_key = ? ORDER BY position');
  const found: NetUserRow[] = [];
  const queue: NetUserRow[] = [me];
  while (queue.length > 0 && found.length < paged.page.start + paged.page.limit) {
    const kids = children.all((queue.shift() as NetUserRow).user_key) as NetUserRow[];
    found.push(...kids);
    queue.push(...kids);
  }
  const page = found.slice(paged.page.start, paged.page.start + paged.page.limit);
  return ok(page.length > 0 ? 'Downliners.' : 'No downliners found.', { downliners: page.map(netUserJson) });
});
