import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authArea } from '../../src/interfaces/rest-v1-network/areas/auth.js';
import { net } from '../../src/interfaces/rest-v1-network/client.js';
import { registerInTree, rootAccount } from '../../src/interfaces/rest-v1-network/provision.js';
import { runScratchDir } from '../../src/provisioning/scratch.js';
import { contextFor, type Reference, runCheck, testRunId, testSettings } from '../properties/harness.js';

// Whether a new login ends an account's earlier tokens is not shown; the real products do end them.
// Every area uses SFC_NET_USERNAME at once, so its login is made once per run and shared: a target
// of that reading must not see one area's login end the token another area is still sending.

let ref: Reference;
beforeAll(async () => {
  const { buildServer } = await import('../../reference-impl/src/server.js');
  const { app } = await buildServer({ db: ':memory:', vendor: 'svc', hashCost: 1024, singleSession: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  ref = {
    origin,
    baseUrl: origin,
    networkApiRoot: `${origin}/network/wp-json/svc/v1`,
    shopApiRoot: `${origin}/shop/wp-json/svc/v1`,
    close: () => app.close(),
  };
});
const RUN_ID = testRunId('q7n');
const clear = () => rmSync(runScratchDir(RUN_ID), { recursive: true, force: true });
beforeAll(clear);
afterAll(async () => {
  await ref?.close();
  clear();
});

describe('the login of SFC_NET_USERNAME shared by the areas of a run', () => {
  it("one area's token stays usable while others log in through rootAccount, registerInTree and NET-AUTH-01", async () => {
    const settings = testSettings(ref, 'rest-v1-network', 1, RUN_ID, 4);
    settings.data = { SFC_NET_USERNAME: 'netroot', SFC_NET_PASSWORD: 'Root-pass-2024' };
    const first = contextFor<Record<string, never>>(settings, 'rest-v1-network/commissions');
    const other = contextFor<Record<string, never>>(settings, 'rest-v1-network/payouts');
    try {
      const root = await rootAccount(first.ctx);
      expect((await registerInTree(other.ctx)).account).toBeDefined();
      const auth = await runCheck(
        settings,
        'rest-v1-network/auth',
        authArea.checks.find((c) => c.id === 'NET-AUTH-01'),
      );
      const logins = [...first.http.exchanges, ...other.http.exchanges, ...auth].filter((e) =>
        e.request.url.endsWith('/auth/login'),
      );
      expect(logins).toHaveLength(1);
      expect((await net(first.ctx).userInfo(root.token)).body.status).toBe(true);
      // The reading is in force: a login of its own (as each area made before) ends the shared token.
      expect((await net(other.ctx).login('netroot', 'Root-pass-2024')).token).toBeDefined();
      expect((await net(first.ctx).userInfo(root.token)).body.status).toBe(false);
    } finally {
      await first.close();
      await other.close();
    }
  }, 30_000);
});
