import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AreaSpec, INTERFACES, type InterfaceId } from '../checks/model.js';
import { REPO_ROOT } from './paths.js';

/**
 * Every area of checks (`src/interfaces/<interface>/areas/*.ts`) of the interfaces asked for, in
 * interface and file order: what a run executes, what coverage and the Pact generator read.
 */
export async function loadAreas(interfaces: readonly InterfaceId[] = INTERFACES): Promise<AreaSpec[]> {
  const files: string[] = [];
  for (const iface of INTERFACES.filter((i) => interfaces.includes(i))) {
    const dir = join(REPO_ROOT, 'src', 'interfaces', iface, 'areas');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .sort())
      files.push(join(dir, file));
  }
  // Imported together: in a vitest worker each module is fetched from the main thread, and the
  // fetches overlap instead of waiting for each other.
  const modules = await Promise.all(files.map((f) => import(pathToFileURL(f).href) as Promise<Record<string, unknown>>));
  return modules.flatMap((mod) => Object.values(mod).filter(isArea));
}

function isArea(v: unknown): v is AreaSpec {
  const a = v as AreaSpec | undefined;
  return !!a && typeof a === 'object' && typeof a.name === 'string' && typeof a.interface === 'string' && Array.isArray(a.checks);
}
