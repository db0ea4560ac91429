import { describe, expect, it } from 'vitest';
import { type ContextRecorder, createContext } from '../../src/checks/context.js';
import type { Settings } from '../../src/config/settings.js';
import { TargetClient } from '../../src/http/client.js';
import { boundariesArea } from '../../src/interfaces/rest-route/areas/boundaries.js';
import type { PropState } from '../../src/interfaces/rest-route/prop-setup.js';
import { RunNames } from '../../src/provisioning/names.js';
import { schemaRegistry } from '../../src/schemas/registry.js';

// Reproducibility: the same --seed sends the same generated requests. One boundary property of
// rest-route runs against a fresh in-process reference per run, through checkProperty, with a
// minimal context; the request sequences (method, URL, body) are compared with the run id masked.

const check = boundariesArea.checks.find((c) => c.title.startsWith('address postcode'));

async function requestsOf(port: number, seed: number, runId: string): Promise<string[]> {
  const http = new TargetClient({ timeoutMs: 10_000 });
  const settings: Settings = {
    baseUrl: `http://127.0.0.1:${port}`,
    vendor: 'svc',
    interfaces: ['rest-route'],
    reportDir: '/tmp/sfc-replay-unused',
    seed,
    runs: 12,
    timeoutMs: 10_000,
    allowIncomplete: false,
    concurrency: 8,
    maxDurationS: 60,
    data: {},
    runId,
  };
  const recorder: ContextRecorder = { choices: {}, notes: [], teardowns: [], propertyRuns: 0 };
  const ctx = createContext<PropState>(
    { settings, http, schemas: schemaRegistry(), names: new RunNames(runId, 'rest-route/boundaries'), state: {} },
    recorder,
  );
  try {
    await check?.run(ctx);
    return http.exchanges.map((ex) =>
      // The run id, and the telephone derived from it by a hash, are the only run-specific parts.
      `${ex.request.method} ${ex.request.url.replace(`:${port}`, ':<port>')} ${ex.request.body ?? ''}`
        .replaceAll(runId, '<run>')
        .replace(/"telephone":"9\d{9}"/g, '"telephone":"<phone>"')
        // Ids the shared server hands out differ between runs; the generated values do not.
        .replace(/"address_id":\d+/g, '"address_id":<id>'),
    );
  } finally {
    await http.close();
  }
}

describe('rest-route properties replay from the seed', () => {
  it('the same seed sends the same requests; another seed sends others', async () => {
    expect(check, 'the postcode boundary property exists').toBeDefined();
    const { buildServer } = await import('../../reference-impl/src/server.js');
    const { app } = await buildServer({ db: ':memory:', vendor: 'svc', hashCost: 1024 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    let first: string[];
    let second: string[];
    let other: string[];
    try {
      first = await requestsOf(port, 424242, 'rpla01');
      second = await requestsOf(port, 424242, 'rplb02');
      other = await requestsOf(port, 7, 'rplc03');
    } finally {
      await app.close();
    }
    // Provisioning (register, header probe, the country list) and at least one request per run.
    expect(first.length).toBeGreaterThan(12);
    expect(second).toEqual(first);
    expect(other).not.toEqual(first);
  });
});
