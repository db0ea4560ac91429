import type { AppContext } from '../../context.js';
import { newUserKey } from '../../network/placement.js';
import { findNetUser, findNetUserByName, findUniUser, findUserById } from '../../network/records.js';
import { AnswerCache } from '../emulation.js';
import { bodyField, type Fault, type FaultRequest, type FaultResponse, isObject } from '../model.js';
import { callerOf, failed } from './shared.js';

/**
 * Spillover instead of refusal: when the asked side under the parent is taken, walk down that
 * side's leg to the first free slot and place the newcomer there, answering success.
 */
function spillover(req: FaultRequest, ctx: AppContext, nested: boolean): void {
  const at = (field: string) => (nested ? bodyField(req.raw.body, 'net_user', field) : bodyField(req.raw.body, field));
  const parent = at('parent_name');
  const position = at('position');
  if (typeof parent.value !== 'string' || (position.value !== 'left' && position.value !== 'right')) return;
  const side = position.value;
  const byName = ctx.db.prepare('SELECT user_key, user_name FROM net_net_users WHERE user_name = ?');
  const childAt = ctx.db.prepare('SELECT user_key, user_name FROM net_net_users WHERE parent_key = ? AND position = ?');
  let node = byName.get(parent.value) as { user_key: string; user_name: string } | undefined;
  if (!node || !childAt.get(node.user_key, side)) return;
  for (let next = childAt.get(node.user_key, side) as typeof node; next; ) {
    node = next;
    next = childAt.get(node.user_key, side) as typeof node;
  }
  parent.set(node.user_name);
}

/**
 * The sponsor copied from the wrong field: the sponsor name is still checked to be a member, but the
 * placement code then takes the parent's record as the sponsor too (sponsor_key = parent_key).
 */
function sponsorFromParent(req: FaultRequest, ctx: AppContext, nested: boolean): void {
  const at = (field: string) => (nested ? bodyField(req.raw.body, 'net_user', field) : bodyField(req.raw.body, field));
  const sponsor = at('sponsor_name');
  const parent = at('parent_name');
  if (typeof sponsor.value !== 'string' || typeof parent.value !== 'string' || sponsor.value === parent.value) return;
  const member = ctx.db.prepare('SELECT 1 FROM net_net_users WHERE user_name = ?');
  if (member.get(sponsor.value) && member.get(parent.value)) sponsor.set(parent.value);
}

/**
 * Join_net checks that the asked side is free, then places through the helper register uses
 * without a position, which takes the parent's first free side: "right" lands left while left is free.
 */
function joinFirstFreeSide(req: FaultRequest, ctx: AppContext): void {
  const parent = bodyField(req.raw.body, 'parent_name');
  const position = bodyField(req.raw.body, 'position');
  if (typeof parent.value !== 'string' || typeof position.value !== 'string') return;
  const asked = position.value.trim().toLowerCase();
  if (asked !== 'right') return;
  const node = ctx.db.prepare('SELECT user_key FROM net_net_users WHERE user_name = ?').get(parent.value.trim()) as
    | { user_key: string }
    | undefined;
  const childAt = ctx.db.prepare('SELECT 1 FROM net_net_users WHERE parent_key = ? AND position = ?');
  if (node && !childAt.get(node.user_key, 'right') && !childAt.get(node.user_key, 'left')) position.set('left');
}

/**
 * Join_net inserting the caller's binary record (sponsor set, parent and side still empty) before
 * the placement is checked, and returning the placement error without removing it: the account now
 * counts as "already a member", so its retry at a free position is refused.
 */
async function keepRefusedMember(body: Record<string, unknown>, req: FaultRequest, ctx: AppContext): Promise<void> {
  const errors = isObject(body.errors) ? Object.keys(body.errors) : [];
  if (!errors.some((k) => k === 'position' || k === 'parent_name')) return;
  const user = await callerOf(req, ctx);
  if (!user || findNetUser(ctx.db, user.ID)) return;
  const sponsor = ctx.db
    .prepare('SELECT user_key FROM net_net_users WHERE user_name = ?')
    .get(bodyField(req.raw.body, 'sponsor_name').value) as { user_key: string } | undefined;
  const uni = findUniUser(ctx.db, user.ID);
  ctx.db
    .prepare(
      `INSERT INTO net_net_users (user_id, user_name, user_key, sponsor_key, creation_date, network_row)
       VALUES (?, ?, ?, ?, datetime('now'), 0)`,
    )
    .run(user.ID, user.user_login, uni ? String(uni.user_key) : newUserKey(ctx.db), sponsor?.user_key ?? null);
}

/**
 * Register and Join_net resolve the sponsor after inserting the member and set it with
 * $wpdb->update($table, ['sponsor_key' => $sponsor_key], ['parent_key' => $parent_key]): the WHERE names the
 * parent column where the new member's user_key was meant, so every child of that parent, the earlier
 * sibling too, takes the newest child's sponsor.
 */
function sponsorBySiblings(res: FaultResponse, ctx: AppContext): void {
  const net = isObject(res.body) && res.body.status === true ? res.body.net_user : undefined;
  if (!isObject(net) || typeof net.parent_key !== 'string' || net.parent_key === '' || typeof net.sponsor_key !== 'string')
    return;
  ctx.db.prepare('UPDATE net_net_users SET sponsor_key = ? WHERE parent_key = ?').run(net.sponsor_key, net.parent_key);
}

/** Register and Join_net bodies whose sponsor or parent name, digits only, was read as a user ID that no user has. */
const NAMES_READ_AS_IDS = new WeakMap<FaultRequest, Map<string, string>>();

/**
 * The placement helper resolves a sponsor or parent name the way the plugin's referral links carry
 * one, as a user ID or a login: is_numeric($name) ? get_userdata($name) : get_user_by('login', $name).
 * A member whose username is digits only (letters and digits, as the document allows) is then looked
 * up by ID: the newcomer goes under the user of that ID, or, with no such user, is refused as "not a
 * member". Emulated by handing the handler the login of that ID, or a name no member has.
 */
function digitsNameAsId(req: FaultRequest, ctx: AppContext, nested: boolean): void {
  const swapped = new Map<string, string>();
  for (const name of ['sponsor_name', 'parent_name']) {
    const field = nested ? bodyField(req.raw.body, 'net_user', name) : bodyField(req.raw.body, name);
    const v = typeof field.value === 'string' ? field.value.trim() : '';
    if (!/^\d+$/.test(v)) continue;
    const id = Number(v);
    const user = Number.isSafeInteger(id) ? findUserById(ctx.db, id) : undefined;
    const stand = user ? user.user_login : `#${v}`;
    if (!user) swapped.set(stand, v);
    field.set(stand);
  }
  if (swapped.size > 0) NAMES_READ_AS_IDS.set(req, swapped);
}

/** The refusal names the name as sent, not the stand-in the handler was given. */
function digitsNameAsIdEnds(res: FaultResponse, req: FaultRequest): void {
  const swapped = NAMES_READ_AS_IDS.get(req);
  if (!swapped || !failed(res.body)) return;
  const put = (v: unknown) => {
    let out = typeof v === 'string' ? v : '';
    for (const [stand, sent] of swapped) out = out.split(stand).join(sent);
    return out;
  };
  res.body.message = put(res.body.message);
  if (isObject(res.body.errors)) for (const [k, v] of Object.entries(res.body.errors)) res.body.errors[k] = put(v);
}

/** Each member's own geneology answer, cached for an hour (a transient per member, keyed by its user ID). */
const GENEOLOGY_CACHE = new AnswerCache<unknown>(3_600_000);

/**
 * GET /user_geneology served from a per-member transient ('net_geneology_' . $user_id, an hour): the
 * tree is built by one query per node, so the plugin caches it. Register and Join_net delete the
 * transients of the members the new one is written under, its parent and its sponsor, and no other:
 * the parent's parent and every member above it keep, for the hour, a tree without the newcomer, and
 * show its side as free.
 */
async function geneologyCached(res: FaultResponse, req: FaultRequest, ctx: AppContext): Promise<void> {
  const body = res.body;
  if (req.endpoint === '/auth/register' || /^\/join_net$/i.test(req.endpoint)) {
    const net = isObject(body) && body.status === true ? body.net_user : undefined;
    if (!isObject(net)) return;
    const keys = [net.parent_key, net.sponsor_key].filter((k): k is string => typeof k === 'string' && k !== '');
    const owner = ctx.db.prepare('SELECT user_id FROM net_net_users WHERE user_key = ?');
    const purged = new Set(keys.map((k) => `tree_${(owner.get(k) as { user_id: number } | undefined)?.user_id}`));
    GENEOLOGY_CACHE.forget(ctx.db, purged);
    return;
  }
  if (req.endpoint !== '/user_geneology' || !isObject(body) || body.status !== true) return;
  const user = await callerOf(req, ctx);
  if (!user) return;
  const key = `tree_${user.ID}`;
  const hit = GENEOLOGY_CACHE.get(ctx.db, key);
  if (hit !== undefined) res.body = hit;
  else GENEOLOGY_CACHE.put(ctx.db, key, body);
}

export const thirdChildSpillover: Fault = {
  id: 'NET-THIRD-CHILD-SPILLOVER',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (req.endpoint === '/auth/register') spillover(req, ctx, true);
    else if (/^\/join_net$/i.test(req.endpoint)) spillover(req, ctx, false);
  },
};

export const sponsorIsParent: Fault = {
  id: 'NET-SPONSOR-FROM-PARENT',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (req.endpoint === '/auth/register') sponsorFromParent(req, ctx, true);
    else if (/^\/join_net$/i.test(req.endpoint)) sponsorFromParent(req, ctx, false);
  },
};

export const joinFreeSide: Fault = {
  id: 'NET-JOIN-FIRST-FREE-SIDE',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (/^\/join_net$/i.test(req.endpoint)) joinFirstFreeSide(req, ctx);
  },
};

export const joinRefusedKeepsMember: Fault = {
  id: 'NET-JOIN-REFUSED-KEEPS-MEMBER',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    if (/^\/join_net$/i.test(req.endpoint) && failed(res.body)) await keepRefusedMember(res.body, req, ctx);
  },
};

export const sponsorSetByParent: Fault = {
  id: 'NET-SPONSOR-SET-BY-PARENT',
  iface: 'rest-v1-network',
  after(res, req, ctx) {
    if (req.endpoint === '/auth/register' || /^\/join_net$/i.test(req.endpoint)) sponsorBySiblings(res, ctx);
  },
};

export const placementDigitsNameAsId: Fault = {
  id: 'NET-PLACEMENT-DIGITS-NAME-AS-ID',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (req.endpoint === '/auth/register') digitsNameAsId(req, ctx, true);
    else if (/^\/join_net$/i.test(req.endpoint)) digitsNameAsId(req, ctx, false);
  },
  after(res, req) {
    if (req.endpoint === '/auth/register' || /^\/join_net$/i.test(req.endpoint)) digitsNameAsIdEnds(res, req);
  },
};

export const geneologyCacheAncestorsStale: Fault = {
  id: 'NET-GENEOLOGY-CACHE-ANCESTORS-STALE',
  iface: 'rest-v1-network',
  async after(res, req, ctx) {
    await geneologyCached(res, req, ctx);
  },
};

/**
 * The "position already taken" test of register and /Join_net reading the children of the sponsor where
 * the parent's were meant (the sponsor's record was the one at hand): a free position under the parent is
 * refused when the sponsor's own child sits on that side. The handler is sent the sponsor as the parent,
 * which it refuses so, naming the sponsor as the vendor's message does.
 */
function takenOnSponsor(req: FaultRequest, ctx: AppContext, nested: boolean): void {
  const at = (field: string) => (nested ? bodyField(req.raw.body, 'net_user', field) : bodyField(req.raw.body, field));
  const sponsor = at('sponsor_name').value;
  const parent = at('parent_name');
  const position = at('position').value;
  if (typeof sponsor !== 'string' || typeof parent.value !== 'string' || typeof position !== 'string') return;
  const side = position.trim().toLowerCase();
  if ((side !== 'left' && side !== 'right') || sponsor.trim() === parent.value.trim()) return;
  const s = findNetUserByName(ctx.db, sponsor.trim());
  if (!s || !findNetUserByName(ctx.db, parent.value.trim())) return;
  if (ctx.db.prepare('SELECT 1 FROM net_net_users WHERE parent_key = ? AND position = ?').get(s.user_key, side))
    parent.set(s.user_name);
}

export const placementTakenOnSponsor: Fault = {
  id: 'NET-PLACEMENT-TAKEN-ON-SPONSOR',
  iface: 'rest-v1-network',
  before(req, ctx) {
    if (req.endpoint === '/auth/register') takenOnSponsor(req, ctx, true);
    else if (/^\/join_net$/i.test(req.endpoint)) takenOnSponsor(req, ctx, false);
  },
};

/**
 * The geneology's links computed from the number of a node's children, as if children filled the left
 * side first: one child makes left_link false, two make right_link false too. A node whose only child
 * sits at the right shows its left side taken and its right side free.
 */
function linksByChildCount(node: unknown): void {
  if (!isObject(node)) return;
  const kids = Array.isArray(node.children) ? node.children : [];
  const data = node.userData;
  if (isObject(data)) {
    const url = [data.left_link, data.right_link].find((l): l is string => typeof l === 'string');
    const free = (side: string) => (url ? url.replace(/position=(left|right)/, `position=${side}`) : false);
    data.left_link = kids.length >= 1 ? false : free('left');
    data.right_link = kids.length >= 2 ? false : free('right');
  }
  for (const k of kids) linksByChildCount(k);
}

export const geneologyLinksByChildCount: Fault = {
  id: 'NET-GENEOLOGY-LINKS-BY-CHILD-COUNT',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/user_geneology' && isObject(res.body)) linksByChildCount(res.body.geneology_data);
  },
};

/**
 * /Join_net calls the placement helper as net_place_user($user_id, $parent_name, $sponsor_name, $position)
 * where its signature is ($user_id, $sponsor_name, $parent_name, $position) (register calls it right): a
 * join whose sponsor and parent differ goes under the sponsor, sponsored by the parent, or is refused
 * when the sponsor's asked side is taken.
 */
function joinNamesSwapped(req: FaultRequest): void {
  const sponsor = bodyField(req.raw.body, 'sponsor_name');
  const parent = bodyField(req.raw.body, 'parent_name');
  if (typeof sponsor.value !== 'string' || typeof parent.value !== 'string') return;
  const [s, p] = [sponsor.value, parent.value];
  sponsor.set(p);
  parent.set(s);
}

export const joinSponsorParentSwapped: Fault = {
  id: 'NET-JOIN-SPONSOR-PARENT-SWAPPED',
  iface: 'rest-v1-network',
  before(req) {
    if (/^\/join_net$/i.test(req.endpoint)) joinNamesSwapped(req);
  },
};

/**
 * The geneology builds a node's children as $children[$child->position === 'left' ? 0 : 1] = ..., and
 * json_encode() writes an array whose only key is 1 as an object: a node whose one child sits at the
 * right carries children {"1": node} where an array of nodes is meant (a left-only child stays [node]).
 */
function childrenIndexedBySide(node: unknown): void {
  if (!isObject(node) || !Array.isArray(node.children)) return;
  const kids = node.children;
  for (const k of kids) childrenIndexedBySide(k);
  const side = (k: unknown) => (isObject(k) && isObject(k.userData) ? k.userData.position : undefined);
  if (kids.length === 1 && side(kids[0]) === 'right') node.children = { 1: kids[0] };
}

export const geneologyRightOnlyChildObject: Fault = {
  id: 'NET-GENEOLOGY-RIGHT-ONLY-CHILD-OBJECT',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/user_geneology' && isObject(res.body) && res.body.status === true)
      childrenIndexedBySide(res.body.geneology_data);
  },
};

/**
 * The geneology marks the caller's node with $node->user_id === get_current_user_id(): $wpdb answers
 * every column as a string and get_current_user_id() an int, so the strict comparison never holds and
 * no node, the root neither, is the logged-in user's.
 */
function loggedUserNever(node: unknown): void {
  if (!isObject(node)) return;
  if ('isLoggedUser' in node) node.isLoggedUser = false;
  if (Array.isArray(node.children)) for (const k of node.children) loggedUserNever(k);
}

export const geneologyLoggedUserStrict: Fault = {
  id: 'NET-GENEOLOGY-LOGGED-USER-STRICT',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/user_geneology' && isObject(res.body) && res.body.status === true)
      loggedUserNever(res.body.geneology_data);
  },
};

/**
 * The geneology fills userData.sponsor from the same $sponsor_name it builds the registration links
 * with (the logged-in member, who sponsors whoever registers through them): every node below the root
 * names the caller as its sponsor, whoever sponsored that member.
 */
function sponsorIsViewer(root: unknown): void {
  if (!isObject(root) || typeof root.name !== 'string') return;
  const viewer = root.name;
  const visit = (node: unknown): void => {
    if (!isObject(node) || !Array.isArray(node.children)) return;
    for (const k of node.children) {
      if (isObject(k) && isObject(k.userData)) k.userData.sponsor = viewer;
      visit(k);
    }
  };
  visit(root);
}

export const geneologySponsorIsViewer: Fault = {
  id: 'NET-GENEOLOGY-SPONSOR-IS-VIEWER',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/user_geneology' && isObject(res.body) && res.body.status === true)
      sponsorIsViewer(res.body.geneology_data);
  },
};

/**
 * The geneology walks a node's children with for ($i = 1; $i < count($children); $i++), an index off by
 * one: the first child (the left one, children being ordered left first) never shows, a node whose one
 * child is that one reads as a leaf (children ""), and its links, read from the table, still say taken.
 */
function firstChildSkipped(node: unknown): void {
  if (!isObject(node) || !Array.isArray(node.children)) return;
  const kids = node.children.slice(1);
  node.children = kids.length > 0 ? kids : '';
  for (const k of kids) firstChildSkipped(k);
}

export const geneologyFirstChildSkipped: Fault = {
  id: 'NET-GENEOLOGY-FIRST-CHILD-SKIPPED',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/user_geneology' && isObject(res.body) && res.body.status === true)
      firstChildSkipped(res.body.geneology_data);
  },
};
