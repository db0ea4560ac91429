import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { SchemaRegistry } from '../../src/schemas/registry.js';
import { type Endpoint, type EndpointIndex, loadEndpointIndex } from '../../src/specs/catalog.js';
import {
  buildOpenApi,
  type Json,
  type JsonObject,
  OPENAPI_INTERFACES,
  type OpenApiInterface,
  openApiFileName,
  readOpenApiInputs,
  renderOpenApiFiles,
} from '../../src/specs/openapi.js';
import { REPO_ROOT, SPECS_DIR } from '../../src/specs/paths.js';

// The OpenAPI exports: committed files are what the generator writes now, each file is valid
// OpenAPI 3.1 and self-contained, every endpoint of the index is an operation, and the converted
// schemas judge the spec fixtures exactly as the original JSON Schemas do.
const OUT = join(SPECS_DIR, 'openapi');
const generated = renderOpenApiFiles();
const docOf = (iface: OpenApiInterface) => JSON.parse(generated.get(openApiFileName(iface)) as string) as JsonObject;
const obj = (v: Json | undefined) => (v ?? {}) as JsonObject;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(doc: JsonObject): { key: string; method: string; op: JsonObject }[] {
  return Object.entries(obj(doc.paths)).flatMap(([key, item]) =>
    Object.entries(obj(item))
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ key, method, op: obj(op) })),
  );
}

function collect(value: Json, key: string, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) collect(v, key, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === key && typeof v === 'string') out.push(v);
      collect(v, key, out);
    }
  return out;
}

function pointer(doc: Json, ref: string): Json | undefined {
  let at: Json | undefined = doc;
  for (const raw of ref.replace(/^#\//, '').split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    at = at && typeof at === 'object' && !Array.isArray(at) ? at[token] : undefined;
  }
  return at;
}

describe('specs/openapi files', () => {
  it('the committed files are what the generator writes now', () => {
    for (const [name, text] of generated) {
      const file = join(OUT, name);
      expect(existsSync(file), `specs/openapi/${name} is missing: run npm run specs:openapi`).toBe(true);
      expect(readFileSync(file, 'utf8') === text, `specs/openapi/${name} is out of date: run npm run specs:openapi`).toBe(true);
    }
    const stale = readdirSync(OUT).filter((f) => f.endsWith('.openapi.json') && !generated.has(f));
    expect(stale, 'stale files: run npm run specs:openapi').toEqual([]);
  });

  it('generation is deterministic', () => {
    expect([...renderOpenApiFiles()]).toEqual([...generated]);
  });

  it.each(OPENAPI_INTERFACES)('%s validates with @readme/openapi-parser', async (iface) => {
    const result = await validate(docOf(iface) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it.each(OPENAPI_INTERFACES)('%s is self-contained: every $ref points into components, no $id is left', (iface) => {
    const doc = docOf(iface);
    const refs = collect(doc, '$ref');
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref.startsWith('#/components/schemas/'), ref).toBe(true);
      expect(pointer(doc, ref), `${ref} resolves`).toBeDefined();
    }
    expect(collect(doc, '$id')).toEqual([]);
    expect(collect(doc, '$schema')).toEqual([]);
  });
});

describe.each(OPENAPI_INTERFACES)('%s operations', (iface) => {
  const doc = docOf(iface);
  const index = loadEndpointIndex(iface);
  const ops = operations(doc);
  const byId = new Map(ops.map((o) => [String(o.op.operationId), o]));
  const keyOf = (path: string) => (iface === 'rest-route' ? `/index.php?route=${path}` : path);
  if (!index) throw new Error(`specs/${iface}/endpoints.json is missing`);

  it('every endpoint, method alternative and path alternative is an operation', () => {
    expect(byId.size).toBe(ops.length); // operationIds are unique
    let expected = 0;
    for (const e of index.endpoints) {
      const main = byId.get(e.id);
      expect(main, e.id).toBeDefined();
      expect(main?.key).toBe(keyOf(e.path));
      expect(main?.method).toBe(e.method.toLowerCase());
      for (const m of e.methodAlternatives ?? []) {
        const alt = ops.find((o) => o.key === keyOf(e.path) && o.method === m.toLowerCase());
        expect(alt?.op['x-alternative-of'], `${e.id} via ${m}`).toBe(e.id);
      }
      for (const p of e.pathAlternatives ?? []) {
        const alt = ops.find((o) => o.key === keyOf(p) && o.method === e.method.toLowerCase());
        expect(alt?.op['x-alternative-of'], `${e.id} at ${p}`).toBe(e.id);
      }
      expected += 1 + (e.methodAlternatives?.length ?? 0) + (e.pathAlternatives?.length ?? 0);
    }
    expect(ops.length).toBe(expected);
  });

  it('operations carry their requirement ids, parameters, bodies, responses and security', () => {
    const schemas = readOpenApiInputs(iface).schemas;
    for (const e of index.endpoints) {
      const { op } = byId.get(e.id) as { op: JsonObject };
      expect(op['x-requirements'], e.id).toEqual(expect.arrayContaining(e.requirements));
      const params = (op.parameters ?? []) as JsonObject[];
      const query = e.request.query ? obj(schemas.get(e.request.query)?.properties) : {};
      expect(
        params.filter((p) => p.in === 'query').map((p) => p.name),
        e.id,
      ).toEqual(Object.keys(query));
      const templated = [...e.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(
        params.filter((p) => p.in === 'path').map((p) => p.name),
        e.id,
      ).toEqual(templated);
      const content = Object.keys(obj(obj(op.requestBody).content));
      if (!e.request.body) expect(op.requestBody, e.id).toBeUndefined();
      else if (iface === 'rest-route') expect(content, e.id).toEqual(['application/json']);
      else expect(content, e.id).toEqual(expect.arrayContaining(['multipart/form-data', 'application/json']));
      const ok = obj(obj(obj(obj(obj(op.responses)['200']).content)['application/json']).schema);
      expect(collect(ok, '$ref'), e.id).toContain(
        `#/components/schemas/${e.response?.split('/').pop()?.replace('.schema.json', '')}`,
      );
      expect(obj(op.responses).default, e.id).toBeDefined();
      const security = op.security as JsonObject[];
      if (e.auth === 'none') expect(security, e.id).toEqual([]);
      else
        expect(
          security.some((s) => Object.keys(s).length === 0),
          e.id,
        ).toBe(e.auth === 'optional');
    }
  });
});

describe('security schemes and servers', () => {
  it('document 1 takes the token in `token` or `Authorization`', () => {
    const schemes = obj(obj(docOf('rest-route').components).securitySchemes);
    expect(Object.values(schemes).map((s) => [obj(s).type, obj(s).in, obj(s).name])).toEqual([
      ['apiKey', 'header', 'token'],
      ['apiKey', 'header', 'Authorization'],
    ]);
    expect(collect(docOf('rest-route').servers as Json, 'url')).toEqual(['{base_url}']);
  });

  it.each(['rest-v1-network', 'rest-v1-shop'] as const)('%s uses <vendor>_token and {api_root}, svc by default', (iface) => {
    const name = (doc: JsonObject) => obj(obj(obj(doc.components).securitySchemes).vendorToken).name;
    expect(name(docOf(iface))).toBe('svc_token');
    const letscms = buildOpenApi({ ...readOpenApiInputs(iface), vendor: 'letscms' });
    expect(name(letscms)).toBe('letscms_token');
    expect(JSON.stringify(letscms.servers)).toContain('/wp-json/letscms/v1');
    expect(collect(letscms.servers as Json, 'default').filter((d) => d.includes('svc'))).toEqual([]);
    expect(collect(docOf(iface).servers as Json, 'url')[0]).toBe('{api_root}');
  });
});

/** Spec fixtures: `{schema, valid, invalid}` files, or `valid/` and `invalid/` folders of arrays. */
function fixtureSamples(iface: OpenApiInterface): { schema: string; value: unknown; valid: boolean }[] {
  const dir = join(REPO_ROOT, 'fixtures', 'specs', iface);
  if (!existsSync(dir)) return [];
  const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as unknown;
  const unwrap = (s: unknown) => (s && typeof s === 'object' && 'value' in s ? (s as { value: unknown }).value : s);
  const out: { schema: string; value: unknown; valid: boolean }[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith('.json')) {
      const file = read(join(dir, f)) as { schema?: string; valid?: unknown[]; invalid?: unknown[] };
      if (typeof file.schema !== 'string') continue;
      for (const v of file.valid ?? []) out.push({ schema: file.schema, value: v, valid: true });
      for (const v of file.invalid ?? []) out.push({ schema: file.schema, value: unwrap(v), valid: false });
    } else if (f === 'valid' || f === 'invalid') {
      for (const g of readdirSync(join(dir, f)).sort()) {
        const values = read(join(dir, f, g));
        const schema = `${iface}/schemas/${g.replace(/\.json$/, '.schema.json')}`;
        if (Array.isArray(values)) for (const v of values) out.push({ schema, value: unwrap(v), valid: f === 'valid' });
      }
    }
  }
  return out;
}

describe('converted schemas keep their meaning', () => {
  const registry = new SchemaRegistry();
  it.each(OPENAPI_INTERFACES)('%s: fixtures get the same verdict from components as from specs/', (iface) => {
    const doc = docOf(iface);
    const components = obj(obj(doc.components).schemas);
    const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true, logger: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'urn:sfc:openapi', components: { schemas: components } });
    const validators = new Map<string, ValidateFunction>();
    let compared = 0;
    for (const s of fixtureSamples(iface)) {
      const name = s.schema.split('/').pop()?.replace('.schema.json', '') ?? '';
      if (!(name in components)) continue; // a schema no endpoint reaches is not exported
      if (!validators.has(name)) validators.set(name, ajv.compile({ $ref: `urn:sfc:openapi#/components/schemas/${name}` }));
      const converted = (validators.get(name) as ValidateFunction)(s.value);
      const original = registry.check(s.schema, s.value).length === 0;
      expect(converted, `${s.schema}: ${JSON.stringify(s.value).slice(0, 120)}`).toBe(original);
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  });

  it.each(OPENAPI_INTERFACES)('%s: every 200 response admits a failure with status false', (iface) => {
    const doc = docOf(iface);
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'urn:sfc:openapi', ...doc });
    const failure = { status: false, errors: { username: 'required' }, message: 'invalid login details.' };
    for (const { key, method } of operations(doc)) {
      const ptr = ['paths', key, method, 'responses', '200', 'content', 'application/json', 'schema']
        .map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/');
      expect(ajv.compile({ $ref: `urn:sfc:openapi#/${ptr}` })(failure), `${method} ${key}`).toBe(true);
    }
  });
});

// The exports drive a real target: URLs built the way Schemathesis builds them (server + path key,
// further query parameters appended), token headers taken from the security schemes, and every
// answer of the reference implementation accepted by the operation's response schema.
describe('the exports against the reference implementation', () => {
  const credentials: Record<OpenApiInterface, { path: string; body: Record<string, unknown>; token: string }> = {
    'rest-route': {
      path: '/index.php?route=shoprestapi/account/register',
      body: {
        firstname: 'Ada',
        lastname: 'Export',
        email: 'oas-export@example.test',
        telephone: '9876543210',
        password: 'Pass-1234',
        confirm: 'Pass-1234',
        customer_group_id: 1,
        newsletter: 0,
        agree: 1,
      },
      token: 'token',
    },
    'rest-v1-network': { path: '/auth/login', body: { username: 'netroot', password: 'Root-pass-2024' }, token: 'svc_token' },
    'rest-v1-shop': {
      path: '/auth/register',
      body: {
        username: 'oasexport',
        first_name: 'Ada',
        last_name: 'Export',
        password: 'Pass-12345',
        email: 'oas-export@example.test',
      },
      token: 'svc_token',
    },
  };
  const samples: Record<string, string> = {
    address_id: '1',
    product_id: '40',
    page: '1',
    payout_id: '1',
    user_id: '1',
    cart_item_key: 'x',
  };

  it.each(OPENAPI_INTERFACES)('%s: every GET operation, with and without the token', async (iface) => {
    const { buildServer } = await import('../../reference-impl/src/server.js');
    const { app } = await buildServer({ db: ':memory:', vendor: 'svc', hashCost: 1024 });
    try {
      const doc = docOf(iface);
      const server = obj(obj(obj((doc.servers as Json[])[0]).variables)[iface === 'rest-route' ? 'base_url' : 'api_root']);
      const base = new URL(String(server.default)).pathname.replace(/\/$/, '');
      const login = credentials[iface];
      const res = await app.inject({ method: 'POST', url: base + login.path, payload: login.body });
      const token = (res.json() as Record<string, unknown>)[login.token];
      expect(typeof token, `${login.path} gives a token`).toBe('string');
      const headers = Object.values(obj(obj(doc.components).securitySchemes)).map((s) => String(obj(s).name));

      const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false });
      (addFormats as unknown as (a: Ajv2020) => void)(ajv);
      ajv.addSchema({ $id: 'urn:sfc:openapi', ...doc });
      let successes = 0;
      const gets = operations(doc).filter((o) => o.method === 'get');
      for (const { key, op } of gets) {
        let path = key;
        const query: string[] = [];
        for (const p of (op.parameters ?? []) as JsonObject[]) {
          const value = samples[String(p.name)] ?? '1';
          if (p.in === 'path') path = path.replace(`{${p.name}}`, value);
          else if (p.required) query.push(`${p.name}=${value}`);
        }
        const url = base + path + (query.length === 0 ? '' : (path.includes('?') ? '&' : '?') + query.join('&'));
        for (const withToken of [true, false]) {
          const answer = await app.inject({
            method: 'GET',
            url,
            headers: withToken ? { [headers[0] as string]: String(token) } : {},
          });
          const code = answer.statusCode === 200 ? '200' : 'default';
          const ptr = ['paths', key, 'get', 'responses', code, 'content', 'application/json', 'schema']
            .map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1'))
            .join('/');
          const body = answer.json() as { status?: unknown };
          expect(
            ajv.compile({ $ref: `urn:sfc:openapi#/${ptr}` })(body),
            `${op.operationId} (${withToken ? 'token' : 'no token'})`,
          ).toBe(true);
          if (withToken && body.status === true) successes++;
        }
      }
      expect(successes, 'most GET operations succeed with the token').toBeGreaterThanOrEqual(Math.ceil(gets.length / 2));
    } finally {
      await app.close();
    }
  });
});

describe('buildOpenApi on a small input', () => {
  const dir = 'rest-v1-shop/schemas';
  const id = (f: string) => `https://storefront-conformance.dev/specs/${dir}/${f}`;
  const schemas = new Map<string, JsonObject>([
    [`${dir}/formats.schema.json`, { $id: id('formats.schema.json'), title: 'defs only', $defs: { id: { type: 'integer' } } }],
    [
      `${dir}/node.schema.json`,
      {
        $id: id('node.schema.json'),
        type: 'object',
        properties: {
          default: { $ref: 'formats.schema.json#/$defs/id' },
          children: { type: 'array', items: { $ref: '#' } },
          kind: { const: { $ref: 'data, not a reference' } },
        },
      },
    ],
    [`${dir}/x.response.schema.json`, { $id: id('x.response.schema.json'), $ref: 'node.schema.json' }],
  ]);
  const index: EndpointIndex = {
    interface: 'rest-v1-shop',
    document: 'doc.txt',
    endpoints: [
      {
        id: 'x',
        method: 'GET',
        methodAlternatives: ['POST'],
        path: '/x/{product_id}',
        auth: 'optional',
        source: { document: 'doc.txt', section: 'B. Shop variant' },
        request: {},
        response: `${dir}/x.response.schema.json`,
        responseShown: true,
        requirements: ['SHOP-X-01'],
      },
    ],
  };

  it('hoists $defs, rewrites relative and self references, leaves data alone, drops $id', () => {
    const doc = buildOpenApi({ index, schemas, version: '9.9.9' });
    const c = obj(obj(doc.components).schemas);
    expect(Object.keys(c)).toEqual(['failure', 'formats.id', 'node', 'x.response']);
    expect(c['formats.id']).toEqual({ type: 'integer' });
    expect(obj(obj(c.node).properties)).toEqual({
      default: { $ref: '#/components/schemas/formats.id' },
      children: { type: 'array', items: { $ref: '#/components/schemas/node' } },
      kind: { const: { $ref: 'data, not a reference' } },
    });
    expect(c['x.response']).toEqual({ $ref: '#/components/schemas/node' });
    const item = obj(obj(doc.paths)['/x/{product_id}']);
    expect(Object.keys(item)).toEqual(['get', 'post']);
    expect(obj(item.post)['x-alternative-of']).toBe('x');
    expect(obj(item.get).security).toEqual([{ vendorToken: [] }, {}]);
    expect(obj(item.get)['x-requirements']).toEqual(['SHOP-X-01']);
    expect(obj(doc.info).version).toBe('9.9.9');
  });

  it('a $ref to a missing file names the file', () => {
    const broken = new Map(schemas).set(`${dir}/x.response.schema.json`, { $ref: 'nowhere.schema.json' });
    expect(() => buildOpenApi({ index, schemas: broken, version: '1' })).toThrow(/nowhere\.schema\.json/);
  });

  it('two operations on one method and path are an error, not a silent overwrite', () => {
    const twice: EndpointIndex = { ...index, endpoints: [...index.endpoints, { ...(index.endpoints[0] as Endpoint), id: 'y' }] };
    expect(() => buildOpenApi({ index: twice, schemas, version: '1' })).toThrow(/two operations for GET \/x\/\{product_id\}/);
  });
});
