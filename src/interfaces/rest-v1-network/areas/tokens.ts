import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type BadToken, forgedTokens, malformedTokens, resignedTokens } from '../../../checks/tokens.js';
import type { Exchange } from '../../../http/exchange.js';
import { asksForToken, type Call, isObject, type Json, net } from '../client.js';
import { TOKEN_ENDPOINTS } from '../endpoints.js';
import { described, noServerErrorCheck, num } from '../expect.js';
import { FreshAccounts } from '../fresh.js';
import type { Account } from '../provision.js';

/**
 * Tokens (Part 5: "a signed token (JWT, RS256 signature)"): every endpoint that takes the header
 * refuses tokens not signed by the service, and one account cannot reach another's data. The
 * tokens are derived from a fresh account's real one; each bad token is sent once per endpoint.
 */
interface TokenState {
  a: Account;
  b: Account;
  /** Per endpoint ("METHOD path"): its answer without a token. */
  missing: Map<string, Call>;
}

type Ctx = CheckContext<TokenState>;

/**
 * Refused: status false and no payload of the endpoint. A POST is sent with a body valid apart
 * from the token where one exists, so a validation refusal (errors keyed by a body field) does not
 * pass for a token refusal: it means the token got past authentication.
 */
const BODIES: Record<string, Record<string, string>> = {
  '/bank_details_save': {
    account_holder_name: 'Sfc Forged',
    account_number: '12345678',
    bank_name: 'Forged Bank',
    branch: 'Nowhere',
    ifsc_code: 'FORG0000001',
    contact_number: '9876543210',
  },
  '/withdrawal_request': { amount: '10.00' },
};

const PAYLOAD_KEYS = [
  'user',
  'uni_user',
  'bank_details',
  'payout',
  'pair_commission',
  'level_commission',
  'bonus_commission',
  'geneology_data',
  'withdrawal_info',
  'all_withdrawal_data',
];

/**
 * A token refusal: status false, no payload of the endpoint, and an answer that reads as one about
 * the token (a message naming it, HTTP 401 or 403) or is the very answer the endpoint gives without
 * a token. status false alone is not enough: once a token is taken, a request may fail for its own
 * reasons (a zero balance, an unknown payout), and errors of any shape can carry that.
 */
function refusedToken(call: Call, missing: Call | undefined): boolean {
  if (call.body.status !== false) return false;
  if (PAYLOAD_KEYS.some((k) => call.body[k] !== undefined && call.body[k] !== null && call.body[k] !== '')) return false;
  const status = call.ex.response?.status ?? 0;
  if (asksForToken(call) || status === 401 || status === 403) return true;
  return (
    missing !== undefined &&
    missing.body.status === false &&
    missing.body.message === call.body.message &&
    missing.ex.response?.status === call.ex.response?.status
  );
}

/** The endpoint's answer to the same request without a token (what a token refusal looks like), once per area. */
async function noTokenAnswer(ctx: Ctx, e: (typeof TOKEN_ENDPOINTS)[number]): Promise<Call> {
  const key = `${e.method} ${e.path}`;
  const known = ctx.state.missing?.get(key);
  if (known) return known;
  const call = await net(ctx).send(e.method, e.path, {
    ...(e.query ? { query: e.query } : {}),
    ...(e.method === 'POST' ? { form: BODIES[e.path] ?? {} } : {}),
  });
  ctx.state.missing = ctx.state.missing ?? new Map();
  ctx.state.missing.set(key, call);
  return call;
}

async function sweep(ctx: Ctx, tokens: BadToken[], what: string): Promise<void> {
  const bad: string[] = [];
  const evidence: Exchange[] = [];
  for (const e of TOKEN_ENDPOINTS) {
    const missing = await noTokenAnswer(ctx, e);
    for (const t of tokens) {
      const call = await net(ctx).send(e.method, e.path, {
        token: t.token,
        ...(e.query ? { query: e.query } : {}),
        ...(e.method === 'POST' ? { form: BODIES[e.path] ?? {} } : {}),
      });
      if (!refusedToken(call, missing)) {
        bad.push(`${e.method} ${e.path} with ${t.label}: ${described(call)}`);
        if (evidence.length < 4) evidence.push(call.ex);
      }
    }
  }
  ctx.expect(
    bad.length === 0,
    `${what} accepted (expected status false asking for a valid token, or the answer given without a token): ${bad.join('; ')}`,
    ...evidence,
  );
}

const a = (ctx: Ctx) => ctx.state.a as Account;

export const tokensArea: AreaSpec<TokenState> = {
  interface: 'rest-v1-network',
  name: 'tokens',
  checks: [
    {
      id: 'NET-TOK-01',
      title: 'every token endpoint refuses alg none, HS256 (guessed and empty key), a foreign RS256 key and a changed payload',
      async run(ctx: Ctx) {
        const fresh = new FreshAccounts(ctx);
        ctx.state.a = await fresh.next();
        ctx.state.b = await fresh.next();
        // The reference publishes no public key; without one, HS256 is signed with guesses.
        const forged = await forgedTokens(a(ctx).token);
        const changed = resignedTokens(a(ctx).token).filter((t) => t.label.startsWith('payload changed'));
        await sweep(ctx, [...forged, ...changed], 'tokens not signed by the service were');
      },
    },
    {
      id: 'NET-SEC-01',
      title: 'every token endpoint refuses malformed tokens (not a JWT, two parts, altered signature) and an empty header',
      needs: ['a'],
      async run(ctx: Ctx) {
        await sweep(ctx, [...malformedTokens(a(ctx).token), { label: 'an empty token', token: '' }], 'malformed tokens were');
      },
    },
    {
      id: 'NET-TOK-02',
      title: 'every token endpoint refuses an expired token (exp in the past)',
      needs: ['a'],
      async run(ctx: Ctx) {
        const expired = resignedTokens(a(ctx).token).filter((t) => t.label.startsWith('expired'));
        await sweep(ctx, expired, 'an expired token was');
      },
    },
    {
      id: 'NET-TOK-03',
      title: "one account's bank-details save and withdrawals do not reach another account",
      needs: ['a', 'b'],
      async run(ctx: Ctx) {
        const { a: first, b: second } = ctx.state as TokenState;
        const mine = {
          ...(BODIES['/bank_details_save'] as Json),
          account_holder_name: 'Sfc Owner',
          account_number: '111122223333',
        };
        const theirs = { ...mine, account_holder_name: 'Sfc Intruder', account_number: '999988887777' };
        const saveA = await net(ctx).post('/bank_details_save', { token: first.token, form: mine as Record<string, string> });
        if (saveA.body.status !== true) ctx.skip(`bank_details_save for the first account was refused: ${described(saveA)}`);
        const saveB = await net(ctx).post('/bank_details_save', { token: second.token, form: theirs as Record<string, string> });
        const readA = await net(ctx).get('/bank_details', { token: first.token });
        const rows = Array.isArray(readA.body.bank_details) ? readA.body.bank_details.filter(isObject) : [];
        ctx.expect(
          rows.length > 0 && rows.every((r) => String(r.account_number) === '111122223333'),
          `bank_details of the first account after the second saved its own: ${JSON.stringify(rows).slice(0, 300)}`,
          saveB.ex,
          readA.ex,
        );
        // The second account never withdrew: its GET /withdrawal shows no one's records.
        const wd = await net(ctx).get('/withdrawal', { token: second.token });
        const list = Array.isArray(wd.body.all_withdrawal_data) ? wd.body.all_withdrawal_data : [];
        const info = isObject(wd.body.withdrawal_info) ? wd.body.withdrawal_info : {};
        ctx.expect(
          list.length === 0 && !(num(info.requested_amount) > 0),
          `GET /withdrawal of an account that never withdrew shows ${list.length} record(s), requested_amount ${JSON.stringify(info.requested_amount)}`,
          wd.ex,
        );
      },
    },
    {
      id: 'NET-WD-10',
      title: 'GET /withdrawal of two accounts, one right after the other: each withdrawal_info is its own',
      needs: ['a', 'b'],
      async run(ctx: Ctx) {
        // The same URL a moment apart with two tokens: an answer kept by URL alone would give the
        // second account the first one's withdrawal_info.
        for (const account of [a(ctx), ctx.state.b as Account]) {
          const own = account.netUser?.user_key;
          if (typeof own !== 'string' || own === '') ctx.skip(`the register of ${account.username} carried no net_user.user_key`);
        }
        for (const account of [a(ctx), ctx.state.b as Account]) {
          const call = await net(ctx).get('/withdrawal', { token: account.token });
          const got = isObject(call.body.withdrawal_info) ? call.body.withdrawal_info.user_key : undefined;
          ctx.expect(
            got === account.netUser?.user_key,
            `GET /withdrawal of ${account.username}: expected withdrawal_info.user_key ${account.netUser?.user_key}, got ${JSON.stringify(got)} (${described(call)})`,
            call.ex,
          );
        }
      },
    },
    noServerErrorCheck(),
  ],
};
