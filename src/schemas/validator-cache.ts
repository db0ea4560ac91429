import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv2020, Options, ValidateFunction } from 'ajv/dist/2020.js';

// Compiled validators kept on disk as one module of ajv's standalone code, keyed by a digest of the
// schemas, ajv's and ajv-formats' versions and the options. A run compiled most of the specs' schemas
// again each time: about a fifth of a second of the thread that sends the requests. Loading the
// code takes about 20 ms.

const require = createRequire(import.meta.url);
// A CommonJS module whose function is its `default` export.
const standaloneCode = (
  require('ajv/dist/standalone/index.js') as { default: (ajv: Ajv2020, refs: Record<string, string>) => string }
).default;
/** Bumped when the generated module's shape changes: older files are not read. */
const LAYOUT = 1;
const PREFIX = 'validators-';

export interface SchemaSource {
  /** Path under specs/, e.g. `rest-route/schemas/customer.schema.json`. */
  name: string;
  /** The file's text (part of the key). */
  text: string;
  schema: { $id?: string; $defs?: Record<string, unknown> };
}

/** Validators by registry name: each file's schema and each of its top-level `$defs`. */
export type Validators = Map<string, ValidateFunction>;

export function cacheKey(sources: readonly SchemaSource[], options: Options): string {
  const hash = createHash('sha256');
  const version = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;
  hash.update(JSON.stringify([LAYOUT, version('ajv'), version('ajv-formats'), options]));
  for (const s of sources) hash.update(`\0${s.name}\0${s.text}`);
  return hash.digest('hex').slice(0, 24);
}

const fileOf = (dir: string, key: string) => join(dir, `${PREFIX}${key}.js`);

/** The validators of an earlier build with this key, or undefined (none, or unreadable). */
export function loadValidators(dir: string, key: string): Validators | undefined {
  try {
    // Run with this module's require, not from the file's own folder: the generated code requires
    // ajv's runtime and ajv-formats, which resolve from the suite wherever the cache lives.
    const mod: Record<string, unknown> & { sfcRefs?: Record<string, string> } = {};
    new Function('exports', 'require', readFileSync(fileOf(dir, key), 'utf8'))(mod, require);
    if (!mod.sfcRefs) return undefined;
    const out: Validators = new Map();
    for (const [name, exported] of Object.entries(mod.sfcRefs)) {
      const fn = mod[exported];
      if (typeof fn !== 'function') return undefined;
      out.set(name, fn as ValidateFunction);
    }
    return out;
  } catch {
    return undefined;
  }
}

/**
 * Compiles every schema and top-level `$defs` entry, and writes them as one module for later runs
 * (written aside and renamed, so a run that reads it at the same time sees all or nothing; files of
 * other keys are removed). Returns the compiled validators; a cache that cannot be written only
 * costs the next run its compile time.
 */
export function buildValidators(dir: string, key: string, sources: readonly SchemaSource[], options: Options): Validators {
  const { _ } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = newAjv(
    sources.map((s) => s.schema),
    { ...options, code: { ...options.code, source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } },
  );
  const refs: Record<string, string> = {};
  const exportOf: Record<string, string> = {};
  const out: Validators = new Map();
  for (const s of sources) {
    const names = [s.name, ...Object.keys(s.schema.$defs ?? {}).map((k) => `${s.name}#/$defs/${pointerEscape(k)}`)];
    for (const name of names) {
      const id = `${s.schema.$id}${name.slice(s.name.length)}`;
      const fn = ajv.getSchema(id);
      if (!fn) continue;
      const exported = `v${Object.keys(refs).length}`;
      refs[exported] = id;
      exportOf[name] = exported;
      out.set(name, fn);
    }
  }
  try {
    const code = `${standaloneCode(ajv, refs)}\nexports.sfcRefs = ${JSON.stringify(exportOf)};\n`;
    mkdirSync(dir, { recursive: true });
    const file = fileOf(dir, key);
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, code);
    renameSync(aside, file);
    for (const old of readdirSync(dir))
      if (old.startsWith(PREFIX) && join(dir, old) !== file) rmSync(join(dir, old), { force: true });
  } catch {
    // read-only install or full disk: the validators of this run still work
  }
  return out;
}

/**
 * An ajv (draft 2020-12) with ajv-formats and every schema added: the registry's when it compiles in
 * the run, and the one whose code the cache keeps. Loaded here, on first use, so a run whose
 * validators all come from the cache loads no ajv.
 */
export function newAjv(schemas: Iterable<object>, options: Options): Ajv2020 {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = (require('ajv-formats') as { default: (a: Ajv2020) => void }).default;
  const ajv = new Ajv2020(options);
  addFormats(ajv);
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

const pointerEscape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
