import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type AreaSpec, INTERFACES } from '../src/checks/model.js';
import { areaModules, loadAreas } from '../src/specs/areas.js';
import { loadEndpointIndex, loadRequirementFiles } from '../src/specs/catalog.js';
import { meaningDigest } from '../src/specs/id-lock.js';
import { REPO_ROOT, SPECS_DIR } from '../src/specs/paths.js';

const files = loadRequirementFiles();
const all = files.flatMap((f) => f.requirements);

describe('the requirement catalog as a whole', () => {
  it('has a catalog and an endpoint index for each of the four interfaces, with 17 + 15 + 11 + 9 endpoints', () => {
    expect(files.map((f) => f.interface).sort()).toEqual([...INTERFACES].sort());
    const counts = Object.fromEntries(INTERFACES.map((i) => [i, loadEndpointIndex(i)?.endpoints.length ?? 0]));
    expect(counts).toEqual({ 'rest-route': 17, 'rest-v1-network': 15, 'rest-v1-shop': 11, graphql: 9 });
  });
  it('never uses an id twice, across interfaces', () => {
    const ids = [
      ...all.map((r) => r.id),
      ...files.flatMap((f) => [...f.ambiguities.map((a) => a.id), ...f.notShown.map((n) => n.id)]),
    ];
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
  it('pins every id to its meaning (specs/requirements/ids.lock.json; add new ids with npm run specs:lock)', () => {
    const lockFile = join(SPECS_DIR, 'requirements', 'ids.lock.json');
    expect(existsSync(lockFile)).toBe(true);
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as Record<string, string>;
    const current = new Map(all.map((r) => [r.id, meaningDigest(r)]));
    const removed = Object.keys(lock).filter((id) => !current.has(id));
    const changed = Object.keys(lock).filter((id) => current.has(id) && current.get(id) !== lock[id]);
    const unlocked = [...current.keys()].filter((id) => lock[id] === undefined);
    expect({ removed, changed, unlocked }).toEqual({ removed: [], changed: [], unlocked: [] });
  });
});

describe('checks and requirements', async () => {
  const areas = await loadAreas();
  const checked = new Set(areas.flatMap((a) => a.checks.map((c) => c.id)));
  it("every check names a requirement of its own interface's catalog", () => {
    const known = new Map(files.map((f) => [f.interface, new Set(f.requirements.map((r) => r.id))]));
    const unknown = areas.flatMap((a) =>
      a.checks.filter((c) => !known.get(a.interface)?.has(c.id)).map((c) => `${a.interface}/${a.name}: ${c.id}`),
    );
    expect(unknown).toEqual([]);
  });
  it('every MUST and SHOULD requirement has a check, or a reason why it cannot be tested', () => {
    const uncovered = all
      .filter((r) => (r.level === 'MUST' || r.level === 'SHOULD') && r.testable && !checked.has(r.id))
      .map((r) => r.id);
    const noReason = all.filter((r) => !r.testable && !r.untestableReason?.trim()).map((r) => r.id);
    expect({ uncovered, noReason }).toEqual({ uncovered: [], noReason: [] });
  });
  it('every area belongs to the interface of its folder, one per module, and has a unique name', async () => {
    // src/interfaces/<interface>/areas/<file>.ts (or <folder>/index.ts) exports one area of that interface; the run
    // selects areas by `<interface>/<name>` (suites/conformance.test.ts), so the names must not repeat.
    for (const iface of INTERFACES) {
      const dir = join(REPO_ROOT, 'src', 'interfaces', iface, 'areas');
      for (const file of areaModules(dir)) {
        const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
        const own = Object.values(mod).filter((v) => areas.includes(v as AreaSpec)) as AreaSpec[];
        const at = `${iface}/areas/${relative(dir, file)}`;
        expect(own.length, at).toBeLessThanOrEqual(1);
        for (const a of own) expect(a.interface, at).toBe(iface);
      }
    }
    const names = areas.map((a) => `${a.interface}/${a.name}`);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names.length).toBeGreaterThan(40);
  });
  it('hides no area from the loader: each folder under areas/ has an index.ts, and only it exports the area', async () => {
    // areaModules() loads areas/<folder>/index.ts alone; an area exported by another file of the folder, or a
    // folder without index.ts, would drop out of every run without an error.
    for (const iface of INTERFACES) {
      const dir = join(REPO_ROOT, 'src', 'interfaces', iface, 'areas');
      for (const e of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
        const at = `${iface}/areas/${e.name}/`;
        expect(existsSync(join(dir, e.name, 'index.ts')), `${at}index.ts`).toBe(true);
        for (const f of readdirSync(join(dir, e.name)).filter((n) => n.endsWith('.ts') && n !== 'index.ts')) {
          const mod = (await import(pathToFileURL(join(dir, e.name, f)).href)) as Record<string, unknown>;
          expect(
            Object.values(mod).filter((v) => areas.includes(v as AreaSpec)),
            `${at}${f}`,
          ).toEqual([]);
        }
      }
    }
  });
});
