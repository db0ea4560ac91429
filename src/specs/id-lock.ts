import { createHash } from 'node:crypto';
import type { Requirement } from '../checks/model.js';

/** What an id means: its level and statement. The lock keeps this digest per id, forever. */
export function meaningDigest(r: Pick<Requirement, 'level' | 'statement' | 'interface'>): string {
  return createHash('sha256').update(`${r.interface}\n${r.level}\n${r.statement}`).digest('hex').slice(0, 16);
}
