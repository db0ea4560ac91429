import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/config/settings.js';
import { modelNetworkArea } from '../../src/interfaces/rest-v1-network/areas/model-network.js';
import { FreshAccounts } from '../../src/interfaces/rest-v1-network/fresh.js';
import { freePositions, registerInTree, rootAccount } from '../../src/interfaces/rest-v1-network/provision.js';
import { holderOf, isReserved, reserve } from '../../src/interfaces/rest-v1-network/reservations.js';
import { runScratchDir } from '../../src/provisioning/scratch.js';
import { contextFor, type Reference, runCheck, startReference, testRunId, testSettings } from '../properties/harness.js';

// The network's binary tree is shared by every area of a run, and areas run at once in two workers.
// An area that builds below its fresh accounts (the model-based NET-STATE-01/02) must not find a
// position it counts on taken by another area's registerInTree, which picks free positions of the
// whole SFC_NET_USERNAME tree. A self-test once failed NET-STATE-02 that way: the run's fresh
// account had its left child placed by another area between two steps of the model.

let ref: Reference;
beforeAll(async () => {
  ref = await startReference();
});
const RUN_IDS = [testRunId('r5v'), testRunId('m3q')] as const;
// Reservations are files under the run id; a run removes them when it ends (orchestrate), these are the test's.
const clear = () => {
  for (const id of RUN_IDS) rmSync(runScratchDir(id), { recursive: true, force: true });
};
beforeAll(clear);
afterAll(async () => {
  await ref?.close();
  clear();
});

function settingsFor(runId: string, runs: number): Settings {
  const s = testSettings(ref, 'rest-v1-network', 1, runId, runs);
  s.data = { SFC_NET_USERNAME: 'netroot', SFC_NET_PASSWORD: 'Root-pass-2024' };
  return s;
}

describe('network tree positions shared by areas', () => {
  it("a model's fresh account has its two child positions reserved before it is registered, never offered to another area", async () => {
    const settings = settingsFor(RUN_IDS[0], 8);
    const own = contextFor<Record<string, never>>(settings, 'rest-v1-network/model-network');
    const other = contextFor<Record<string, never>>(settings, 'rest-v1-network/withdrawals');
    try {
      const fresh = new FreshAccounts(own.ctx, { reserve: true });
      const anchor = await fresh.next();
      const second = await fresh.next(); // placed below the anchor by the helper itself
      for (const a of [anchor, second])
        for (const side of ['left', 'right'] as const) expect(isReserved(own.ctx, a.username, side)).toBe(true);
      // What another area's registerInTree may pick from: the SFC_NET_USERNAME tree, reservations left out.
      const { open: offered } = await freePositions(other.ctx, (await rootAccount(other.ctx)).token);
      expect(offered.length).toBeGreaterThan(0);
      expect(offered.filter((s) => s.parent === anchor.username || s.parent === second.username)).toEqual([]);
      // Without `reserve` the positions stay open to every area: reserving all would fill the part of
      // the tree a target shows (a self-test with every fresh account reserved ran out of positions).
      const plain = new FreshAccounts(other.ctx);
      await plain.next();
      const below = await plain.next();
      for (const side of ['left', 'right'] as const) expect(isReserved(other.ctx, below.username, side)).toBe(false);
      // An area's reservations end with it: what it did not fill is free for the areas still running.
      // Another area's stay held.
      const { open: ownFree } = await freePositions(other.ctx, (await rootAccount(other.ctx)).token);
      const held = ownFree[0];
      expect(held && reserve(other.ctx, held.parent, held.position)).toBe(true);
      await own.endArea();
      for (const a of [anchor, second])
        for (const side of ['left', 'right'] as const) expect(isReserved(other.ctx, a.username, side)).toBe(false);
      expect(held && holderOf(own.ctx, held.parent, held.position)).toBe(other.ctx.names.scope);
    } finally {
      await own.close();
      await other.close();
    }
  });

  it('the model-based registration sequences pass while another area keeps registering into the tree', async () => {
    const settings = settingsFor(RUN_IDS[1], 24);
    const other = contextFor<Record<string, never>>(settings, 'rest-v1-network/payouts');
    let stop = false;
    let foreign = 0;
    const intruder = (async () => {
      while (!stop) {
        const r = await registerInTree(other.ctx);
        if (r.account) foreign++;
      }
    })();
    try {
      const check = modelNetworkArea.checks.find((c) => c.id === 'NET-STATE-01');
      await runCheck(settings, 'rest-v1-network/model-network', check);
    } finally {
      stop = true;
      await intruder;
      await other.close();
    }
    // The intruder really ran alongside: the check did not pass for want of competition.
    expect(foreign).toBeGreaterThan(5);
  }, 60_000);
});
