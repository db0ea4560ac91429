import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec, CheckSpec } from '../../../checks/model.js';
import { asksForToken, type Call, isObject, type Json, net } from '../client.js';
import { TOKEN_ENDPOINTS } from '../endpoints.js';
import { conforms, described, noServerError, noServerErrorCheck, refused, refusedWithFieldError, succeeded } from '../expect.js';
import { type Account, rootAccount, rootLogin } from '../provision.js';

/** Login, the token (format, required, checked) and the versioned namespace. */
interface AuthState {
  root: Account;
  login: Call;
}

type Ctx = CheckContext<AuthState>;

const b64url = (v: Json | string) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

function jwtParts(token: string): { header: Json; payload: Json } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0] as string, 'base64url').toString('utf8')) as unknown;
    const payload = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as unknown;
    return isObject(header) && isObject(payload) ? { header, payload } : undefined;
  } catch {
    return undefined;
  }
}

/** Calls a token endpoint with the given header value (or none); user-info under the spelling that answers. */
async function callWith(ctx: CheckContext<unknown>, id: string, token: string | undefined): Promise<Call> {
  const ep = TOKEN_ENDPOINTS.find((e) => e.id === id);
  if (!ep) throw new Error(`suite bug: unknown token endpoint ${id}`);
  const client = net(ctx);
  const opts = { ...(token !== undefined ? { token } : {}), ...(ep.query ? { query: ep.query } : {}) };
  const call = await client.send(ep.method, ep.path, opts);
  if (id !== 'user-info' || call.body.status === true || asksForToken(call)) return call;
  // AMB-NET-01: the other spelling may be the one served; keep the answer that is about the token.
  const other = await client.send('GET', '/user_info', opts);
  return other.body.status === true || asksForToken(other) ? other : call;
}

const tokenRequired: CheckSpec<AuthState>[] = TOKEN_ENDPOINTS.map((ep) => ({
  id: 'NET-AUTH-05',
  title: `${ep.method} ${ep.path} without the token header is refused with a message asking for the token`,
  async run(ctx: Ctx) {
    const call = await callWith(ctx, ep.id, undefined);
    const body = refused(ctx, call, `${ep.path} without a token`);
    ctx.expect(
      typeof body.message === 'string' && /token/i.test(body.message),
      `${ep.path} without a token: expected a message asking for the token in the header, got ${described(call)}`,
      call.ex,
    );
  },
}));

export const authArea: AreaSpec<AuthState> = {
  interface: 'rest-v1-network',
  name: 'auth',
  checks: [
    {
      id: 'NET-VER-01',
      title: '{api_root} ends in the version segment v1',
      async run(ctx: Ctx) {
        const root = net(ctx).root;
        ctx.expect(/\/v1$/.test(root), `expected the network api_root to end in /v1, got ${root}`);
      },
    },
    {
      id: 'NET-AUTH-01',
      title: 'login with SFC_NET_USERNAME answers status true, the token, user and net_user',
      async run(ctx: Ctx) {
        const username = ctx.data('SFC_NET_USERNAME');
        const password = ctx.data('SFC_NET_PASSWORD');
        if (!username || !password) ctx.skip('SFC_NET_USERNAME / SFC_NET_PASSWORD are not set');
        const client = net(ctx);
        // The run's one login of the account (rootLogin): a login of its own would end the token the
        // other areas use, where a target ends an account's earlier tokens (not shown either way).
        const call = await rootLogin(ctx, username, password);
        succeeded(ctx, call, 'login');
        conforms(ctx, call, 'auth-login');
        ctx.expect(
          call.token,
          `login: expected a string "${client.tokenHeader}" in the response${client.tokenHint(call.body)}`,
          call.ex,
        );
        ctx.expect(isObject(call.body.net_user), 'login of a network-plan account: expected net_user to be a record', call.ex);
        ctx.state.login = call;
        ctx.state.root = await rootAccount(ctx);
      },
    },
    {
      id: 'NET-AUTH-06',
      title: 'the login user record carries first_name and last_name',
      needs: ['login'],
      async run(ctx: Ctx) {
        const call = ctx.state.login as Call;
        const user = isObject(call.body.user) ? call.body.user : {};
        ctx.expect(
          typeof user.first_name === 'string' && typeof user.last_name === 'string',
          `login: expected user.first_name and user.last_name (strings), got ${JSON.stringify({ first_name: user.first_name, last_name: user.last_name })}`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-AUTH-08',
      title: 'the login user record carries no user_pass (user-info only)',
      needs: ['login'],
      async run(ctx: Ctx) {
        const call = ctx.state.login as Call;
        const user = isObject(call.body.user) ? call.body.user : {};
        ctx.expect(
          !('user_pass' in user),
          `login: the document lists user_pass for user-info only, but the login user record carries it`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-AUTH-02',
      title: 'the login token is a JWT signed with RS256',
      needs: ['login'],
      async run(ctx: Ctx) {
        const call = ctx.state.login as Call;
        const token = net(ctx).tokenOf(call.body) ?? '';
        const jwt = jwtParts(token);
        ctx.expect(
          jwt,
          `expected a JWT (three base64url parts with JSON header and payload), got ${token.slice(0, 40)}…`,
          call.ex,
        );
        ctx.expect(jwt.header.alg === 'RS256', `expected JWT header alg RS256, got ${JSON.stringify(jwt.header.alg)}`, call.ex);
      },
    },
    {
      id: 'NET-AUTH-07',
      title: 'the login token is accepted in the token header (user-info)',
      needs: ['root'],
      async run(ctx: Ctx) {
        const call = await net(ctx).userInfo((ctx.state.root as Account).token);
        ctx.expect(
          !asksForToken(call),
          `the token was sent in the ${net(ctx).tokenHeader} header but the target asks for it (${described(call)}): a proxy in front of it may drop header names with underscores (nginx does unless underscores_in_headers is on)`,
          call.ex,
        );
        succeeded(ctx, call, `user-info (${call.path}) with the login token`);
      },
    },
    {
      id: 'NET-AUTH-03',
      title: 'login with a wrong password is refused with a message',
      async run(ctx: Ctx) {
        const username = ctx.data('SFC_NET_USERNAME') ?? ctx.names.username();
        const call = await net(ctx).login(username, `${ctx.names.password()}x`);
        const body = refused(ctx, call, 'login with a wrong password');
        ctx.expect(
          typeof body.message === 'string' && body.message.trim() !== '',
          `expected a failure message, got ${described(call)}`,
          call.ex,
        );
        ctx.expect(!net(ctx).tokenOf(body), 'a refused login must not carry a token', call.ex);
      },
    },
    {
      id: 'NET-ENV-05',
      title: 'login with a username no account has gets no HTTP 5xx',
      async run(ctx: Ctx) {
        // "Cases shown: invalid login details": an unknown username is the commonest such login.
        noServerError(ctx, await net(ctx).login(ctx.names.username(), ctx.names.password()), 'login with an unknown username');
      },
    },
    {
      id: 'NET-AUTH-04',
      title: 'login without username, or without password, is refused with errors keyed by that field',
      async run(ctx: Ctx) {
        const client = net(ctx);
        const noUser = await client.post('/auth/login', { form: { password: ctx.names.password() } });
        refusedWithFieldError(ctx, noUser, 'username', 'login without username');
        const noPass = await client.post('/auth/login', {
          form: { username: ctx.data('SFC_NET_USERNAME') ?? ctx.names.username() },
        });
        refusedWithFieldError(ctx, noPass, 'password', 'login without password');
      },
    },
    ...tokenRequired,
    {
      id: 'NET-SEC-01',
      title: 'a forged token (RS256 header, made-up signature) is refused on every token endpoint',
      async run(ctx: Ctx) {
        const forged = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ sub: '1', user_login: 'admin' })}.${b64url('not-a-signature')}`;
        const accepted: Call[] = [];
        for (const ep of TOKEN_ENDPOINTS) {
          const call = await callWith(ctx, ep.id, forged);
          if (call.body.status !== false) accepted.push(call);
        }
        ctx.expect(
          accepted.length === 0,
          `expected status false for a forged token; not refused by: ${accepted.map((c) => `${c.ex.request.method} ${c.ex.request.url} (${described(c)})`).join('; ')}`,
          ...accepted.map((c) => c.ex),
        );
      },
    },
    {
      id: 'NET-SEC-02',
      title: 'a token with an altered payload, or with alg none, is refused',
      needs: ['root'],
      async run(ctx: Ctx) {
        const token = (ctx.state.root as Account).token;
        const jwt = jwtParts(token);
        if (!jwt) ctx.skip('the login token is not a JWT; nothing to tamper with');
        const [h, , sig] = token.split('.');
        const altered = { ...jwt.payload, sub: `${jwt.payload.sub ?? ''}0`, user_login: 'someone-else' };
        const tampered = `${h}.${b64url(altered)}.${sig}`;
        const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(jwt.payload)}.`;
        for (const [what, t] of [
          ['altered payload', tampered],
          ['alg none', none],
        ] as const) {
          const call = await callWith(ctx, 'user-info', t);
          ctx.expect(
            call.body.status === false,
            `user-info with a token of ${what}: expected status false, got ${described(call)}`,
            call.ex,
          );
        }
      },
    },
    {
      id: 'NET-SEC-06',
      title: 'login answers the same message for an unknown username and a wrong password',
      async run(ctx: Ctx) {
        const username = ctx.data('SFC_NET_USERNAME');
        if (!username) ctx.skip('SFC_NET_USERNAME is not set');
        const client = net(ctx);
        const wrongPass = await client.login(username, `${ctx.names.password()}x`);
        const unknown = await client.login(ctx.names.username(), ctx.names.password());
        ctx.expect(
          wrongPass.body.message === unknown.body.message,
          `expected one message for both; wrong password: ${JSON.stringify(wrongPass.body.message)}, unknown user: ${JSON.stringify(unknown.body.message)}`,
          wrongPass.ex,
          unknown.ex,
        );
      },
    },
    noServerErrorCheck(),
  ],
};
