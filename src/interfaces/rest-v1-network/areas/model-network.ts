import fc from 'fast-check';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { checkCommands } from '../../../checks/properties.js';
import { type Call, net } from '../client.js';
import { described, envelope, noServerErrorCheck } from '../expect.js';
import { FreshAccounts, geneologyOf, type Slot } from '../fresh.js';
import type { Account } from '../provision.js';
import { registerForm } from '../provision.js';
import { reserveChildren } from '../reservations.js';
import { nodes, toNode } from '../tree.js';

/**
 * A model-based test of the binary network (Part 4 A, "Registration rules"): random sequences of
 * registrations under sponsors and parents of the run's own subtree, each compared with an
 * in-test model (who sits where) after every step. Each run starts from a fresh account.
 */

type Side = 'left' | 'right';

interface Member {
  name: string;
  parent?: string;
  position?: Side;
  /** Registered by someone else (another area) into this run's subtree: taken into the model as found. */
  foreign?: boolean;
}

export interface NetModel {
  members: Member[];
}

interface NetReal {
  ctx: CheckContext<unknown>;
  root: Account;
  /** Check the geneology tree against the model after every step (NET-STATE-02). */
  tree: boolean;
}

const childAt = (m: NetModel, parent: string, side: Side) => m.members.find((x) => x.parent === parent && x.position === side);
/** Depth of a member (the fresh account is 0): kept small so a target that cuts deep trees still shows all. */
const depth = (m: NetModel, name: string): number => {
  let d = 0;
  for (let cur = m.members.find((x) => x.name === name); cur?.parent; cur = m.members.find((x) => x.name === cur?.parent)) d++;
  return d;
};
const MAX_DEPTH = 7;

/** The model's free slots (for the next run's fresh account). */
export function freeOf(m: NetModel): Slot[] {
  const out: Slot[] = [];
  for (const x of m.members)
    for (const side of ['left', 'right'] as const)
      if (!childAt(m, x.name, side) && depth(m, x.name) < MAX_DEPTH) out.push({ parent: x.name, position: side });
  return out;
}

function decision(ctx: CheckContext<unknown>, call: Call, accept: boolean, what: string): void {
  envelope(ctx, call, what);
  ctx.expect(
    call.body.status === accept,
    `${what}: the model says ${accept ? 'accepted (status true)' : 'refused (status false)'}, got ${described(call)}`,
    call.ex,
  );
}

/** The geneology of the run's account equals the model: every member at its parent and side, no other of ours. */
async function compareTree(model: NetModel, real: NetReal, ours: Set<string>): Promise<void> {
  const ctx: CheckContext<unknown> = real.ctx;
  const call = await geneologyOf(ctx, real.root.token);
  const root = toNode(call.body.geneology_data);
  if (!root) ctx.fail(`user_geneology: expected geneology_data, got ${described(call)}`, call.ex);
  const seen = new Map<string, { parent: string; position: string }>();
  for (const n of nodes(root)) {
    const sides = n.children.map((c) => c.position);
    ctx.expect(
      n.children.length <= 2 && new Set(sides).size === sides.length,
      `user_geneology: ${n.name} has ${n.children.length} children at ${sides.join(', ')} (at most one left and one right)`,
      call.ex,
    );
    for (const c of n.children) seen.set(c.name, { parent: n.name, position: c.position });
    for (const side of ['left', 'right'] as const) {
      const link = side === 'left' ? n.leftLink : n.rightLink;
      const taken = n.children.some((c) => c.position === side);
      ctx.expect(
        taken ? link === false : typeof link === 'string',
        `user_geneology: ${n.name}.${side}_link is ${JSON.stringify(link)} while the ${side} side is ${taken ? 'taken' : 'free'}`,
        call.ex,
      );
    }
  }
  for (const [name, at] of seen) {
    if (ours.has(name) || model.members.some((x) => x.name === name)) continue;
    // Another area placed someone in this subtree meanwhile: a fact of the target, not a fault.
    model.members.push({ name, parent: at.parent, position: at.position as Side, foreign: true });
  }
  for (const x of model.members) {
    if (!x.parent) continue;
    const got = seen.get(x.name);
    ctx.expect(
      got !== undefined && got.parent === x.parent && got.position === x.position,
      `user_geneology: the model has ${x.name} at ${x.parent}/${x.position}, the tree ${got ? `at ${got.parent}/${got.position}` : 'does not show it'}`,
      call.ex,
    );
  }
  for (const name of seen.keys())
    ctx.expect(
      !ours.has(name) || model.members.some((x) => x.name === name),
      `user_geneology: ${name} was refused, yet the tree shows it`,
      call.ex,
    );
}

/** Names this run tried to register (refused ones included), to tell them from foreign nodes. */
const attempted = new WeakMap<NetReal, Set<string>>();

class Register implements fc.AsyncCommand<NetModel, NetReal, boolean> {
  constructor(
    readonly parentIndex: number,
    readonly side: Side,
    readonly sponsorIndex: number,
  ) {}
  check(m: NetModel): boolean {
    return depth(m, this.parentOf(m).name) < MAX_DEPTH;
  }
  parentOf(m: NetModel): Member {
    return m.members[this.parentIndex % m.members.length] as Member;
  }
  async run(m: NetModel, r: NetReal): Promise<void> {
    const parent = this.parentOf(m).name;
    const sponsor = (m.members[this.sponsorIndex % m.members.length] as Member).name;
    const form = registerForm(r.ctx, { sponsor, parent, position: this.side });
    const name = String(form.username);
    reserveChildren(r.ctx, name); // a model member: its children are the model's to fill
    attempted.get(r)?.add(name);
    const free = !childAt(m, parent, this.side);
    const call = await net(r.ctx).post('/auth/register', { form });
    const taken = m.members.filter((x) => x.parent === parent).length;
    decision(
      r.ctx,
      call,
      free,
      `register ${name} under ${parent} at ${this.side} (sponsor ${sponsor}; the parent has ${taken} child(ren)${free ? '' : `, ${this.side} taken`})`,
    );
    if (free) m.members.push({ name, parent, position: this.side });
    if (r.tree) await compareTree(m, r, attempted.get(r) ?? new Set());
  }
  toString(): string {
    return `Register(parent #${this.parentIndex}, ${this.side}, sponsor #${this.sponsorIndex})`;
  }
}

class RegisterBadPlacement implements fc.AsyncCommand<NetModel, NetReal, boolean> {
  constructor(
    readonly kind: 'unknown parent' | 'bad position',
    readonly value: string,
    readonly parentIndex: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: NetModel, r: NetReal): Promise<void> {
    const parent = (m.members[this.parentIndex % m.members.length] as Member).name;
    const place =
      this.kind === 'unknown parent'
        ? { sponsor: r.root.username, parent: `${r.root.username}zz${this.value}`, position: 'left' }
        : { sponsor: r.root.username, parent, position: this.value };
    const form = registerForm(r.ctx, place);
    attempted.get(r)?.add(String(form.username));
    const call = await net(r.ctx).post('/auth/register', { form });
    decision(r.ctx, call, false, `register under ${place.parent} at position ${JSON.stringify(place.position)} (${this.kind})`);
    if (r.tree) await compareTree(m, r, attempted.get(r) ?? new Set());
  }
  toString(): string {
    return `RegisterBadPlacement(${this.kind}, ${JSON.stringify(this.value)}, parent #${this.parentIndex})`;
  }
}

const commands = [
  fc
    .tuple(fc.nat({ max: 15 }), fc.constantFrom<Side>('left', 'right'), fc.nat({ max: 15 }))
    .map(([p, s, sp]) => new Register(p, s, sp)),
  // Positions that are neither left nor right (case variants are left out: a target may fold case).
  fc
    .tuple(fc.constantFrom('middle', 'up', '1', 'centre', 'leftright'), fc.nat({ max: 15 }))
    .map(([v, p]) => new RegisterBadPlacement('bad position', v, p)),
  fc.tuple(fc.nat({ max: 999 }), fc.nat({ max: 15 })).map(([v, p]) => new RegisterBadPlacement('unknown parent', String(v), p)),
];

/**
 * Runs of this machine: each is a fresh registration plus up to 8 steps of a registration and a
 * tree read, so a quarter of --runs, at most 60 (a check must end within the run's check timeout:
 * 250 runs took 74 s on a loaded 2-core machine).
 */
export const networkRuns = (runs: number) => Math.min(60, Math.max(2, Math.ceil(runs / 4)));

export async function runNetworkMachine(ctx: CheckContext<unknown>, name: string, tree: boolean): Promise<void> {
  const fresh = new FreshAccounts(ctx, { reserve: true });
  let previous: NetModel | undefined;
  await checkCommands<NetModel, NetReal>(
    ctx,
    name,
    commands,
    async () => {
      // The next fresh account goes where the last run left room (its model knows the free slots).
      if (previous) fresh.offer(freeOf(previous).slice(0, 2));
      const root = await fresh.next();
      const model: NetModel = { members: [{ name: root.username }] };
      previous = model;
      const real: NetReal = { ctx, root, tree };
      attempted.set(real, new Set([root.username]));
      return { model, real };
    },
    { runs: networkRuns(ctx.settings.runs), maxCommands: 8 },
  );
}

type Ctx = CheckContext<Record<string, unknown>>;

export const modelNetworkArea: AreaSpec = {
  interface: 'rest-v1-network',
  name: 'model-network',
  checks: [
    {
      id: 'NET-STATE-01',
      title:
        'registration sequences: accepted exactly at free positions, refused at taken ones, bad positions and unknown parents (model-based)',
      async run(ctx: Ctx) {
        await runNetworkMachine(ctx, 'net-network-decisions', false);
      },
    },
    {
      id: 'NET-STATE-02',
      title: 'registration sequences: the geneology tree equals the model after every step (model-based)',
      async run(ctx: Ctx) {
        await runNetworkMachine(ctx, 'net-network-tree', true);
      },
    },
    noServerErrorCheck(),
  ],
};
