import { type Exchange, responseObject } from '../http/exchange.js';
import type { CheckResult } from './results.js';

/** How many token-bearing refusals (and no acceptance) it takes to name the header as the cause. */
const MIN_REFUSED = 3;

/**
 * Looks across checks for one cause behind many failures. Today: a token header with an
 * underscore (`<vendor>_token`) that never reaches the target. nginx and other proxies drop such
 * headers by default, and then every authenticated call fails the same way while the open
 * endpoints (login, the product listing) answer normally.
 */
export function diagnose(checks: CheckResult[], vendor: string): string[] {
  const header = `${vendor}_token`.toLowerCase();
  const out: string[] = [];
  for (const iface of ['rest-v1-network', 'rest-v1-shop'] as const) {
    const exchanges = checks.filter((c) => c.interface === iface).flatMap((c) => c.evidence?.exchanges ?? []);
    const carries = (ex: Exchange) => Object.keys(ex.request.headers).some((h) => h.toLowerCase() === header);
    // An endpoint that answered status true without the token does not need it: what it answers
    // with the token says nothing about whether the token arrived.
    const open = new Set(exchanges.filter((ex) => !carries(ex) && statusTrue(ex)).map(endpointOf));
    const guarded = exchanges.filter((ex) => carries(ex) && ex.response !== undefined && !open.has(endpointOf(ex)));
    if (guarded.some(statusTrue)) continue; // some token got through: the header arrives
    const refused = guarded.filter(isTokenRefusal);
    if (refused.length < MIN_REFUSED) continue;
    const said = messageOf(refused[0] as Exchange);
    out.push(
      `${iface}: every one of the ${refused.length} requests that carried the ${vendor}_token header to an endpoint that needs it ` +
        `was refused as if it had no token${said ? ` (the target said: "${said}")` : ''}, while the endpoints that need no token answered. ` +
        'A proxy in front of the target may drop header names with underscores (nginx does unless "underscores_in_headers on;" is set). ' +
        'Check that the header reaches the application.',
    );
  }
  return out;
}

function endpointOf(ex: Exchange): string {
  try {
    const u = new URL(ex.request.url);
    return `${ex.request.method} ${u.origin}${u.pathname}`;
  } catch {
    return `${ex.request.method} ${ex.request.url}`;
  }
}

const statusTrue = (ex: Exchange): boolean => responseObject(ex)?.status === true;

function isTokenRefusal(ex: Exchange): boolean {
  const res = ex.response;
  if (!res || statusTrue(ex)) return false;
  return res.status === 401 || res.status === 403 || /token/i.test(res.body);
}

function messageOf(ex: Exchange): string | undefined {
  const m = responseObject(ex)?.message;
  return typeof m === 'string' && m !== '' ? m.slice(0, 160) : undefined;
}
