import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
type Ctx = CheckContext<never> | CheckContext<object>;
const dirOf = (ctx: Ctx) => join(runScratchDir(ctx.settings.runId), 'net-slots');
const fileOf = (dir: string, parent: string, position: string) =>
  join(dir, `${encodeURIComponent(parent.toLowerCase())}.${position}`);

/** Reserves a position for this area; true when it is this area's (now or already), false when another's. */
export function reserve(ctx: Ctx, parent: string, position: 'left' | 'right'): boolean {
  const dir = dirOf(ctx);
  mkdirSync(dir, { recursive: true });
  const file = fileOf(dir, parent, position);
  try {
    writeFileSync(file, ctx.names.scope, { flag: 'wx' });
    releaseAtEnd(ctx, file);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e;
    return holderAt(file) === ctx.names.scope;
  }
}

/** The area that holds a position (`''` while its file is being written), or undefined when none does. */
export function holderOf(ctx: Ctx, parent: string, position: 'left' | 'right'): string | undefined {
  return holderAt(fileOf(dirOf(ctx), parent, position));
}

export function isReserved(ctx: Ctx, parent: string, position: 'left' | 'right'): boolean {
  return holderOf(ctx, parent, position) !== undefined;
}

function holderAt(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The reservation files each area created (keyed by its RunNames), removed in one teardown at its end. */
const created = new WeakMap<object, Set<string>>();

function releaseAtEnd(ctx: Ctx, file: string): void {
  const files = created.get(ctx.names);
  if (files) {
    files.add(file);
    return;
  }
  created.set(ctx.names, new Set([file]));
  ctx.onTeardown(async () => {
    // Only this area created these (the exclusive flag), so they are its own to remove.
    for (const f of created.get(ctx.names) ?? []) rmSync(f, { force: true });
    created.delete(ctx.names);
  });
}

/** Reserves both children of an account the caller will build under (before the account exists). */
export function reserveChildren(ctx: Ctx, username: string): void {
  reserve(ctx, username, 'left');
  reserve(ctx, username, 'right');
}
