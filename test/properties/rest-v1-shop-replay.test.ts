import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/checks/context.js';
import type { Settings } from '../../src/config/settings.js';
import { TargetClient } from '../../src/http/client.js';
import { propertiesArea } from '../../src/interfaces/rest-v1-shop/areas/properties.js';
import { RunNames } from '../../src/provisioning/names.js';
import { schemaRegistry } from '../../src/schemas/registry.js';

// The same --seed sends the same generated requests: one shop property (usernames with a
// character other than a letter or digit) run twice against an in-process reference.

let app: FastifyInstance;
let root = '';

beforeAll(async () => {
  const { buildServer } = await import('../../reference-impl/src/server.js');
  ({ app } = await buildServer({ db: ':memory:', vendor: 'svc', hashCost: 1024 }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  root = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/shop/wp-json/svc/v1`;
});

afterAll(async () => {
  await app?.close();
});

/** Runs the property with a fresh client and names; returns its requests with the run id masked. */
async function requestsOf(seed: number, runId: string): Promise<string[]> {
  const settings: Settings = {
    shopApiRoot: root,
    vendor: 'svc',
    interfaces: ['rest-v1-shop'],
    reportDir: 'reports',
    seed,
    runs: 15,
    timeoutMs: 10_000,
    allowIncomplete: false,
    maxDurationS: 60,
    data: {},
    runId,
  };
  const http = new TargetClient({ timeoutMs: settings.timeoutMs });
  const ctx = createContext(
    { settings, http, schemas: schemaRegistry(), names: new RunNames(runId, 'rest-v1-shop/properties'), state: {} },
    { choices: {}, notes: [], teardowns: [], propertyRuns: 0 },
  );
  const check = propertiesArea.checks.find((c) => c.id === 'SHOP-AUTH-09');
  if (!check) throw new Error('the SHOP-AUTH-09 property is gone from the properties area');
  try {
    await check.run(ctx);
  } finally {
    await http.close();
  }
  // The property inserts a forbidden character anywhere in a name, inside the run id too: mask
  // the run id's characters where they stand, keeping what was inserted between them.
  const loose = new RegExp(runId.split('').join('(.?)'), 'g');
  const mask = (text: string) => text.replace(loose, (...m) => `R${(m.slice(1, runId.length) as string[]).join('R')}R`);
  return http.exchanges.map((x) =>
    mask(`${x.request.method} ${x.request.url} ${JSON.stringify(x.request.form ?? x.request.body ?? '')}`),
  );
}

describe('rest-v1-shop properties replay', () => {
  it('the same seed sends the same requests (modulo the run id); another seed sends others', async () => {
    const first = await requestsOf(4242, 'q7z9k2');
    const again = await requestsOf(4242, 'w3x8v5');
    const other = await requestsOf(777, 'j4m6p1');
    expect(first.length).toBe(15);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // The generated usernames really vary within the run (not one request repeated).
    expect(new Set(first).size).toBeGreaterThan(5);
  });
});
