import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type Call, isObject, type Json, net, SCHEMAS } from '../client.js';
import { conforms, described, listOf, noServerErrorCheck, refused, refusedWithFieldError, succeeded } from '../expect.js';
import { pagingChecks } from '../paging.js';
import { type Account, anchorAccount, rootAccount } from '../provision.js';

/** Payouts of SFC_NET_USERNAME: the list, its paging, the details of one payout, record types, isolation. */
interface PayoutState {
  root: Account;
  list: Call;
  payouts: Json[];
  /** A new account of this run, without payouts: reads SFC_NET_USERNAME's payout ids (NET-PAY-06, NET-SEC-05). */
  other: Account;
}

type Ctx = CheckContext<PayoutState>;

const PAYOUT_FIELDS = [
  'id',
  'user_key',
  'payout_id',
  'pair_commission',
  'referral_commission',
  'level_commission',
  'bonus_amount',
  'total_points',
  'total_amount',
  'tax',
  'service_charge',
  'insert_date',
];
const COMMISSIONS = ['ref_commission', 'pair_commission', 'bonus_commission', 'level_commission'];

const firstPayoutId = (ctx: Ctx): string => {
  const p = (ctx.state.payouts ?? [])[0];
  if (!p || (typeof p.payout_id !== 'string' && typeof p.payout_id !== 'number'))
    ctx.skip('SFC_NET_USERNAME has no payout to look at (the data contract promises at least 3)');
  return String(p.payout_id);
};

/** The first listed payout's id as digits, for checks that build another id from it (else the check skips). */
const firstIntegerPayoutId = (ctx: Ctx): string => {
  const first = firstPayoutId(ctx);
  if (!/^\d{1,15}$/.test(first)) ctx.skip(`the first listed payout_id ${JSON.stringify(first)} is not an integer`);
  return first;
};

/** payout_details of `payoutId`, asked by SFC_NET_USERNAME (the holder of the listed payouts). */
const holderPayout = (ctx: Ctx, payoutId: string | number) =>
  net(ctx).get('/payout_details', { token: (ctx.state.root as Account).token, query: { payout_id: payoutId } });

export const payoutsArea: AreaSpec<PayoutState> = {
  interface: 'rest-v1-network',
  name: 'payouts',
  checks: [
    {
      id: 'NET-PAY-01',
      title: 'payout_list of SFC_NET_USERNAME answers payout, an array of payout records',
      async run(ctx: Ctx) {
        ctx.state.root = await rootAccount(ctx);
        const call = await net(ctx).get('/payout_list', { token: ctx.state.root.token });
        succeeded(ctx, call, 'payout_list');
        // Kept before the schema, so that NET-TYPE-01/03 judge a list with a mistyped field instead of skipping.
        ctx.state.list = call;
        ctx.state.payouts = listOf(ctx, call, 'payout');
        conforms(ctx, call, 'payout-list');
      },
    },
    ...pagingChecks<PayoutState>({ id: 'payout-list', path: '/payout_list', key: 'payout' }, (ctx) => ctx.state.root?.token),
    {
      id: 'NET-TYPE-03',
      title: 'every field of a payout record is a JSON string (scalars are strings unless a type is given)',
      needs: ['list', 'payouts'],
      async run(ctx: Ctx) {
        const payouts = ctx.state.payouts as Json[];
        if (payouts.length === 0) ctx.skip('no payout records to look at');
        const bad = payouts.flatMap((p, i) =>
          PAYOUT_FIELDS.filter((f) => typeof p[f] !== 'string').map((f) => `payout[${i}].${f}=${JSON.stringify(p[f])}`),
        );
        ctx.expect(bad.length === 0, `expected strings, got ${bad.slice(0, 8).join(', ')}`, (ctx.state.list as Call).ex);
      },
    },
    {
      id: 'NET-TYPE-01',
      title: 'timestamps of the login and the payouts are YYYY-MM-DD HH:MM:SS (or the zero value)',
      needs: ['root', 'list', 'payouts'],
      async run(ctx: Ctx) {
        const root = ctx.state.root as Account;
        const stamps: [string, unknown, Call][] = [
          ['user.user_registered', root.user.user_registered, root.call],
          ['net_user.creation_date', root.netUser?.creation_date, root.call],
          ['net_user.payment_date', root.netUser?.payment_date, root.call],
          ...(ctx.state.payouts as Json[]).map((p, i): [string, unknown, Call] => [
            `payout[${i}].insert_date`,
            p.insert_date,
            ctx.state.list as Call,
          ]),
        ];
        for (const [what, value, call] of stamps)
          ctx.validate(`${SCHEMAS}formats.schema.json#/$defs/timestamp`, value, call.ex, what);
      },
    },
    {
      id: 'NET-PAY-02',
      title: 'payout_details of a listed payout answers user_key and the four commission arrays',
      needs: ['root', 'payouts'],
      async run(ctx: Ctx) {
        const id = firstPayoutId(ctx);
        const call = await holderPayout(ctx, id);
        succeeded(ctx, call, `payout_details?payout_id=${id}`);
        conforms(ctx, call, 'payout-details');
      },
    },
    {
      id: 'NET-PAY-04',
      title: "payout_details of each listed payout (up to 4): its records belong to that payout and user_key is the holder's",
      needs: ['root', 'payouts'],
      async run(ctx: Ctx) {
        firstPayoutId(ctx);
        // Every payout, not the first only: a lookup by another column (the row id) can coincide
        // with payout_id for the first one.
        for (const payout of (ctx.state.payouts as Json[]).slice(0, 4)) {
          const id = String(payout.payout_id);
          const owner = payout.user_key;
          const call = await holderPayout(ctx, id);
          succeeded(ctx, call, `payout_details?payout_id=${id}`);
          ctx.expect(
            call.body.user_key === owner,
            `payout ${id}: expected user_key ${JSON.stringify(owner)} (the payout's), got ${JSON.stringify(call.body.user_key)}`,
            call.ex,
          );
          const foreign = COMMISSIONS.flatMap((k) =>
            (Array.isArray(call.body[k]) ? (call.body[k] as unknown[]) : [])
              .filter(isObject)
              .filter((r) => String(r.payout_id) !== id || r.user_key !== owner)
              .map((r) => `${k} ${JSON.stringify({ id: r.id, payout_id: r.payout_id, user_key: r.user_key })}`),
          );
          ctx.expect(
            foreign.length === 0,
            `payout ${id}: records of another payout or user: ${foreign.slice(0, 6).join('; ')}`,
            call.ex,
          );
        }
      },
    },
    {
      id: 'NET-PAY-07',
      title: "payout_list, walked on past its first page, lists the payout that each of the holder's paid pair commissions names",
      needs: ['root', 'list', 'payouts'],
      async run(ctx: Ctx) {
        // Pages that agree with one another can still all lack a record: a list fetched with one row of
        // look-ahead (LIMIT start, limit + 1) whose extra row is popped whether it came or not never shows
        // the holder's last payout. A paid commission names its payout, so that payout must be listed.
        const token = (ctx.state.root as Account).token;
        const commissions = await net(ctx).get('/pair_commission', { token });
        succeeded(ctx, commissions, '/pair_commission');
        // An unpaid commission's payout_id may be empty (NS-NET-13); "0" is read as unpaid too.
        const named = [
          ...new Set(
            listOf(ctx, commissions, 'pair_commission')
              .map((r) => r.payout_id)
              .filter((p) => (typeof p === 'string' || typeof p === 'number') && !/^\s*0*\s*$/.test(String(p)))
              .map(String),
          ),
        ];
        if (named.length === 0) ctx.skip('no pair commission of SFC_NET_USERNAME names a payout (none is paid yet)');
        // The page size without limit is not shown (NS-NET-07): the pages after the first are read until one is empty.
        const listed = [...(ctx.state.payouts as Json[])];
        const calls = [ctx.state.list as Call];
        for (let page = 0; page < 5 && named.some((id) => !listed.some((p) => String(p.payout_id) === id)); page++) {
          const next = await net(ctx).get('/payout_list', { token, query: { start: listed.length } });
          calls.push(next);
          const items = next.body.status === true && Array.isArray(next.body.payout) ? next.body.payout.filter(isObject) : [];
          if (items.length === 0) break;
          listed.push(...items);
        }
        const missing = named.filter((id) => !listed.some((p) => String(p.payout_id) === id));
        ctx.expect(
          missing.length === 0,
          `pair commissions of SFC_NET_USERNAME were paid in payout(s) ${missing.join(', ')}, which payout_list shows on no page (it lists ${listed.map((p) => JSON.stringify(p.payout_id)).join(', ') || 'none'})`,
          commissions.ex,
          ...calls.map((c) => c.ex),
        );
      },
    },
    {
      id: 'NET-PAY-03',
      title: 'payout_details without payout_id: refused',
      needs: ['root'],
      async run(ctx: Ctx) {
        const call = await net(ctx).get('/payout_details', { token: (ctx.state.root as Account).token });
        refused(ctx, call, 'payout_details without payout_id');
      },
    },
    {
      id: 'NET-ENV-04',
      title: 'payout_details without payout_id (required): errors keyed payout_id',
      needs: ['root'],
      async run(ctx: Ctx) {
        // "payout_id required" in the table: its absence is a validation failure (Part 7).
        const call = await net(ctx).get('/payout_details', { token: (ctx.state.root as Account).token });
        refusedWithFieldError(ctx, call, 'payout_id', 'payout_details without payout_id');
      },
    },
    {
      id: 'NET-PAY-05',
      title: 'payout_details?payout_id=first (not an integer): refused, errors keyed payout_id',
      needs: ['root'],
      async run(ctx: Ctx) {
        // "payout_id=<integer>" in the table: another value is a validation failure of that field (Part 7).
        const call = await holderPayout(ctx, 'first');
        refusedWithFieldError(ctx, call, 'payout_id', 'payout_details with payout_id "first"');
      },
    },
    {
      id: 'NET-PAY-05',
      title: "payout_details?payout_id=<a listed payout's id>abc (digits, then letters): refused, errors keyed payout_id",
      needs: ['root', 'payouts'],
      async run(ctx: Ctx) {
        // Not an integer either, though it starts as a listed payout's id: a lenient parse (parseInt,
        // intval) would answer that payout instead of failing the field.
        const value = `${firstPayoutId(ctx)}abc`;
        const call = await holderPayout(ctx, value);
        refusedWithFieldError(ctx, call, 'payout_id', `payout_details with payout_id "${value}"`);
      },
    },
    {
      id: 'NET-PAY-06',
      title: 'payout_details?payout_id=987654321 (no payout of the holder has it): refused',
      needs: ['root', 'payouts'],
      async run(ctx: Ctx) {
        const id = 987654321;
        if ((ctx.state.payouts as Json[]).some((p) => String(p.payout_id) === String(id)))
          ctx.skip(`SFC_NET_USERNAME has a payout ${id}`);
        const call = await holderPayout(ctx, id);
        refused(ctx, call, `payout_details of payout ${id}, which the holder does not have`);
      },
    },
    {
      id: 'NET-PAY-06',
      title: "payout_details?payout_id=2^32 + <a listed payout's id> (past 32 bits, no payout of the holder has it): refused",
      needs: ['root', 'payouts'],
      async run(ctx: Ctx) {
        // "payout_id=<integer>" with no width given: an id kept in 32 bits on its way to the query
        // would answer the listed payout whose id is the low 32 bits of this one.
        const first = firstIntegerPayoutId(ctx);
        const id = String(2n ** 32n + BigInt(first));
        if ((ctx.state.payouts as Json[]).some((p) => String(p.payout_id) === id))
          ctx.skip(`SFC_NET_USERNAME has a payout ${id}`);
        const call = await holderPayout(ctx, id);
        refused(ctx, call, `payout_details of payout ${id} (2^32 + ${first}), which the holder does not have`);
      },
    },
    {
      id: 'NET-PAY-06',
      title: "payout_details?payout_id=-<a listed payout's id> (a negative id, no payout of the holder has it): refused",
      needs: ['root', 'payouts'],
      async run(ctx: Ctx) {
        // A payout id read through absint() or abs() would answer the listed payout; a refusal as a
        // malformed id (errors keyed payout_id) is a refusal too.
        const first = firstIntegerPayoutId(ctx);
        const id = `-${first}`;
        const call = await holderPayout(ctx, id);
        refused(ctx, call, `payout_details of payout ${id}, which the holder does not have`);
      },
    },
    {
      id: 'NET-PAY-06',
      title:
        "payout_details of SFC_NET_USERNAME's first payout id, asked with a new account's token (none of its payouts has it): refused",
      needs: ['payouts'],
      async run(ctx: Ctx) {
        // An id another member's payout carries, not only one nobody's does: payout_details must
        // look the payout up among the holder's own, as the lists do.
        const id = firstPayoutId(ctx);
        ctx.state.other = await anchorAccount(ctx);
        const token = ctx.state.other.token;
        const own = await net(ctx).get('/payout_list', { token });
        succeeded(ctx, own, 'payout_list of a new account');
        if (listOf(ctx, own, 'payout').some((p) => String(p.payout_id) === id))
          ctx.skip(`the new account lists a payout ${id} of its own`);
        const call = await net(ctx).get('/payout_details', { token, query: { payout_id: id } });
        refused(
          ctx,
          call,
          `payout_details of payout ${id} (SFC_NET_USERNAME's) with the token of a new account, which lists no such payout`,
        );
      },
    },
    {
      id: 'NET-SEC-05',
      title: "another account's token gets none of the commissions of SFC_NET_USERNAME's payout",
      needs: ['payouts'],
      async run(ctx: Ctx) {
        const id = firstPayoutId(ctx);
        const other = ctx.state.other ?? (await anchorAccount(ctx));
        const call = await net(ctx).get('/payout_details', { token: other.token, query: { payout_id: id } });
        const leaked = COMMISSIONS.flatMap((k) => (Array.isArray(call.body[k]) ? (call.body[k] as unknown[]) : []));
        ctx.expect(
          call.body.status !== true || leaked.length === 0,
          `a new account reads ${leaked.length} commission records of another account's payout ${id} (${described(call)})`,
          call.ex,
        );
      },
    },
    noServerErrorCheck(),
  ],
};
