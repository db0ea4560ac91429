import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Allure results of an earlier run in the same directory would mix into this run's report. They are
 * moved aside at once, and deleted by the function returned, once this run's results are written:
 * deleting thousands of files while the run creates its own cost 2-4 CPU-seconds of kernel time per
 * self-test on ext4 (each new file's inode search skips the recently deleted ones), which two busy
 * cores take from the run itself. The deletion also takes what a killed run had set aside.
 */
export function setAsideOldResults(dir: string, runId: string): () => Promise<void> {
  const parent = dirname(dir);
  const prefix = `${basename(dir)}.old-`;
  if (existsSync(dir)) {
    try {
      renameSync(dir, join(parent, `${prefix}${runId}`));
    } catch {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return async () => {
    const aside = existsSync(parent) ? readdirSync(parent).filter((name) => name.startsWith(prefix)) : [];
    await Promise.all(aside.map((name) => rm(join(parent, name), { recursive: true, force: true })));
  };
}
