import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { REPO_ROOT, SPECS_DIR } from '../specs/paths.js';
import { buildValidators, cacheKey, loadValidators, newAjv, type SchemaSource } from './validator-cache.js';

/** Base of every schema `$id`: `<BASE><path under specs/>`, e.g. `<BASE>rest-route/schemas/customer.schema.json`. */
export const SCHEMA_BASE = 'https://storefront-conformance.dev/specs/';

export interface SchemaIssue {
  /** JSON pointer into the validated value, e.g. `/data/customer_id`. */
  path: string;
  message: string;
}

/**
 * Every `specs/**\/*.schema.json`, compiled once into one ajv (draft 2020-12, strict mode,
 * formats). Schemas are named by their path under `specs/`, with an optional `#/$defs/...`.
 */
// code.optimize off: compiling is most of the registry's cost in a run (each schema is used a few
// dozen times), and unoptimized validators give the same results; it cuts compile time by a third.
const OPTIONS: Options = { strict: true, allErrors: true, allowUnionTypes: true, code: { optimize: false } };

export class SchemaRegistry {
  private ajvInstance?: Ajv2020;
  /** Each schema file by its name (path under specs/). */
  private readonly sources = new Map<string, SchemaSource>();
  private readonly metaValidate: boolean;
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Where the validators came from: compiled here, or an earlier run's cache (`cacheDir`). */
  readonly validatorsFrom: 'compiled' | 'cache' | 'new cache';

  /**
   * `metaValidate: false` skips checking each schema against the 2020-12 meta-schema (a tenth of a
   * second per worker of a run); the specs tests build registries that do check, so a malformed
   * schema fails `npm test` before any run uses it. `cacheDir` keeps the compiled validators there for
   * later runs (src/schemas/validator-cache.ts); a run that finds them there loads no ajv at all (a
   * twentieth of a second of its start-up) unless a schema outside them is asked for.
   */
  constructor(specsDir = SPECS_DIR, { metaValidate = true, cacheDir }: { metaValidate?: boolean; cacheDir?: string } = {}) {
    this.metaValidate = metaValidate;
    for (const file of listSchemaFiles(specsDir)) {
      const text = readFileSync(file, 'utf8');
      const schema = JSON.parse(text) as SchemaSource['schema'];
      const name = relative(specsDir, file).split(sep).join('/');
      const expected = SCHEMA_BASE + name;
      if (schema.$id !== expected) throw new Error(`${name}: $id must be "${expected}", found "${schema.$id}"`);
      this.sources.set(name, { name, text, schema });
    }
    this.validatorsFrom = 'compiled';
    // Without a cache every schema is added now: one that ajv refuses fails here, not at its first use.
    if (!cacheDir) this.ajv();
    else {
      const sources = [...this.sources.values()];
      const key = cacheKey(sources, OPTIONS);
      const cached = loadValidators(cacheDir, key);
      this.validatorsFrom = cached ? 'cache' : 'new cache';
      for (const [name, fn] of cached ?? buildValidators(cacheDir, key, sources, OPTIONS)) this.compiled.set(name, fn);
    }
  }

  /** The schema names (paths under specs/), in file order. */
  get ids(): string[] {
    return [...this.sources.keys()];
  }

  /** The registry's ajv, made on first use. */
  private ajv(): Ajv2020 {
    this.ajvInstance ??= newAjv(
      [...this.sources.values()].map((s) => s.schema),
      { ...OPTIONS, validateSchema: this.metaValidate },
    );
    return this.ajvInstance;
  }

  private validator(ref: string): ValidateFunction {
    let fn = this.compiled.get(ref);
    if (!fn) {
      const full = SCHEMA_BASE + ref;
      fn = this.ajv().getSchema(full);
      if (!fn)
        throw new Error(`unknown schema "${ref}" (expected a path under specs/, e.g. rest-route/schemas/customer.schema.json)`);
      this.compiled.set(ref, fn);
    }
    return fn;
  }

  /** The schema object behind `ref` (a path under specs/, optionally with `#/json/pointer`). */
  raw(ref: string): Record<string, unknown> {
    const [path, pointer] = ref.split('#');
    const root = this.sources.get(path ?? '')?.schema as Record<string, unknown> | undefined;
    if (!root) throw new Error(`unknown schema "${ref}"`);
    if (!pointer) return root;
    let node: unknown = root;
    for (const part of pointer.split('/').filter(Boolean))
      node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!node || typeof node !== 'object') throw new Error(`no "${pointer}" in schema "${path}"`);
    return node as Record<string, unknown>;
  }

  /** Resolves a `$ref` found in the schema named `from` to a registry name (path under specs/ plus pointer). */
  resolveRef(from: string, ref: string): string {
    const url = new URL(ref, SCHEMA_BASE + from.split('#')[0]);
    const path = url.href.slice(SCHEMA_BASE.length).split('#')[0] as string;
    return url.hash ? `${path}${decodeURIComponent(url.hash)}` : path;
  }

  /** Compiles every schema now (strict mode errors surface here). */
  compileAll(): void {
    for (const id of this.ids) this.validator(id);
  }

  /** The problems of `value` against schema `ref`; empty when it conforms. */
  check(ref: string, value: unknown): SchemaIssue[] {
    const fn = this.validator(ref);
    if (fn(value)) return [];
    return (fn.errors ?? []).map(describe);
  }
}

function describe(e: ErrorObject): SchemaIssue {
  const path = e.instancePath || '/';
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'required') message = `misses required field "${(e.params as { missingProperty: string }).missingProperty}"`;
  else if (e.keyword === 'additionalProperties')
    message = `has field "${(e.params as { additionalProperty: string }).additionalProperty}" that the document does not name`;
  else if (e.keyword === 'enum')
    message = `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  return { path, message };
}

function listSchemaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSchemaFiles(full));
    else if (entry.name.endsWith('.schema.json')) out.push(full);
  }
  return out.sort();
}

/** Compiled validators of earlier runs (rebuilt when a schema, ajv or the options change). */
export const VALIDATOR_CACHE = join(REPO_ROOT, 'node_modules', '.cache', 'storefront-conformance');

let shared: SchemaRegistry | undefined;
/** One registry per process: compiling the specs once is the point. */
export function schemaRegistry(): SchemaRegistry {
  shared ??= new SchemaRegistry(SPECS_DIR, { metaValidate: false, cacheDir: VALIDATOR_CACHE });
  return shared;
}
