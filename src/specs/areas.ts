import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AreaSpec, INTERFACES, type InterfaceId } from '../checks/model.js';
import { REPO_ROOT } from './paths.js';

/**
 * The area modules of one `areas/` folder: its `.ts` files, and the `index.ts` of each subfolder (an
 * area split into files by subject), in name order. `x/index.ts` sorts where `x.ts` did, so a split
 * keeps its area's place in the run.
 */
export function areaModules(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isFile() && e.name.endsWith('.ts')
        ? [e.name]
        : e.isDirectory() && existsSync(join(dir, e.name, 'index.ts'))
          ? [`${e.name}/index.ts`]
          : [],
    )
    .sort()
    .map((f) => join(dir, f));
}

/**
 * Every area of checks (`src/interfaces/<interface>/areas/*.ts` and `areas/<name>/index.ts`) of the
 * interfaces asked for, in interface and file order: what a run executes, what coverage and the Pact
 * generator read.
 */
export async function loadAreas(interfaces: readonly InterfaceId[] = INTERFACES): Promise<AreaSpec[]> {
  const files = INTERFACES.filter((i) => interfaces.includes(i)).flatMap((iface) =>
    areaModules(join(REPO_ROOT, 'src', 'interfaces', iface, 'areas')),
  );
  // Imported together: in a vitest worker each module is fetched from the main thread, and the
  // fetches overlap instead of waiting for each other.
  const modules = await Promise.all(files.map((f) => import(pathToFileURL(f).href) as Promise<Record<string, unknown>>));
  return modules.flatMap((mod) => Object.values(mod).filter(isArea));
}

function isArea(v: unknown): v is AreaSpec {
  const a = v as AreaSpec | undefined;
  return !!a && typeof a === 'object' && typeof a.name === 'string' && typeof a.interface === 'string' && Array.isArray(a.checks);
}
