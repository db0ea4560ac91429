import fc from 'fast-check';
import type { SchemaRegistry } from '../schemas/registry.js';

type Schema = Record<string, unknown>;

export interface FromSchemaConstraints {
  /** Include optional properties (default: sometimes, chosen by fast-check). */
  optional?: 'always' | 'never' | 'sometimes';
  /** Longest string for an unbounded string (default 24). */
  maxStringLength?: number;
}

/**
 * Values that conform to a request schema of specs/ (a path under specs/, optionally
 * `#/pointer`). Covers what the request schemas use: type, enum, const, pattern (via
 * `fc.stringMatching`), minLength/maxLength, minimum/maximum, required/properties, items,
 * anyOf/oneOf, $ref. Each value is checked against the schema with ajv, so a schema feature this
 * does not understand shows up as a clear error, never as a wrong "valid" request.
 */
export function fromSchema(registry: SchemaRegistry, ref: string, c: FromSchemaConstraints = {}): fc.Arbitrary<unknown> {
  const arb = build(registry, ref, registry.raw(ref), c, 0);
  // A filter would spin forever on a schema feature this builder misses; say so instead.
  return arb.map((v) => {
    const issues = registry.check(ref, v);
    if (issues.length > 0)
      throw new Error(`fromSchema(${ref}) made an invalid value ${JSON.stringify(v)}: ${issues[0]?.path} ${issues[0]?.message}`);
    return v;
  });
}

function build(
  reg: SchemaRegistry,
  at: string,
  s: Schema | boolean,
  c: FromSchemaConstraints,
  depth: number,
): fc.Arbitrary<unknown> {
  // `true` accepts anything: a plain string is the least surprising request value.
  if (typeof s === 'boolean') return fc.constant('x');
  if (depth > 8) return fc.constant(null);
  if (typeof s.$ref === 'string') {
    const target = reg.resolveRef(at, s.$ref);
    return build(reg, target, reg.raw(target), c, depth + 1);
  }
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    return build(reg, at, (allOf as Schema[]).reduce(mergeObjects, rest), c, depth + 1);
  }
  const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(alts)) {
    // An object whose alternatives only add `required` sets: each alternative is the whole object plus its set.
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    const own = Object.keys(rest).some((k) => k === 'properties' || k === 'required' || k === 'type');
    return fc.oneof(...alts.map((a) => build(reg, at, own ? mergeObjects(rest, a) : a, c, depth + 1)));
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).filter((t) => t !== 'null') : s.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => build(reg, at, { ...s, type: t }, c, depth + 1)));
  switch (type) {
    case 'string':
      return stringArb(s, c);
    case 'integer':
      return fc.integer({
        min: num(s.minimum, s.exclusiveMinimum, 1) ?? 0,
        max: num(s.maximum, s.exclusiveMaximum, -1) ?? 100_000,
      });
    case 'number':
      return fc.double({
        min: (s.minimum as number) ?? 0,
        max: (s.maximum as number) ?? 100_000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(s.items ? build(reg, at, s.items as Schema, c, depth + 1) : fc.string(), {
        minLength: (s.minItems as number) ?? 0,
        maxLength: (s.maxItems as number) ?? 3,
      });
    case 'object':
    case undefined: {
      const extra = (s.additionalProperties ?? Object.values((s.patternProperties as Record<string, Schema>) ?? {})[0]) as
        | Schema
        | boolean
        | undefined;
      if (!s.properties && extra && typeof extra === 'object') {
        const keyPattern = Object.keys((s.patternProperties as Record<string, Schema>) ?? {})[0];
        const keys = keyPattern
          ? fc.stringMatching(new RegExp(keyPattern))
          : fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme-ascii' });
        return fc.dictionary(keys, build(reg, at, extra, c, depth + 1), {
          minKeys: (s.minProperties as number) ?? 0,
          maxKeys: Math.max(3, (s.minProperties as number) ?? 0),
        });
      }
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set((s.required as string[]) ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) record[k] = build(reg, at, v, c, depth + 1);
      const requiredKeys = Object.keys(props).filter((k) => required.has(k) || c.optional === 'always');
      if (c.optional === 'never') for (const k of Object.keys(record)) if (!required.has(k)) delete record[k];
      return fc.record(record, { requiredKeys });
    }
    default:
      return fc.constant(null);
  }
}

/** `a` and `b` as one object schema: required sets joined, `b`'s real property schemas added (a bare `true` adds nothing). */
function mergeObjects(a: Schema, b: Schema): Schema {
  const props: Record<string, unknown> = { ...((a.properties as Record<string, unknown>) ?? {}) };
  for (const [k, v] of Object.entries((b.properties as Record<string, unknown>) ?? {}))
    if (v !== true || !(k in props)) props[k] = v;
  const required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  return { ...a, ...b, properties: props, required };
}

function num(inclusive: unknown, exclusive: unknown, step: number): number | undefined {
  if (typeof inclusive === 'number') return inclusive;
  if (typeof exclusive === 'number') return exclusive + step;
  return undefined;
}

function stringArb(s: Schema, c: FromSchemaConstraints): fc.Arbitrary<string> {
  if (s.format === 'email') return fc.emailAddress().filter((e) => e.length <= ((s.maxLength as number) ?? 96));
  if (s.format === 'uri') return fc.webUrl();
  if (s.format === 'date')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  const minLength = (s.minLength as number) ?? 0;
  const maxLength = (s.maxLength as number) ?? Math.max(minLength, c.maxStringLength ?? 24);
  if (typeof s.pattern === 'string') {
    return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= minLength && v.length <= maxLength);
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme-ascii' });
}
