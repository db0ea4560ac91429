import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Requirement } from '../../src/checks/model.js';
import { keyedBy } from '../../src/interfaces/rest-v1-network/expect.js';
import { freeSlots, toNode } from '../../src/interfaces/rest-v1-network/tree.js';
import { SchemaRegistry } from '../../src/schemas/registry.js';
import type { EndpointIndex, RequirementFile } from '../../src/specs/catalog.js';
import { REPO_ROOT, SPECS_DIR } from '../../src/specs/paths.js';

// The contract of interface rest-v1-network (document 2, variant A): schemas, fixtures, endpoint
// index and requirement catalog must agree with each other and with the document itself.
const IFACE = 'rest-v1-network';
const DOCUMENT = '001_ae28df0362adb49f.txt';
const SCHEMA_DIR = join(SPECS_DIR, IFACE, 'schemas');
const FIXTURES = join(REPO_ROOT, 'fixtures', 'specs', IFACE);

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const catalog = readJson<RequirementFile>(join(SPECS_DIR, 'requirements', `${IFACE}.json`));
const index = readJson<EndpointIndex>(join(SPECS_DIR, IFACE, 'endpoints.json'));
const schemaNames = readdirSync(SCHEMA_DIR)
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => f.replace(/\.schema\.json$/, ''))
  .sort();
const ref = (name: string) => `${IFACE}/schemas/${name}.schema.json`;

let registry: SchemaRegistry;
beforeAll(() => {
  registry = new SchemaRegistry();
});

describe(`${IFACE} schemas`, () => {
  it('every schema compiles in ajv strict mode', () => {
    registry.compileAll();
    for (const name of schemaNames) expect(registry.ids).toContain(`${IFACE}/schemas/${name}.schema.json`);
    expect(schemaNames.length).toBeGreaterThanOrEqual(40);
  });

  it('every schema except the shared formats has valid and invalid samples', () => {
    const withFixtures = (kind: string) =>
      readdirSync(join(FIXTURES, kind))
        .map((f) => f.replace(/\.json$/, ''))
        .sort();
    const expected = schemaNames.filter((n) => n !== 'formats');
    expect(withFixtures('valid')).toEqual(expected);
    expect(withFixtures('invalid')).toEqual(expected);
  });

  for (const name of schemaNames.filter((n) => n !== 'formats')) {
    it(`${name}: valid samples pass, invalid samples fail`, () => {
      const valid = readJson<unknown[]>(join(FIXTURES, 'valid', `${name}.json`));
      const invalid = readJson<{ reason: string; value: unknown }[]>(join(FIXTURES, 'invalid', `${name}.json`));
      expect(valid.length).toBeGreaterThan(0);
      expect(invalid.length).toBeGreaterThan(0);
      valid.forEach((value, i) => {
        expect(registry.check(ref(name), value), `valid sample ${i}`).toEqual([]);
      });
      for (const { reason, value } of invalid) expect(registry.check(ref(name), value).length, reason).toBeGreaterThan(0);
    });
  }
});

describe(`${IFACE} endpoint index`, () => {
  const ids = new Set(catalog.requirements.map((r) => r.id));

  it('lists exactly the 15 rows of the variant A table, user-info with its underscore spelling', () => {
    expect(index.interface).toBe(IFACE);
    expect(index.document).toBe(DOCUMENT);
    expect(index.endpoints).toHaveLength(15);
    expect(new Set(index.endpoints.map((e) => e.id)).size).toBe(15);
    expect(new Set(index.endpoints.map((e) => `${e.method} ${e.path}`)).size).toBe(15);
    const userInfo = index.endpoints.find((e) => e.id === 'user-info');
    expect(userInfo?.path).toBe('/user-info');
    expect(userInfo?.pathAlternatives).toEqual(['/user_info']);
  });

  for (const ep of index.endpoints) {
    it(`${ep.id}: schemas exist and requirement ids are in the catalog`, () => {
      const refs = [ep.response, ep.request.query, ep.request.body].filter((r): r is string => typeof r === 'string');
      expect(ep.response).toBeTruthy();
      for (const r of refs) {
        expect(existsSync(join(SPECS_DIR, r)), r).toBe(true);
        expect(() => registry.check(r, {})).not.toThrow();
      }
      expect(ep.responseShown).toBe(true);
      expect(ep.requirements.length).toBeGreaterThan(0);
      for (const id of ep.requirements) expect(ids.has(id), id).toBe(true);
      expect(ep.source.document).toBe(DOCUMENT);
    });
  }
});

describe(`${IFACE} requirement catalog`, () => {
  const docPath = join(REPO_ROOT, '..', 'shared', 'seeds', DOCUMENT);
  let headings: Set<string>;
  beforeAll(() => {
    if (!existsSync(docPath)) throw new Error(`document ${DOCUMENT} not found at ${docPath}: the catalog cannot be checked`);
    headings = new Set(
      readFileSync(docPath, 'utf8')
        .split('\n')
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => l.replace(/^#{1,6} /, '').trim()),
    );
  });

  const sources = () => [
    ...catalog.requirements.map((r) => [r.id, r.source] as const),
    ...catalog.ambiguities.map((a) => [a.id, a.source] as const),
    ...catalog.notShown.map((n) => [n.id, n.source] as const),
  ];

  it('names the document and the interface', () => {
    expect(catalog.interface).toBe(IFACE);
    expect(catalog.document).toBe(DOCUMENT);
  });

  it('has unique ids of the form NET-<AREA>-NN, AMB-NET-NN, NS-NET-NN', () => {
    const all = sources().map(([id]) => id);
    expect(new Set(all).size).toBe(all.length);
    for (const r of catalog.requirements) expect(r.id).toMatch(/^NET-[A-Z]+-[0-9]{2}$/);
    for (const a of catalog.ambiguities) expect(a.id).toMatch(/^AMB-NET-[0-9]{2}$/);
    for (const n of catalog.notShown) expect(n.id).toMatch(/^NS-NET-[0-9]{2}$/);
  });

  it('cites a real heading of the document for every entry', () => {
    for (const [id, source] of sources()) {
      expect(source.document, id).toBe(DOCUMENT);
      expect(headings.has(source.section), `${id}: "${source.section}" is not a heading of ${DOCUMENT}`).toBe(true);
    }
  });

  it('has well-formed requirements (levels, statements, endpoints, testability)', () => {
    const endpointIds = new Set(index.endpoints.map((e) => e.id));
    expect(catalog.requirements.length).toBeGreaterThanOrEqual(55);
    for (const r of catalog.requirements as Requirement[]) {
      expect(['MUST', 'SHOULD', 'MAY', 'ADVISORY']).toContain(r.level);
      expect(r.interface).toBe(IFACE);
      expect(r.statement.length).toBeGreaterThan(20);
      for (const e of r.endpoints ?? []) expect(endpointIds.has(e), `${r.id} names endpoint ${e}`).toBe(true);
      if (!r.testable) expect(r.untestableReason, r.id).toBeTruthy();
    }
    for (const a of catalog.ambiguities) {
      expect(a.alternatives.length).toBeGreaterThanOrEqual(2);
      for (const id of a.requirements ?? [])
        expect(
          catalog.requirements.some((r) => r.id === id),
          id,
        ).toBe(true);
    }
  });

  it('never asserts a failure HTTP status code (not shown in the document)', () => {
    for (const r of catalog.requirements.filter((x) => x.level === 'MUST'))
      expect(r.statement, r.id).not.toMatch(/\b(HTTP )?(4\d\d|401|403|404|422)\b/);
  });
});

describe(`${IFACE} suite helpers`, () => {
  it('finds the free positions of a geneology tree from its children and links', () => {
    const [root] = readJson<unknown[]>(join(FIXTURES, 'valid', 'geneology-node.json'));
    const node = toNode(root);
    expect(node).toBeDefined();
    expect(freeSlots(node as NonNullable<typeof node>)).toEqual([
      { parent: 'alice01', position: 'right' },
      { parent: 'bob02', position: 'left' },
      { parent: 'bob02', position: 'right' },
    ]);
  });

  it('matches field-keyed errors, nested form names included', () => {
    expect(keyedBy({ username: 'taken' }, 'username')).toBe(true);
    expect(keyedBy({ 'net_user[address]': 'required' }, 'address')).toBe(true);
    expect(keyedBy({ 'net_user.phone': 'bad' }, 'phone')).toBe(true);
    expect(keyedBy({ email: 'taken' }, 'username')).toBe(false);
    expect(keyedBy(['username required'], 'username')).toBe(false);
  });
});
