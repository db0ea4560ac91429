import type { InterfaceId, Level, Requirement, Source } from '../checks/model.js';
import type { Exchange } from '../http/exchange.js';

/** The result model: what the engine produces and reporters read. Nothing here runs anything. */

export type CheckOutcome = 'passed' | 'failed' | 'skipped' | 'error';
export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'untested';
export type Verdict = 'conformant' | 'non-conformant' | 'incomplete';
export type FailureCategory =
  | 'schema violation'
  | 'business rule'
  | 'validation'
  | 'authentication'
  | 'server error'
  | 'advisory';

/** Exchanges a check's evidence keeps: its last ones, where the outcome showed. */
export const MAX_EVIDENCE = 4;

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
  /** When the check began (ISO 8601). */
  startedAt: string;
  outcome: CheckOutcome;
  reason?: string;
  /** For failed checks: what kind of failure (Allure categories, report grouping). */
  category?: FailureCategory;
  evidence?: EvidenceRecord;
  choices: Record<string, string>;
  notes: string[];
  requests: number;
  /** Retries after 429 / 503 Retry-After, within this check. */
  retries: number;
  /** Runs (with shrinking) of the properties and state machines this check ran. */
  propertyRuns?: number;
}

export interface CheckResult extends CheckResultMeta {
  durationMs: number;
}

export interface RequirementResult extends Requirement {
  status: RequirementStatus;
  /** Why it is skipped or untested. */
  reason?: string;
  checks: CheckResult[];
  waiver?: { reason: string; expires: string };
}

export interface InterfaceSummary {
  interface: InterfaceId;
  verdict: Verdict;
  /** Requirements by status; and by level for the failed ones. */
  counts: Record<RequirementStatus, number>;
  failedByLevel: Record<Level, number>;
  checks: { passed: number; failed: number; skipped: number; errors: number };
  /** Testable MUSTs that were not exercised (skipped or untested): why the verdict is incomplete. */
  unexercisedMust: string[];
  /** Failed SHOULDs: conformant with warnings. */
  warnings: string[];
}

export interface AmbiguityOutcome {
  id: string;
  interface: InterfaceId;
  subject: string;
  alternatives: { id: string; description: string }[];
  /** The alternative the target chose, or null when no check probed it. */
  chosen: string | null;
}

export interface NotShownItem {
  id: string;
  interface: InterfaceId;
  subject: string;
  reason: string;
  source: Source;
}

/** One run, as every reporter reads it. */
export interface RunResult {
  tool: { name: string; version: string };
  specVersion: string;
  /** sha256 of every file under specs/, in path order. */
  specDigest: string;
  runId: string;
  seed: number;
  startedAt: string;
  durationMs: number;
  targets: { baseUrl?: string; networkApiRoot?: string; shopApiRoot?: string; vendor: string };
  settings: {
    interfaces: InterfaceId[];
    runs: number;
    timeoutMs: number;
    allowIncomplete: boolean;
    maxDurationS: number;
    rateLimit?: number;
    waivers?: string;
  };
  verdict: Verdict;
  exitCode: number;
  interfaces: InterfaceSummary[];
  requirements: RequirementResult[];
  ambiguities: AmbiguityOutcome[];
  notShown: NotShownItem[];
  /** Errors of the suite itself: where (an area, or the suite file), and for an area which one. */
  suiteErrors: { file: string; area?: string; message: string }[];
  requests: number;
  retries: number;
  /** Runs of every property and state machine, shrinking included. */
  propertyRuns: number;
  /** Why the run stopped before its end (target gone, --max-duration); absent when it ran to the end. */
  aborted?: string;
  /** Patterns across checks that point at one cause (e.g. a proxy that drops the token header). */
  diagnoses: string[];
}
