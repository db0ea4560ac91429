import * as allure from 'allure-js-commons';
import type { CheckResultMeta, FailureCategory } from '../run/results.js';
import type { Requirement } from './model.js';

/** Allure severity from the requirement level. */
const SEVERITY: Record<Requirement['level'], string> = { MUST: 'critical', SHOULD: 'normal', MAY: 'minor', ADVISORY: 'trivial' };

/** Failure categories of the Allure report: the category is the first word(s) of the failure message. */
export const ALLURE_CATEGORIES: { name: string; messageRegex: string; matchedStatuses: string[] }[] = [
  { name: 'Schema violation', messageRegex: '^schema violation: .*', matchedStatuses: ['failed'] },
  { name: 'Server error', messageRegex: '^server error: .*', matchedStatuses: ['failed'] },
  { name: 'Authentication', messageRegex: '^authentication: .*', matchedStatuses: ['failed'] },
  { name: 'Validation', messageRegex: '^validation: .*', matchedStatuses: ['failed'] },
  { name: 'Business rule', messageRegex: '^business rule: .*', matchedStatuses: ['failed'] },
  { name: 'Advisory', messageRegex: '^advisory: .*', matchedStatuses: ['failed'] },
  { name: 'Suite error (not the target)', messageRegex: '.*', matchedStatuses: ['broken'] },
];

/**
 * Which kind of failure this is, for Allure's categories and the reports. Areas and ids name
 * what a requirement is about (AUTH, TOKEN, VAL, LIMIT, ...): the id says it, not a guess at text.
 */
export function categorize(req: Requirement, status: number | undefined, schemaIssues: boolean): FailureCategory {
  if (req.level === 'ADVISORY') return 'advisory';
  if (status !== undefined && status >= 500) return 'server error';
  if (schemaIssues) return 'schema violation';
  const area = `${req.area} ${req.id}`.toUpperCase();
  if (/AUTH|TOKEN|JWT|SEC/.test(area)) return 'authentication';
  if (/VAL|LIMIT|ERR|BOUND/.test(area)) return 'validation';
  return 'business rule';
}

/** Labels and links of one check for Allure (no-ops when the run has no Allure reporter). */
export async function labelCheck(meta: CheckResultMeta, req: Requirement): Promise<void> {
  await allure.epic(`${meta.interface} (${meta.source.document})`);
  await allure.feature(req.endpoints?.[0] ?? meta.area);
  await allure.story(meta.requirement);
  // The tree of the report: interface, then area (instead of the test file's package).
  await allure.parentSuite(meta.interface);
  await allure.suite(meta.area);
  await allure.subSuite(req.level);
  await allure.severity(SEVERITY[req.level]);
  await allure.tags(meta.interface, req.level, meta.area);
  await allure.label('requirement', meta.requirement);
  await allure.description(
    `**${req.level}** ${req.statement}\n\nSource: ${req.source.document}, section "${req.source.section}"${req.source.detail ? `, ${req.source.detail}` : ''}.`,
  );
}

export async function attachEvidence(meta: CheckResultMeta): Promise<void> {
  for (const [i, ex] of (meta.evidence?.exchanges ?? []).entries()) {
    const name = `${i + 1}. ${ex.request.method} ${ex.request.url.replace(/^https?:\/\/[^/]+/, '')} → ${ex.response?.status ?? ex.error ?? ''}`;
    await allure.attachment(
      name,
      JSON.stringify({ request: ex.request, response: ex.response, error: ex.error, durationMs: ex.durationMs }, null, 2),
      'application/json',
    );
    await allure.attachment(`${i + 1}. replay (curl)`, ex.curl, 'text/plain');
  }
}
