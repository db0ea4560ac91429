import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/checks/context.js';
import type { Settings } from '../../src/config/settings.js';
import { registrationArea } from '../../src/interfaces/rest-v1-network/areas/registration/index.js';
import {
  type Account,
  freePositions,
  register,
  registerForm,
  rootAccount,
} from '../../src/interfaces/rest-v1-network/provision.js';
import { runScratchDir } from '../../src/provisioning/scratch.js';
import { contextFor, type Reference, startReference, testRunId, testSettings } from '../properties/harness.js';

// The registration area registers A (an anchor: its children reserved), B at A's left, then sends
// bodies wrong in one field each at B's left (NET-REG-02..06, -11, -15), a placement that is valid
// so that only that field can fail. Another area's registerInTree picks free positions of the whole
// SFC_NET_USERNAME tree: had it taken B's left meanwhile, a target that checks the placement before
// the fields (the documents fix no order) refuses those bodies for the position, and the checks fail.

const RUN_ID = testRunId('g6r');
let ref: Reference;
beforeAll(async () => {
  rmSync(runScratchDir(RUN_ID), { recursive: true, force: true });
  // The reference, but a registration at a taken position is refused for that alone, before any field is read.
  ref = await startReference(({ app, ctx }) => {
    const taken = ctx.db.prepare(
      `SELECT 1 FROM net_net_users c JOIN net_net_users p ON c.parent_key = p.user_key
       WHERE lower(p.user_name) = lower(?) AND c.position = ?`,
    );
    app.addHook('preHandler', async (request, reply) => {
      if (request.method !== 'POST' || !request.url.endsWith('/auth/register')) return;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const parent = body['net_user[parent_name]'];
      const position = body['net_user[position]'];
      if (typeof parent === 'string' && typeof position === 'string' && taken.get(parent, position))
        return reply.send({ status: false, errors: { position: 'Position already taken.' }, message: 'Position already taken.' });
    });
  });
});
afterAll(async () => {
  await ref?.close();
  rmSync(runScratchDir(RUN_ID), { recursive: true, force: true });
});

type TreeCtx = CheckContext<{ a: Account; b: Account; c: Account }>;
const run = (ctx: TreeCtx, id: string) => {
  const check = registrationArea.checks.find((c) => c.id === id);
  if (!check) throw new Error(`${id} is gone from the registration area`);
  return check.run(ctx as never);
};

describe("the registration area's positions in the shared tree", () => {
  it("B's left, where the one-field refusals register, is never offered to another area; the refusals name their field", async () => {
    const settings: Settings = testSettings(ref, 'rest-v1-network', 1, RUN_ID, 10);
    settings.data = { SFC_NET_USERNAME: 'netroot', SFC_NET_PASSWORD: 'Root-pass-2024' };
    const area = contextFor<{ a: Account; b: Account; c: Account }>(settings, 'rest-v1-network/registration');
    const other = contextFor<object>(settings, 'rest-v1-network/bank-details');
    try {
      await run(area.ctx, 'NET-REG-01');
      await run(area.ctx, 'NET-REG-10');
      await run(area.ctx, 'NET-REG-08');
      const { b } = area.ctx.state as { b: Account };
      // Another area registering into the tree takes, in time, every position it is offered (it picks
      // among all of them); here, at once, each one offered in the SFC_NET_USERNAME tree (A's part offers
      // none: the area reserves both children of B and of C).
      const { open: offered } = await freePositions(other.ctx, (await rootAccount(other.ctx as never)).token);
      let foreign = 0;
      for (const slot of offered) {
        const r = await register(other.ctx, registerForm(other.ctx, { sponsor: 'netroot', ...slot }));
        if (r.account) foreign++;
      }
      expect(foreign).toBeGreaterThan(0); // the intruder really took positions in the tree
      // The checks that send one-field refusals to B's left (each fails the test if it fails).
      for (const id of ['NET-REG-11', 'NET-REG-02', 'NET-REG-03', 'NET-REG-04', 'NET-REG-15']) await run(area.ctx, id);
      expect(offered.filter((s) => s.parent === b.username && s.position === 'left')).toEqual([]);
    } finally {
      await area.close();
      await other.close();
    }
  }, 60_000);
});
