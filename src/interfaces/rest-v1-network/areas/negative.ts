import { deeplyNestedBody, MULTIPART_WITHOUT_BOUNDARY, NESTING_DEPTH } from '../../../arbitraries/hostile.js';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { HttpRequest } from '../../../http/client.js';
import { type Exchange, responseJson } from '../../../http/exchange.js';
import { type Call, net, parse, SCHEMAS } from '../client.js';
import { described, noServerErrorCheck } from '../expect.js';
import { FreshAccounts } from '../fresh.js';

/**
 * Negative and robustness input for every endpoint, one request per endpoint and kind: the
 * answer must be the envelope of Part 1 (NET-ENV-01), a broken write must be refused with
 * status false (NET-ENV-03), and nothing may get a 5xx (NET-ENV-05). The requests are sent once,
 * by the first check; the others judge the same answers.
 */

interface Sent {
  what: string;
  /** The input cannot succeed (broken or missing body of a write): status false is due. */
  mustRefuse: boolean;
  call: Call;
}

interface NegState {
  sent: Sent[];
}

type Ctx = CheckContext<NegState>;

const LONG = 'A'.repeat(20_000);

/** The writes, their required fields, and whether they take the token. */
const WRITES = [
  { path: '/auth/login', auth: false, fields: ['username', 'password'] },
  { path: '/auth/register', auth: false, fields: ['first_name', 'last_name', 'username', 'password', 'email'] },
  {
    path: '/bank_details_save',
    auth: true,
    fields: ['account_holder_name', 'account_number', 'bank_name', 'branch', 'ifsc_code', 'contact_number'],
  },
  { path: '/withdrawal_request', auth: true, fields: ['amount'] },
  { path: '/Join_net', auth: true, fields: ['sponsor_name', 'parent_name', 'position'] },
];

/** The reads and a query each takes (the ids and offsets whose types matter). */
const READS: { path: string; auth: boolean; typed: Record<string, string> }[] = [
  { path: '/user-info', auth: true, typed: { user_id: 'x' } },
  { path: '/uni-get-user-info', auth: false, typed: { user_id: 'abc', user_key: '[]' } },
  { path: '/bank_details', auth: true, typed: { start: 'x' } },
  { path: '/payout_list', auth: true, typed: { start: 'abc', limit: '-5' } },
  { path: '/payout_details', auth: true, typed: { payout_id: '1.5e3x' } },
  { path: '/pair_commission', auth: true, typed: { start: '-1', limit: 'ten' } },
  { path: '/level_commission', auth: true, typed: { start: '1e400', limit: '0x10' } },
  { path: '/bonus_commission', auth: true, typed: { start: 'null', limit: 'true' } },
  { path: '/user_geneology', auth: true, typed: { depth: 'deep' } },
  { path: '/withdrawal', auth: true, typed: { start: '[]' } },
];

/** The body kinds of a write: [label, request fields, must it be refused]. */
function bodyKinds(fields: string[]): { kind: string; req: Partial<HttpRequest>; mustRefuse: boolean }[] {
  const all = (v: unknown) => Object.fromEntries(fields.map((f, i) => [f, i % 2 === 0 ? v : { nested: v }]));
  return [
    {
      kind: 'malformed JSON',
      req: { headers: { 'content-type': 'application/json' }, raw: '{"username": "x", ' },
      mustRefuse: true,
    },
    {
      kind: 'wrong content type (text/plain)',
      req: { headers: { 'content-type': 'text/plain' }, raw: fields.map((f) => `${f}=x`).join('&') },
      mustRefuse: true,
    },
    {
      kind: 'multipart without its boundary',
      req: { headers: { 'content-type': MULTIPART_WITHOUT_BOUNDARY }, raw: fields.map((f) => `${f}=x`).join('&') },
      mustRefuse: true,
    },
    { kind: 'no body at all', req: {}, mustRefuse: true },
    { kind: 'JSON {} (required fields missing)', req: { json: {} }, mustRefuse: true },
    { kind: 'wrong types (arrays and objects)', req: { json: all(['x', 'y']) }, mustRefuse: true },
    {
      kind: `wrong types (arrays nested ${NESTING_DEPTH} deep)`,
      req: { headers: { 'content-type': 'application/json' }, raw: deeplyNestedBody(fields) },
      mustRefuse: true,
    },
    { kind: 'unknown fields only', req: { form: { sfc_unknown: 'x', 'net_user[sfc_unknown]': 'y' } }, mustRefuse: true },
    // Lengths are not shown: a target may accept long values, so only the envelope is due.
    { kind: '20000-character values', req: { form: Object.fromEntries(fields.map((f) => [f, LONG])) }, mustRefuse: false },
  ];
}

async function sendAll(ctx: Ctx, token: string): Promise<Sent[]> {
  const client = net(ctx);
  const out: Sent[] = [];
  const send = async (what: string, mustRefuse: boolean, req: HttpRequest) => {
    const ex: Exchange = await ctx.http.send(req);
    out.push({ what, mustRefuse, call: { ex, body: parse(ex) } });
  };
  for (const w of WRITES) {
    const auth = w.auth ? { [client.tokenHeader]: token } : {};
    for (const k of bodyKinds(w.fields)) {
      await send(`POST ${w.path} with ${k.kind}`, k.mustRefuse, {
        method: 'POST',
        url: client.url(w.path),
        ...k.req,
        headers: { ...(k.req.headers ?? {}), ...auth },
      });
    }
  }
  for (const r of READS) {
    const headers = r.auth ? { [client.tokenHeader]: token } : {};
    const url = client.url(r.path);
    await send(`GET ${r.path} with wrongly typed query ${JSON.stringify(r.typed)}`, false, {
      method: 'GET',
      url,
      headers,
      query: r.typed,
    });
    await send(`GET ${r.path} with unknown query fields`, false, {
      method: 'GET',
      url,
      headers,
      query: { sfc_unknown: 'x', 'sfc[nested]': 'y' },
    });
    await send(`GET ${r.path} with a 5000-character query value`, false, {
      method: 'GET',
      url,
      headers,
      query: { start: '9'.repeat(5000), user_id: '9'.repeat(5000) },
    });
  }
  return out;
}

function judge(ctx: Ctx, bad: (s: Sent) => string | undefined, what: string): void {
  const problems = (ctx.state.sent ?? []).map((s) => [s, bad(s)] as const).filter(([, p]) => p !== undefined);
  ctx.expect(
    problems.length === 0,
    `${problems.length} of ${(ctx.state.sent ?? []).length} bad inputs ${what}: ${problems
      .slice(0, 6)
      .map(([s, p]) => `${s.what}: ${p}`)
      .join('; ')}`,
    ...problems.slice(0, 4).map(([s]) => s.call.ex),
  );
}

export const negativeArea: AreaSpec<NegState> = {
  interface: 'rest-v1-network',
  name: 'negative',
  checks: [
    {
      id: 'NET-ENV-01',
      title:
        'bad input to every endpoint (malformed JSON, wrong content type or multipart without its boundary, no body, missing fields, wrong types or deeply nested arrays, unknown fields, long values) answers the envelope',
      async run(ctx: Ctx) {
        const account = await new FreshAccounts(ctx).next();
        ctx.state.sent = await sendAll(ctx, account.token);
        judge(
          ctx,
          (s) => {
            if (!s.call.ex.response) return `no response (${s.call.ex.error})`;
            const issues = ctx.schemas.check(`${SCHEMAS}envelope.schema.json`, jsonOrText(s.call.ex));
            return issues.length > 0
              ? `not the envelope (${described(s.call)}; ${issues[0]?.path} ${issues[0]?.message})`
              : undefined;
          },
          'did not answer the envelope',
        );
      },
    },
    {
      id: 'NET-ENV-03',
      title:
        'broken write bodies (malformed JSON, wrong content type or multipart without its boundary, no body, {}, wrong types or deeply nested arrays, unknown fields only) are refused with status false',
      needs: ['sent'],
      async run(ctx: Ctx) {
        judge(ctx, (s) => (s.mustRefuse && s.call.body.status !== false ? described(s.call) : undefined), 'were not refused');
      },
    },
    {
      id: 'NET-ENV-05',
      title: 'no bad input to any endpoint gets an HTTP 5xx',
      needs: ['sent'],
      async run(ctx: Ctx) {
        judge(
          ctx,
          (s) => (!s.call.ex.response || s.call.ex.response.status >= 500 ? described(s.call) : undefined),
          'got a 5xx or no answer',
        );
      },
    },
    noServerErrorCheck(),
  ],
};

/** The body as JSON, or its text when it is not JSON (the envelope schema then says what is wrong). */
function jsonOrText(ex: Exchange): unknown {
  const v = responseJson(ex);
  return v === undefined ? ex.response?.body : v;
}
