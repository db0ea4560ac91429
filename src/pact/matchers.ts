import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { MatchersV3 } from '@pact-foundation/pact';
import { SPECS_DIR } from '../specs/paths.js';

// Turns a response JSON Schema of the specs into a Pact body template that matches on shape:
// type matchers for scalars, regexes for patterned strings (numeric strings, timestamps), eachLike
// for lists. Only required fields are expected (Pact ignores extra keys); a field whose type is a
// union (string or integer, array or object) cannot be one Pact matcher, so it is left out.

const { like, eachLike, integer, number, boolean, regex } = MatchersV3;

type Schema = Record<string, unknown>;
const BASE = 'https://storefront-conformance.dev/specs/';

/** Omitted: the schema admits several JSON types, which no single Pact matcher expresses. */
const OMIT = Symbol('omit');

/** Examples tried, in order, against a pattern: the first that matches is the example value. */
const PATTERN_EXAMPLES = [
  '1',
  '1.00',
  '2024-01-02 09:00:00',
  'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
  'left',
  'ltr',
  'd/m/Y',
  'text',
  'a1',
  '',
];

const FORMAT_EXAMPLES: Record<string, string> = {
  uri: 'https://example.test/image.png',
  'uri-reference': 'https://example.test/image.png',
  email: 'pact@example.test',
  date: '2024-01-02',
  'date-time': '2024-01-02T09:00:00Z',
};

export class SchemaStore {
  private readonly byId = new Map<string, Schema>();

  constructor(specsDir = SPECS_DIR) {
    for (const file of listSchemas(specsDir)) {
      const schema = JSON.parse(readFileSync(file, 'utf8')) as Schema;
      this.byId.set(BASE + relative(specsDir, file).split(sep).join('/'), schema);
    }
  }

  /** The schema at `ref` (absolute, or relative to `base`), with the id it lives in. */
  resolve(ref: string, base: string): { schema: Schema; base: string } {
    const url = new URL(ref, base);
    const fileId = `${url.origin}${url.pathname}`;
    const file = this.byId.get(fileId);
    if (!file) throw new Error(`unknown schema ${fileId}`);
    let node: unknown = file;
    for (const part of url.hash.replace(/^#\/?/, '').split('/').filter(Boolean))
      node = (node as Record<string, unknown>)[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!node || typeof node !== 'object') throw new Error(`no schema at ${ref} from ${base}`);
    return { schema: node as Schema, base: fileId };
  }

  /** The Pact template of a successful response of schema `ref` (a path under specs/). */
  template(ref: string, vendor: string): { template: unknown; omitted: string[] } {
    const { schema, base } = this.resolve(BASE + ref, BASE + ref);
    const converter = new Converter(this, vendor);
    const out = converter.convert(schema, base, '');
    return { template: out === OMIT ? {} : out, omitted: converter.omitted };
  }
}

interface Flat {
  types: Set<string>;
  properties: Map<string, { schema: Schema; base: string }[]>;
  required: Set<string>;
  patternProperties: { pattern: string; schema: Schema; base: string }[];
  items?: { schema: Schema; base: string };
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  maxLength?: number;
  format?: string;
  enumValues?: unknown[];
  constValue?: unknown;
  hasConst: boolean;
  branches: { schema: Schema; base: string }[][];
  refs: string[];
  recursive: boolean;
}

class Converter {
  private readonly active: string[] = [];
  /** JSON pointers of required fields left out of the template (their type is a union). */
  readonly omitted: string[] = [];

  constructor(
    private readonly store: SchemaStore,
    private readonly vendor: string,
  ) {}

  convert(schema: Schema, base: string, path: string): unknown {
    return this.convertAll([{ schema, base }], path);
  }

  /** Several definitions of one value (allOf parts naming the same property) as one. */
  convertAll(defs: { schema: Schema; base: string }[], path: string): unknown {
    let f: Flat | undefined;
    for (const d of defs) f = this.flatten(d.schema, d.base, f);
    if (!f || f.recursive) return OMIT;
    // Refs being expanded: a record that contains itself (category children) stops at one level.
    const pushed = f.refs.length;
    this.active.push(...f.refs);
    try {
      return this.shape(f, path);
    } finally {
      this.active.length -= pushed;
    }
  }

  private shape(f: Flat, path: string): unknown {
    let types = [...f.types];
    if (types.length === 0 && f.branches.length > 0) {
      // No type of its own: usable only when every alternative agrees on one type.
      const branchTypes = new Set<string>();
      for (const alt of f.branches[0] ?? []) for (const t of typesOf(this.flatten(alt.schema, alt.base))) branchTypes.add(t);
      types = [...branchTypes];
      if (types.length === 1) {
        const first = f.branches[0]?.[0];
        if (first) return this.convert(first.schema, first.base, path);
      }
    }
    if (types.length === 0) types = typesOf(f);
    if (types.length === 1 && types[0] === 'object' && f.branches.length > 0) {
      // Alternatives of one object (payload present, or a failure without it): an interaction
      // describes success, which the first alternative states.
      for (const alts of f.branches) {
        const first = alts[0];
        if (first && alts.every((a) => typesOf(this.flatten(a.schema, a.base)).join() === 'object'))
          this.flatten(first.schema, first.base, f);
      }
    }
    if (types.length !== 1) return OMIT;
    switch (types[0]) {
      case 'object':
        return this.object(f, path);
      case 'array': {
        if (!f.items || f.maxItems === 0) return like([]);
        const item = this.convert(f.items.schema, f.items.base, `${path}/0`);
        return item === OMIT ? like([]) : eachLike(item, f.minItems ?? 0);
      }
      case 'string':
        return this.string(f);
      case 'integer':
        return integer(typeof f.constValue === 'number' ? f.constValue : 1);
      case 'number':
        return number(typeof f.constValue === 'number' ? f.constValue : 1.5);
      case 'boolean':
        return boolean(typeof f.constValue === 'boolean' ? f.constValue : true);
      case 'null':
        return MatchersV3.nullValue();
      default:
        return OMIT;
    }
  }

  private object(f: Flat, path: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    // The documents write the vendor segment as svc; a target uses its own (`<vendor>_token`).
    const rename = (key: string) => (key === 'svc_token' ? `${this.vendor}_token` : key);
    for (const key of [...f.required].sort()) {
      const defs = f.properties.get(key);
      const value = defs && defs.length > 0 ? this.convertAll(defs, `${path}/${key}`) : OMIT;
      if (value !== OMIT) out[rename(key)] = value;
      else this.omitted.push(`${path}/${key}`);
    }
    // A named token field described by a pattern (`^[A-Za-z0-9]+_token$`) is the vendor's token.
    const tokenKey = `${this.vendor}_token`;
    for (const p of f.patternProperties) {
      if (!(tokenKey in out) && new RegExp(p.pattern).test(tokenKey)) {
        const v = this.convert(p.schema, p.base, `${path}/${tokenKey}`);
        if (v !== OMIT) out[tokenKey] = v;
      }
    }
    return out;
  }

  private string(f: Flat): unknown {
    if (f.enumValues && f.enumValues.length > 0) {
      const values = f.enumValues.filter((v): v is string => typeof v === 'string');
      if (values.length > 0) return regex(`^(${values.map(escapeRegex).join('|')})$`, values[0] as string);
    }
    if (f.pattern) {
      const re = new RegExp(f.pattern);
      const example = PATTERN_EXAMPLES.find((e) => re.test(e));
      if (example !== undefined) return regex(f.pattern, example);
    }
    if (typeof f.constValue === 'string') return like(f.constValue);
    // An always-empty string (register's token and code) stays a type match; the example conforms.
    if (f.maxLength === 0) return like('');
    // Formats stay type matches (a target's URLs and addresses are its own); the example conforms.
    return like(FORMAT_EXAMPLES[f.format ?? ''] ?? 'text');
  }

  /** Gathers $ref, allOf and the success branch of if/then into one description. */
  private flatten(schema: Schema, base: string, into?: Flat): Flat {
    const f: Flat = into ?? {
      types: new Set(),
      properties: new Map(),
      required: new Set(),
      patternProperties: [],
      hasConst: false,
      branches: [],
      refs: [],
      recursive: false,
    };
    const here = typeof schema.$id === 'string' ? schema.$id : base;
    if (typeof schema.$ref === 'string') {
      const key = new URL(schema.$ref, here).href;
      if (this.active.includes(key)) f.recursive = true;
      else {
        f.refs.push(key);
        const r = this.store.resolve(schema.$ref, here);
        this.flatten(r.schema, r.base, f);
      }
    }
    const t = schema.type;
    if (typeof t === 'string') narrow(f, [t]);
    else if (Array.isArray(t)) narrow(f, t as string[]);
    if (Array.isArray(schema.required)) for (const r of schema.required as string[]) f.required.add(r);
    if (schema.properties && typeof schema.properties === 'object')
      for (const [k, v] of Object.entries(schema.properties as Record<string, unknown>)) {
        if (v === true || v === false || !v) continue;
        const list = f.properties.get(k) ?? [];
        list.push({ schema: v as Schema, base: here });
        f.properties.set(k, list);
      }
    if (schema.patternProperties && typeof schema.patternProperties === 'object')
      for (const [pattern, v] of Object.entries(schema.patternProperties as Record<string, Schema>))
        f.patternProperties.push({ pattern, schema: v, base: here });
    if (schema.items && typeof schema.items === 'object') f.items = { schema: schema.items as Schema, base: here };
    if (typeof schema.minItems === 'number') f.minItems = Math.max(f.minItems ?? 0, schema.minItems);
    if (typeof schema.maxItems === 'number') f.maxItems = schema.maxItems;
    if (typeof schema.pattern === 'string') f.pattern = schema.pattern;
    if (typeof schema.maxLength === 'number') f.maxLength = Math.min(f.maxLength ?? schema.maxLength, schema.maxLength);
    if (typeof schema.format === 'string') f.format = schema.format;
    if (Array.isArray(schema.enum)) f.enumValues = schema.enum;
    if ('const' in schema) {
      f.hasConst = true;
      f.constValue = schema.const;
    }
    if (Array.isArray(schema.allOf)) for (const s of schema.allOf as Schema[]) this.flatten(s, here, f);
    // Interactions describe successful responses: the branch taken when status is true applies.
    if (schema.then && typeof schema.then === 'object' && conditionIsSuccess(schema.if))
      this.flatten(schema.then as Schema, here, f);
    for (const key of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(schema[key])) f.branches.push((schema[key] as Schema[]).map((s) => ({ schema: s, base: here })));
    return f;
  }
}

function narrow(f: Flat, types: string[]): void {
  const next = types.map((t) => (t === 'integer' && types.includes('number') ? 'number' : t));
  if (f.types.size === 0) for (const t of next) f.types.add(t);
  else for (const t of [...f.types]) if (!next.includes(t)) f.types.delete(t);
}

function conditionIsSuccess(cond: unknown): boolean {
  const props = (cond as { properties?: Record<string, { const?: unknown }> } | undefined)?.properties;
  return props?.status?.const === true;
}

/** The JSON types a description admits, counting those implied by const or enum. */
function typesOf(f: Flat): string[] {
  if (f.types.size > 0) return [...f.types];
  if (f.hasConst) return [jsonType(f.constValue)];
  if (f.enumValues && f.enumValues.length > 0) return [...new Set(f.enumValues.map(jsonType))];
  return [];
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function listSchemas(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSchemas(full));
    else if (entry.name.endsWith('.schema.json')) out.push(full);
  }
  return out.sort();
}
