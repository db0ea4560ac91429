import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AreaSpec, INTERFACES, type InterfaceId } from '../checks/model.js';
import { REPO_ROOT } from './paths.js';

/**
 * Every area of checks (`src/interfaces/<interface>/areas/`, see areaModules) of the interfaces asked for, in
 * interface and file order: what a run executes, what coverage and the Pact generator read.
 */
export async function loadAreas(interfaces: readonly InterfaceId[] = INTERFACES): Promise<AreaSpec[]> {
  const files: string[] = [];
  for (const iface of INTERFACES.filter((i) => interfaces.includes(i))) {
    const dir = join(REPO_ROOT, 'src', 'interfaces', iface, 'areas');
    if (!existsSync(dir)) continue;
    files.push(...areaModules(dir));
  }
  // Imported together: in a vitest worker each module is fetched from the main thread, and the
  // fetches overlap instead of waiting for each other.
  const modules = await Promise.all(files.map((f) => import(pathToFileURL(f).href) as Promise<Record<string, unknown>>));
  return modules.flatMap((mod) => Object.values(mod).filter(isArea));
}

/**
 * The modules of one interface's areas folder, in name order: each `<name>.ts`, and `<name>/index.ts` for an area
 * whose checks are split over files by subject (the folder's other files are its parts), sorted as `<name>.ts` would be.
 */
export function areaModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e): { key: string; file: string }[] => {
      if (!e.isDirectory()) return e.name.endsWith('.ts') ? [{ key: e.name, file: join(dir, e.name) }] : [];
      const index = join(dir, e.name, 'index.ts');
      return existsSync(index) ? [{ key: `${e.name}.ts`, file: index }] : [];
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((m) => m.file);
}

function isArea(v: unknown): v is AreaSpec {
  const a = v as AreaSpec | undefined;
  return !!a && typeof a === 'object' && typeof a.name === 'string' && typeof a.interface === 'string' && Array.isArray(a.checks);
}
