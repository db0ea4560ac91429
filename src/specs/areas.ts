import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AreaSpec, INTERFACES, type InterfaceId } from '../checks/model.js';
import { REPO_ROOT } from './paths.js';

/**
 * The modules of an interface's areas, in name order: each `areas/<file>.ts`, and the `index.ts` of
 * each `areas/<folder>/` (an area too long for one file, split by subject).
 */
export function areaModules(iface: InterfaceId): string[] {
  const dir = join(REPO_ROOT, 'src', 'interfaces', iface, 'areas');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .flatMap((e) =>
      e.isFile() && e.name.endsWith('.ts')
        ? [join(dir, e.name)]
        : e.isDirectory() && existsSync(join(dir, e.name, 'index.ts'))
          ? [join(dir, e.name, 'index.ts')]
          : [],
    );
}

/**
 * Every area of checks (see `areaModules`) of the interfaces asked for, in interface and file
 * order: what a run executes, what coverage and the Pact generator read.
 */
export async function loadAreas(interfaces: readonly InterfaceId[] = INTERFACES): Promise<AreaSpec[]> {
  const files = INTERFACES.filter((i) => interfaces.includes(i)).flatMap(areaModules);
  // Imported together: in a vitest worker each module is fetched from the main thread, and the
  // fetches overlap instead of waiting for each other.
  const modules = await Promise.all(files.map((f) => import(pathToFileURL(f).href) as Promise<Record<string, unknown>>));
  return modules.flatMap((mod) => Object.values(mod).filter(isArea));
}

function isArea(v: unknown): v is AreaSpec {
  const a = v as AreaSpec | undefined;
  return !!a && typeof a === 'object' && typeof a.name === 'string' && typeof a.interface === 'string' && Array.isArray(a.checks);
}
