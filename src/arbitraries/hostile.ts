import fc from 'fast-check';

/**
 * Strings a careless server mishandles: SQL and script injection, format strings, path
 * traversal, control and zero-width characters, right-to-left marks, emoji, long runs.
 * A conforming target stores and returns them as data, or refuses them cleanly: never a 5xx.
 */
const SAMPLES = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '<script>alert(1)</script>',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally
  '${7*7}',
  '%s%s%s%n',
  '../../../../etc/passwd',
  '\u0000',
  'a\u0000b',
  '\u200b\u200d',
  '\u202eevil',
  'Zoë Ærøskøbing',
  '名前',
  '🙂🙃',
  'null',
  'undefined',
  'true',
  '0x7fffffff',
  '-0',
  '1e309',
];

export interface HostileConstraints {
  /** Longest string produced (the long-run samples). */
  maxLength?: number;
}

export function hostileString(c: HostileConstraints = {}): fc.Arbitrary<string> {
  const max = c.maxLength ?? 10_000;
  return fc.oneof(
    fc.constantFrom(...SAMPLES),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.integer({ min: 256, max }).map((n) => 'A'.repeat(n)),
  );
}

/** A JSON value of a type other than `type` (for "wrong type" negative checks). */
export function wrongType(type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array'): fc.Arbitrary<unknown> {
  const all: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.constantFrom('x', ''),
    integer: fc.constantFrom(7, -1),
    number: fc.constant(1.5),
    boolean: fc.boolean(),
    object: fc.constant({ nested: 'x' }),
    array: fc.constant(['x']),
    null: fc.constant(null),
  };
  const skip = type === 'integer' || type === 'number' ? ['integer', 'number'] : [type];
  return fc.oneof(
    ...Object.entries(all)
      .filter(([k]) => !skip.includes(k))
      .map(([, a]) => a),
  );
}

/**
 * Bodies a careless parser mishandles, sent as they are (no generation: each is one fixed probe).
 * A value nested thousands of levels deep overflows a recursive walk of the input (a stack
 * overflow is a 5xx, and a handler that wrote before walking has changed state); a multipart
 * content type without its boundary cannot be read at all.
 */
export const NESTING_DEPTH = 5000;

/** `["x"]` nested `depth` levels deep, as JSON text (JSON.stringify of such a value would itself recurse). */
export function deeplyNestedJson(depth = NESTING_DEPTH): string {
  return `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
}

/** A JSON object whose every key holds the deeply nested array. */
export function deeplyNestedBody(keys: readonly string[], depth = NESTING_DEPTH): string {
  const deep = deeplyNestedJson(depth);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${deep}`).join(',')}}`;
}

/** `multipart/form-data` without the boundary parameter that would delimit its parts. */
export const MULTIPART_WITHOUT_BOUNDARY = 'multipart/form-data';
