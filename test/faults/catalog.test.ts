import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../reference-impl/src/context.js';
import { FAULTS, installFault } from '../../reference-impl/src/faults/index.js';
import { loadCatalog } from '../../scripts/faults.js';
import { loadRequirementFiles } from '../../src/specs/catalog.js';

const catalog = loadCatalog();
const requirements = new Map(loadRequirementFiles().map((f) => [f.interface, new Set(f.requirements.map((r) => r.id))]));

describe('the fault catalog (fixtures/faults/catalog.json)', () => {
  it('holds at least 40 faults with unique ids', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(40);
    const ids = catalog.map((f) => f.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
  it('covers every interface with at least 10 faults', () => {
    for (const iface of ['rest-route', 'rest-v1-network', 'rest-v1-shop', 'graphql'])
      expect(catalog.filter((f) => f.interface === iface).length, iface).toBeGreaterThanOrEqual(10);
  });
  it("names in breaks only requirement ids of the fault's own interface catalog", () => {
    const unknown = catalog.flatMap((f) =>
      f.breaks.length === 0
        ? [`${f.id}: none`]
        : f.breaks.filter((b) => !requirements.get(f.interface)?.has(b)).map((b) => `${f.id}: ${b}`),
    );
    expect(unknown).toEqual([]);
  });
  it('gives every fault a title and a description', () => {
    for (const f of catalog) expect(f.title.length > 3 && f.description.length > 10, f.id).toBe(true);
  });
  it('implements exactly the catalogued faults, each for its interface', () => {
    expect([...FAULTS.keys()].sort()).toEqual(catalog.map((f) => f.id).sort());
    for (const f of catalog) expect(FAULTS.get(f.id)?.iface, f.id).toBe(f.interface);
  });
  it('gives every fault a behaviour: a hook, or a ctx.fault test in the handler file it names', () => {
    for (const f of FAULTS.values()) {
      const hooks = Boolean(f.before || f.after);
      // The handlers test `ctx.fault !== 'ID'` or `call.app.fault !== 'ID'` (=== as well): a comparison, not a mention.
      if (f.inHandler)
        expect(readFileSync(join(process.cwd(), f.inHandler), 'utf8'), f.id).toMatch(
          new RegExp(`\\b(?:ctx|app)\\.fault\\s*[!=]==\\s*'${f.id}'`),
        );
      else expect(hooks, f.id).toBe(true);
    }
  });
  it('refuses an unknown fault id, installs nothing without one, and hooks a known one', () => {
    const hooks: string[] = [];
    const app = { addHook: (name: string) => hooks.push(name) } as unknown as FastifyInstance;
    const ctx = (fault: string | null) => ({ fault, vendor: 'svc' }) as AppContext;
    expect(() => installFault(app, ctx('NO-SUCH-FAULT'))).toThrow(/unknown fault/);
    installFault(app, ctx(null));
    expect(hooks).toEqual([]);
    installFault(app, ctx('NET-HS256-TOKEN'));
    expect(hooks.sort()).toEqual(['onSend', 'preHandler']);
  });
});
