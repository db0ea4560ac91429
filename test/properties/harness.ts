// Shared by the replay tests: an in-process reference, settings for one property, and one check
// run with a fresh client and names, returning the requests it sent.
import type { AddressInfo } from 'node:net';
import { createContext } from '../../src/checks/context.js';
import type { CheckSpec, InterfaceId } from '../../src/checks/model.js';
import type { Settings } from '../../src/config/settings.js';
import { TargetClient } from '../../src/http/client.js';
import type { Exchange } from '../../src/http/exchange.js';
import { RunNames } from '../../src/provisioning/names.js';
import { schemaRegistry } from '../../src/schemas/registry.js';

export interface Reference {
  origin: string;
  baseUrl: string;
  networkApiRoot: string;
  shopApiRoot: string;
  close(): Promise<void>;
}

export async function startReference(): Promise<Reference> {
  const { buildServer } = await import('../../reference-impl/src/server.js');
  const { app } = await buildServer({ db: ':memory:', vendor: 'svc', hashCost: 1024 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: origin,
    networkApiRoot: `${origin}/network/wp-json/svc/v1`,
    shopApiRoot: `${origin}/shop/wp-json/svc/v1`,
    close: () => app.close(),
  };
}

export function testSettings(ref: Reference, iface: InterfaceId, seed: number, runId: string, runs: number): Settings {
  return {
    baseUrl: ref.baseUrl,
    networkApiRoot: ref.networkApiRoot,
    shopApiRoot: ref.shopApiRoot,
    vendor: 'svc',
    interfaces: [iface],
    reportDir: 'reports',
    seed,
    runs,
    timeoutMs: 10_000,
    allowIncomplete: false,
    maxDurationS: 60,
    data: {},
    runId,
  };
}

/** Runs one check of an area with a fresh client and names; returns every exchange it made. */
export async function runCheck<S>(
  settings: Settings,
  scope: string,
  check: CheckSpec<S> | undefined,
  state: Partial<S> = {},
): Promise<Exchange[]> {
  if (!check) throw new Error(`the property under test is gone from ${scope}`);
  const http = new TargetClient({ timeoutMs: settings.timeoutMs });
  const ctx = createContext<S>(
    { settings, http, schemas: schemaRegistry(), names: new RunNames(settings.runId, scope), state },
    { choices: {}, notes: [], teardowns: [], propertyRuns: 0 },
  );
  try {
    await check.run(ctx);
  } finally {
    await http.close();
  }
  return http.exchanges;
}
