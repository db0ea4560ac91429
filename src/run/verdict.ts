import type { InterfaceId, Level, Requirement } from '../checks/model.js';
import type { CheckResult, InterfaceSummary, RequirementResult, RequirementStatus, Verdict } from './results.js';

/** Folds the checks of each requirement into one status. A failure anywhere fails it. */
export function requirementStatus(req: Requirement, checks: CheckResult[]): { status: RequirementStatus; reason?: string } {
  if (!req.testable) return { status: 'untested', reason: req.untestableReason ?? 'not testable' };
  if (checks.length === 0) return { status: 'untested', reason: 'no check exercised it' };
  if (checks.some((c) => c.outcome === 'failed'))
    return { status: 'failed', reason: checks.find((c) => c.outcome === 'failed')?.reason };
  if (checks.some((c) => c.outcome === 'passed')) return { status: 'passed' };
  const why = checks.find((c) => c.reason)?.reason ?? 'skipped';
  return { status: 'skipped', reason: why };
}

/**
 * The verdict rules (README, "Verdicts"): a failed MUST makes the interface non-conformant; a failed
 * SHOULD leaves it conformant with warnings; ADVISORY never changes it; a testable MUST that was not
 * exercised, or a suite error, makes it incomplete.
 */
export function summarize(iface: InterfaceId, reqs: RequirementResult[], suiteErrors: number): InterfaceSummary {
  const counts: Record<RequirementStatus, number> = { passed: 0, failed: 0, skipped: 0, untested: 0 };
  const failedByLevel: Record<Level, number> = { MUST: 0, SHOULD: 0, MAY: 0, ADVISORY: 0 };
  const checks = { passed: 0, failed: 0, skipped: 0, errors: 0 };
  const unexercisedMust: string[] = [];
  const warnings: string[] = [];
  for (const r of reqs) {
    counts[r.status]++;
    for (const c of r.checks) {
      if (c.outcome === 'error') checks.errors++;
      else checks[c.outcome]++;
    }
    if (r.status === 'failed' && !r.waiver) failedByLevel[r.level]++;
    if (r.status === 'failed' && r.level === 'SHOULD' && !r.waiver) warnings.push(r.id);
    if (r.level === 'MUST' && r.testable && (r.status === 'skipped' || r.status === 'untested')) unexercisedMust.push(r.id);
  }
  let verdict: Verdict = 'conformant';
  if (failedByLevel.MUST > 0) verdict = 'non-conformant';
  else if (reqs.length === 0 || unexercisedMust.length > 0 || checks.errors > 0 || suiteErrors > 0) verdict = 'incomplete';
  return { interface: iface, verdict, counts, failedByLevel, checks, unexercisedMust, warnings };
}

export function overallVerdict(summaries: InterfaceSummary[]): Verdict {
  if (summaries.some((s) => s.verdict === 'non-conformant')) return 'non-conformant';
  if (summaries.length === 0 || summaries.some((s) => s.verdict === 'incomplete')) return 'incomplete';
  return 'conformant';
}

/** Exit codes of DESIGN.md: 0 conformant, 1 non-conformant or incomplete (0 with --allow-incomplete). */
export function exitCodeFor(verdict: Verdict, allowIncomplete: boolean): number {
  if (verdict === 'conformant') return 0;
  if (verdict === 'incomplete' && allowIncomplete) return 0;
  return 1;
}
