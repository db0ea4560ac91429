/**
 * Whether a mutant run killed its mutant: the suite's check outcomes against the mutated reference,
 * compared with the dry run's against the unmutated one (scripts/mutation/runner.ts keeps those).
 *
 * A MUST or SHOULD check kills when it
 * - fails, unless it failed in the dry run too (a check that skipped there, because the reference
 *   refused what it judges, and fails now has found the mutant: RR-PWD-02/05 of another customer's
 *   e-mail are such checks);
 * - no longer passes (skipped, or missing from an area that ran) after passing in the dry run.
 * Any check that errs, and any error of the suite, kills. ADVISORY findings fail on the unmutated
 * reference too and never kill; a survivor that flips one from passed to failed is reported.
 */
import type { CheckResult } from '../../src/run/results.js';

export const SERIOUS_LEVELS: ReadonlySet<string> = new Set(['MUST', 'SHOULD']);

export interface MutantVerdict {
  /** One entry per reason, with the `<interface>/<area>` it came from. */
  killers: Array<{ area: string; why: string }>;
  /** ADVISORY requirements that passed in the dry run and failed in this run. */
  advisoryFlips: string[];
}

export interface JudgeInput {
  checks: readonly Pick<CheckResult, 'interface' | 'area' | 'requirement' | 'title' | 'level' | 'outcome' | 'reason'>[];
  suiteErrors: ReadonlyArray<{ file: string; area?: string; message: string }>;
  /** Areas this run was asked to run (`<interface>/<area>`). */
  areas: ReadonlyArray<{ id: string }>;
  /** Dry-run outcome by `<area id>|<requirement>|<title>`. */
  baseline: ReadonlyMap<string, string>;
  /** Requirement id -> true when MUST or SHOULD. */
  serious: ReadonlyMap<string, boolean>;
}

export function judgeMutantRun({ checks, suiteErrors, areas, baseline, serious }: JudgeInput): MutantVerdict {
  const killers: MutantVerdict['killers'] = [];
  const advisoryFlips: string[] = [];
  const seen = new Set<string>();
  for (const c of checks) {
    const area = `${c.interface}/${c.area}`;
    const key = `${area}|${c.requirement}|${c.title}`;
    seen.add(key);
    // A check the dry run never saw (a title with run data in it) is judged as if it had passed there.
    const before = baseline.get(key) ?? 'passed';
    if (c.level === 'ADVISORY' && c.outcome === 'failed' && baseline.get(key) === 'passed') advisoryFlips.push(c.requirement);
    if (c.outcome === 'error') killers.push({ area, why: `${c.requirement} error: ${c.reason ?? ''}` });
    else if (
      SERIOUS_LEVELS.has(c.level) &&
      ((c.outcome === 'failed' && before !== 'failed') || (c.outcome !== 'passed' && before === 'passed'))
    )
      killers.push({ area, why: `${c.requirement} ${c.level} ${c.outcome}: ${(c.reason ?? '').slice(0, 300)}` });
  }
  for (const e of suiteErrors) {
    const area = e.area ?? areas[0]?.id ?? 'suite';
    killers.push({ area, why: `suite error: ${e.message.slice(0, 300)}` });
  }
  const ran = new Set(areas.map((a) => a.id));
  for (const [key, outcome] of baseline) {
    const [area, requirement] = key.split('|') as [string, string];
    if (outcome === 'passed' && serious.get(requirement) && ran.has(area) && !seen.has(key))
      killers.push({ area, why: `${key} did not run` });
  }
  return { killers, advisoryFlips };
}
