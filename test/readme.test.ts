import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/specs/paths.js';

// The README states counts of the contract and the fault catalog; they drifted once (367 requirements
// stated, 368 in the catalog). Each figure is read from the sentence that states it and compared
// with the data, so a change to specs/ or fixtures/ that leaves the README behind fails here.
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
const json = (...p: string[]) => JSON.parse(readFileSync(join(REPO_ROOT, ...p), 'utf8'));
const INTERFACES = ['rest-route', 'rest-v1-network', 'rest-v1-shop', 'graphql'] as const;

/** The number (thousands separated by commas allowed) the README writes where `pattern` matches. */
function stated(pattern: RegExp): number[] {
  const m = readme.match(pattern);
  if (!m) throw new Error(`README.md no longer has a sentence matching ${pattern}`);
  return m.slice(1).map((n) => Number((n as string).replace(/,/g, '')));
}

const catalogs = INTERFACES.map((i) => json('specs', 'requirements', `${i}.json`));
const sum = (f: (c: Record<string, unknown[]>) => unknown[] | undefined) => catalogs.reduce((n, c) => n + (f(c)?.length ?? 0), 0);

describe('the figures the README states', () => {
  it('requirements, ambiguities and not-shown items of specs/requirements/', () => {
    const [requirements, ambiguities, notShown] = stated(
      /specs\/requirements\/`: ([\d,]+) requirements.*?; (\d+) ambiguities; (\d+) "not shown" items/,
    );
    expect({ requirements, ambiguities, notShown }).toEqual({
      requirements: sum((c) => c.requirements),
      ambiguities: sum((c) => c.ambiguities),
      notShown: sum((c) => c.notShown),
    });
  });

  it('JSON Schemas of the four interfaces', () => {
    const [schemas] = stated(/response of its document \((\d+) schemas\)/);
    const files = INTERFACES.flatMap((i) =>
      readdirSync(join(REPO_ROOT, 'specs', i, 'schemas')).filter((f) => f.endsWith('.json')),
    );
    expect(schemas).toBe(files.length);
  });

  it('endpoints of the three REST interfaces and GraphQL operations', () => {
    const [route, network, shop, graphql] = stated(/all (\d+) \+ (\d+) \+ (\d+) endpoints and (\d+) GraphQL operations/);
    const count = (i: string) => json('specs', i, 'endpoints.json').endpoints.length;
    expect({ route, network, shop, graphql }).toEqual({
      route: count('rest-route'),
      network: count('rest-v1-network'),
      shop: count('rest-v1-shop'),
      graphql: count('graphql'),
    });
  });

  it('faults of the fault catalog', () => {
    const [faults] = stated(/each of the (\d+) faults of `fixtures\/faults\/catalog.json`/);
    const catalog = json('fixtures', 'faults', 'catalog.json');
    expect(faults).toBe(catalog.faults.length);
  });
});
