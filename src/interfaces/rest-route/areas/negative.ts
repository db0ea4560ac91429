import fc from 'fast-check';
import { deeplyNestedBody, MULTIPART_WITHOUT_BOUNDARY, NESTING_DEPTH, wrongType } from '../../../arbitraries/hostile.js';
import type { AreaSpec } from '../../../checks/model.js';
import { propertySeed } from '../../../checks/properties.js';
import type { Exchange } from '../../../http/exchange.js';
import { authHeaders, baseUrl, bodyOf, call, ROUTES, routeOf, routeUrl, shown } from '../client.js';
import { type C, GETS, type NegState, POSTS, send, setUp } from '../endpoint-calls.js';
import { ready, validAddress } from '../prop-setup.js';
import { sweepChecks } from '../sweep.js';

// Robustness of every endpoint (document 1, Part 1: "Every response is JSON with this envelope"):
// malformed JSON, a wrong content type, empty bodies, wrong types, unknown fields and very long
// strings, one request per endpoint and kind. The envelope is a MUST; no 5xx is the sweep's
// RR-ERR-03 (SHOULD: status codes are not shown).

/** Fails once, listing every exchange whose body is not a JSON object with a boolean status. */
function expectEnvelopes(ctx: C, exchanges: Exchange[], kind: string, refused = false): void {
  const bad: [Exchange, string][] = [];
  for (const ex of exchanges) {
    const body = bodyOf(ex);
    const where = `${ex.request.method} ${routeOf(ex)}`;
    if (typeof body?.status !== 'boolean') bad.push([ex, `${where}: not the envelope: ${shown(ex)}`]);
    else if (refused && body.status !== false) bad.push([ex, `${where}: status ${JSON.stringify(body.status)}, expected false`]);
  }
  ctx.expect(
    bad.length === 0,
    `${bad.length} of ${exchanges.length} endpoints broke the rule for ${kind}:\n  ${bad.map(([, m]) => m).join('\n  ')}`,
    ...bad.slice(0, 4).map(([ex]) => ex),
  );
}

/** Wrong-typed values for every field of a body, drawn with the run's seed (a run replays). */
function wrongTyped(ctx: C, body: Record<string, unknown>, name: string): Record<string, unknown> {
  const keys = Object.keys(body);
  const values = fc.sample(
    fc.constantFrom<'string' | 'integer'>('string', 'integer').chain((t) => wrongType(t)),
    { seed: propertySeed(ctx.settings.seed, `rest-route/negative/${name}`), numRuns: Math.max(1, keys.length) },
  );
  return Object.fromEntries(keys.map((k, i) => [k, typeof body[k] === 'number' ? (values[i] ?? 'x') : (values[i] ?? null)]));
}

const LONG = 'A'.repeat(64 * 1024);
// Query strings stay under the 8 to 16 KiB request-line limits of common HTTP servers.
const LONG_QUERY = 'A'.repeat(4 * 1024);

export const negativeArea: AreaSpec<NegState> = {
  interface: 'rest-route',
  name: 'negative',
  checks: [
    {
      id: 'RR-NEG-01',
      title: 'a malformed JSON body to every POST endpoint is answered in the envelope',
      run: async (ctx: C) => {
        await setUp(ctx);
        const out: Exchange[] = [];
        for (const ep of POSTS) out.push(await send(ctx, ep, { raw: '{"email": "x", "password": [' }));
        expectEnvelopes(ctx, out, 'a malformed JSON body');
      },
    },
    {
      id: 'RR-NEG-02',
      title: 'a text/plain body, and a multipart body without its boundary, to every POST endpoint are answered in the envelope',
      run: async (ctx: C) => {
        await setUp(ctx);
        const out: Exchange[] = [];
        for (const ep of POSTS) {
          out.push(await send(ctx, ep, { raw: 'email=x&password=y', headers: { 'content-type': 'text/plain' } }));
          out.push(await send(ctx, ep, { raw: 'email=x&password=y', headers: { 'content-type': MULTIPART_WITHOUT_BOUNDARY } }));
        }
        expectEnvelopes(ctx, out, 'a text/plain body or a multipart body without a boundary');
      },
    },
    {
      id: 'RR-NEG-03',
      title: 'an empty body and an empty JSON object to every POST endpoint are refused with status false',
      run: async (ctx: C) => {
        await setUp(ctx);
        // A second address: with one, a delete without its required address_id (row 10) is refused by the
        // rule that an address must remain (error_delete) even when the target ignores the missing id.
        await call(ctx, 'POST', ROUTES.addressAdd, { session: ctx.state.a?.session, json: validAddress(ctx) });
        const out: Exchange[] = [];
        for (const ep of POSTS) {
          out.push(await send(ctx, ep, { raw: '' }));
          out.push(await send(ctx, ep, { json: {} }));
        }
        expectEnvelopes(ctx, out, 'a body without its required fields', true);
      },
    },
    {
      id: 'RR-NEG-04',
      title: `wrong-typed fields (POST; also arrays nested ${NESTING_DEPTH} deep) and non-numeric ids (GET query) are answered in the envelope`,
      run: async (ctx: C) => {
        await setUp(ctx);
        const out: Exchange[] = [];
        for (const ep of POSTS) {
          const body = ep.body?.(ctx) ?? {};
          out.push(await send(ctx, ep, { json: wrongTyped(ctx, body, ep.route) }));
          if (Object.keys(body).length > 0) out.push(await send(ctx, ep, { raw: deeplyNestedBody(Object.keys(body)) }));
        }
        for (const ep of GETS.filter((e) => e.query))
          out.push(
            await send(ctx, ep, {
              query: Object.fromEntries(Object.keys(ep.query?.(ctx) ?? {}).map((k) => [k, '[object Object]'])),
            }),
          );
        expectEnvelopes(ctx, out, 'wrong types');
      },
    },
    {
      id: 'RR-NEG-05',
      title:
        'unknown fields (POST body, with __proto__ and constructor keys) and unknown query parameters are answered in the envelope',
      run: async (ctx: C) => {
        await setUp(ctx);
        const out: Exchange[] = [];
        const extra =
          '"sfc_unknown_field":"x","__proto__":{"sfc_polluted":true},"constructor":{"prototype":{"sfc_polluted":true}}';
        for (const ep of POSTS) {
          const json = JSON.stringify(ep.body?.(ctx) ?? {});
          out.push(await send(ctx, ep, { raw: `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}${extra}}` }));
        }
        for (const ep of GETS) out.push(await send(ctx, ep, { query: { sfc_unknown_param: 'x' } }));
        expectEnvelopes(ctx, out, 'unknown fields');
      },
    },
    {
      id: 'RR-NEG-06',
      title: '64 KiB strings in every body field and 4 KiB query values are answered in the envelope',
      run: async (ctx: C) => {
        await setUp(ctx);
        const out: Exchange[] = [];
        for (const ep of POSTS) {
          const body = ep.body?.(ctx) ?? {};
          out.push(await send(ctx, ep, { json: Object.fromEntries(Object.keys(body).map((k) => [k, LONG])) }));
        }
        for (const ep of GETS) {
          const keys = Object.keys(ep.query?.(ctx) ?? {});
          const q = Object.fromEntries((keys.length > 0 ? keys : ['sfc_long']).map((k) => [k, LONG_QUERY]));
          out.push(await send(ctx, ep, { query: q }));
        }
        expectEnvelopes(ctx, out, 'very long strings');
      },
    },
    {
      // Found by mutation testing: handlers that crashed (HTTP 500) on a request without a route, on an unknown
      // route and on a documented route called with the other method survived the suite, which never sent one.
      id: 'RR-ERR-03',
      title: 'no route, an unknown route and a documented route with the other method get no HTTP 5xx',
      run: async (ctx: C) => {
        const a = await ready(ctx);
        const auth = authHeaders(a.session.token, a.session.header);
        const base = `${baseUrl(ctx)}/index.php`;
        const probes: Exchange[] = [
          await ctx.http.send({ method: 'GET', url: base, headers: auth }),
          await ctx.http.send({ method: 'GET', url: `${base}?route=shoprestapi/sfc/unknown`, headers: auth }),
          await ctx.http.send({ method: 'POST', url: routeUrl(ctx, ROUTES.account), headers: auth, json: {} }),
          await ctx.http.send({ method: 'GET', url: routeUrl(ctx, ROUTES.addressDelete), headers: auth }),
        ];
        const crashed = probes.filter((ex) => !ex.response || ex.response.status >= 500);
        ctx.expect(
          crashed.length === 0,
          `${crashed.length} of ${probes.length} requests outside Part 4 got an HTTP 5xx or no answer: ${crashed.map(shown).join(' | ')}`,
          ...crashed,
        );
      },
    },
    ...sweepChecks<NegState>({ naming: false }),
  ],
};
