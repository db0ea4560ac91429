import { readFileSync } from 'node:fs';
import { buildSchema, GraphQLError, type GraphQLScalarType, type GraphQLSchema, valueFromASTUntyped } from 'graphql';

/** One option entry of a cart line as the client sent it: option_id as text, value as sent. */
export interface OptionEntry {
  option_id: string;
  value: unknown;
}

const SDL = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');
const cache = new Map<string, GraphQLSchema>();

/** The schema for one vendor segment: the login result's token field is `<vendor>_token`. */
export function schemaFor(vendor: string): GraphQLSchema {
  let schema = cache.get(vendor);
  if (!schema) {
    schema = buildSchema(SDL.replace(/\bsvc_token\b/g, `${vendor}_token`));
    patchScalars(schema);
    cache.set(vendor, schema);
  }
  return schema;
}

function scalar(schema: GraphQLSchema, name: string): GraphQLScalarType {
  return schema.getType(name) as GraphQLScalarType;
}

/** buildSchema gives custom scalars pass-through behaviour; these give them the document's readings. */
function patchScalars(schema: GraphQLSchema): void {
  const digits = scalar(schema, 'DigitString');
  // Only the JSON kind is checked here; register checks the digits so it can answer `false` with a field message.
  const digitValue = (v: unknown): string => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
    throw new GraphQLError('Expected a string of digits or a non-negative integer.');
  };
  digits.parseValue = digitValue;
  digits.serialize = (v) => String(v);
  digits.parseLiteral = (ast, variables) => digitValue(valueFromASTUntyped(ast, variables));

  const options = scalar(schema, 'CartOptions');
  options.parseValue = optionEntries;
  options.serialize = (v) => v;
  options.parseLiteral = (ast, variables) => optionEntries(valueFromASTUntyped(ast, variables));
}

/** `{ "<option_id>": value }` or `[{ option_id, value }]` (the two readings of the document) to one list. */
export function optionEntries(v: unknown): OptionEntry[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) {
    return v.map((item) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        throw new GraphQLError('Each option entry must be an object {option_id, value}.');
      const entry = item as Record<string, unknown>;
      const id = entry.option_id;
      if (typeof id !== 'string' && typeof id !== 'number') throw new GraphQLError('Each option entry needs an option_id.');
      return { option_id: String(id), value: entry.value };
    });
  }
  if (typeof v === 'object') return Object.entries(v as Record<string, unknown>).map(([k, value]) => ({ option_id: k, value }));
  throw new GraphQLError('options must be an object keyed by option_id or a list of {option_id, value}.');
}
