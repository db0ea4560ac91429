import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, Kind, type OperationDefinitionNode, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { errorMessages, hasErrors } from '../../src/graphql/client.js';
import { operationBook, vendorize } from '../../src/graphql/documents.js';
import { selectionIssues } from '../../src/graphql/selection.js';
import { leakedInternals, secretKeys } from '../../src/interfaces/graphql/areas/common.js';
import { documentSpelling, num, refusal } from '../../src/interfaces/graphql/client.js';
import { SchemaRegistry } from '../../src/schemas/registry.js';
import type { EndpointIndex, RequirementFile } from '../../src/specs/catalog.js';
import { REPO_ROOT, SPECS_DIR } from '../../src/specs/paths.js';

const DOCUMENT = '002_faaf13033026de14.txt';
const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const catalog = readJson<RequirementFile>(join(SPECS_DIR, 'requirements', 'graphql.json'));
const index = readJson<EndpointIndex>(join(SPECS_DIR, 'graphql', 'endpoints.json'));
const registry = new SchemaRegistry();
const sdl = readFileSync(join(SPECS_DIR, 'graphql', 'schema.graphql'), 'utf8');
const fixturesDir = join(REPO_ROOT, 'fixtures', 'specs', 'graphql');

/** The headings of document 3, as written (without the leading #). */
function documentHeadings(): Set<string> {
  const file = join(REPO_ROOT, '..', 'shared', 'seeds', DOCUMENT);
  if (!existsSync(file))
    throw new Error(`document 3 is missing: expected ${file} (the seeds live in ../shared/seeds/ beside the repository)`);
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => l.replace(/^#{1,6} /, '').trim()),
  );
}

describe('graphql specs: schemas', () => {
  it('every schema compiles in ajv strict mode', () => {
    expect(() => registry.compileAll()).not.toThrow();
    expect(registry.ids.filter((id) => id.startsWith('graphql/')).length).toBeGreaterThanOrEqual(28);
  });

  const fixtureFiles = readdirSync(fixturesDir).filter((f) => f.endsWith('.json'));
  it('every schema but the shared formats has a fixture file', () => {
    const covered = new Set(fixtureFiles.map((f) => `graphql/schemas/${f.replace(/\.json$/, '.schema.json')}`));
    const missing = registry.ids.filter(
      (id) => id.startsWith('graphql/') && !id.endsWith('formats.schema.json') && !covered.has(id),
    );
    expect(missing).toEqual([]);
  });

  for (const file of fixtureFiles) {
    const fx = readJson<{ schema: string; valid: unknown[]; invalid: { why: string; instance: unknown }[] }>(
      join(fixturesDir, file),
    );
    it(`${file}: valid samples pass and invalid ones fail`, () => {
      expect(fx.valid.length).toBeGreaterThan(0);
      expect(fx.invalid.length).toBeGreaterThan(0);
      fx.valid.forEach((v, i) => {
        expect(registry.check(fx.schema, v), `valid[${i}]`).toEqual([]);
      });
      for (const bad of fx.invalid) expect(registry.check(fx.schema, bad.instance).length, bad.why).toBeGreaterThan(0);
    });
  }
});

describe('graphql specs: SDL and operations', () => {
  const schema = buildSchema(sdl);
  it('the SDL names every type and input of document 3', () => {
    for (const t of ['CustomerInput', 'CartProductInput', 'Query', 'Mutation']) expect(schema.getType(t), t).toBeDefined();
    expect(Object.keys(schema.getMutationType()?.getFields() ?? {}).sort()).toEqual(
      ['addCoupon', 'addProductToCart', 'deleteCartProduct', 'emptyCart', 'login', 'register', 'updateCartProduct'].sort(),
    );
    expect(Object.keys(schema.getQueryType()?.getFields() ?? {}).sort()).toEqual(['customerByEmail', 'orders']);
  });

  for (const ep of index.endpoints) {
    it(`operation ${ep.id} parses, validates against the SDL and matches its endpoint`, () => {
      const text = readFileSync(join(SPECS_DIR, ep.operation ?? ''), 'utf8');
      const doc = parse(text);
      expect(validate(schema, doc).map((e) => e.message)).toEqual([]);
      const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
      expect(ops).toHaveLength(1);
      expect(ops[0]?.operation).toBe(ep.kind);
      const root = ops[0]?.selectionSet.selections[0];
      expect(root?.kind === Kind.FIELD ? root.name.value : undefined).toBe(ep.path);
    });
  }

  it('vendorize renames svc_token, and the book validates operations for another vendor', () => {
    expect(vendorize('login { svc_token }', 'letscms')).toBe('login { letscms_token }');
    const op = operationBook('letscms').operation('login');
    expect(op.text).toContain('letscms_token');
    expect(() => operationBook('svc').prepare('query { nope }')).toThrow(/suite bug/);
  });

  it('selectionIssues reports missing and unselected fields, and accepts exact results', () => {
    const op = operationBook('svc').operation('login');
    const exact = { login: { svc_token: 'a.b.c', user_data: { firstname: 'A', lastname: 'B', email: 'e' } } };
    expect(selectionIssues(op, exact)).toEqual([]);
    const extra = { login: { svc_token: 'a.b.c', user_data: { firstname: 'A', lastname: 'B', email: 'e', password: 'x' } } };
    expect(selectionIssues(op, extra)).toEqual(['/data/login/user_data: field "password" came back without being selected']);
    expect(selectionIssues(op, { login: { user_data: null } })).toEqual(['/data/login: selected field "svc_token" is missing']);
  });

  it('documentSpelling maps <vendor>_token to svc_token for the schemas', () => {
    expect(documentSpelling({ login: { letscms_token: 't', user_data: null } }, 'letscms')).toEqual({
      login: { svc_token: 't', user_data: null },
    });
  });
});

describe('graphql specs: endpoint index', () => {
  const ids = new Set(catalog.requirements.map((r) => r.id));
  it('lists exactly the 9 operations of document 3', () => {
    expect(index.interface).toBe('graphql');
    expect(index.document).toBe(DOCUMENT);
    expect(index.endpoints.map((e) => e.id)).toEqual([
      'login',
      'register',
      'addProductToCart',
      'updateCartProduct',
      'deleteCartProduct',
      'addCoupon',
      'emptyCart',
      'customerByEmail',
      'orders',
    ]);
  });
  for (const ep of index.endpoints) {
    it(`${ep.id}: schemas exist, requirements exist, responseShown as the document says`, () => {
      expect(ep.method).toBe('POST');
      expect(registry.ids).toContain(ep.request.variables);
      expect(registry.ids).toContain(ep.response);
      expect(ep.requirements.length).toBeGreaterThan(0);
      for (const r of ep.requirements) expect(ids.has(r), r).toBe(true);
      expect(ep.responseShown).toBe(ep.id !== 'emptyCart');
      expect(ep.auth).toBe(
        ['addProductToCart', 'updateCartProduct', 'deleteCartProduct', 'addCoupon', 'emptyCart'].includes(ep.id)
          ? 'required'
          : ep.id.startsWith('customer') || ep.id === 'orders'
            ? 'optional'
            : 'none',
      );
    });
  }
});

describe('graphql specs: requirement catalog', () => {
  const headings = documentHeadings();
  it('ids are unique and well formed; sections are headings of the document', () => {
    const all = [
      ...catalog.requirements.map((r) => r.id),
      ...catalog.ambiguities.map((a) => a.id),
      ...catalog.notShown.map((n) => n.id),
    ];
    expect(new Set(all).size).toBe(all.length);
    for (const r of catalog.requirements) {
      expect(r.id).toMatch(/^GQL-[A-Z]+-[0-9]{2}$/);
      expect(r.interface).toBe('graphql');
      expect(['MUST', 'SHOULD', 'MAY', 'ADVISORY']).toContain(r.level);
      expect(r.testable || (r.untestableReason?.length ?? 0) > 0, r.id).toBe(true);
    }
    for (const a of catalog.ambiguities) {
      expect(a.id).toMatch(/^AMB-GQL-[0-9]{2}$/);
      expect(a.alternatives.length).toBeGreaterThanOrEqual(2);
    }
    for (const n of catalog.notShown) expect(n.id).toMatch(/^NS-GQL-[0-9]{2}$/);
    for (const item of [...catalog.requirements, ...catalog.ambiguities, ...catalog.notShown]) {
      expect(item.source.document, item.id).toBe(DOCUMENT);
      expect(headings.has(item.source.section), `${item.id}: "${item.source.section}" is not a heading of ${DOCUMENT}`).toBe(
        true,
      );
    }
    expect(catalog.requirements.length).toBeGreaterThanOrEqual(35);
  });

  it('every ambiguity a check records is in the register', () => {
    const amb = new Set(catalog.ambiguities.map((a) => a.id));
    const sources = readdirSync(join(REPO_ROOT, 'src', 'interfaces', 'graphql'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join(REPO_ROOT, 'src', 'interfaces', 'graphql', f), 'utf8'))
      .join('\n');
    const recorded = [...sources.matchAll(/choose\('(AMB-[A-Z]+-[0-9]{2})'/g)].map((m) => m[1] ?? '');
    expect(recorded.length).toBeGreaterThan(0);
    for (const id of recorded) expect(amb.has(id), id).toBe(true);
  });
});

describe('graphql suite helpers', () => {
  const exchange = (status: number, body: string) => ({
    request: { method: 'POST', url: 'http://t/index.php', headers: {} },
    response: { status, headers: {}, body },
    durationMs: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
  });
  const result = (status: number, body: Record<string, unknown> | string) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const parsed = typeof body === 'string' ? undefined : body;
    return {
      exchange: exchange(status, text),
      ...(parsed ? { body: parsed, data: (parsed.data ?? null) as Record<string, unknown> | null, errors: parsed.errors } : {}),
    };
  };

  it('refusal recognises every refusal form the document allows, and success as success', () => {
    expect(refusal(result(200, { data: { emptyCart: true } }), 'emptyCart')).toBeUndefined();
    expect(
      refusal(result(200, { data: { addCoupon: { coupon_discount: -10 } }, errors: [], status: true }), 'addCoupon'),
    ).toBeUndefined();
    expect(refusal(result(200, { data: { addCoupon: null }, errors: [{ message: 'x' }] }), 'addCoupon')).toMatch(/errors: x/);
    expect(refusal(result(200, { data: { register: false } }), 'register')).toBe('register false');
    expect(refusal(result(200, { status: false, errors: {}, message: 'no' }), 'login')).toBe('status false');
    expect(refusal(result(401, '<html>401</html>'), 'login')).toMatch(/not a JSON object/);
    expect(hasErrors([])).toBe(false);
    expect(hasErrors({ email: 'taken' })).toBe(true);
    expect(errorMessages([{ message: 'a' }, 'b'])).toEqual(['a', '"b"']);
  });

  it('num reads numbers and decimal strings only', () => {
    expect(num(3)).toBe(3);
    expect(num('-10.00')).toBe(-10);
    expect(num('$10.00')).toBeUndefined();
    expect(num(null)).toBeUndefined();
  });

  it('secretKeys and leakedInternals find what they look for, and only that', () => {
    expect(secretKeys({ data: { login: { user_data: { password: 'x' } } } })).toEqual(['/data/login/user_data/password']);
    expect(secretKeys({ data: { has_stock: true, items: [{ name: 'salted nuts' }] } })).toEqual([]);
    expect(leakedInternals(exchange(500, '{"errors":[{"message":"x","stack":"Error at f (/srv/app.js:10:3)"}]}'))).toBeDefined();
    expect(leakedInternals(exchange(200, '{"errors":[{"message":"quantity must be 1 to 10000."}]}'))).toBeUndefined();
  });
});
