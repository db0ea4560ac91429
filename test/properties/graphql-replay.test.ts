import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertiesArea } from '../../src/interfaces/graphql/areas/properties.js';
import { type Reference, runCheck, startReference, testSettings } from './harness.js';

// The same --seed sends the same generated requests: the GraphQL property "a telephone or
// postcode holding a non-digit is refused" run twice against an in-process reference.

let ref: Reference;
beforeAll(async () => {
  ref = await startReference();
});
afterAll(async () => {
  await ref?.close();
});

async function requestsOf(seed: number, runId: string): Promise<string[]> {
  const settings = testSettings(ref, 'graphql', seed, runId, 15);
  const check = propertiesArea.checks.find((c) => c.id === 'GQL-PROP-01');
  const exchanges = await runCheck(settings, 'graphql/properties', check);
  // The run id is in e-mails, names and passwords; the untouched field's digits come from a hash of it.
  const mask = (text: string) =>
    text
      .split(runId)
      .join('R')
      .replace(/\\"(telephone|postcode)\\":\\"9\d{9}\\"/g, '\\"$1\\":\\"RUN-PHONE\\"');
  return exchanges.map((x) => mask(`${x.request.method} ${x.request.url} ${JSON.stringify(x.request.body ?? '')}`));
}

describe('graphql properties replay', () => {
  it('the same seed sends the same requests (modulo the run id); another seed sends others', async () => {
    const first = await requestsOf(4242, 'q7z9k2');
    const again = await requestsOf(4242, 'w3x8v5');
    const other = await requestsOf(777, 'j4m6p1');
    // 15 registers (the property's runs), then one login per field with the first refusal's account (no account is made).
    expect(first.length).toBe(17);
    expect(first.some((r) => r.includes('RUN-PHONE'))).toBe(true);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // The generated values really vary within the run (not one request repeated).
    expect(new Set(first).size).toBeGreaterThan(5);
  });
});
