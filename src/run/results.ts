import type { InterfaceId, Level, Source } from '../checks/model.js';
import type { Exchange } from '../http/exchange.js';

/** The result model: what the engine produces and reporters read. Nothing here runs anything. */

export type CheckOutcome = 'passed' | 'failed' | 'skipped' | 'error';
export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'untested';
export type Verdict = 'conformant' | 'non-conformant' | 'incomplete';

export interface EvidenceRecord {
  exchanges: (Exchange & { curl: string })[];
  details?: unknown;
}

/** Attached by every check to its vitest test (`task.meta.sfc`). */
export interface CheckResultMeta {
  requirement: string;
  level: Level;
  interface: InterfaceId;
  area: string;
  title: string;
  source: Source;
  outcome: CheckOutcome;
  reason?: string;
  evidence?: EvidenceRecord;
  choices: Record<string, string>;
  notes: string[];
  requests: number;
}

export interface CheckResult extends CheckResultMeta {
  durationMs: number;
}
