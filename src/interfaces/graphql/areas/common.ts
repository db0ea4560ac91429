import type { CheckSpec } from '../../../checks/model.js';
import { type Exchange, responseJson } from '../../../http/exchange.js';
import type { Ctx } from '../client.js';

const SECRET_KEY = /^(password|passwd|password_hash|salt|confirm)$/i;

/** Keys of a JSON value whose name says it holds a password or its hash, with their paths. */
export function secretKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => secretKeys(v, `${path}/${i}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(SECRET_KEY.test(k) ? [`${path}/${k}`] : []),
    ...secretKeys(v, `${path}/${k}`),
  ]);
}

/**
 * GQL-SEC-03 over every response this area received so far: no password, hash or salt in any
 * body, selected or not. Run last in an area.
 */
export function noSecretsCheck<S>(): CheckSpec<S> {
  return {
    id: 'GQL-SEC-03',
    title: 'no response of this area carries a password, password hash or salt',
    async run(ctx) {
      const c = ctx as Ctx;
      const found: { where: string[]; ex: Exchange }[] = [];
      for (const ex of c.http.exchanges) {
        const body = responseJson(ex);
        if (body === undefined) continue;
        const where = secretKeys(body);
        if (where.length > 0) found.push({ where, ex });
      }
      if (c.http.exchanges.length === 0) c.skip('no responses were received in this area');
      const first = found[0];
      if (first)
        c.fail(
          `${found.length} response(s) carry password-like fields, e.g. ${first.where.join(', ')}`,
          ...found.slice(0, 3).map((f) => f.ex),
        );
    },
  };
}

const INTERNALS =
  /(\bat \S+ \(|\.(js|ts|php|py):\d+|SQLSTATE|sqlite|\bSELECT\b[^"]{0,80}\bFROM\b|\/var\/www|\/home\/|node_modules|Traceback|"stack(trace)?"\s*:)/i;

/** The part of a response body that looks like leaked internals (stack trace, SQL, file path), if any. */
export function leakedInternals(ex: Exchange): string | undefined {
  const m = ex.response?.body.match(INTERNALS);
  return m ? m[0] : undefined;
}
