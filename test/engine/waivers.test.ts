import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/config/load.js';
import { loadWaivers } from '../../src/run/waivers.js';

const file = (content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'sfc-waivers-')), 'waivers.json');
  writeFileSync(path, content);
  return path;
};
const now = new Date('2026-06-01T00:00:00Z');

describe('waiver files', () => {
  it('reads valid entries', () => {
    const w = loadWaivers(
      file(JSON.stringify({ waivers: [{ id: 'RR-ENV-01', reason: 'vendor bug 12', expires: '2026-12-31' }] })),
      now,
    );
    expect(w).toEqual([{ id: 'RR-ENV-01', reason: 'vendor bug 12', expires: '2026-12-31' }]);
  });
  it('fails on an expired waiver, naming it', () => {
    const path = file(JSON.stringify({ waivers: [{ id: 'RR-ENV-01', reason: 'old', expires: '2026-01-01' }] }));
    expect(() => loadWaivers(path, now)).toThrow(UsageError);
    expect(() => loadWaivers(path, now)).toThrow(/RR-ENV-01 expired on 2026-01-01/);
  });
  it('fails on malformed files and entries', () => {
    expect(() => loadWaivers(file('{'), now)).toThrow(/cannot be read as JSON/);
    expect(() => loadWaivers(file('{"waivers": {}}'), now)).toThrow(/must hold/);
    expect(() => loadWaivers(file('{"waivers": [{"id": "X", "expires": "2027-01-01"}]}'), now)).toThrow(/entry 1/);
  });
});

describe('the committed example waiver file', () => {
  it('loads, and names a requirement of the catalog', async () => {
    const { requirementsById } = await import('../../src/specs/catalog.js');
    const { REPO_ROOT } = await import('../../src/specs/paths.js');
    const w = loadWaivers(join(REPO_ROOT, 'fixtures', 'waivers', 'example.json'), now);
    expect(w.length).toBeGreaterThan(0);
    for (const x of w) expect(requirementsById().has(x.id), x.id).toBe(true);
  });
});
