import { Kind, type SelectionSetNode } from 'graphql';
import type { PreparedOperation } from './documents.js';

/**
 * Compares a result with the selection that asked for it ("The fields selected in a query
 * determine which fields come back"): every selected field must be present (null allowed) and
 * no unselected field may appear. Returns one line per problem, with a JSON-pointer-like path.
 */
export function selectionIssues(op: PreparedOperation, data: unknown): string[] {
  const issues: string[] = [];
  if (data === null || data === undefined) return issues;
  walk(op.operation.selectionSet, data, '/data', issues);
  return issues;
}

function walk(set: SelectionSetNode, value: unknown, path: string, issues: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      walk(set, v, `${path}/${i}`, issues);
    });
    return;
  }
  if (typeof value !== 'object') {
    issues.push(`${path}: a scalar (${JSON.stringify(value)}) where an object with a sub-selection was selected`);
    return;
  }
  const obj = value as Record<string, unknown>;
  // Fragments may select type-dependent fields: then only the plain fields are required and extras are not judged.
  const hasFragments = set.selections.some((s) => s.kind !== Kind.FIELD);
  const selected = new Map<string, SelectionSetNode | undefined>();
  for (const s of set.selections) if (s.kind === Kind.FIELD) selected.set(s.alias?.value ?? s.name.value, s.selectionSet);
  for (const [key, sub] of selected) {
    if (!(key in obj)) {
      issues.push(`${path}: selected field "${key}" is missing`);
      continue;
    }
    if (sub) walk(sub, obj[key], `${path}/${key}`, issues);
  }
  if (!hasFragments)
    for (const key of Object.keys(obj))
      if (!selected.has(key)) issues.push(`${path}: field "${key}" came back without being selected`);
}
