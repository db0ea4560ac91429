import { readFileSync } from 'node:fs';
import { UsageError } from '../config/load.js';
import type { RequirementResult } from './results.js';

/** A known failure: the requirement may fail until `expires` (YYYY-MM-DD) without failing the run. */
export interface Waiver {
  id: string;
  reason: string;
  expires: string;
}

/** Reads a waiver file (`{"waivers": [{id, reason, expires}]}`); a malformed or expired entry is a usage error. */
export function loadWaivers(file: string, now = new Date()): Waiver[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`waiver file ${file} cannot be read as JSON: ${(e as Error).message}`);
  }
  const list = (parsed as { waivers?: unknown }).waivers;
  if (!Array.isArray(list)) throw new UsageError(`waiver file ${file} must hold {"waivers": [{"id", "reason", "expires"}]}`);
  const today = now.toISOString().slice(0, 10);
  return list.map((w, i) => {
    const { id, reason, expires } = (w ?? {}) as Record<string, unknown>;
    if (
      typeof id !== 'string' ||
      typeof reason !== 'string' ||
      reason.trim() === '' ||
      typeof expires !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}$/.test(expires)
    )
      throw new UsageError(`waiver file ${file}, entry ${i + 1}: needs "id", a non-empty "reason" and "expires" as YYYY-MM-DD`);
    if (expires < today)
      throw new UsageError(`waiver for ${id} expired on ${expires} (${reason}): fix the failure or renew the waiver in ${file}`);
    return { id, reason, expires };
  });
}

/** Marks waived failures; they are listed in the report but do not count against the verdict. */
export function applyWaivers(reqs: RequirementResult[], waivers: Waiver[], _now: Date): void {
  const byId = new Map(waivers.map((w) => [w.id, w]));
  for (const r of reqs) {
    const w = byId.get(r.id);
    if (w && r.status === 'failed') r.waiver = { reason: w.reason, expires: w.expires };
  }
}
