// Shared by the replay tests: an in-process reference, settings for one property, and one check
// run with a fresh client and names, returning the requests it sent.
import type { AddressInfo } from 'node:net';
import { createContext, runTeardowns } from '../../src/checks/context.js';
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

type Built = Awaited<ReturnType<typeof import('../../reference-impl/src/server.js')['buildServer']>>;

/**
 * The reference on a free loopback port with an in-memory database. `customize` may add hooks
 * before it listens: a test that needs a target choosing another documented reading (or
 * ordering its validation otherwise) makes one from the reference that way.
 */
export async function startReference(customize?: (server: Built) => void): Promise<Reference> {
  const { buildServer } = await import('../../reference-impl/src/server.js');
  const built = await buildServer({ db: ':memory:', vendor: 'svc', hashCost: 1024 });
  customize?.(built);
  const { app } = built;
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

/**
 * A run id ([a-z0-9]{6}) of this test process: `label` (3 characters) and 3 of the process id. A test
 * clears the scratch folders of its run ids; with fixed ids, two copies of the unit tests on one machine
 * (parallel worktrees) deleted each other's network reservations mid-run.
 */
export function testRunId(label: string): string {
  return label + (process.pid % 46656).toString(36).padStart(3, '0');
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
    concurrency: 8,
    maxDurationS: 60,
    data: {},
    runId,
  };
}

/** A check context of one area (`scope`, e.g. "rest-v1-shop/cart") with a client and names of its own. */
export function contextFor<S>(settings: Settings, scope: string, state: Partial<S> = {}) {
  const http = new TargetClient({ timeoutMs: settings.timeoutMs });
  const teardowns: (() => Promise<void>)[] = [];
  const ctx = createContext<S>(
    { settings, http, schemas: schemaRegistry(), names: new RunNames(settings.runId, scope), state },
    { choices: {}, notes: [], teardowns, propertyRuns: 0 },
  );
  /** What the end of the area runs (area.ts). */
  const endArea = () => runTeardowns(teardowns);
  return { ctx, http, endArea, close: () => http.close() };
}

/** Runs one check of an area with a fresh client and names; returns every exchange it made. */
export async function runCheck<S>(
  settings: Settings,
  scope: string,
  check: CheckSpec<S> | undefined,
  state: Partial<S> = {},
): Promise<Exchange[]> {
  if (!check) throw new Error(`the property under test is gone from ${scope}`);
  const { ctx, http, close } = contextFor<S>(settings, scope, state);
  try {
    await check.run(ctx);
  } finally {
    await close();
  }
  return http.exchanges;
}
