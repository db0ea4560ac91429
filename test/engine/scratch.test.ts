import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScratchDir, withRunLock } from '../../src/provisioning/scratch.js';

// One run id per process: a parallel run of this file gets its own locks, and a lock left by a
// killed earlier run with the same pid is removed before the tests start.
const RUN = `test-scratch-${process.pid}`;
const clean = () => rmSync(runScratchDir(RUN), { recursive: true, force: true });
beforeAll(clean);
afterAll(clean);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('withRunLock', () => {
  it('lets one holder in at a time; the other waits and then runs', async () => {
    const events: string[] = [];
    const hold = (who: string) =>
      withRunLock(RUN, 'account', async () => {
        events.push(`${who} in`);
        await pause(60);
        events.push(`${who} out`);
        return who;
      });
    const results = await Promise.all([hold('a'), pause(10).then(() => hold('b'))]);
    expect(results).toEqual(['a', 'b']);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
  });

  it('lets go when the holder throws', async () => {
    await expect(
      withRunLock(RUN, 'thrown', async () => {
        throw new Error('check failed');
      }),
    ).rejects.toThrow('check failed');
    expect(await withRunLock(RUN, 'thrown', async () => 'next', { waitMs: 100 })).toBe('next');
  });

  it('goes ahead unlocked past waitMs and says why, leaving the holder its lock', async () => {
    const told: string[] = [];
    const holder = withRunLock(RUN, 'hung', () => pause(300));
    await pause(10);
    const ran = await withRunLock(RUN, 'hung', async () => 'ran', { waitMs: 50, onGiveUp: (m) => told.push(m) });
    expect(ran).toBe('ran');
    expect(told).toEqual(['went ahead without the lock "hung" after waiting 50 ms for another area']);
    await holder; // and the holder still releases its own lock
    expect(await withRunLock(RUN, 'hung', async () => 'free', { waitMs: 100 })).toBe('free');
  });
});
