import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertiesArea } from '../../src/interfaces/rest-v1-network/areas/properties.js';
import { runScratchDir } from '../../src/provisioning/scratch.js';
import { type Reference, runCheck, startReference, testRunId, testSettings } from './harness.js';

// The same --seed sends the same generated requests: the network property "a withdrawal below
// net_withdrawal_limit_min is refused" run twice against an in-process reference.

let ref: Reference;
beforeAll(async () => {
  ref = await startReference();
});
afterAll(async () => {
  await ref?.close();
});

async function requestsOf(seed: number, runId: string): Promise<string[]> {
  // A run's scratch folder (the areas' one login of SFC_NET_USERNAME) lives as long as the run, as the
  // orchestrator keeps it: these fixed run ids must not meet what an earlier process left.
  const clear = () => rmSync(runScratchDir(runId), { recursive: true, force: true });
  clear();
  try {
    return await replay(seed, runId);
  } finally {
    clear();
  }
}

async function replay(seed: number, runId: string): Promise<string[]> {
  const settings = testSettings(ref, 'rest-v1-network', seed, runId, 15);
  settings.data = { SFC_NET_USERNAME: 'netroot', SFC_NET_PASSWORD: 'Root-pass-2024' };
  const check = propertiesArea.checks.find((c) => c.id === 'NET-WD-04');
  const exchanges = await runCheck(settings, 'rest-v1-network/properties', check);
  // Tokens differ per login and are not compared; the run id is masked where it appears.
  return exchanges.map((x) =>
    `${x.request.method} ${x.request.url} ${JSON.stringify(x.request.form ?? x.request.body ?? '')}`.replaceAll(runId, 'RUN'),
  );
}

describe('rest-v1-network properties replay', () => {
  it('the same seed sends the same requests (modulo the run id); another seed sends others', async () => {
    const first = await requestsOf(4242, testRunId('q7z'));
    const again = await requestsOf(4242, testRunId('w3x'));
    const other = await requestsOf(777, testRunId('j4m'));
    // A login, the withdrawal read, then one request per run.
    expect(first.length).toBe(17);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // The generated amounts really vary within the run (not one request repeated).
    expect(new Set(first.slice(2)).size).toBeGreaterThan(5);
  });
});
