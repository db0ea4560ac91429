import type { AreaSpec, CheckSpec } from '../../../checks/model.js';
import { type BadToken, forgedTokens, malformedTokens, resignedTokens } from '../../../checks/tokens.js';
import type { Exchange } from '../../../http/exchange.js';
import { bodyOf, ROUTES, routeOf, shown } from '../client.js';
import { crossAccountCheck } from '../cross-account.js';
import { type C, type Endpoint, GETS, type NegState, POSTS, send, setUp } from '../endpoint-calls.js';
import { sweepChecks } from '../sweep.js';

// Every endpoint that takes the token (Part 5 item 2: all but login and register; GET register is
// AMB-RR-08 and left out) is sent a request whose only defect is the token. Document 1 does not
// say how tokens are made, so the forgeries are ADVISORY; a missing token is RR-AUTH-05 (MUST).

const TAKES_TOKEN: Endpoint[] = [
  ...GETS.filter((e) => e.route !== ROUTES.register),
  ...POSTS.filter((e) => e.route !== ROUTES.login && e.route !== ROUTES.register),
];

/** Sends every token-taking endpoint each token (or none) and fails once, listing what was accepted. */
async function expectAllRefused(ctx: C, tokens: (BadToken | undefined)[], kind: string): Promise<void> {
  const a = ctx.state.a;
  if (!a) ctx.skip('no customer was provisioned');
  const accepted: [Exchange, string][] = [];
  let sent = 0;
  for (const bad of tokens)
    for (const ep of TAKES_TOKEN) {
      const ex = await send(ctx, ep, {
        ...(ep.body ? { json: ep.body(ctx) } : {}),
        session: bad ? { token: bad.token, header: a.session.header } : undefined,
      });
      sent += 1;
      if (bodyOf(ex)?.status === true)
        accepted.push([ex, `${ep.method} ${routeOf(ex)} accepted ${bad ? bad.label : 'no token'}`]);
    }
  ctx.expect(
    accepted.length === 0,
    `${accepted.length} of ${sent} requests with ${kind} were answered with success:\n  ${accepted
      .slice(0, 8)
      .map(([, m]) => m)
      .join('\n  ')}${accepted[0] ? `\n  first: ${shown(accepted[0][0])}` : ''}`,
    ...accepted.slice(0, 3).map(([ex]) => ex),
  );
}

function tokenCheck(id: string, title: string, pick: (real: string) => Promise<BadToken[]> | BadToken[]): CheckSpec<NegState> {
  return {
    id,
    title,
    run: async (ctx: C) => {
      await setUp(ctx);
      const real = ctx.state.a?.session.token ?? '';
      const tokens = await pick(real);
      await expectAllRefused(ctx, tokens, tokens.map((t) => t.label).join(', '));
    },
  };
}

export const tokensArea: AreaSpec<NegState> = {
  interface: 'rest-route',
  name: 'tokens',
  checks: [
    {
      id: 'RR-AUTH-05',
      title: 'every endpoint that takes the token refuses a request without one',
      run: async (ctx: C) => {
        await setUp(ctx);
        await expectAllRefused(ctx, [undefined], 'no token');
      },
    },
    tokenCheck(
      'RR-SEC-01',
      'every token-taking endpoint refuses a malformed token (not a JWT, two parts, altered signature)',
      (t) => malformedTokens(t),
    ),
    tokenCheck('RR-TOK-01', 'every token-taking endpoint refuses a token whose payload changed (signature kept)', (t) =>
      resignedTokens(t).filter((x) => !x.label.startsWith('expired')),
    ),
    tokenCheck('RR-TOK-02', 'every token-taking endpoint refuses an expired token', (t) =>
      resignedTokens(t).filter((x) => x.label.startsWith('expired')),
    ),
    tokenCheck('RR-TOK-03', 'every token-taking endpoint refuses an alg none token', async (t) =>
      (await forgedTokens(t)).filter((x) => x.label === 'alg none'),
    ),
    // Document 1 publishes no key, so HS256 is signed with a guessed secret and with an empty key.
    tokenCheck(
      'RR-TOK-04',
      'every token-taking endpoint refuses tokens signed by another key (RS256 foreign, HS256 guessed or empty)',
      async (t) => (await forgedTokens(t)).filter((x) => x.label !== 'alg none'),
    ),
    crossAccountCheck,
    ...sweepChecks<NegState>({ naming: false }),
  ],
};
