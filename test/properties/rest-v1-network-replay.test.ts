import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/checks/context.js';
import type { Settings } from '../../src/config/settings.js';
import { TargetClient } from '../../src/http/client.js';
import { propertiesArea } from '../../src/interfaces/rest-v1-network/areas/properties.js';
import { RunNames } from '../../src/provisioning/names.js';
import { schemaRegistry } from '../../src/schemas/registry.js';

// The same --seed sends the same generated requests: one network property (withdrawal amounts
// below net_withdrawal_limit_min, refused, so the target's state does not move) run twice
// against an in-process reference.

let app: FastifyInstance;
let root = '';

beforeAll(async () => {
  const { buildServer } = await import('../../reference-impl/src/server.js');
  ({ app } = await buildServer({ db: ':memory:', vendor: 'svc', hashCost: 1024 }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  root = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/network/wp-json/svc/v1`;
});

afterAll(async () => {
  await app?.close();
});

/** Runs the property with a fresh client and names; returns its requests with the run id masked. */
async function requestsOf(seed: number, runId: string): Promise<string[]> {
  const settings: Settings = {
    networkApiRoot: root,
    vendor: 'svc',
    interfaces: ['rest-v1-network'],
    reportDir: 'reports',
    seed,
    runs: 15,
    timeoutMs: 10_000,
    allowIncomplete: false,
    maxDurationS: 60,
    data: { SFC_NET_USERNAME: 'netroot', SFC_NET_PASSWORD: 'Root-pass-2024' },
    runId,
  };
  const http = new TargetClient({ timeoutMs: settings.timeoutMs });
  const ctx = createContext(
    { settings, http, schemas: schemaRegistry(), names: new RunNames(runId, 'rest-v1-network/properties'), state: {} },
    { choices: {}, notes: [], teardowns: [], propertyRuns: 0 },
  );
  const check = propertiesArea.checks.find((c) => c.id === 'NET-WD-04');
  if (!check) throw new Error('the NET-WD-04 property is gone from the properties area');
  try {
    await check.run(ctx);
  } finally {
    await http.close();
  }
  // Tokens differ per login and are not compared; the run id is masked where it appears.
  return http.exchanges.map((x) =>
    `${x.request.method} ${x.request.url} ${JSON.stringify(x.request.form ?? x.request.body ?? '')}`.replaceAll(runId, 'RUN'),
  );
}

describe('rest-v1-network properties replay', () => {
  it('the same seed sends the same requests (modulo the run id); another seed sends others', async () => {
    const first = await requestsOf(4242, 'q7z9k2');
    const again = await requestsOf(4242, 'w3x8v5');
    const other = await requestsOf(777, 'j4m6p1');
    // A login, the withdrawal read, then one request per run.
    expect(first.length).toBe(17);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // The generated amounts really vary within the run (not one request repeated).
    expect(new Set(first.slice(2)).size).toBeGreaterThan(5);
  });
});
