import { readFileSync } from 'node:fs';
import { UsageError } from '../config/load.js';
import type { RequirementStatus, RunResult } from './results.js';

export interface BaselineDiff {
  /** MUST requirements failing now that did not fail in the baseline: these fail the gate. */
  newlyFailing: string[];
  /** Testable MUSTs exercised in the baseline that this run could not exercise. */
  newlyUnexercised: string[];
  /** Failing in the baseline, no longer failing. */
  fixed: string[];
  /** Failing in both: known, not counted. */
  stillFailing: string[];
}

/** Reads a previous `conformance-report.json`: requirement id -> status. */
export function loadBaseline(file: string): Map<string, RequirementStatus> {
  let parsed: { requirements?: { id: string; status: RequirementStatus }[] };
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`baseline ${file} cannot be read as a conformance-report.json: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed.requirements))
    throw new UsageError(`baseline ${file} has no "requirements": is it a conformance-report.json?`);
  return new Map(parsed.requirements.map((r) => [r.id, r.status]));
}

export function diffAgainstBaseline(result: RunResult, baseline: Map<string, RequirementStatus>): BaselineDiff {
  const diff: BaselineDiff = { newlyFailing: [], newlyUnexercised: [], fixed: [], stillFailing: [] };
  for (const r of result.requirements) {
    const before = baseline.get(r.id);
    const failing = r.status === 'failed' && !r.waiver;
    if (failing && before === 'failed') diff.stillFailing.push(r.id);
    else if (failing && r.level === 'MUST') diff.newlyFailing.push(r.id);
    else if (!failing && before === 'failed') diff.fixed.push(r.id);
    if (r.level === 'MUST' && r.testable && (r.status === 'skipped' || r.status === 'untested') && before === 'passed')
      diff.newlyUnexercised.push(r.id);
  }
  return diff;
}

/** With a baseline, only what newly breaks fails the gate. */
export function baselineExitCode(diff: BaselineDiff, allowIncomplete: boolean): number {
  if (diff.newlyFailing.length > 0) return 1;
  if (diff.newlyUnexercised.length > 0 && !allowIncomplete) return 1;
  return 0;
}
