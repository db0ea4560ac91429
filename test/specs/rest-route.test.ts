import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisterFields, registerBody } from '../../src/interfaces/rest-route/accounts.js';
import { SchemaRegistry } from '../../src/schemas/registry.js';
import type { EndpointIndex, RequirementFile } from '../../src/specs/catalog.js';
import { REPO_ROOT, SPECS_DIR } from '../../src/specs/paths.js';

// The contract of document 1 (rest-route): schemas compile, samples behave, the endpoint index and
// the requirement catalog hold together and point at real headings of the document.

const DOC = '000_b286df028903ebb7.txt';
const FIXTURES = join(REPO_ROOT, 'fixtures', 'specs', 'rest-route');
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

interface FixtureFile {
  schema: string;
  valid: unknown[];
  invalid: { why: string; value: unknown }[];
}

const catalog = readJson<RequirementFile>(join(SPECS_DIR, 'requirements', 'rest-route.json'));
const index = readJson<EndpointIndex>(join(SPECS_DIR, 'rest-route', 'endpoints.json'));
// Schemas with no fixture file of their own: the shared formats, the parts the endpoint fixtures
// embed (address, category, customer, ...), the responses the document leaves "not shown"
// (product-product.get: NS-RR-01, account-address-edit.get: NS-RR-10), and two small request
// schemas. A new schema needs a fixture file, or a place on this list.
const WITHOUT_FIXTURES = [
  'account-address-edit.get.response',
  'account-address-edit.query',
  'account-forgotten.post.request',
  'address',
  'agreement-link',
  'category',
  'customer',
  'customer-group',
  'formats',
  'language',
  'product-product.get.response',
  'product-summary',
  'sort-option',
  'store-info',
  'zone',
];
const fixtureFiles = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort();

// The registry over a copy of specs/rest-route only: this interface's schemas compile on their
// own, whatever the state of the other interfaces' files.
let registry: SchemaRegistry;
let isolated: string;
beforeAll(() => {
  isolated = mkdtempSync(join(tmpdir(), 'sfc-rr-specs-'));
  cpSync(join(SPECS_DIR, 'rest-route'), join(isolated, 'rest-route'), { recursive: true });
  registry = new SchemaRegistry(isolated);
});
afterAll(() => rmSync(isolated, { recursive: true, force: true }));

describe('rest-route schemas', () => {
  it('every schema compiles in strict mode', () => {
    expect(() => registry.compileAll()).not.toThrow();
    expect(registry.ids.filter((id) => id.startsWith('rest-route/')).length).toBeGreaterThanOrEqual(40);
  });

  it('has a fixture file for every schema but the listed ones', () => {
    const schemas = readdirSync(join(SPECS_DIR, 'rest-route', 'schemas'))
      .filter((f) => f.endsWith('.schema.json'))
      .map((f) => `rest-route/schemas/${f}`);
    const covered = new Set(fixtureFiles.map((f) => readJson<FixtureFile>(join(FIXTURES, f)).schema));
    const without = schemas
      .filter((id) => !covered.has(id))
      .map((id) => id.replace(/^rest-route\/schemas\/(.*)\.schema\.json$/, '$1'))
      .sort();
    expect(without).toEqual(WITHOUT_FIXTURES);
  });

  for (const file of fixtureFiles) {
    const fx = readJson<FixtureFile>(join(FIXTURES, file));
    describe(file, () => {
      it('has valid and invalid samples', () => {
        expect(fx.valid.length).toBeGreaterThan(0);
        expect(fx.invalid.length).toBeGreaterThan(0);
      });
      fx.valid.forEach((value, i) => {
        it(`valid sample ${i} passes ${fx.schema}`, () => {
          expect(registry.check(fx.schema, value)).toEqual([]);
        });
      });
      for (const bad of fx.invalid) {
        it(`invalid sample fails: ${bad.why}`, () => {
          expect(registry.check(fx.schema, bad.value).length).toBeGreaterThan(0);
        });
      }
    });
  }
});

describe('rest-route endpoint index', () => {
  const reqIds = new Set(catalog.requirements.map((r) => r.id));

  it('lists the 17 endpoints of the Part 4 table, numbered 1 to 17, ids unique', () => {
    expect(index.interface).toBe('rest-route');
    expect(index.document).toBe(DOC);
    expect(index.endpoints).toHaveLength(17);
    expect(index.endpoints.map((e) => e.number)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    expect(new Set(index.endpoints.map((e) => e.id)).size).toBe(17);
    for (const e of index.endpoints) {
      expect(e.id).toMatch(/^[a-z-]+\.(get|post)$/);
      expect(e.id.endsWith(`.${e.method.toLowerCase()}`)).toBe(true);
      expect(e.path).toMatch(/^shoprestapi\/[a-z/]+$/);
    }
  });

  it('only the endpoints whose response is "not shown" (8 and 17) say so', () => {
    expect(index.endpoints.filter((e) => !e.responseShown).map((e) => e.number)).toEqual([8, 17]);
  });

  for (const e of index.endpoints) {
    it(`${e.id}: its schemas exist and its requirements are in the catalog`, () => {
      const refs = [e.response, e.request.body, e.request.query].filter((r): r is string => typeof r === 'string');
      expect(e.response).toBe(`rest-route/schemas/${e.id}.response.schema.json`);
      for (const ref of refs) expect(registry.ids).toContain(ref);
      expect(e.requirements.length).toBeGreaterThan(0);
      for (const id of e.requirements) expect(reqIds.has(id), `${id} is not in the catalog`).toBe(true);
    });
  }
});

describe('rest-route requirement catalog', () => {
  const docFile = join(REPO_ROOT, '..', 'shared', 'seeds', DOC);

  it('the document is where the catalog says', () => {
    expect(existsSync(docFile), `document 1 not found at ${docFile}: the section checks cannot run`).toBe(true);
  });

  it('every source section is a heading of the document, as written', () => {
    if (!existsSync(docFile)) throw new Error(`document 1 not found at ${docFile}`);
    const headings = new Set(
      readFileSync(docFile, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => l.replace(/^#+\s*/, '').trim()),
    );
    const sources = [
      ...catalog.requirements.map((r) => [r.id, r.source] as const),
      ...catalog.ambiguities.map((a) => [a.id, a.source] as const),
      ...catalog.notShown.map((n) => [n.id, n.source] as const),
      ...index.endpoints.map((e) => [e.id, e.source] as const),
    ];
    for (const [id, source] of sources) {
      expect(source.document, id).toBe(DOC);
      expect(headings.has(source.section), `${id}: "${source.section}" is not a heading of ${DOC}`).toBe(true);
    }
  });

  it('ids are unique and well formed; untestable ones say why', () => {
    const ids = catalog.requirements.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of catalog.requirements) {
      expect(r.id).toMatch(/^RR-[A-Z]+-[0-9]{2}$/);
      expect(r.interface).toBe('rest-route');
      expect(['MUST', 'SHOULD', 'MAY', 'ADVISORY']).toContain(r.level);
      expect(r.statement.length).toBeGreaterThan(10);
      if (!r.testable) expect(r.untestableReason?.length ?? 0).toBeGreaterThan(10);
    }
    expect(ids.length).toBeGreaterThanOrEqual(60);
    const ambIds = catalog.ambiguities.map((a) => a.id);
    const nsIds = catalog.notShown.map((n) => n.id);
    expect(new Set(ambIds).size).toBe(ambIds.length);
    expect(new Set(nsIds).size).toBe(nsIds.length);
    for (const a of catalog.ambiguities) {
      expect(a.id).toMatch(/^AMB-RR-[0-9]{2}$/);
      expect(a.alternatives.length).toBeGreaterThanOrEqual(2);
      for (const r of a.requirements ?? []) expect(ids).toContain(r);
    }
    for (const n of catalog.notShown) expect(n.id).toMatch(/^NS-RR-[0-9]{2}$/);
  });

  it('every endpoint named by a requirement exists in the index', () => {
    const eps = new Set(index.endpoints.map((e) => e.id));
    for (const r of catalog.requirements) for (const e of r.endpoints ?? []) expect(eps.has(e), `${r.id}: ${e}`).toBe(true);
  });

  it('no MUST requirement asserts a failure HTTP status code (not shown in the document: NS-RR-05)', () => {
    const musts = catalog.requirements.filter((r) => r.level === 'MUST').map((r) => r.statement.toLowerCase());
    for (const s of musts) {
      expect(s).not.toMatch(/http (status )?(4|5)\d\d|status code/);
    }
  });
});

describe('rest-route register bodies the suite sends', () => {
  const fields: RegisterFields = {
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: 'sfc-test-1@example.test',
    telephone: '9876543210',
    password: 'Pw-test-1!',
    confirm: 'Pw-test-1!',
    username: 'sfctest1',
    address: '1 Conformance Street',
    newsletter: 0,
    agree: 1,
  };
  const ref = 'rest-route/schemas/account-register.post.request.schema.json';

  it('both readings conform to the register request schema', () => {
    expect(registry.check(ref, registerBody('sample', fields))).toEqual([]);
    expect(registry.check(ref, registerBody('table', fields))).toEqual([]);
    expect(registerBody('table', fields)).toMatchObject({ first_name: 'Ada', phone: '9876543210', username: 'sfctest1' });
    expect(registerBody('sample', fields)).not.toHaveProperty('username');
  });

  it('the bodies the limit checks send break the schema where they should', () => {
    expect(registry.check(ref, registerBody('sample', { ...fields, firstname: 'F'.repeat(33) })).length).toBeGreaterThan(0);
    expect(registry.check(ref, registerBody('sample', fields, ['email'])).length).toBeGreaterThan(0);
    expect(registry.check(ref, registerBody('table', { ...fields, username: 'ab-1' })).length).toBeGreaterThan(0);
  });
});
