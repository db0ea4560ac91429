import type { Ctx } from './client.js';

/**
 * Requests one property check may send. The run gives each check a fixed time limit (80 s by
 * default), so at a deep --runs (1000) a property of several requests per run would time out on
 * a loaded machine; it runs as many runs as fit instead, and says so in the report.
 */
export const REQUEST_BUDGET = 1000;

/** The runs of a property sending `requestsPerRun` requests per run: --runs, capped by the budget and `ceiling`. */
export function cappedRuns(ctx: Ctx, requestsPerRun: number, ceiling = Number.POSITIVE_INFINITY): number {
  const runs = Math.max(1, Math.min(ctx.settings.runs, Math.floor(REQUEST_BUDGET / requestsPerRun), ceiling));
  if (runs < ctx.settings.runs)
    ctx.note(
      `${runs} runs of --runs ${ctx.settings.runs}: capped so the check ends within its time limit (${requestsPerRun} request(s) per run)`,
    );
  return runs;
}
