import type { InterfaceId } from '../checks/model.js';

/** Resolved settings of one run: flags over environment over `.env` (see config/load.ts). */
export interface Settings {
  baseUrl?: string;
  networkApiRoot?: string;
  shopApiRoot?: string;
  vendor: string;
  interfaces: InterfaceId[];
  reportDir: string;
  seed: number;
  runs: number;
  timeoutMs: number;
  waivers?: string;
  /** A previous conformance-report.json: only new failures fail the gate. */
  baseline?: string;
  allowIncomplete: boolean;
  /** Requests per second at most, across the run; unlimited when absent. */
  rateLimit?: number;
  /** Areas of checks run at once (each area runs its checks in order); 1 under a rate limit. */
  concurrency: number;
  /** Bound on the whole run in seconds; past it the run is aborted (exit 3) with what it has. */
  maxDurationS: number;
  /** Target data the checks need (`SFC_*` keys of `.env.example`, e.g. SFC_SHOP_COUPON). */
  data: Record<string, string>;
  /** Run-unique prefix of everything the run creates. */
  runId: string;
}
