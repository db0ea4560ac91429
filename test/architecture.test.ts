import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/specs/paths.js';

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const rel = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|js|mjs)$/.test(e.name)) out.push(rel);
  }
  return out;
}

const imports = (file: string) =>
  [...readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
    (m) => m[1] as string,
  );

/** Where a relative import lands, as a path from the repository root. */
const target = (file: string, spec: string) => relative(REPO_ROOT, join(REPO_ROOT, file, '..', spec));

describe('the direction of imports (ARCHITECTURE.md)', () => {
  it('reference-impl imports nothing from specs/, src/, suites/ or reporters/', () => {
    const leaks = sources('reference-impl').flatMap((f) =>
      imports(f)
        .filter((s) => s.startsWith('.'))
        .map((s) => target(f, s))
        .filter((t) => /^(specs|src|suites|reporters)\//.test(t))
        .map((t) => `${f} -> ${t}`),
    );
    expect(leaks).toEqual([]);
  });
  it('reporters read the result model only', () => {
    const leaks = sources('reporters').flatMap((f) =>
      imports(f)
        .filter((s) => s.startsWith('.'))
        .map((s) => target(f, s))
        .filter((t) => !t.startsWith('reporters/') && t !== 'src/run/results.js')
        .map((t) => `${f} -> ${t}`),
    );
    expect(leaks).toEqual([]);
  });
  it('src/ never imports suites/ or reporters/ (except the CLI, which writes the reports)', () => {
    const leaks = sources('src').flatMap((f) =>
      imports(f)
        .filter((s) => s.startsWith('.'))
        .map((s) => target(f, s))
        .filter((t) => t.startsWith('suites/') || (t.startsWith('reporters/') && !f.startsWith('src/cli/')))
        .map((t) => `${f} -> ${t}`),
    );
    expect(leaks).toEqual([]);
  });
  it('suite files are thin: they only hand areas to runArea', () => {
    const fat = sources('suites').filter(
      (f) =>
        readFileSync(join(REPO_ROOT, f), 'utf8')
          .split('\n')
          .filter((l) => l.trim()).length > 12,
    );
    expect(fat).toEqual([]);
  });
});
