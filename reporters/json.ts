import type { RunResult } from '../src/run/results.js';

/** `conformance-report.json`: the record of the run, as the result model holds it. */
export function renderJson(result: RunResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
