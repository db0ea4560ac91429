import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScratchDir, withRunLock } from './scratch.js';

/** What this thread already read or made, by run and name: later calls skip the lock and the file (each gets a copy). */
const seen = new Map<string, { key: string; value: unknown }>();

/**
 * One value for the whole run, made by the first area that asks and shared by every worker thread
 * through the run's scratch folder: a login of an account the settings name, which several areas use
 * at once. Whether a new login ends an account's older tokens is not shown (the real products do end
 * them), so a login per area would end the token another area is still sending.
 *
 * `parts` (target and credentials) are matched by a digest, so a folder left by a killed run hands
 * nothing to another target and holds no password; the file is readable by the run's user only.
 * `make` says whether its value is kept: a refused login is not, and the next caller tries again.
 */
export async function sharedPerRun<T>(
  runId: string,
  name: string,
  parts: string[],
  make: () => Promise<{ value: T; keep: boolean }>,
): Promise<T> {
  const key = createHash('sha256').update(parts.join('\0')).digest('hex');
  const memo = seen.get(`${runId}\0${name}`);
  if (memo?.key === key) return structuredClone(memo.value) as T;
  const file = join(runScratchDir(runId), `${encodeURIComponent(name)}.json`);
  return withRunLock(runId, name, async () => {
    if (existsSync(file)) {
      let kept: { key?: string; value?: T } = {};
      try {
        kept = JSON.parse(readFileSync(file, 'utf8')) as typeof kept;
      } catch {
        // A file cut short (a run killed while writing it) holds nothing: make the value again.
      }
      if (kept.key === key && kept.value !== undefined) {
        seen.set(`${runId}\0${name}`, { key, value: kept.value });
        return kept.value;
      }
    }
    const { value, keep } = await make();
    if (keep) {
      writeFileSync(file, JSON.stringify({ key, value }), { mode: 0o600 });
      seen.set(`${runId}\0${name}`, { key, value });
    }
    return value;
  });
}
