import fc from 'fast-check';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { checkCommands } from '../../../checks/properties.js';
import { withRunLock } from '../../../provisioning/scratch.js';
import { type Call, isObject, type Json, net } from '../client.js';
import { described, envelope, noServerErrorCheck, num } from '../expect.js';
import { FreshAccounts } from '../fresh.js';
import { type Account, ROOT_WITHDRAWALS_LOCK, rootAccount } from '../provision.js';

/**
 * A model-based test of withdrawals (Part 4 A rows /withdrawal and /withdrawal_request, Part 8
 * limits): random sequences of requests of amounts around the limits and the balance, each
 * predicted by an in-test model and followed by GET /withdrawal, which must agree with it.
 * Each run starts from a fresh account; its balance is whatever the target reports (a fresh
 * account has earned nothing, so the balance rule is exercised at zero). When no request of any
 * run could be accepted that way, the accept half runs once on the SFC_NET_USERNAME account (the
 * one with a balance), under the lock of its withdrawals: a fixed short sequence whose accepted
 * requests are of the minimum or little more, so it spends little of the balance the other areas
 * use. Without that account, or with less than the minimum available, the check skips.
 */

export interface WdModel {
  min: number;
  max: number;
  /** What can still be requested (total_balance at the start, minus what was accepted since). */
  available: number;
  /** requested_amount at the start plus what was accepted since. */
  requested: number;
  records: number;
  accepted: number[];
}

interface WdReal {
  ctx: CheckContext<unknown>;
  account: Account;
  /** Compare GET /withdrawal with the model after every step (NET-STATE-04). */
  info: boolean;
  /** Reading of total_balance once a request was accepted: reduced by it, or the gross earned. */
  balanceReading?: 'available' | 'gross';
  /** Across the runs: requests sent, and those the model accepted (and the target did too). */
  tally: { requests: number; accepted: number };
}

const cents = (n: number) => Math.round(n * 100);
const money = (n: number) => (cents(n) / 100).toFixed(2);

/** Which amount relative to the model: the generator picks a kind, the model turns it into a number at run time. */
type Kind = 'below-min' | 'at-min' | 'inside' | 'at-max' | 'above-max' | 'above-balance' | 'zero';

export function amountFor(m: WdModel, kind: Kind, frac: number): number {
  const inside = (lo: number, hi: number) => cents(lo + (hi - lo) * frac) / 100;
  switch (kind) {
    case 'below-min':
      return Math.max(0.01, cents(m.min - 0.01 - (m.min - 0.01) * frac * 0.5) / 100);
    case 'at-min':
      return m.min;
    case 'inside':
      return inside(m.min, m.max);
    case 'at-max':
      return m.max;
    case 'above-max':
      return cents(m.max + 0.01 + m.max * frac) / 100;
    case 'above-balance': {
      // Above the balance but inside the limits where they allow it, so only the balance refuses.
      const lo = Math.max(Math.max(m.available, 0) + 0.01, m.min);
      return lo <= m.max ? inside(lo, Math.min(m.max, lo + 10)) : cents(Math.max(m.available, 0) + 0.01) / 100;
    }
    case 'zero':
      return 0;
  }
}

export const acceptable = (m: WdModel, amount: number): boolean =>
  cents(amount) > 0 && cents(amount) >= cents(m.min) && cents(amount) <= cents(m.max) && cents(amount) <= cents(m.available);

export function readInfo(call: Call): { balance: number; requested: number; records: number; list: Json[] } {
  const info = isObject(call.body.withdrawal_info) ? call.body.withdrawal_info : {};
  const list = Array.isArray(call.body.all_withdrawal_data) ? call.body.all_withdrawal_data.filter(isObject) : [];
  return { balance: num(info.total_balance), requested: num(info.requested_amount), records: list.length, list };
}

export function readLimits(call: Call): { min: number; max: number } {
  const gs = isObject(call.body.general_setting) ? call.body.general_setting : {};
  return { min: num(gs.net_withdrawal_limit_min), max: num(gs.net_withdrawal_limit_max) };
}

class Request implements fc.AsyncCommand<WdModel, WdReal, boolean> {
  constructor(
    readonly kind: Kind,
    readonly frac: number,
  ) {}
  check(m: WdModel): boolean {
    // "below the minimum" needs a positive amount below it.
    return this.kind !== 'below-min' || m.min > 0.01;
  }
  async run(m: WdModel, r: WdReal): Promise<void> {
    const ctx: CheckContext<unknown> = r.ctx;
    const amount = amountFor(m, this.kind, this.frac);
    const accept = acceptable(m, amount);
    const call = await net(ctx).post('/withdrawal_request', { token: r.account.token, form: { amount: money(amount) } });
    const what = `withdrawal_request of ${money(amount)} (${this.kind}; limits ${m.min}..${m.max}, available ${money(m.available)})`;
    envelope(ctx, call, what);
    ctx.expect(
      call.body.status === accept,
      `${what}: the model says ${accept ? 'accepted (status true)' : 'refused (status false)'}, got ${described(call)}`,
      call.ex,
    );
    r.tally.requests += 1;
    if (accept) {
      r.tally.accepted += 1;
      m.available -= amount;
      m.requested += amount;
      m.records += 1;
      m.accepted.push(amount);
    }
    if (r.info) await compareInfo(m, r, call);
  }
  toString(): string {
    return `Request(${this.kind}, ${this.frac.toFixed(3)})`;
  }
}

/** GET /withdrawal agrees with the model (NET-STATE-04). */
async function compareInfo(m: WdModel, r: WdReal, last: Call): Promise<void> {
  const ctx: CheckContext<unknown> = r.ctx;
  const call = await net(ctx).get('/withdrawal', { token: r.account.token });
  envelope(ctx, call, 'withdrawal');
  const got = readInfo(call);
  const off = (a: number, b: number) => !Number.isFinite(a) || Math.abs(a - b) >= 0.005;
  ctx.expect(
    got.records === m.records,
    `withdrawal: the model has ${m.records} withdrawal record(s) (accepted ${m.accepted.map(money).join(', ') || 'none'}), all_withdrawal_data holds ${got.records}`,
    last.ex,
    call.ex,
  );
  ctx.expect(
    !off(got.requested, m.requested),
    `withdrawal: requested_amount is ${JSON.stringify(got.requested)}, the model ${money(m.requested)}`,
    last.ex,
    call.ex,
  );
  // total_balance: either what is left (reduced by each request) or the gross earned; one reading, kept.
  const gross = m.available + m.accepted.reduce((a, b) => a + b, 0);
  if (!r.balanceReading && m.accepted.length > 0) r.balanceReading = off(got.balance, m.available) ? 'gross' : 'available';
  const want = r.balanceReading === 'gross' ? gross : m.available;
  ctx.expect(
    !off(got.balance, want),
    `withdrawal: total_balance is ${JSON.stringify(got.balance)}, the model ${money(want)} (${r.balanceReading ?? 'available'} reading)`,
    last.ex,
    call.ex,
  );
}

const commands = [
  fc
    .tuple(
      fc.constantFrom<Kind>('below-min', 'at-min', 'inside', 'at-max', 'above-max', 'above-balance', 'zero'),
      fc.double({ min: 0, max: 1, noNaN: true }),
    )
    .map(([k, f]) => new Request(k, f)),
];

/** A fresh account and up to 8 requests (and reads) per run: a quarter of --runs, at most 60 (see networkRuns). */
export const withdrawalRuns = (runs: number) => Math.min(60, Math.max(2, Math.ceil(runs / 4)));

/** The model of `account` from its GET /withdrawal; fails unless the numbers are there. */
async function modelOf(ctx: CheckContext<unknown>, account: Account): Promise<WdModel> {
  const call = await net(ctx).get('/withdrawal', { token: account.token });
  const limits = readLimits(call);
  const now = readInfo(call);
  if (![limits.min, limits.max, now.balance, now.requested].every(Number.isFinite))
    ctx.fail(`withdrawal: expected numeric limits, total_balance and requested_amount, got ${described(call)}`, call.ex);
  return { ...limits, available: now.balance, requested: now.requested, records: now.records, accepted: [] };
}

/**
 * The accept half on the SFC_NET_USERNAME account: refusals around the limits, then two requests
 * the model accepts (the minimum, and a little more), each judged by the model as in the machine.
 */
async function rootSequence(ctx: CheckContext<unknown>, info: boolean, tally: WdReal['tally']): Promise<string> {
  const username = ctx.data('SFC_NET_USERNAME');
  if (!username || !ctx.data('SFC_NET_PASSWORD')) return 'SFC_NET_USERNAME / SFC_NET_PASSWORD are not set';
  const account = await rootAccount(ctx);
  return withRunLock(
    ctx.settings.runId,
    ROOT_WITHDRAWALS_LOCK,
    async () => {
      const model = await modelOf(ctx, account);
      if (!acceptable(model, amountFor(model, 'at-min', 0)))
        return `SFC_NET_USERNAME has ${money(model.available)} available, below the minimum ${model.min}`;
      const real: WdReal = { ctx, account, info, tally };
      const steps = [
        new Request('below-min', 0.5),
        new Request('above-max', 0.5),
        new Request('zero', 0),
        new Request('at-min', 0),
        new Request('inside', 0.001),
      ];
      for (const step of steps) if (step.check(model)) await step.run(model, real);
      return `the SFC_NET_USERNAME account (limits ${model.min}..${model.max}) was used for the accept half`;
    },
    { onGiveUp: (m) => ctx.note(m) },
  );
}

/** Runs the machine; `info` adds the GET /withdrawal comparison after every step. */
export async function runWithdrawalMachine(ctx: CheckContext<unknown>, name: string, info: boolean): Promise<void> {
  const fresh = new FreshAccounts(ctx);
  const tally = { requests: 0, accepted: 0 };
  const balances = new Set<string>();
  await checkCommands<WdModel, WdReal>(
    ctx,
    name,
    commands,
    async () => {
      const account = await fresh.next();
      const model = await modelOf(ctx, account);
      balances.add(`available ${money(model.available)}, limits ${model.min}..${model.max}`);
      return { model, real: { ctx, account, info, tally } };
    },
    { runs: withdrawalRuns(ctx.settings.runs), maxCommands: 8 },
  );
  if (tally.accepted > 0) return;
  // Fresh accounts could have no request accepted: the accept half on the account with a balance.
  const root = await rootSequence(ctx, info, tally);
  if (tally.accepted === 0)
    ctx.skip(
      `no request could be accepted (fresh accounts: ${[...balances].slice(0, 3).join('; ')}; ${root}), so only refusals were seen (${tally.requests} request(s), all as the model said): the accept half needs an account with at least the minimum available`,
    );
  ctx.note(`fresh accounts had no request accepted (${[...balances].slice(0, 2).join('; ')}): ${root}`);
}

export const modelWithdrawalsArea: AreaSpec = {
  interface: 'rest-v1-network',
  name: 'model-withdrawals',
  checks: [
    {
      id: 'NET-STATE-03',
      title: 'withdrawal sequences: accepted exactly within the limits and the available balance (model-based)',
      async run(ctx) {
        await runWithdrawalMachine(ctx, 'net-withdrawals-decisions', false);
      },
    },
    {
      id: 'NET-STATE-04',
      title: 'withdrawal sequences: GET /withdrawal agrees with the model after every request (model-based)',
      async run(ctx) {
        await runWithdrawalMachine(ctx, 'net-withdrawals-info', true);
      },
    },
    noServerErrorCheck(),
  ],
};
