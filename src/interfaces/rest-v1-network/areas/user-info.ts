import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type Call, isObject, type Json, net, SCHEMAS } from '../client.js';
import {
  conforms,
  described,
  envelope,
  noServerError,
  noServerErrorCheck,
  refused,
  refusedWithFieldError,
  succeeded,
} from '../expect.js';
import { type Account, anchorAccount, rootAccount } from '../provision.js';

/** User-info (both spellings), the unilevel lookup by user_id and user_key, and what they disclose. */
interface UserState {
  root: Account;
  info: Call;
  anchor: Account;
  /** The anchor's own user-info (NET-USER-03), whose user_pass NET-AUTH-03 tries as a password. */
  anchorInfo: Call;
  lookup: Call;
}

type Ctx = CheckContext<UserState>;

const rec = (v: unknown): Json => (isObject(v) ? v : {});

/** The user.ID of SFC_NET_USERNAME's login, or the check is skipped saying why. */
function rootUserId(ctx: Ctx, forWhat: string): string | number {
  const id = (ctx.state.root as Account).user.ID;
  if (typeof id !== 'string' && typeof id !== 'number') ctx.skip(`the login response carried no user.ID ${forWhat}`);
  return id;
}

/** rootUserId as digits, for checks that build another id from it (else the check skips). */
function rootIntegerUserId(ctx: Ctx, forWhat: string): string {
  const own = String(rootUserId(ctx, forWhat));
  if (!/^\d{1,15}$/.test(own)) ctx.skip(`the login's user.ID ${JSON.stringify(own)} is not an integer`);
  return own;
}

export const userInfoArea: AreaSpec<UserState> = {
  interface: 'rest-v1-network',
  name: 'user-info',
  checks: [
    {
      id: 'NET-USER-02',
      title: 'user-info answers under /user-info or /user_info (the spelling is recorded)',
      async run(ctx: Ctx) {
        ctx.state.root = await rootAccount(ctx);
        const call = await net(ctx).userInfo(ctx.state.root.token);
        succeeded(ctx, call, 'user-info under /user-info and /user_info');
        ctx.note(`user-info is served at ${call.path}`);
        ctx.state.info = call;
      },
    },
    {
      id: 'NET-USER-01',
      title: 'user-info answers status true, user and uni_user',
      needs: ['info'],
      async run(ctx: Ctx) {
        conforms(ctx, ctx.state.info as Call, 'user-info');
      },
    },
    {
      id: 'NET-USER-07',
      title: 'user-info of SFC_NET_USERNAME (which has a unilevel record) returns uni_user as a record',
      needs: ['info'],
      async run(ctx: Ctx) {
        const call = ctx.state.info as Call;
        ctx.expect(
          isObject(call.body.uni_user),
          `expected uni_user to be a record, got ${JSON.stringify(call.body.uni_user)}`,
          call.ex,
        );
        ctx.validate(`${SCHEMAS}uni-user.schema.json`, call.body.uni_user, call.ex, 'uni_user');
      },
    },
    {
      id: 'NET-USER-03',
      title: "user-info with a newly registered account's token returns that account's own record",
      async run(ctx: Ctx) {
        ctx.state.anchor = await anchorAccount(ctx);
        const call = await net(ctx).userInfo(ctx.state.anchor.token);
        succeeded(ctx, call, 'user-info of a new account');
        ctx.state.anchorInfo = call;
        const login = rec(call.body.user).user_login;
        ctx.expect(
          login === ctx.state.anchor.username,
          `expected user.user_login ${ctx.state.anchor.username}, got ${JSON.stringify(login)}`,
          call.ex,
        );
        conforms(ctx, call, 'user-info');
      },
    },
    {
      id: 'NET-AUTH-03',
      title: 'login with the password hash (user_pass) that user-info answers, sent as the password: refused',
      needs: ['anchor', 'anchorInfo'],
      async run(ctx: Ctx) {
        // The hash is not the account's password: login must refuse it as any wrong password. A target
        // that compares the password with the stored hash as well (an app's silent re-login) takes it.
        const anchor = ctx.state.anchor as Account;
        const hash = rec((ctx.state.anchorInfo as Call).body.user).user_pass;
        if (typeof hash !== 'string' || hash === '' || hash === anchor.password)
          ctx.skip('user-info answers no user_pass (NET-SEC-03): no stored hash to try as a password');
        const call = await net(ctx).login(anchor.username, hash);
        refused(ctx, call, `login of ${anchor.username} with its user_pass from user-info as the password`);
        ctx.expect(!net(ctx).tokenOf(call.body), 'a refused login must not carry a token', call.ex);
      },
    },
    {
      id: 'NET-AUTH-07',
      title: 'the register token is accepted in the token header (user_geneology)',
      needs: ['anchor'],
      async run(ctx: Ctx) {
        const call = await net(ctx).get('/user_geneology', { token: (ctx.state.anchor as Account).token });
        succeeded(ctx, call, 'user_geneology with the register token');
      },
    },
    {
      id: 'NET-USER-04',
      title: 'uni-get-user-info?user_id=<ID of SFC_NET_USERNAME> answers that user and its uni_user',
      needs: ['root'],
      async run(ctx: Ctx) {
        const root = ctx.state.root as Account;
        const id = rootUserId(ctx, 'to look up');
        const call = await net(ctx).uniLookup({ user_id: id }, root.token);
        succeeded(ctx, call, 'uni-get-user-info by user_id');
        conforms(ctx, call, 'uni-get-user-info');
        const user = rec(call.body.user);
        ctx.expect(
          String(user.ID) === String(id) && user.user_login === root.username,
          `expected user ${id} (${root.username}), got ${JSON.stringify({ ID: user.ID, user_login: user.user_login })}`,
          call.ex,
        );
        ctx.state.lookup = call;
      },
    },
    {
      id: 'NET-USER-04',
      title:
        "uni-get-user-info?user_id=<ID of SFC_NET_USERNAME> sent with a new account's token (a logged-in client): answers SFC_NET_USERNAME, not the token's holder",
      needs: ['root', 'anchor'],
      async run(ctx: Ctx) {
        // The query names whom to look up; a token in the header (an app sends it on every call, and a target
        // may require it: AMB-NET-05) names the caller only.
        const root = ctx.state.root as Account;
        const anchor = ctx.state.anchor as Account;
        const id = rootUserId(ctx, 'to look up');
        const call = await net(ctx).get('/uni-get-user-info', { query: { user_id: id }, token: anchor.token });
        succeeded(ctx, call, `uni-get-user-info by user_id with the token of ${anchor.username}`);
        const user = rec(call.body.user);
        const uni = rec(call.body.uni_user);
        ctx.expect(
          String(user.ID) === String(id) &&
            user.user_login === root.username &&
            (uni.user_id === undefined || String(uni.user_id) === String(id)),
          `expected user ${id} (${root.username}) and its uni_user, got ${JSON.stringify({ ID: user.ID, user_login: user.user_login, uni_user_id: uni.user_id })} (the token is ${anchor.username}'s)`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-USER-09',
      title: "uni-get-user-info answers SFC_NET_USERNAME's user_registered as its login and user-info do",
      needs: ['root', 'info', 'lookup'],
      async run(ctx: Ctx) {
        // One record, one timestamp: a lookup that formats it for display in the site's time zone keeps the
        // form and moves the time, which no format check sees. Each answer is already at hand: no request more.
        const root = ctx.state.root as Account;
        const lookup = ctx.state.lookup as Call;
        const got = rec(lookup.body.user).user_registered;
        if (typeof got !== 'string') ctx.skip(`the lookup's user carries no user_registered: ${described(lookup)}`);
        const info = ctx.state.info as Call;
        const others = [
          { what: 'login', value: rec(root.user).user_registered, call: root.call },
          { what: `user-info`, value: rec(info.body.user).user_registered, call: info },
        ].filter((o) => typeof o.value === 'string');
        if (others.length === 0) ctx.skip('neither the login nor user-info answer carried user.user_registered');
        const differ = others.filter((o) => o.value !== got);
        ctx.expect(
          differ.length === 0,
          `uni-get-user-info?user_id answers user_registered ${JSON.stringify(got)}, ${differ.map((o) => `${o.what} ${JSON.stringify(o.value)}`).join(', ')} for the same user`,
          lookup.ex,
          ...differ.map((o) => o.call.ex),
        );
      },
    },
    {
      id: 'NET-USER-05',
      title: 'uni-get-user-info?user_key=<its key> answers the same user',
      needs: ['root', 'info'],
      async run(ctx: Ctx) {
        const root = ctx.state.root as Account;
        const info = ctx.state.info as Call;
        const key = rec(info.body.uni_user).user_key ?? root.netUser?.user_key;
        if (typeof key !== 'string' || key === '')
          ctx.skip('no user_key known for SFC_NET_USERNAME (neither uni_user nor net_user carried one)');
        const call = await net(ctx).uniLookup({ user_key: key }, root.token);
        succeeded(ctx, call, 'uni-get-user-info by user_key');
        conforms(ctx, call, 'uni-get-user-info');
        const login = rec(call.body.user).user_login;
        ctx.expect(
          login === root.username,
          `expected user_login ${root.username} for user_key ${key}, got ${JSON.stringify(login)}`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-USER-05',
      title: "uni-get-user-info?user_key=<SFC_NET_USERNAME's key with one character as _> answers no other user",
      needs: ['root', 'info'],
      async run(ctx: Ctx) {
        // The user of that key, or a refusal when no user has it: a lookup through LIKE without
        // escaping reads _ as any character and answers SFC_NET_USERNAME (or another member).
        const root = ctx.state.root as Account;
        const key = rec((ctx.state.info as Call).body.uni_user).user_key ?? root.netUser?.user_key;
        if (typeof key !== 'string' || key.length < 2)
          ctx.skip('no user_key of two characters or more known for SFC_NET_USERNAME');
        const sent = `${key.slice(0, -1)}_`;
        const call = await net(ctx).uniLookup({ user_key: sent }, root.token);
        const body = envelope(ctx, call, `uni-get-user-info of user_key ${sent}`);
        const got = rec(body.uni_user).user_key;
        ctx.expect(
          body.status === false || got === sent,
          `uni-get-user-info of user_key ${JSON.stringify(sent)}: expected a refusal (no user has it) or the user of that key, got user_key ${JSON.stringify(got)}, user_login ${JSON.stringify(rec(body.user).user_login)}`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-USER-06',
      title: 'uni-get-user-info for a user_id that does not exist: refused',
      needs: ['root'],
      async run(ctx: Ctx) {
        const call = await net(ctx).uniLookup({ user_id: 987654321 }, (ctx.state.root as Account).token);
        refused(ctx, call, 'uni-get-user-info of an unknown user_id');
      },
    },
    {
      id: 'NET-USER-06',
      title: 'uni-get-user-info?user_id=2^32 + <ID of SFC_NET_USERNAME> (past 32 bits): refused, or that very user',
      needs: ['root'],
      async run(ctx: Ctx) {
        // "user_id=<integer>" with no width given: an id kept in 32 bits on its way to the query
        // would answer SFC_NET_USERNAME, whose ID is the low 32 bits of this one.
        const own = rootIntegerUserId(ctx, 'to build on');
        const id = String(2n ** 32n + BigInt(own));
        const call = await net(ctx).uniLookup({ user_id: id }, (ctx.state.root as Account).token);
        const body = envelope(ctx, call, `uni-get-user-info of user_id ${id}`);
        const got = rec(body.user).ID;
        ctx.expect(
          body.status === false || String(got) === id,
          `uni-get-user-info of user_id ${id} (2^32 + ${own}): expected a refusal (no such user) or user ${id}, got user ${JSON.stringify(got)} (${described(call)})`,
          call.ex,
        );
      },
    },
    {
      id: 'NET-USER-06',
      title: 'uni-get-user-info?user_id=-<ID of SFC_NET_USERNAME> (a negative id, which no user has): refused',
      needs: ['root'],
      async run(ctx: Ctx) {
        // No user has a negative ID: an id read through absint() or abs() would answer SFC_NET_USERNAME.
        // A refusal as a malformed id (errors keyed user_id) is a refusal too.
        const own = rootIntegerUserId(ctx, 'to negate');
        const call = await net(ctx).uniLookup({ user_id: `-${own}` }, (ctx.state.root as Account).token);
        refused(ctx, call, `uni-get-user-info of user_id -${own} (no user has a negative ID)`);
      },
    },
    {
      id: 'NET-USER-08',
      title: 'uni-get-user-info?user_id=first (not an integer): refused, errors keyed user_id',
      needs: ['root'],
      async run(ctx: Ctx) {
        // "?user_id=<integer>" in the table: another value is a validation failure of that field (Part 7).
        const call = await net(ctx).uniLookup({ user_id: 'first' }, (ctx.state.root as Account).token);
        refusedWithFieldError(ctx, call, 'user_id', 'uni-get-user-info with user_id "first"');
      },
    },
    {
      id: 'NET-USER-08',
      title: 'uni-get-user-info?user_id=<ID of SFC_NET_USERNAME>abc (digits, then letters): refused, errors keyed user_id',
      needs: ['root'],
      async run(ctx: Ctx) {
        // Not an integer either, though it starts as a real user's ID: a lenient parse (parseInt,
        // intval) would look that user up instead of failing the field.
        const value = `${rootUserId(ctx, 'to build on')}abc`;
        const call = await net(ctx).uniLookup({ user_id: value }, (ctx.state.root as Account).token);
        refusedWithFieldError(ctx, call, 'user_id', `uni-get-user-info with user_id "${value}"`);
      },
    },
    {
      id: 'NET-ENV-05',
      title: 'uni-get-user-info with user_key given twice (?user_key=a&user_key=b): no HTTP 5xx',
      needs: ['root', 'info'],
      async run(ctx: Ctx) {
        // A repeated query parameter is something any client can send; what the lookup answers to it
        // is not shown, only that it does not crash the service.
        const root = ctx.state.root as Account;
        const key = rec((ctx.state.info as Call).body.uni_user).user_key ?? root.netUser?.user_key;
        const k = typeof key === 'string' && key !== '' ? key : 'SFCKEY';
        noServerError(ctx, await net(ctx).uniLookup({ user_key: [k, k] }, root.token), 'uni-get-user-info with user_key twice');
      },
    },
    {
      id: 'NET-SEC-03',
      title: 'neither user-info nor the lookup returns the password hash user_pass',
      needs: ['info'],
      async run(ctx: Ctx) {
        const calls = [ctx.state.info, ctx.state.lookup].filter((c): c is Call => c !== undefined);
        const leaking = calls.filter((c) => rec(c.body.user).user_pass !== undefined);
        ctx.expect(
          leaking.length === 0,
          `user_pass (a password hash) is returned by ${leaking.map((c) => c.ex.request.url).join(', ')}; the document says so, which is a finding`,
          ...leaking.map((c) => c.ex),
        );
      },
    },
    {
      id: 'NET-SEC-04',
      title: "the unilevel lookup does not disclose a user's record without a token",
      needs: ['root'],
      async run(ctx: Ctx) {
        const id = (ctx.state.root as Account).user.ID;
        const call = await net(ctx).get('/uni-get-user-info', {
          query: { user_id: typeof id === 'number' ? id : String(id ?? 1) },
        });
        ctx.expect(
          call.body.status !== true || !isObject(call.body.user),
          `the lookup answers a caller without a token with the user's record (${described(call)}); the samples show it so, which is a finding`,
          call.ex,
        );
      },
    },
    noServerErrorCheck(),
  ],
};
