import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckContext } from '../../checks/context.js';
import { runScratchDir } from '../../provisioning/scratch.js';

/**
 * Positions of the shared binary tree that one area of this run means to fill itself (the two
 * children of an account it just placed, the position it registers at next). Areas run at once; a
 * file created with the exclusive flag is a reservation every area sees, and it names the area that
 * holds it, so no area takes another's position and an area's own positions stay its own. An area's
 * reservations end with it: what it did not fill is free for the areas still running.
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
    releaseAtEnd(ctx);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e;
    return holderOf(ctx, parent, position) === ctx.names.scope;
  }
}

/** The area that holds a position (`''` while its file is being written), or undefined when none does. */
export function holderOf(
  ctx: CheckContext<never> | CheckContext<object>,
  parent: string,
  position: 'left' | 'right',
): string | undefined {
  try {
    return readFileSync(fileOf(dirOf(ctx), parent, position), 'utf8');
  } catch {
    return undefined;
  }
}

/** Areas whose reservations are released at their end (one teardown each). */
const releasing = new WeakSet<object>();

function releaseAtEnd(ctx: CheckContext<never> | CheckContext<object>): void {
  if (releasing.has(ctx.names)) return;
  releasing.add(ctx.names);
  ctx.onTeardown(async () => {
    const dir = dirOf(ctx);
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const file = join(dir, name);
      try {
        if (readFileSync(file, 'utf8') === ctx.names.scope) rmSync(file, { force: true });
      } catch {
        // gone already (the run's scratch folder is removed at its end)
      }
    }
  });
}

export function isReserved(ctx: CheckContext<never> | CheckContext<object>, parent: string, position: 'left' | 'right'): boolean {
  return existsSync(fileOf(dirOf(ctx), parent, position));
}

/** Reserves both children of an account the caller will build under (before the account exists). */
export function reserveChildren(ctx: CheckContext<never> | CheckContext<object>, username: string): void {
  reserve(ctx, username, 'left');
  reserve(ctx, username, 'right');
}
