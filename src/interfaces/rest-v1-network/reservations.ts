import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckContext } from '../../checks/context.js';
import { runScratchDir } from '../../provisioning/scratch.js';

/**
 * Positions of the shared binary tree that one area of this run means to fill itself (the two
 * children of an account it just placed). Areas run in parallel worker threads; a file created
 * with the exclusive flag is a reservation every thread sees, so no area takes another's position.
 */
const dirOf = (ctx: CheckContext<never> | CheckContext<object>) => join(runScratchDir(ctx.settings.runId), 'net-slots');
const fileOf = (dir: string, parent: string, position: string) =>
  join(dir, `${encodeURIComponent(parent.toLowerCase())}.${position}`);

/** Reserves a position; false when another area holds it already. */
export function reserve(ctx: CheckContext<never> | CheckContext<object>, parent: string, position: 'left' | 'right'): boolean {
  const dir = dirOf(ctx);
  mkdirSync(dir, { recursive: true });
  try {
    closeSync(openSync(fileOf(dir, parent, position), 'wx'));
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'EEXIST') return false;
    throw e;
  }
}

export function isReserved(ctx: CheckContext<never> | CheckContext<object>, parent: string, position: 'left' | 'right'): boolean {
  return existsSync(fileOf(dirOf(ctx), parent, position));
}

/** Reserves both children of an account the caller will build under (before the account exists). */
export function reserveChildren(ctx: CheckContext<never> | CheckContext<object>, username: string): void {
  reserve(ctx, username, 'left');
  reserve(ctx, username, 'right');
}
