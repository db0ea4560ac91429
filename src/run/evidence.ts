import { type Exchange, redact, toCurl } from '../http/exchange.js';
import type { EvidenceRecord } from './results.js';

/** Longest response body a report keeps of one exchange (the rest is cut, and the exchange says so). */
const MAX_BODY_IN_REPORT = 16 * 1024;

/**
 * A check's exchanges as report evidence: redacted (tokens, cookies, password fields, the run's
 * secret target data), bodies cut for the report, each with its `curl` line. The collector does
 * this on vitest's main thread, which is idle during a run, not on the thread that sends requests.
 */
export function evidenceOf(exchanges: readonly Exchange[], secrets: string[], details: unknown): EvidenceRecord {
  return {
    exchanges: exchanges.map((ex) => {
      const safe = redact(ex, secrets);
      if (safe.response && safe.response.body.length > MAX_BODY_IN_REPORT) {
        safe.response = { ...safe.response, body: `${safe.response.body.slice(0, MAX_BODY_IN_REPORT)}…`, truncated: true };
      }
      return { ...safe, curl: toCurl(safe) };
    }),
    ...(details !== undefined ? { details } : {}),
  };
}
