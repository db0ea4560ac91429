// OpenAPI 3.1 exports of the two REST documents, generated from the endpoint indexes and the JSON
// Schemas. Pure: `buildOpenApi` turns loaded specs into a document; `readOpenApiInputs` is the one
// reader. Output order follows the index (paths) and sorted names (components), so reruns are stable.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { type Endpoint, type EndpointIndex, loadEndpointIndex, loadRequirementFiles, type RequirementFile } from './catalog.js';
import { REPO_ROOT, SPECS_DIR } from './paths.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type OpenApiInterface = 'rest-route' | 'rest-v1-network' | 'rest-v1-shop';
export const OPENAPI_INTERFACES: readonly OpenApiInterface[] = ['rest-route', 'rest-v1-network', 'rest-v1-shop'];
export const openApiFileName = (iface: OpenApiInterface) => `${iface}.openapi.json`;

export interface OpenApiInput {
  index: EndpointIndex;
  requirements?: RequirementFile | undefined;
  /** Every schema file of specs/, by its path under specs/ (`rest-route/schemas/x.schema.json`). */
  schemas: ReadonlyMap<string, JsonObject>;
  /** Version written to info.version (the suite's). */
  version: string;
  /** Vendor segment of document 2 (header `<vendor>_token`, namespace `/wp-json/<vendor>/v1`). */
  vendor?: string;
}

const REF_PREFIX = '#/components/schemas/';
// Keywords whose values are data, not schemas (a `$ref` in them is no reference), and keywords whose
// keys are names (a property may be called `default`, as the Address field is).
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const schemaBase = (file: string) => posix.basename(file).replace(/\.schema\.json$/, '');
const failureFile = (iface: OpenApiInterface) => `${iface}/schemas/failure.schema.json`;

/** Component names and `$ref` rewriting: every schema file becomes one component, each `$defs` entry another. */
class ComponentSet {
  readonly components = new Map<string, Json>();
  private readonly done = new Set<string>();
  private readonly queue: string[] = [];
  private readonly rootsUsed = new Set<string>();

  constructor(
    private readonly iface: OpenApiInterface,
    readonly schemas: ReadonlyMap<string, JsonObject>,
  ) {}

  /** `formats.schema.json` of this interface -> `formats`; another interface's file is prefixed with it. */
  name(file: string): string {
    return file.startsWith(`${this.iface}/`) ? schemaBase(file) : `${file.split('/')[0]}.${schemaBase(file)}`;
  }

  /** A `$ref` (relative to `file`) as a pointer into components; queues the target file. */
  ref(file: string, ref: string): string {
    const [target = '', fragment = ''] = ref.split('#', 2);
    const targetFile = target === '' ? file : posix.normalize(posix.join(posix.dirname(file), target));
    if (!this.schemas.has(targetFile)) throw new Error(`${file}: $ref "${ref}" points at no schema file (${targetFile})`);
    this.enqueue(targetFile);
    const name = this.name(targetFile);
    const def = /^\/\$defs\/([^/]+)(.*)$/.exec(fragment);
    if (def) return `${REF_PREFIX}${name}.${def[1]}${def[2]}`;
    this.rootsUsed.add(targetFile);
    return `${REF_PREFIX}${name}${fragment}`;
  }

  /** `{$ref}` to a schema given by its path under specs/, optionally with `#/$defs/...`. */
  use(spec: string): { $ref: string } {
    const [file = '', fragment] = spec.split('#', 2);
    return { $ref: this.ref(file, fragment === undefined ? '' : `#${fragment}`) };
  }

  /** A subschema of `file`, with ids dropped and refs rewritten; `names`: a map of name -> schema (properties). */
  rewrite(file: string, value: Json, names = false): Json {
    if (Array.isArray(value)) return value.map((v) => this.rewrite(file, v));
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [key, v] of Object.entries(value)) {
      if (names) out[key] = this.rewrite(file, v);
      else if (key === '$id' || key === '$schema') continue;
      else if (key === '$ref' && typeof v === 'string') out[key] = this.ref(file, v);
      else out[key] = DATA_KEYWORDS.has(key) ? v : this.rewrite(file, v, NAME_MAPS.has(key));
    }
    return out;
  }

  private enqueue(file: string): void {
    if (this.done.has(file)) return;
    this.done.add(file);
    this.queue.push(file);
  }

  /** Converts every queued file (and what it references); returns components sorted by name. */
  finish(): JsonObject {
    const bodies = new Map<string, JsonObject>();
    while (this.queue.length > 0) {
      const file = this.queue.shift() as string;
      const schema = this.schemas.get(file) as JsonObject;
      const { $defs, ...root } = schema;
      if (isObject($defs))
        for (const [def, sub] of Object.entries($defs)) this.components.set(`${this.name(file)}.${def}`, this.rewrite(file, sub));
      bodies.set(file, this.rewrite(file, root) as JsonObject);
    }
    // A file that only holds $defs (formats) is no schema of its own unless something points at it.
    const meta = new Set(['title', 'description', '$comment']);
    for (const [file, body] of bodies)
      if (this.rootsUsed.has(file) || Object.keys(body).some((k) => !meta.has(k))) this.components.set(this.name(file), body);
    return Object.fromEntries([...this.components.entries()].sort(([a], [b]) => a.localeCompare(b, 'en')));
  }
}

type Profile = ReturnType<typeof profile>;
const apiKey = (name: string, description: string) => ({ type: 'apiKey', in: 'header', name, description });
const variable = (value: string, description: string) => ({ default: value, description });

const doc2Failure = (vendor: string): JsonObject => ({
  title: 'A failure (Part 7): status false, errors (an object keyed by field on validation failure, else an array), message',
  description:
    'HTTP status codes are not shown; the reference implementation answers 200 for validation and business-rule failures and 401 for a missing or bad token.',
  type: 'object',
  required: ['status', 'errors', 'message'],
  properties: {
    status: { type: 'boolean', const: false },
    errors: { type: ['array', 'object'] },
    message: { type: 'string' },
  },
  // Illustrations of cases Part 7 names (the wording is the reference implementation's), for mock servers.
  examples: [
    { status: false, errors: { username: 'username is required' }, message: '' },
    { status: false, errors: [], message: `Token is missing: send the token in the ${vendor}_token header.` },
  ],
});

const COMMON_NOTES = [
  'Generated by `npm run specs:openapi` from `specs/<interface>/endpoints.json` and the JSON Schemas; do not edit by hand.',
  'HTTP status codes are not shown in the documents: `200` carries the documented success shape or a failure (`status: false`); `default` is the failure shape for any other status.',
  'Each operation lists the requirement ids it is checked against in `x-requirements` (catalog: `specs/requirements/`), the document section in `x-source`, and the ambiguities that concern it in `x-ambiguities` (both readings are accepted).',
];

function profile(iface: OpenApiInterface, vendor: string) {
  if (iface === 'rest-route')
    return {
      title: 'Storefront REST API, route-based (document 1)',
      pathKey: (route: string) => `/index.php?route=${route}`,
      failure: undefined,
      media: ['application/json'],
      envelope: 'rest-route/schemas/envelope.schema.json',
      schemeNames: ['token', 'authorization'],
      security: {
        token: apiKey('token', 'Part 5: the parameter tables name the header `token`.'),
        authorization: apiKey(
          'Authorization',
          'Part 5: the request samples send the token in `Authorization`. Either header is accepted (an ambiguity of the document).',
        ),
      } as JsonObject,
      servers: [
        {
          url: '{base_url}',
          description: 'The storefront; every operation is `{base_url}/index.php?route=<route>`.',
          variables: {
            base_url: variable('http://127.0.0.1:8080', 'Base URL of the storefront (the reference implementation by default).'),
          },
        },
      ] as Json[],
      description: [
        'Document 1 (`000_b286df028903ebb7.txt`): every operation lives at `{base_url}/index.php` and is selected by the `route` query value, which OpenAPI path keys cannot express directly.',
        [
          '**Representation.** Each route is its own path item whose key carries the fixed query: `/index.php?route=<route>`. GET and POST of one route share it; the other query parameters (`address_id`, `product_id`, `category_ids`, `search`) are ordinary `in: query` parameters. The specification appends the path key to the server URL, so server plus key is the literal URL of the document, and every operation keeps its own parameters, body, response schema and requirement ids.',
          'Why: Schemathesis joins server and key into that URL and its HTTP client appends the remaining query parameters with `&`, so every operation can be generated, sent and validated precisely; swagger-parser (`@readme/openapi-parser`) validates and dereferences the file. The alternatives were worse: one `/index.php` path with a `route` enum merges every route into one GET and one POST with `anyOf` bodies and responses, so request generation mixes routes and bodies and response validation proves little; a fragment key (`/index.php#<route>` plus a `route` const parameter) loses the query in tools that append `?...` after the key.',
          'Limits: linters flag a `?` in a path key (Redocly `path-not-include-query`, Specmatic lint), and routers that match requests by path segments only, such as the Prism mock server, cannot tell routes apart (no representation lets them: the route is not in the path).',
        ].join('\n\n'),
        'The samples also send session, currency and language cookies; whether they are required is not shown, so no cookie is declared.',
        ...COMMON_NOTES,
      ].join('\n\n'),
    };
  const network = iface === 'rest-v1-network';
  const mount = network ? 'network' : 'shop';
  return {
    title: network
      ? 'REST API under {api_root}, network-plan variant (document 2 A)'
      : 'REST API under {api_root}, shop variant (document 2 B)',
    pathKey: (path: string) => path,
    media: ['multipart/form-data', 'application/json'],
    envelope: network
      ? 'rest-v1-network/schemas/envelope.schema.json'
      : 'rest-v1-shop/schemas/formats.schema.json#/$defs/envelope',
    schemeNames: ['vendorToken'],
    security: {
      vendorToken: apiKey(
        `${vendor}_token`,
        `Part 5: the token travels in the header \`<vendor>_token\`. The document writes the vendor segment \`svc\`; real products use their own (e.g. \`letscms_token\`): regenerate with \`--vendor\`. This file uses \`${vendor}\`. Some proxies drop header names with an underscore.`,
      ),
    } as JsonObject,
    servers: [
      {
        url: '{api_root}',
        description: 'The REST namespace, ending in `v1` (Part 9).',
        variables: {
          api_root: variable(
            `http://127.0.0.1:8080/${mount}/wp-json/${vendor}/v1`,
            'The {api_root} of the deployment (the reference implementation by default).',
          ),
        },
      },
      {
        url: '{site}/wp-json/{vendor}/v1',
        description: 'The same namespace spelled out for a WordPress site.',
        variables: {
          site: variable(`http://127.0.0.1:8080/${mount}`, 'The site URL.'),
          vendor: variable(vendor, 'The vendor segment (the document writes `svc`).'),
        },
      },
    ] as Json[],
    description: [
      `Document 2 (\`001_ae28df0362adb49f.txt\`), variant ${network ? 'A (network plan)' : 'B (shop)'}: paths are relative to {api_root}.`,
      network
        ? 'Bodies in the samples are multipart form fields, and real clients also send JSON: both are declared. The bracketed fields `net_user[phone]`, `net_user[address]`, ... are the object `net_user` with `style: deepObject` in the multipart encoding.'
        : 'Bodies in the samples are multipart form fields, and real clients also send JSON: both are declared. `cart_data[<cart_item_key>]` is the object `cart_data` with `style: deepObject` in the multipart encoding. A repeated field such as `coupons[]` (query of GET /cart, body of POST /order/create) is an array; OpenAPI serialises arrays without the `[]` suffix that PHP-style servers expect, so the query parameter is named `coupons[]` literally.',
      ...COMMON_NOTES,
    ].join('\n\n'),
    failure: doc2Failure(vendor),
  };
}

/** Path parameters of document 2 as the tables type them; the index carries no schema for them. */
const PATH_PARAMS: Record<string, JsonObject> = {
  product_id: { type: ['integer', 'string'], pattern: '^[0-9]+$', minimum: 0, description: 'Part 4 B: integer, required.' },
  cart_item_key: { type: 'string', minLength: 1, description: "Part 4 B: string, from the cart's items." },
};

const naturalSort = (ids: Iterable<string>) => [...new Set(ids)].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

export function buildOpenApi(input: OpenApiInput): JsonObject {
  const iface = input.index.interface as OpenApiInterface;
  if (!OPENAPI_INTERFACES.includes(iface)) throw new Error(`no OpenAPI export for interface ${input.index.interface}`);
  const vendor = input.vendor ?? 'svc';
  const prof = profile(iface, vendor);
  const set = new ComponentSet(iface, input.schemas);
  const failureSchema = input.schemas.has(failureFile(iface)) ? set.use(failureFile(iface)) : { $ref: `${REF_PREFIX}failure` };
  const catalog = input.requirements;
  const paths: JsonObject = {};

  const operation = (e: Endpoint, method: string, operationId: string, alternativeOf?: string): JsonObject => {
    const reqs = naturalSort([
      ...e.requirements,
      ...(catalog?.requirements ?? []).filter((r) => r.endpoints?.includes(e.id)).map((r) => r.id),
    ]);
    const ambiguities = (catalog?.ambiguities ?? [])
      .filter((a) => (a.requirements ?? []).some((id) => reqs.includes(id)))
      .map((a) => a.id);
    const op: JsonObject = { operationId, summary: summary(e, method) };
    const descr: string[] = [];
    if (alternativeOf)
      descr.push(
        `Alternative reading of \`${alternativeOf}\` (${ambiguities.join(', ') || 'an ambiguity of the document'}): a target may serve either reading, so a test tool should expect only one of the two to exist.`,
      );
    if (!e.responseShown)
      descr.push('Response: not shown in the document; the response schema checks what the document does state (the envelope).');
    const tag = tagOf(iface, e.path);
    if (tag) op.tags = [tag];
    const query = e.request.query ?? null;
    // The other method of an ambiguous endpoint ("POST with the same parameters") may carry them in
    // the query or in the body, so neither place can require them.
    const movable = method !== e.method && query !== null && !e.request.body;
    const parameters = [...pathParameters(e.path), ...queryParameters(set, query, movable)];
    if (parameters.length > 0) op.parameters = parameters;
    if (movable) descr.push('The parameters may travel in the query or in the body; required ones must appear in one of them.');
    if (query && hasWholeObjectRules(input.schemas.get(query))) {
      op['x-query-schema'] = set.use(query);
      descr.push('The query as a whole must also match `x-query-schema` (rules across parameters that parameters cannot state).');
    }
    const body = e.request.body ?? (movable ? query : null);
    if (body) op.requestBody = requestBody(set, body, media(prof, e), !movable);
    op.responses = responses(set, e, prof, failureSchema);
    op.security =
      e.auth === 'none' ? [] : [...prof.schemeNames.map((n) => ({ [n]: [] })), ...(e.auth === 'optional' ? [{}] : [])];
    if (descr.length > 0) op.description = descr.join('\n\n');
    op['x-source'] = e.source as unknown as Json;
    op['x-auth'] = e.auth;
    op['x-requirements'] = reqs;
    if (ambiguities.length > 0) op['x-ambiguities'] = ambiguities;
    if (alternativeOf) op['x-alternative-of'] = alternativeOf;
    return op;
  };

  const add = (key: string, method: string, op: JsonObject) => {
    if (!paths[key]) paths[key] = {};
    const item = paths[key] as JsonObject;
    const m = method.toLowerCase();
    if (item[m])
      throw new Error(
        `${iface}: two operations for ${method} ${key} (${String((item[m] as JsonObject).operationId)}, ${String(op.operationId)})`,
      );
    item[m] = op;
  };

  for (const e of input.index.endpoints) {
    add(prof.pathKey(e.path), e.method, operation(e, e.method, e.id));
    for (const m of e.methodAlternatives ?? []) add(prof.pathKey(e.path), m, operation(e, m, `${e.id}.${m.toLowerCase()}`, e.id));
    (e.pathAlternatives ?? []).forEach((p, i) => {
      add(prof.pathKey(p), e.method, operation({ ...e, path: p }, e.method, `${e.id}.path-alternative-${i + 1}`, e.id));
    });
  }

  const schemas = set.finish();
  if (!input.schemas.has(failureFile(iface)))
    schemas.failure = prof.failure ?? { type: 'object', required: ['status'], properties: { status: { const: false } } };
  return {
    openapi: '3.1.0',
    info: {
      title: prof.title,
      version: input.version,
      description: prof.description,
      'x-document': input.index.document,
      'x-ambiguities': (catalog?.ambiguities ?? []).map((a) => ({
        id: a.id,
        subject: a.subject,
        alternatives: a.alternatives.map((x) => x.id),
      })),
      'x-not-shown': (catalog?.notShown ?? []).map((n) => ({ id: n.id, subject: n.subject })),
    },
    servers: prof.servers,
    paths,
    components: { schemas: sortKeys(schemas), securitySchemes: prof.security },
  };
}

function sortKeys(o: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b, 'en')));
}

function summary(e: Endpoint, method: string): string {
  const n = e.number === undefined ? '' : `${e.number}. `;
  return `${n}${method.toUpperCase()} ${e.path}`;
}

function tagOf(iface: OpenApiInterface, path: string): string | undefined {
  const parts = path.split('/').filter(Boolean);
  return iface === 'rest-route' ? parts[1] : parts[0]?.replace(/[-_].*$/, '').toLowerCase();
}

const MEDIA: Record<string, string> = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  urlencoded: 'application/x-www-form-urlencoded',
};
const media = (prof: Profile, e: Endpoint) => [
  ...new Set([...prof.media, ...(e.request.encodings ?? []).map((x) => MEDIA[x] ?? x)]),
];

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => {
    const name = m[1] as string;
    const { description, ...schema } = PATH_PARAMS[name] ?? { type: 'string', minLength: 1 };
    return { name, in: 'path', required: true, ...(description === undefined ? {} : { description }), schema };
  });
}

/** One `in: query` parameter per property of the query schema. */
function queryParameters(set: ComponentSet, file: string | null, optional: boolean): Json[] {
  if (!file) return [];
  set.use(file); // the whole query schema is a component too (x-query-schema, tools that validate objects)
  const schema = set.schemas.get(file);
  const props = isObject(schema?.properties) ? schema.properties : {};
  const required = Array.isArray(schema?.required) ? schema.required : [];
  return Object.entries(props).map(([name, sub]) => {
    const rewritten = set.rewrite(file, sub) as JsonObject;
    const { description, ...rest } = isObject(rewritten) ? rewritten : ({} as JsonObject);
    return {
      name,
      in: 'query',
      required: !optional && required.includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/** Rules a list of parameters cannot carry: anyOf/oneOf/if, additionalProperties, dependencies. */
const OBJECT_RULES = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'additionalProperties', 'dependentRequired', 'dependentSchemas'];
const hasWholeObjectRules = (schema: JsonObject | undefined) => OBJECT_RULES.some((k) => schema !== undefined && k in schema);

function requestBody(set: ComponentSet, file: string, types: string[], required: boolean): JsonObject {
  const raw = set.schemas.get(file);
  const props = isObject(raw?.properties) ? raw.properties : {};
  // Nested objects travel as bracketed form fields (net_user[phone], cart_data[<key>]) in multipart.
  const nested = Object.entries(props)
    .filter(([, s]) => isObject(s) && (s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'))))
    .map(([name]) => name);
  const content: JsonObject = {};
  for (const type of types) {
    const entry: JsonObject = { schema: set.use(file) };
    if (type !== 'application/json' && nested.length > 0)
      entry.encoding = Object.fromEntries(nested.map((n) => [n, { style: 'deepObject', explode: true }]));
    content[type] = entry;
  }
  return { required, content };
}

function responses(set: ComponentSet, e: Endpoint, prof: Profile, failure: JsonObject): JsonObject {
  const successSchema = set.use(e.response ?? prof.envelope);
  return {
    '200': {
      description: e.responseShown
        ? 'The documented payload, or a failure with status false (status codes are not shown).'
        : 'Response: not shown in the document (the envelope is checked), or a failure with status false.',
      content: { 'application/json': { schema: { anyOf: [successSchema, failure] } } },
    },
    default: {
      description:
        'A failure: status false (status codes are not shown; the reference implementation uses 401 for a missing or bad token).',
      content: { 'application/json': { schema: failure } },
    },
  };
}

/** Everything `buildOpenApi` needs for one interface, read from specs/. */
export function readOpenApiInputs(iface: OpenApiInterface, specsDir = SPECS_DIR, vendor?: string): OpenApiInput {
  const index = loadEndpointIndex(iface, specsDir);
  if (!index) throw new Error(`specs/${iface}/endpoints.json is missing`);
  const schemas = new Map<string, JsonObject>();
  for (const dir of readdirSync(specsDir).sort()) {
    const folder = `${specsDir}/${dir}/schemas`; // folders without schemas (requirements/, openapi/) are skipped
    if (!existsSync(folder)) continue;
    for (const f of readdirSync(folder)
      .filter((n) => n.endsWith('.schema.json'))
      .sort())
      schemas.set(`${dir}/schemas/${f}`, JSON.parse(readFileSync(`${folder}/${f}`, 'utf8')) as JsonObject);
  }
  const requirements = loadRequirementFiles(specsDir).find((r) => r.interface === iface);
  const version = (JSON.parse(readFileSync(`${REPO_ROOT}/package.json`, 'utf8')) as { version: string }).version;
  return { index, requirements, schemas, version, vendor };
}

/** The text of each OpenAPI file (name -> content), as `npm run specs:openapi` writes it. */
export function renderOpenApiFiles(specsDir = SPECS_DIR, vendor?: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const iface of OPENAPI_INTERFACES)
    out.set(openApiFileName(iface), `${JSON.stringify(buildOpenApi(readOpenApiInputs(iface, specsDir, vendor)), null, 2)}\n`);
  return out;
}
