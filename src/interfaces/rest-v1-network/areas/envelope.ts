import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec, CheckSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import { type Call, isObject, net, parse } from '../client.js';
import { described, envelope, keyedBy, noServerErrorCheck } from '../expect.js';
import { type Account, rootAccount } from '../provision.js';

/** The envelope of Part 1 and the failure rules of Part 7, across all 15 endpoints. */
interface EnvelopeState {
  root: Account;
  payoutId: string;
}

type Ctx = CheckContext<EnvelopeState>;

const token = (ctx: Ctx) => (ctx.state.root as Account).token;

/** Reads of SFC_NET_USERNAME that should succeed (withdrawal aside: AMB-NET-02 allows status false with data). */
const READS: { id: string; call: (ctx: Ctx) => Promise<Call> }[] = [
  { id: 'user-info', call: (ctx) => net(ctx).userInfo(token(ctx)) },
  { id: 'uni-get-user-info', call: (ctx) => net(ctx).uniLookup({ user_id: String(ctx.state.root?.user.ID ?? '') }, token(ctx)) },
  { id: 'bank-details', call: (ctx) => net(ctx).get('/bank_details', { token: token(ctx) }) },
  { id: 'payout-list', call: (ctx) => net(ctx).get('/payout_list', { token: token(ctx) }) },
  {
    id: 'payout-details',
    call: (ctx) => net(ctx).get('/payout_details', { token: token(ctx), query: { payout_id: ctx.state.payoutId ?? '1' } }),
  },
  { id: 'pair-commission', call: (ctx) => net(ctx).get('/pair_commission', { token: token(ctx) }) },
  { id: 'level-commission', call: (ctx) => net(ctx).get('/level_commission', { token: token(ctx) }) },
  { id: 'bonus-commission', call: (ctx) => net(ctx).get('/bonus_commission', { token: token(ctx) }) },
  { id: 'user-geneology', call: (ctx) => net(ctx).get('/user_geneology', { token: token(ctx) }) },
];

/** Writes with an empty body: validation failures that change nothing, and the fields they must name. */
const EMPTY_WRITES: { id: string; path: string; auth: boolean; fields: string[] }[] = [
  { id: 'auth-login', path: '/auth/login', auth: false, fields: ['username', 'password'] },
  {
    id: 'auth-register',
    path: '/auth/register',
    auth: false,
    fields: ['first_name', 'last_name', 'username', 'password', 'email', 'address'],
  },
  {
    id: 'bank-details-save',
    path: '/bank_details_save',
    auth: true,
    fields: ['account_holder_name', 'account_number', 'bank_name', 'branch', 'ifsc_code', 'contact_number'],
  },
  { id: 'withdrawal-request', path: '/withdrawal_request', auth: true, fields: ['amount'] },
  { id: 'join-net', path: '/Join_net', auth: true, fields: ['sponsor_name', 'parent_name', 'position'] },
];

const emptyWrite = (ctx: Ctx, w: (typeof EMPTY_WRITES)[number]) => net(ctx).post(w.path, w.auth ? { token: token(ctx) } : {});

const envelopeChecks: CheckSpec<EnvelopeState>[] = [
  ...READS.map((r) => ({ id: r.id, title: `${r.id} answers the envelope`, call: r.call })),
  {
    id: 'withdrawal',
    title: 'withdrawal answers the envelope',
    call: (ctx: Ctx) => net(ctx).get('/withdrawal', { token: token(ctx) }),
  },
  ...EMPTY_WRITES.map((w) => ({
    id: w.id,
    title: `${w.path} with an empty body answers the envelope`,
    call: (ctx: Ctx) => emptyWrite(ctx, w),
  })),
].map((e) => ({
  id: 'NET-ENV-01',
  title: e.title,
  needs: ['root'],
  async run(ctx: Ctx) {
    envelope(ctx, await e.call(ctx), e.id);
  },
}));

const malformed: { what: string; send: (ctx: Ctx) => Promise<Exchange> }[] = [
  {
    what: 'login with broken JSON',
    send: (ctx) =>
      ctx.http.send({
        method: 'POST',
        url: net(ctx).url('/auth/login'),
        headers: { 'content-type': 'application/json' },
        raw: '{"username": ',
      }),
  },
  {
    what: 'register with net_user as a JSON string',
    send: (ctx) =>
      ctx.http.send({ method: 'POST', url: net(ctx).url('/auth/register'), json: { username: 'x', net_user: 'oops' } }),
  },
  {
    what: 'payout_details?payout_id=abc',
    send: async (ctx) => (await net(ctx).get('/payout_details', { token: token(ctx), query: { payout_id: 'abc' } })).ex,
  },
  {
    what: 'pair_commission?start=-1&limit=x',
    send: async (ctx) => (await net(ctx).get('/pair_commission', { token: token(ctx), query: { start: -1, limit: 'x' } })).ex,
  },
  {
    what: 'uni-get-user-info?user_id[]=1',
    send: async (ctx) => (await net(ctx).get('/uni-get-user-info', { query: { 'user_id[]': [1, 2] } })).ex,
  },
  {
    what: 'withdrawal_request amount 1e309',
    send: async (ctx) => (await net(ctx).post('/withdrawal_request', { token: token(ctx), form: { amount: '1e309' } })).ex,
  },
  {
    what: 'bank_details with the token "null"',
    send: async (ctx) => (await net(ctx).get('/bank_details', { token: 'null' })).ex,
  },
  {
    what: 'bank_details_save with a 20000-character holder name',
    send: async (ctx) =>
      (
        await net(ctx).post('/bank_details_save', {
          token: token(ctx),
          form: { account_holder_name: 'x'.repeat(20000), account_number: 'y' },
        })
      ).ex,
  },
];

export const envelopeArea: AreaSpec<EnvelopeState> = {
  interface: 'rest-v1-network',
  name: 'envelope',
  checks: [
    {
      id: 'NET-ENV-02',
      title: 'every read of SFC_NET_USERNAME answers status true',
      async run(ctx: Ctx) {
        ctx.state.root = await rootAccount(ctx);
        const list = await net(ctx).get('/payout_list', { token: token(ctx) });
        const first = Array.isArray(list.body.payout) ? list.body.payout.find(isObject) : undefined;
        if (first && (typeof first.payout_id === 'string' || typeof first.payout_id === 'number'))
          ctx.state.payoutId = String(first.payout_id);
        const failed: Call[] = [];
        for (const r of READS) {
          if (r.id === 'payout-details' && !ctx.state.payoutId) continue;
          const call = await r.call(ctx);
          if (call.body.status !== true) failed.push(call);
        }
        ctx.expect(
          failed.length === 0,
          `expected status true; got ${failed.map((c) => `${c.ex.request.url}: ${described(c)}`).join('; ')}`,
          ...failed.map((c) => c.ex),
        );
      },
    },
    ...envelopeChecks,
    {
      id: 'NET-ENV-03',
      title: 'writes with an empty body answer status false',
      needs: ['root'],
      async run(ctx: Ctx) {
        for (const w of EMPTY_WRITES) {
          const call = await emptyWrite(ctx, w);
          ctx.expect(
            call.body.status === false,
            `${w.path} with an empty body: expected status false, got ${described(call)}`,
            call.ex,
          );
        }
      },
    },
    {
      id: 'NET-ENV-04',
      title: 'writes with an empty body answer errors as an object keyed by a required field',
      needs: ['root'],
      async run(ctx: Ctx) {
        for (const w of EMPTY_WRITES) {
          const call = await emptyWrite(ctx, w);
          ctx.expect(
            isObject(call.body.errors) && w.fields.some((f) => keyedBy(call.body.errors, f)),
            `${w.path} with an empty body: expected errors keyed by one of ${w.fields.join(', ')}, got ${described(call)}`,
            call.ex,
          );
        }
      },
    },
    {
      id: 'NET-ENV-07',
      title: 'refusals carry a non-empty message',
      needs: ['root'],
      async run(ctx: Ctx) {
        for (const w of EMPTY_WRITES) {
          const call = await emptyWrite(ctx, w);
          const m = call.body.message;
          ctx.expect(
            typeof m === 'string' && m.trim() !== '',
            `${w.path} refused: expected a failure text in message, got ${described(call)}`,
            call.ex,
          );
        }
      },
    },
    {
      id: 'NET-ENV-05',
      title: 'malformed and wrongly typed input never gets an HTTP 5xx',
      needs: ['root'],
      async run(ctx: Ctx) {
        const bad: string[] = [];
        const evidence: Exchange[] = [];
        for (const m of malformed) {
          const ex = await m.send(ctx);
          if (!ex.response || ex.response.status >= 500) {
            bad.push(
              `${m.what}: ${ex.response ? `HTTP ${ex.response.status} ${JSON.stringify(parse(ex).message ?? '')}` : ex.error}`,
            );
            evidence.push(ex);
          }
        }
        ctx.expect(bad.length === 0, `expected no 5xx; got ${bad.join('; ')}`, ...evidence);
      },
    },
    noServerErrorCheck(),
  ],
};
