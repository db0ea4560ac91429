import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { withRunLock } from '../../../provisioning/scratch.js';
import { type Call, type Form, isObject, type Json, net } from '../client.js';
import { conforms, described, envelope, noServerErrorCheck, num, refused, refusedWithFieldError, succeeded } from '../expect.js';
import { type Account, ROOT_WITHDRAWALS_LOCK, rootAccount } from '../provision.js';
import { bankForm, readBack, savedForm } from './bank-details.js';

/** Withdrawals of SFC_NET_USERNAME: the info and limits, a request inside them, and the refusals outside. */
interface WithdrawalState {
  root: Account;
  before: Call;
  /** GET /withdrawal just before and just after the accepted request (NET-WD-03), compared by NET-WD-08/11/13. */
  beforeRequest: Call;
  after: Call;
  min: number;
  max: number;
  balance: number;
  requested: number;
  /** Bank details saved just before the accepted request, and GET /bank_details just after it (NET-BANK-04). */
  bankSaved: Form;
  bankSave: Call;
  bankAfter: Call;
}

type Ctx = CheckContext<WithdrawalState>;

const rec = (v: unknown): Json => (isObject(v) ? v : {});
const token = (ctx: Ctx) => (ctx.state.root as Account).token;
const request = (ctx: Ctx, form: Record<string, string | number>) =>
  net(ctx).post('/withdrawal_request', { token: token(ctx), form });
const money = (n: number) => n.toFixed(2);

/** What a withdrawal adds up to in GET /withdrawal: records of that amount, and the requested/pending sums. */
function tally(call: Call, amount: number): { records: number; requested: number; pending: number } {
  const list = Array.isArray(call.body.all_withdrawal_data) ? call.body.all_withdrawal_data.filter(isObject) : [];
  const info = rec(call.body.withdrawal_info);
  return {
    records: list.filter((r) => Math.abs(num(r.amount) - amount) < 0.005).length,
    requested: num(info.requested_amount),
    pending: num(info.pending_withdrawal),
  };
}

/**
 * The first amount above `min` (in cents, up to `top`) whose double value is below its decimal
 * (x * 100 truncates a cent short); else one above the minimum, or the minimum itself.
 */
function floatShyAmount(min: number, top: number): number {
  const from = Math.round(min * 100) + 1;
  const to = Math.min(Math.round(top * 100), from + 100_000);
  for (let c = from; c <= to; c++) {
    const amount = Number((c / 100).toFixed(2));
    if (Math.trunc(amount * 100) !== c) return amount;
  }
  return min + 1 <= top ? Math.max(min + 1, 1) : min;
}

export const withdrawalsArea: AreaSpec<WithdrawalState> = {
  interface: 'rest-v1-network',
  name: 'withdrawals',
  checks: [
    {
      id: 'NET-WD-01',
      title: 'withdrawal answers withdrawal_info, general_setting, language and all_withdrawal_data',
      async run(ctx: Ctx) {
        ctx.state.root = await rootAccount(ctx);
        const call = await net(ctx).get('/withdrawal', { token: token(ctx) });
        const body = conforms(ctx, call, 'withdrawal');
        for (const key of ['withdrawal_info', 'general_setting', 'language', 'all_withdrawal_data'])
          ctx.expect(body[key] !== undefined, `withdrawal: expected "${key}", got ${described(call)}`, call.ex);
        ctx.choose('AMB-NET-02', body.status === true ? 'status-true' : 'status-false-with-data');
        const dates = (call.body.all_withdrawal_data as Json[])
          .map((r) => r.payment_processed_date)
          .filter((d) => typeof d === 'string');
        if (dates.some((d) => /^\d{4}-\d{2}-\d{2}$/.test(d as string))) ctx.choose('AMB-NET-04', 'date');
        else if (dates.length > 0) ctx.choose('AMB-NET-04', 'timestamp');
        ctx.state.before = call;
      },
    },
    {
      id: 'NET-WD-02',
      title: 'general_setting carries numeric withdrawal limits, min not above max',
      needs: ['before'],
      async run(ctx: Ctx) {
        const call = ctx.state.before as Call;
        const gs = rec(call.body.general_setting);
        const min = num(gs.net_withdrawal_limit_min);
        const max = num(gs.net_withdrawal_limit_max);
        ctx.expect(
          Number.isFinite(min) && Number.isFinite(max) && min <= max,
          `expected numeric limits with min <= max, got min ${JSON.stringify(gs.net_withdrawal_limit_min)}, max ${JSON.stringify(gs.net_withdrawal_limit_max)}`,
          call.ex,
        );
        ctx.state.min = min;
        ctx.state.max = max;
        ctx.state.balance = num(rec(call.body.withdrawal_info).total_balance);
      },
    },
    {
      id: 'NET-WD-10',
      title: "withdrawal_info.user_key is the holder's user_key",
      needs: ['before'],
      async run(ctx: Ctx) {
        const call = ctx.state.before as Call;
        const root = ctx.state.root as Account;
        const own = root.netUser?.user_key;
        if (typeof own !== 'string' || own === '') ctx.skip('the login of SFC_NET_USERNAME carried no net_user.user_key');
        const got = rec(call.body.withdrawal_info).user_key;
        ctx.expect(got === own, `withdrawal_info.user_key: expected the holder's ${own}, got ${JSON.stringify(got)}`, call.ex);
      },
    },
    {
      id: 'NET-WD-06',
      title: 'withdrawal_request without amount: refused with errors keyed amount',
      needs: ['root'],
      async run(ctx: Ctx) {
        refusedWithFieldError(ctx, await request(ctx, {}), 'amount', 'withdrawal_request without amount');
      },
    },
    {
      id: 'NET-WD-07',
      title: 'withdrawal_request with amount "ten", and with the minimum followed by a currency ("<min> USD"): refused',
      needs: ['root'],
      async run(ctx: Ctx) {
        refused(ctx, await request(ctx, { amount: 'ten' }), 'withdrawal_request with amount "ten"');
        // A (float) cast reads a string's leading number: "ten" is 0, refused as no amount, while "<min> USD" is the
        // minimum, which the limits take. Not a number either way, so refused (a buggy accept spends the minimum).
        const min = ctx.state.min;
        const amount = `${money(typeof min === 'number' && Number.isFinite(min) && min > 0 ? min : 1)} USD`;
        refused(ctx, await request(ctx, { amount }), `withdrawal_request with amount ${JSON.stringify(amount)}`);
      },
    },
    {
      id: 'NET-WD-09',
      title: 'withdrawal_request with amount "ten": errors keyed amount',
      needs: ['root'],
      async run(ctx: Ctx) {
        // "amount (float, required)": a value that is not a number is a validation failure of amount (Part 7).
        refusedWithFieldError(ctx, await request(ctx, { amount: 'ten' }), 'amount', 'withdrawal_request with amount "ten"');
      },
    },
    {
      id: 'NET-WD-04',
      title: 'withdrawal_request below net_withdrawal_limit_min: refused',
      needs: ['min'],
      async run(ctx: Ctx) {
        const min = ctx.state.min as number;
        if (min <= 0.01) ctx.skip(`the minimum is ${min}: there is no positive amount below it`);
        const amount = min >= 2 ? min - 1 : min / 2;
        refused(ctx, await request(ctx, { amount: money(amount) }), `withdrawal_request of ${money(amount)} (minimum ${min})`);
      },
    },
    {
      id: 'NET-WD-04',
      title: 'withdrawal_request of a negative amount (minus the minimum): refused',
      needs: ['min'],
      async run(ctx: Ctx) {
        // A negative amount is below any minimum of 0 or more. A target that drops the sign (abs()) before
        // comparing would take it as a request of the minimum; a refusal as not a valid amount is a refusal too.
        const min = ctx.state.min as number;
        if (min < 0) ctx.skip(`the minimum is ${min}: a negative amount may lie within the limits`);
        const amount = `-${money(Math.max(min, 0.01))}`;
        refused(ctx, await request(ctx, { amount }), `withdrawal_request of ${amount} (minimum ${min})`);
      },
    },
    {
      id: 'NET-WD-05',
      title: 'withdrawal_request above net_withdrawal_limit_max: refused',
      needs: ['max'],
      async run(ctx: Ctx) {
        // One cent above, not one unit: a target comparing whole units (bccomp at scale 0) takes max + 0.01.
        const amount = Math.round((ctx.state.max as number) * 100 + 1) / 100;
        refused(
          ctx,
          await request(ctx, { amount: money(amount) }),
          `withdrawal_request of ${money(amount)} (maximum ${ctx.state.max})`,
        );
      },
    },
    {
      id: 'NET-WD-03',
      title:
        'withdrawal_request inside the limits and the balance, of cents a double holds short (10.03 for a minimum of 10): status true',
      needs: ['min', 'max', 'balance'],
      async run(ctx: Ctx) {
        const { min = 0, max = 0, balance = 0 } = ctx.state;
        // Inside the limits, off the minimum where they allow, so neither boundary reading matters;
        // with cents that binary floating point holds a hair below (10.03 is 1002.999... hundredths),
        // so NET-WD-08/11 see a target that keeps money in floats and truncates it to cents.
        const amount = min + 0.01 <= max ? floatShyAmount(min, Math.min(max, balance)) : min;
        if (!(balance >= amount))
          ctx.skip(`the withdrawable balance (${balance}) is below ${amount}; the data contract promises 5000.00`);
        // The other areas that withdraw from this account (the edges of NET-WD-03 in properties) wait
        // until the after-read: otherwise their amounts land in the sums NET-WD-08 compares.
        await withRunLock(
          ctx.settings.runId,
          ROOT_WITHDRAWALS_LOCK,
          async () => {
            // A withdrawal pays to the bank details: a request that writes back what it read of them (REPLACE of
            // a few columns) empties the rest. Saved here, read after (NET-BANK-04): the other areas' saves with
            // this account's token lack required fields, and the lock keeps other withdrawals out.
            const bank = bankForm(ctx.names.label('wdbank'));
            // SFC_NET_USERNAME is the target's own account: the details it had are saved back at the end.
            const prior = await net(ctx).get('/bank_details', { token: token(ctx) });
            const previous = Array.isArray(prior.body.bank_details) ? prior.body.bank_details.filter(isObject).at(-1) : undefined;
            const save = await net(ctx).post('/bank_details_save', { token: token(ctx), form: bank });
            if (previous && save.body.status === true)
              ctx.onTeardown(async () => {
                await net(ctx).post('/bank_details_save', { token: token(ctx), form: savedForm(previous) });
              });
            const beforeRequest = await net(ctx).get('/withdrawal', { token: token(ctx) });
            const call = await request(ctx, { amount: money(amount) });
            succeeded(ctx, call, `withdrawal_request of ${money(amount)} (limits ${min}..${max}, balance ${balance})`);
            conforms(ctx, call, 'withdrawal-request');
            ctx.state.beforeRequest = beforeRequest;
            ctx.state.after = await net(ctx).get('/withdrawal', { token: token(ctx) });
            ctx.state.requested = amount;
            ctx.state.bankSave = save;
            ctx.state.bankSaved = bank;
            if (save.body.status === true) ctx.state.bankAfter = await net(ctx).get('/bank_details', { token: token(ctx) });
          },
          { onGiveUp: (m) => ctx.note(m) },
        );
      },
    },
    {
      id: 'NET-WD-08',
      title: 'the accepted withdrawal shows in GET /withdrawal',
      needs: ['beforeRequest', 'requested', 'after'],
      async run(ctx: Ctx) {
        const amount = ctx.state.requested as number;
        const before = ctx.state.beforeRequest as Call;
        const after = ctx.state.after as Call;
        conforms(ctx, after, 'withdrawal');
        const a = tally(before, amount);
        const b = tally(after, amount);
        const grew = (x: number, y: number) => Number.isFinite(x) && Number.isFinite(y) && Math.abs(y - x - amount) < 0.005;
        ctx.expect(
          b.records === a.records + 1 || grew(a.requested, b.requested) || grew(a.pending, b.pending),
          `expected a new withdrawal record of ${money(amount)} or requested/pending up by it; before ${JSON.stringify(a)}, after ${JSON.stringify(b)}`,
          before.ex,
          after.ex,
        );
      },
    },
    {
      id: 'NET-WD-11',
      title: 'a withdrawal record added by the accepted request carries its amount',
      needs: ['beforeRequest', 'requested', 'after'],
      async run(ctx: Ctx) {
        const amount = ctx.state.requested as number;
        const before = ctx.state.beforeRequest as Call;
        const after = ctx.state.after as Call;
        const list = (call: Call) =>
          Array.isArray(call.body.all_withdrawal_data) ? call.body.all_withdrawal_data.filter(isObject) : [];
        const known = new Set(list(before).map((r) => JSON.stringify(r.id)));
        const added = list(after).filter((r) => !known.has(JSON.stringify(r.id)));
        if (added.length === 0) ctx.skip('GET /withdrawal lists no new record: the request shows in the sums only (NET-WD-08)');
        ctx.expect(
          added.some((r) => Math.abs(num(r.amount) - amount) < 0.005),
          `the withdrawal request of ${money(amount)} added record(s) with amount ${added.map((r) => JSON.stringify(r.amount)).join(', ')}`,
          before.ex,
          after.ex,
        );
      },
    },
    {
      id: 'NET-WD-13',
      title: 'total_balance did not grow with the accepted withdrawal (reduced by it, or the gross unchanged)',
      needs: ['beforeRequest', 'requested', 'after'],
      async run(ctx: Ctx) {
        const before = ctx.state.beforeRequest as Call;
        const after = ctx.state.after as Call;
        const was = num(rec(before.body.withdrawal_info).total_balance);
        const is = num(rec(after.body.withdrawal_info).total_balance);
        // Other areas never add earnings to this account; they can only spend from it meanwhile.
        ctx.expect(
          Number.isFinite(was) && Number.isFinite(is) && is <= was + 0.005,
          `after a withdrawal request of ${money(ctx.state.requested as number)}, total_balance went from ${JSON.stringify(rec(before.body.withdrawal_info).total_balance)} to ${JSON.stringify(rec(after.body.withdrawal_info).total_balance)}`,
          before.ex,
          after.ex,
        );
      },
    },
    {
      id: 'NET-BANK-04',
      title: "bank details saved just before NET-WD-03's withdrawal request read back as saved after it",
      needs: ['requested', 'bankSave'],
      async run(ctx: Ctx) {
        const saved = ctx.state.bankSaved as Form;
        const call = ctx.state.bankAfter;
        if (!call) ctx.skip(`the bank details save before the request was refused: ${described(ctx.state.bankSave as Call)}`);
        succeeded(ctx, call, 'bank_details after a withdrawal request');
        const want = readBack(saved);
        const rows = Array.isArray(call.body.bank_details) ? call.body.bank_details.filter(isObject) : [];
        ctx.expect(
          rows.some((r) => Object.entries(want).every(([k, v]) => String(r[k] ?? '') === String(v))),
          `bank details saved before a withdrawal request of ${money(ctx.state.requested as number)}: expected ${JSON.stringify(want)} after it, got ${JSON.stringify(call.body.bank_details)}`,
          (ctx.state.bankSave as Call).ex,
          call.ex,
        );
      },
    },
    {
      id: 'NET-PROP-01',
      title: 'withdrawal_request of 0 (below a positive minimum): refused with errors keyed amount',
      needs: ['min'],
      async run(ctx: Ctx) {
        const min = ctx.state.min as number;
        if (!(min > 0)) ctx.skip(`the minimum is ${min}: 0 is not past it`);
        refusedWithFieldError(ctx, await request(ctx, { amount: '0' }), 'amount', `withdrawal_request of 0 (minimum ${min})`);
      },
    },
    {
      id: 'NET-WD-12',
      title: 'withdrawal_request with a whole-number amount written without a decimal point: status true',
      needs: ['min', 'max', 'balance', 'requested'],
      async run(ctx: Ctx) {
        const { min = 0, max = 0, balance = 0, requested = 0 } = ctx.state;
        const low = Math.max(Math.ceil(min), 1);
        const amount = low + 1 <= max ? low + 1 : low;
        if (amount > max) ctx.skip(`no whole number lies within the limits ${min}..${max}`);
        // NET-WD-03 spent `requested` of the balance already.
        if (!(balance - requested >= amount))
          ctx.skip(`the withdrawable balance left (${money(balance - requested)}) is below ${amount}`);
        // Under the lock, as every accepted withdrawal of this account: the withdrawal model
        // (model-withdrawals) compares the account's records with its own, and with areas running at
        // once this request landed inside its sequence (2 runs of 4, seed 1).
        const call = await withRunLock(
          ctx.settings.runId,
          ROOT_WITHDRAWALS_LOCK,
          () => request(ctx, { amount: String(amount) }),
          {
            onGiveUp: (m) => ctx.note(m),
          },
        );
        succeeded(ctx, call, `withdrawal_request of "${amount}" (a float written without decimals; limits ${min}..${max})`);
      },
    },
    {
      id: 'NET-STATE-04',
      title:
        'two withdrawal requests of the minimum sent at the same time: requested_amount grows by the amounts of the records they add',
      needs: ['root', 'min', 'max'],
      async run(ctx: Ctx) {
        const { min = 0, max = 0 } = ctx.state;
        const amount = Math.max(min, 0.01);
        if (amount > max) ctx.skip(`no amount lies within the limits ${min}..${max}`);
        // Under the lock: no other area's accepted request lands between the two reads.
        await withRunLock(
          ctx.settings.runId,
          ROOT_WITHDRAWALS_LOCK,
          async () => {
            const before = await net(ctx).get('/withdrawal', { token: token(ctx) });
            envelope(ctx, before, 'withdrawal before two requests sent at once');
            const balance = num(rec(before.body.withdrawal_info).total_balance);
            if (!(balance >= 2 * amount)) ctx.skip(`the withdrawable balance (${balance}) is below twice ${money(amount)}`);
            // A total kept as read + amount without a lock counts only one of two requests handled at once.
            const both = await Promise.all([0, 1].map(() => request(ctx, { amount: money(amount) })));
            for (const [i, call] of both.entries())
              envelope(ctx, call, `withdrawal_request of ${money(amount)} (${i + 1} of 2, sent at once)`);
            const after = await net(ctx).get('/withdrawal', { token: token(ctx) });
            envelope(ctx, after, 'withdrawal after two requests sent at once');
            const accepted = both.filter((c) => c.body.status === true).length;
            if (accepted === 0)
              ctx.skip(`neither request of ${money(amount)} was accepted: ${both.map((c) => described(c)).join('; ')}`);
            const list = (call: Call) =>
              Array.isArray(call.body.all_withdrawal_data) ? call.body.all_withdrawal_data.filter(isObject) : [];
            const known = new Set(list(before).map((r) => JSON.stringify(r.id)));
            const added = list(after).filter((r) => !known.has(JSON.stringify(r.id)));
            const sum = added.reduce((t, r) => t + num(r.amount), 0);
            const was = num(rec(before.body.withdrawal_info).requested_amount);
            const is = num(rec(after.body.withdrawal_info).requested_amount);
            ctx.expect(
              added.filter((r) => Math.abs(num(r.amount) - amount) < 0.005).length >= accepted,
              `${accepted} of two requests of ${money(amount)} sent at once were accepted, but all_withdrawal_data gained ${added.length} record(s) (${added.map((r) => JSON.stringify(r.amount)).join(', ') || 'none'})`,
              before.ex,
              ...both.map((c) => c.ex),
              after.ex,
            );
            ctx.expect(
              Number.isFinite(was) && Number.isFinite(is) && Math.abs(is - was - sum) < 0.005,
              `after two requests of ${money(amount)} sent at once (${accepted} accepted), all_withdrawal_data gained records of ${money(sum)} in all, but requested_amount went from ${JSON.stringify(rec(before.body.withdrawal_info).requested_amount)} to ${JSON.stringify(rec(after.body.withdrawal_info).requested_amount)}`,
              before.ex,
              ...both.map((c) => c.ex),
              after.ex,
            );
          },
          { onGiveUp: (m) => ctx.note(m) },
        );
      },
    },
    noServerErrorCheck(),
  ],
};
