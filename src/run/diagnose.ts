import type { CheckResult } from './results.js';

/**
 * Looks across checks for one cause behind many failures. Today: a token header with an
 * underscore (`<vendor>_token`) that never reaches the target. nginx and other proxies drop such
 * headers by default, and then every authenticated call fails the same way.
 */
export function diagnose(checks: CheckResult[], vendor: string): string[] {
  const header = `${vendor}_token`;
  const out: string[] = [];
  for (const iface of ['rest-v1-network', 'rest-v1-shop'] as const) {
    const exchanges = checks.filter((c) => c.interface === iface).flatMap((c) => c.evidence?.exchanges ?? []);
    const withToken = exchanges.filter((ex) => Object.keys(ex.request.headers).some((h) => h.toLowerCase() === header));
    if (withToken.length < 3) continue;
    const refused = withToken.filter((ex) => {
      const body = ex.response?.body ?? '';
      return (
        ex.response !== undefined &&
        (ex.response.status === 401 || ex.response.status === 403 || /token/i.test(body)) &&
        !/"status"\s*:\s*true/.test(body)
      );
    });
    if (refused.length === withToken.length) {
      out.push(
        `${iface}: every one of the ${withToken.length} requests that carried the ${header} header was refused as if it had no token. ` +
          `A proxy in front of the target may drop header names with underscores (nginx does unless "underscores_in_headers on;" is set). ` +
          `Check that the header reaches the application.`,
      );
    }
  }
  return out;
}
