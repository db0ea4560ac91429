import { createHash } from 'node:crypto';
import type { CheckContext } from '../../checks/context.js';
import { sharedPerRun } from '../../provisioning/run-shared.js';
import { type Call, type Form, isObject, type Json, net, parse } from './client.js';
import { described } from './expect.js';
import { holderOf, reserve, reserveChildren } from './reservations.js';
import { freeSlots, toNode } from './tree.js';

/**
 * Accounts for the checks. Every area provisions its own: one "anchor" registered under the
 * SFC_NET_USERNAME account at a free position found in its geneology tree (areas run in
 * parallel, so a slot taken meanwhile is retried elsewhere), and anything else under the anchor.
 */

type Ctx = CheckContext<unknown>;

export interface Account {
  username: string;
  password: string;
  email: string;
  token: string;
  user: Json;
  netUser: Json | undefined;
  /** The register (or login) call that produced the account. */
  call: Call;
}

export interface Placement {
  sponsor?: string;
  parent?: string;
  position?: string;
}

/** The register body (multipart fields as the samples); `overrides` replace or (with undefined) drop fields. */
export function registerForm(ctx: Ctx, place: Placement, overrides: Record<string, string | undefined> = {}): Form {
  const form: Record<string, string | undefined> = {
    first_name: 'Sfc',
    last_name: 'Check',
    username: ctx.names.username(),
    password: ctx.names.password(),
    email: ctx.names.email(),
    'net_user[phone]': ctx.names.phone(),
    'net_user[sponsor_name]': place.sponsor,
    'net_user[parent_name]': place.parent,
    'net_user[position]': place.position,
    'net_user[address]': ctx.names.label('addr'),
    ...overrides,
  };
  return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined));
}

export async function register(ctx: Ctx, form: Form): Promise<{ call: Call; account?: Account }> {
  const client = net(ctx);
  const call = await client.post('/auth/register', { form });
  const token = client.tokenOf(call.body);
  if (call.body.status !== true || !token) return { call };
  return {
    call,
    account: {
      username: String(form.username),
      password: String(form.password),
      email: String(form.email),
      token,
      user: isObject(call.body.user) ? call.body.user : {},
      netUser: isObject(call.body.net_user) ? call.body.net_user : undefined,
      call,
    },
  };
}

/**
 * The run lock (withRunLock) of the SFC_NET_USERNAME account's withdrawals: held by every area that
 * makes accepted withdrawals from it, and across a before/after comparison of its withdrawal sums.
 */
export const ROOT_WITHDRAWALS_LOCK = 'net-root-withdrawals';

/**
 * The login of SFC_NET_USERNAME, made once per run and shared by every area (worker threads see it
 * through a file in the run's scratch directory). Whether a later login of an account ends its
 * earlier tokens is not shown; the real products do end them, and the areas run in parallel: a login
 * per area would end the token another area is still using. A refused login is not kept (the next
 * area tries again, as each did before); its call is returned for the caller to judge.
 */
export async function rootLogin(ctx: Ctx, username: string, password: string): Promise<Call & { token?: string }> {
  const ex = await sharedPerRun(
    ctx.settings.runId,
    'net-root-login',
    [String(ctx.settings.networkApiRoot), username, password],
    async () => {
      const call = await net(ctx).login(username, password);
      return { value: call.ex, keep: Boolean(call.token) };
    },
  );
  const body = parse(ex);
  return { ex, body, token: net(ctx).tokenOf(body) };
}

/** The SFC_NET_USERNAME account, logged in (the run's one login); skips the check when the data or the login is missing. */
export async function rootAccount(ctx: Ctx): Promise<Account> {
  const username = ctx.data('SFC_NET_USERNAME');
  const password = ctx.data('SFC_NET_PASSWORD');
  if (!username || !password) ctx.skip('SFC_NET_USERNAME / SFC_NET_PASSWORD are not set: no network-plan account to use');
  const call = await rootLogin(ctx, username, password);
  if (!call.token)
    ctx.skip(`cannot log in as SFC_NET_USERNAME (${username}): ${described(call)}${net(ctx).tokenHint(call.body)}`);
  return {
    username,
    password,
    email: '',
    token: call.token,
    user: isObject(call.body.user) ? call.body.user : {},
    netUser: isObject(call.body.net_user) ? call.body.net_user : undefined,
    call,
  };
}

/**
 * Free positions in the tree of `token`'s account, shallowest first, that no area of this run has
 * reserved (`open`), and how many more the tree shows free that other areas, still running, hold
 * (`heldByOthers`: the children of accounts they placed and will fill themselves).
 */
export async function freePositions(
  ctx: Ctx,
  token: string,
): Promise<{ open: { parent: string; position: 'left' | 'right' }[]; heldByOthers: number }> {
  const call = await net(ctx).get('/user_geneology', { token });
  const root = toNode(call.body.geneology_data);
  const open: { parent: string; position: 'left' | 'right' }[] = [];
  let heldByOthers = 0;
  for (const s of root ? freeSlots(root) : []) {
    const holder = holderOf(ctx, s.parent, s.position);
    if (holder === undefined) open.push(s);
    else if (holder !== ctx.names.scope) heldByOthers++;
  }
  return { open, heldByOthers };
}

const MAX_ATTEMPTS = 8;
/**
 * How long to wait for a free position when other areas hold every free one the tree shows. Each
 * account an area places reserves its two children, so with many areas at once (--concurrency 64)
 * the shown frontier ran out until the areas filled what they had reserved.
 */
const SLOT_WAIT_MS = 20_000;
const SLOT_POLL_MS = 200;

/**
 * Registers a new account under the SFC_NET_USERNAME sponsor at a free position of its tree,
 * reserved for this area first, so two areas that read the same free position do not both take
 * it. Returns the last register call; `account` is set when it succeeded. The position tried first
 * depends on the username (a fixed hash), so areas running at once mostly pick different ones.
 */
export async function registerInTree(
  ctx: Ctx,
  overrides: Record<string, string | undefined> = {},
): Promise<{ call?: Call; account?: Account; tried: string[] }> {
  const sponsor = await rootAccount(ctx);
  const tried: string[] = [];
  let last: { call?: Call; account?: Account } = {};
  const waitUntil = performance.now() + SLOT_WAIT_MS;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; ) {
    const { open: slots, heldByOthers } = await freePositions(ctx, sponsor.token);
    const form = registerForm(ctx, { sponsor: sponsor.username }, overrides);
    const first = createHash('sha256').update(String(form.username)).digest().readUInt16BE(0) + attempt;
    let slot: { parent: string; position: 'left' | 'right' } | undefined;
    for (let i = 0; i < slots.length && !slot; i++) {
      const s = slots[(first + i) % slots.length] as { parent: string; position: 'left' | 'right' };
      if (reserve(ctx, s.parent, s.position)) slot = s;
    }
    if (!slot) {
      // Other areas, still running, hold the free positions (or took the open ones just now): as they
      // place accounts below them, or end, positions come free. When none holds any (the tree shows
      // no free position at all: a target whose geneology is wrong), waiting frees none.
      if (heldByOthers + slots.length === 0 || performance.now() >= waitUntil) break;
      await new Promise((r) => setTimeout(r, SLOT_POLL_MS));
      continue;
    }
    attempt++;
    form['net_user[parent_name]'] = slot.parent;
    form['net_user[position]'] = slot.position;
    // An anchor's children are its area's to fill: reserved before it exists.
    reserveChildren(ctx, String(form.username));
    tried.push(`${slot.parent}/${slot.position}`);
    last = await register(ctx, form);
    if (last.account) return { ...last, tried };
    // Only a position taken meanwhile is worth another try; any other refusal is the answer.
    const text = JSON.stringify([last.call?.body.errors, last.call?.body.message]).toLowerCase();
    if (!/position|parent|taken|occupied|child/.test(text)) break;
  }
  return { ...last, tried };
}

/** An account in the tree for checks that need one; skips (naming why) when none can be made. */
export async function anchorAccount(ctx: Ctx): Promise<Account> {
  const r = await registerInTree(ctx);
  if (!r.account) {
    const why = r.call ? described(r.call) : 'no free position found in the geneology tree of SFC_NET_USERNAME';
    ctx.skip(`could not register an account in the tree (tried ${r.tried.join(', ') || 'nothing'}): ${why}`);
  }
  return r.account;
}
