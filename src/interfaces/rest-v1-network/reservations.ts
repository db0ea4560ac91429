import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckContext } from '../../checks/context.js';
import { runScratchDir } from '../../provisioning/scratch.js';

/**
 * Positions of the shared binary tree that one area of this run means to fill itself (the two
 * children of an account it just placed, the position it registers at next). Areas run at once; a
 * file created with the exclusive flag is a reservation every area sees, and it names the area that
 * holds it, so no area takes another's position and an area's own positions stay its own.
 */
const dirOf = (ctx: CheckContext<never> | CheckContext<object>) => join(runScratchDir(ctx.settings.runId), 'net-slots');
const fileOf = (dir: string, parent: string, position: string) =>
  join(dir, `${encodeURIComponent(parent.toLowerCase())}.${position}`);

/** Reserves a position for this area; true when it is this area's (now or already), false when another's. */
export function reserve(ctx: CheckContext<never> | CheckContext<object>, parent: string, position: 'left' | 'right'): boolean {
  const dir = dirOf(ctx);
  mkdirSync(dir, { recursive: true });
  const file = fileOf(dir, parent, position);
  try {
    writeFileSync(file, ctx.names.scope, { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e;
    try {
      return readFileSync(file, 'utf8') === ctx.names.scope;
    } catch {
      return false;
    }
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
