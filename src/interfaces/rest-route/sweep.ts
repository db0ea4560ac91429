import type { CheckContext } from '../../checks/context.js';
import type { CheckSpec } from '../../checks/model.js';
import type { Exchange } from '../../http/exchange.js';
import { asRecord, bodyOf, type Ctx, ROUTES, routeOf, SCHEMAS, shown } from './client.js';
import { type NamedWhere, refusalLog, whereNamed } from './refusals.js';

// Checks that run at the end of every area over every exchange the area made: the envelope
// rules of section 1 hold on every response, not only on the ones a check looked at closely.

/** Read endpoints: their output column lists `language` (rows 1, 3, 5, 6, 11, 12, 15, 16). */
const READ_ROUTES = new Set<string>([
  ROUTES.login,
  ROUTES.register,
  ROUTES.address,
  ROUTES.addressAdd,
  ROUTES.account,
  ROUTES.forgotten,
  ROUTES.category,
  ROUTES.listing,
]);
/** Endpoints whose response is "not shown" (rows 8 and 17): only the envelope applies. */
const NOT_SHOWN = new Set<string>([`GET ${ROUTES.addressEdit}`, `GET ${ROUTES.product}`]);

/** The 17 endpoints of Part 4 as `METHOD route`: the envelope rules are about these. */
const DOCUMENTED = new Set<string>([
  ...[...READ_ROUTES, ROUTES.addressEdit, ROUTES.product].map((r) => `GET ${r}`),
  ...[
    ROUTES.login,
    ROUTES.register,
    ROUTES.addressAdd,
    ROUTES.addressEdit,
    ROUTES.addressDelete,
    ROUTES.forgotten,
    ROUTES.updatePassword,
  ].map((r) => `POST ${r}`),
]);

const isRead = (ex: Exchange) => ex.request.method === 'GET' && READ_ROUTES.has(routeOf(ex) ?? '');
/** Every answered request, including probes of routes and methods Part 4 does not list (RR-ERR-03 only). */
const anyAnswered = (ctx: Ctx) => ctx.http.exchanges.filter((ex) => ex.response !== undefined);
/** Answered requests to the documented endpoints: a probe of an undocumented route or method is not held to the envelope. */
const answered = (ctx: Ctx) => anyAnswered(ctx).filter((ex) => DOCUMENTED.has(`${ex.request.method} ${routeOf(ex) ?? ''}`));

function eachOk(ctx: Ctx, list: Exchange[], test: (ex: Exchange) => string | undefined, what: string): void {
  if (list.length === 0) ctx.skip(`no ${what} in this area to examine`);
  const bad: [Exchange, string][] = [];
  for (const ex of list) {
    const problem = test(ex);
    if (problem) bad.push([ex, `${ex.request.method} ${routeOf(ex) ?? ex.request.url}: ${problem}`]);
  }
  ctx.expect(
    bad.length === 0,
    `${bad.length} of ${list.length} ${what} break the rule:\n  ${bad
      .slice(0, 6)
      .map(([, m]) => m)
      .join('\n  ')}`,
    ...bad.slice(0, 3).map(([ex]) => ex),
  );
}

const successes = (ctx: Ctx) => answered(ctx).filter((ex) => bodyOf(ex)?.status === true);
const refusals = (ctx: Ctx) => answered(ctx).filter((ex) => bodyOf(ex)?.status !== true);

export interface SweepOptions {
  /** The area makes read calls (language rules apply). */
  reads?: boolean;
  /** The area calls endpoints other than login and register (RR-ENV-06 applies). */
  others?: boolean;
  /** The area logs validation refusals (RR-ERR-02 applies). */
  naming?: boolean;
}

/** The sweep checks, appended to every area's list; rules that cannot apply to the area are left out. */
export function sweepChecks<S>(opts: SweepOptions = {}): CheckSpec<S>[] {
  const { reads = true, others = true, naming = true } = opts;
  const skip = new Set<string>([
    ...(reads ? [] : ['RR-ENV-05', 'RR-LANG-01', 'RR-LANG-02']),
    ...(others ? [] : ['RR-ENV-06']),
    ...(naming ? [] : ['RR-ERR-02']),
  ]);
  type C = CheckContext<S>;
  const all: CheckSpec<S>[] = [
    {
      id: 'RR-ENV-01',
      title: 'every response of the area is a JSON object with a boolean status',
      run: async (ctx: C) => {
        const lost = ctx.http.exchanges.filter((ex) => !ex.response);
        ctx.expect(lost.length === 0, `${lost.length} request(s) got no response: ${lost[0]?.error ?? ''}`, ...lost.slice(0, 2));
        eachOk(
          ctx,
          answered(ctx),
          (ex) => (typeof bodyOf(ex)?.status === 'boolean' ? undefined : `not a JSON object with a boolean status: ${shown(ex)}`),
          'responses',
        );
      },
    },
    {
      id: 'RR-ENV-02',
      title: 'every success of the area has errors an empty array',
      run: async (ctx: C) =>
        eachOk(
          ctx,
          successes(ctx),
          (ex) => {
            const e = bodyOf(ex)?.errors;
            return Array.isArray(e) && e.length === 0 ? undefined : `errors is ${JSON.stringify(e)}, expected []`;
          },
          'successful responses',
        ),
    },
    {
      id: 'RR-ENV-03',
      title: 'every success of the area carries data, an object or an array',
      run: async (ctx: C) =>
        eachOk(
          ctx,
          successes(ctx).filter((ex) => !NOT_SHOWN.has(`${ex.request.method} ${routeOf(ex)}`)),
          (ex) => {
            const d = bodyOf(ex)?.data;
            return d !== null && typeof d === 'object'
              ? undefined
              : `data is ${JSON.stringify(d)}, expected an object or an array`;
          },
          'successful responses',
        ),
    },
    {
      id: 'RR-ENV-04',
      title: 'message, where present, is a string',
      run: async (ctx: C) =>
        eachOk(
          ctx,
          answered(ctx).filter((ex) => bodyOf(ex) !== undefined),
          (ex) => {
            const b = bodyOf(ex);
            return b && 'message' in b && typeof b.message !== 'string' ? `message is ${JSON.stringify(b.message)}` : undefined;
          },
          'responses',
        ),
    },
    {
      id: 'RR-ENV-05',
      title: 'every successful read response carries a language object',
      run: async (ctx: C) =>
        eachOk(
          ctx,
          successes(ctx).filter(isRead),
          (ex) => (asRecord(bodyOf(ex)?.language) ? undefined : 'no language object'),
          'successful read responses',
        ),
    },
    {
      id: 'RR-LANG-01',
      title: 'every language object carries the eight settings keys as strings',
      run: async (ctx: C) => {
        const list = successes(ctx).filter((ex) => isRead(ex) && asRecord(bodyOf(ex)?.language));
        eachOk(ctx, list, (ex) => issues(ctx, 'language', bodyOf(ex)?.language), 'language objects');
      },
    },
    {
      id: 'RR-LANG-02',
      title: 'every other language key is a label string with a named prefix',
      run: async (ctx: C) => {
        const list = successes(ctx).filter((ex) => isRead(ex) && asRecord(bodyOf(ex)?.language));
        eachOk(ctx, list, (ex) => issues(ctx, 'language-strict', bodyOf(ex)?.language), 'language objects');
      },
    },
    {
      id: 'RR-ENV-06',
      title: 'no top-level token outside login and register responses',
      run: async (ctx: C) =>
        eachOk(
          ctx,
          // The token is produced by the login and register calls (Part 5 item 1: rows 2 and 4, the POSTs);
          // rows 1 and 3, the GETs of the same routes, answer data and language only.
          answered(ctx).filter(
            (ex) =>
              ex.request.method !== 'POST' ||
              ![ROUTES.login, ROUTES.register].includes(routeOf(ex) as 'shoprestapi/account/login'),
          ),
          (ex) => (bodyOf(ex)?.token !== undefined ? 'carries a top-level token' : undefined),
          'responses of other endpoints',
        ),
    },
    {
      id: 'RR-ENV-07',
      title: 'every documented route answered its documented method at index.php?route=<route>',
      run: async (ctx: C) =>
        // A route or method the target does not serve shows as a 404/405 outside the envelope; a
        // 404 in the envelope is a business answer (status codes are not shown), so it passes.
        eachOk(
          ctx,
          answered(ctx),
          (ex) => {
            const st = ex.response?.status ?? 0;
            return (st === 404 || st === 405) && typeof bodyOf(ex)?.status !== 'boolean'
              ? `HTTP ${st} outside the envelope: the route or method is not served`
              : undefined;
          },
          'responses',
        ),
    },
    {
      id: 'RR-ERR-01',
      title: 'every refusal of the area answers in the envelope with status false',
      run: async (ctx: C) =>
        eachOk(ctx, refusals(ctx), (ex) => issues(ctx, 'failure', bodyOf(ex) ?? ex.response?.body), 'refusals'),
    },
    {
      id: 'RR-ERR-03',
      title: 'nothing the area sent was answered with an HTTP 5xx',
      run: async (ctx: C) =>
        eachOk(
          ctx,
          anyAnswered(ctx),
          (ex) => ((ex.response?.status ?? 0) >= 500 ? `HTTP ${ex.response?.status}` : undefined),
          'responses',
        ),
    },
    {
      id: 'RR-ERR-04',
      title: 'errors is an array in refusals too',
      run: async (ctx: C) =>
        eachOk(
          ctx,
          refusals(ctx).filter((ex) => bodyOf(ex) !== undefined),
          (ex) => (Array.isArray(bodyOf(ex)?.errors) ? undefined : `errors is ${JSON.stringify(bodyOf(ex)?.errors)}`),
          'refusals',
        ),
    },
    {
      id: 'RR-ERR-02',
      title: 'each validation refusal names its error_* key or field (where: AMB-RR-05)',
      run: async (ctx: C) => {
        const log = refusalLog(ctx);
        if (log.length === 0) ctx.skip('no validation refusal was logged in this area');
        const labels = labelTexts(ctx);
        const where = new Map<NamedWhere, number>();
        const unnamed: string[] = [];
        for (const r of log) {
          const w = whereNamed(
            r.exchange,
            r.names,
            r.names.map((n) => labels[n]).filter((t): t is string => typeof t === 'string' && t.length > 3),
          );
          if (w) where.set(w, (where.get(w) ?? 0) + 1);
          else unnamed.push(`${r.what} (expected one of ${r.names.join(', ')})`);
        }
        const top = [...where].sort((a, b) => b[1] - a[1])[0];
        ctx.choose('AMB-RR-05', top ? top[0] : 'not-named');
        if (where.size > 1)
          ctx.note(`refusals name their errors in several places: ${JSON.stringify(Object.fromEntries(where))}`);
        ctx.expect(
          unnamed.length === 0,
          `${unnamed.length} of ${log.length} refusals name neither the error key nor the field:\n  ${unnamed.slice(0, 6).join('\n  ')}`,
          ...log
            .filter((r) => unnamed.some((u) => u.startsWith(r.what)))
            .slice(0, 3)
            .map((r) => r.exchange),
        );
      },
    },
  ];
  return all.filter((c) => !skip.has(c.id));
}

function issues(ctx: Ctx, name: string, value: unknown): string | undefined {
  const list = ctx.schemas.check(`${SCHEMAS}${name}.schema.json`, value);
  return list.length === 0
    ? undefined
    : list
        .slice(0, 3)
        .map((i) => `${i.path} ${i.message}`)
        .join('; ');
}

/** Label texts of every language object seen in the area, by key. */
function labelTexts(ctx: Ctx): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const ex of ctx.http.exchanges) Object.assign(out, asRecord(bodyOf(ex)?.language) ?? {});
  return out;
}
