import type { FailureCategory } from '../run/results.js';
import type { Requirement } from './model.js';

/**
 * Which kind of failure this is, for the reports and Allure's categories (reporters/allure.ts). Areas
 * and ids name what a requirement is about (AUTH, TOKEN, VAL, LIMIT, ...): the id says it, not a
 * guess at text.
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
