import { mkdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the areas of one run share across their worker threads: a scratch directory under the run id
 * (removed when the run ends), and locks in it. Files are what every thread sees; a directory made
 * with mkdir is created by exactly one of them.
 */
export const runScratchDir = (runId: string): string => join(tmpdir(), `sfc-run-${runId}`);

const POLL_MS = 20;

/**
 * Runs `fn` while the run's lock `name` is held: areas that change and read the same shared data of
 * the target (one account's withdrawals) take turns. A holder that fails still lets go. Past
 * `waitMs` the caller goes ahead unlocked, told through `onGiveUp`: a hung holder must not hang the run.
 */
export async function withRunLock<T>(
  runId: string,
  name: string,
  fn: () => Promise<T>,
  { waitMs = 60_000, onGiveUp }: { waitMs?: number; onGiveUp?: (message: string) => void } = {},
): Promise<T> {
  const dir = join(runScratchDir(runId), 'locks');
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, encodeURIComponent(name));
  const started = Date.now();
  let held = false;
  while (!held) {
    try {
      mkdirSync(lock);
      held = true;
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST') throw e;
      if (Date.now() - started > waitMs) {
        onGiveUp?.(`went ahead without the lock "${name}" after waiting ${waitMs} ms for another area`);
        break;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  try {
    return await fn();
  } finally {
    if (held) rmdirSync(lock);
  }
}
