import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SchemaRegistry } from '../../src/schemas/registry.js';
import type { EndpointIndex, RequirementFile } from '../../src/specs/catalog.js';
import { REPO_ROOT, SPECS_DIR } from '../../src/specs/paths.js';

// The contract of document 2 variant B: schemas compile, samples behave, the index and catalog agree.
const DOC = '001_ae28df0362adb49f.txt';
const FIXTURES = join(REPO_ROOT, 'fixtures', 'specs', 'rest-v1-shop');
const SCHEMA_DIR = join(SPECS_DIR, 'rest-v1-shop', 'schemas');

interface SampleFile {
  schema: string;
  valid: unknown[];
  invalid: { reason: string; value: unknown }[];
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const registry = new SchemaRegistry();
const catalog = readJson<RequirementFile>(join(SPECS_DIR, 'requirements', 'rest-v1-shop.json'));
const index = readJson<EndpointIndex>(join(SPECS_DIR, 'rest-v1-shop', 'endpoints.json'));
const samples = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.samples.json'))
  .sort()
  .map((f) => ({ file: f, ...readJson<SampleFile>(join(FIXTURES, f)) }));

/** Headings of the document as written: markdown heading lines without their #s. */
function documentHeadings(): Set<string> {
  const file = join(REPO_ROOT, '..', 'shared', 'seeds', DOC);
  if (!existsSync(file)) throw new Error(`document ${DOC} not found at ${file}: the section check needs the seed documents`);
  const lines = readFileSync(file, 'utf8').split('\n');
  return new Set(lines.filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#{1,6} /, '').trim()));
}

describe('rest-v1-shop schemas', () => {
  it('every schema compiles in strict mode', () => {
    expect(() => registry.compileAll()).not.toThrow();
    expect(registry.ids.filter((id) => id.startsWith('rest-v1-shop/')).length).toBeGreaterThanOrEqual(25);
  });

  it('every schema except the shared formats has samples', () => {
    const covered = new Set(samples.map((s) => s.schema));
    const schemaFiles = readdirSync(SCHEMA_DIR).filter((f) => f !== 'formats.schema.json');
    const missing = schemaFiles.map((f) => `rest-v1-shop/schemas/${f}`).filter((ref) => !covered.has(ref));
    expect(missing).toEqual([]);
  });

  for (const s of samples) {
    describe(s.file, () => {
      it('has valid and invalid samples', () => {
        expect(s.valid.length).toBeGreaterThan(0);
        expect(s.invalid.length).toBeGreaterThan(0);
      });
      s.valid.forEach((value, i) => {
        it(`valid sample ${i + 1} passes`, () => {
          expect(registry.check(s.schema, value)).toEqual([]);
        });
      });
      for (const { reason, value } of s.invalid) {
        it(`invalid sample fails: ${reason}`, () => {
          expect(registry.check(s.schema, value).length).toBeGreaterThan(0);
        });
      }
    });
  }
});

describe('rest-v1-shop endpoint index', () => {
  const ids = new Set(catalog.requirements.map((r) => r.id));

  it('lists the 11 rows of the variant B table', () => {
    expect(index.interface).toBe('rest-v1-shop');
    expect(index.document).toBe(DOC);
    expect(index.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual([
      'POST /auth/login',
      'POST /auth/register',
      'POST /cart/add-item',
      'GET /cart',
      'GET /cart/count',
      'POST /cart/remove-item/{cart_item_key}',
      'POST /cart/update-quantities',
      'GET /products',
      'GET /product/{product_id}',
      'GET /orders',
      'POST /order/create',
    ]);
    for (const id of ['products', 'product'])
      expect(index.endpoints.find((e) => e.id === id)?.methodAlternatives).toEqual(['POST']);
  });

  for (const e of index.endpoints) {
    it(`${e.id}: schemas exist and requirements are in the catalog`, () => {
      for (const ref of [e.response, e.request.body, e.request.query].filter((r): r is string => typeof r === 'string'))
        expect(registry.ids, ref).toContain(ref);
      expect(e.requirements.length).toBeGreaterThan(0);
      for (const r of e.requirements) expect(ids.has(r), r).toBe(true);
      expect(e.source.document).toBe(DOC);
    });
  }

  it('endpoints whose response is not shown have an envelope-only schema', () => {
    const hidden = index.endpoints.filter((e) => !e.responseShown).map((e) => e.id);
    expect(hidden).toEqual(['cart-count', 'order-create']);
    for (const id of hidden)
      expect(
        registry.check(`rest-v1-shop/schemas/${id}.response.schema.json`, { status: true, errors: [], message: '', x: 1 }),
      ).toEqual([]);
  });
});

describe('rest-v1-shop requirement catalog', () => {
  const all = [...catalog.requirements, ...catalog.ambiguities, ...catalog.notShown];

  it('ids are unique and well formed', () => {
    const ids = all.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of catalog.requirements) expect(r.id).toMatch(/^SHOP-[A-Z]+-[0-9]{2}$/);
    for (const a of catalog.ambiguities) expect(a.id).toMatch(/^AMB-SHOP-[0-9]{2}$/);
    for (const n of catalog.notShown) expect(n.id).toMatch(/^NS-SHOP-[0-9]{2}$/);
  });

  it('has at least 50 requirements, each with a level and testability', () => {
    expect(catalog.requirements.length).toBeGreaterThanOrEqual(50);
    for (const r of catalog.requirements) {
      expect(['MUST', 'SHOULD', 'MAY', 'ADVISORY']).toContain(r.level);
      expect(r.interface).toBe('rest-v1-shop');
      expect(r.statement.length).toBeGreaterThan(10);
      if (!r.testable) expect(r.untestableReason, r.id).toBeTruthy();
    }
  });

  it('every source names the document and a real heading of it', () => {
    const headings = documentHeadings();
    for (const x of all) {
      expect(x.source.document, x.id).toBe(DOC);
      expect(headings.has(x.source.section), `${x.id}: "${x.source.section}" is not a heading of ${DOC}`).toBe(true);
    }
  });

  it('ambiguities offer two alternatives and name known requirements', () => {
    const ids = new Set(catalog.requirements.map((r) => r.id));
    for (const a of catalog.ambiguities) {
      expect(a.alternatives.length, a.id).toBeGreaterThanOrEqual(2);
      for (const r of a.requirements ?? []) expect(ids.has(r), `${a.id} -> ${r}`).toBe(true);
    }
  });

  it('requirement endpoints exist in the index', () => {
    const eps = new Set(index.endpoints.map((e) => e.id));
    for (const r of catalog.requirements) for (const e of r.endpoints ?? []) expect(eps.has(e), `${r.id} -> ${e}`).toBe(true);
  });
});
