import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, type DocumentNode, type GraphQLSchema, Kind, type OperationDefinitionNode, parse, validate } from 'graphql';
import { SPECS_DIR } from '../specs/paths.js';

/** An operation document checked against the SDL of document 3, ready to send. */
export interface PreparedOperation {
  text: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName?: string;
  kind: 'query' | 'mutation' | 'subscription';
  /** Response keys of the operation's root fields (aliases included). */
  rootFields: string[];
}

/**
 * The documents write the vendor segment as `svc` (field `svc_token`); a target uses its own
 * segment (setting `vendor`), so SDL and operations are rewritten before use.
 */
export function vendorize(text: string, vendor: string): string {
  return text.replace(/\bsvc_token\b/g, `${vendor}_token`);
}

/**
 * The SDL (`specs/graphql/schema.graphql`) and the operation documents
 * (`specs/graphql/operations/*.graphql`). Every document is validated with graphql-js before it
 * is sent, so that a suite bug surfaces as a suite error, never as the target's fault.
 */
export class OperationBook {
  readonly schema: GraphQLSchema;
  private readonly cache = new Map<string, PreparedOperation>();

  constructor(
    readonly vendor: string,
    private readonly specsDir = SPECS_DIR,
  ) {
    if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(vendor))
      throw new Error(`vendor "${vendor}" cannot form a GraphQL field name (<vendor>_token)`);
    this.schema = buildSchema(vendorize(readFileSync(join(specsDir, 'graphql', 'schema.graphql'), 'utf8'), vendor));
  }

  /** The operation document `specs/graphql/operations/<name>.graphql`, validated. */
  operation(name: string): PreparedOperation {
    let op = this.cache.get(name);
    if (!op) {
      // Comment lines document the spec files; they are not sent (shorter evidence and curl lines).
      const text = readFileSync(join(this.specsDir, 'graphql', 'operations', `${name}.graphql`), 'utf8')
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('#'))
        .join('\n');
      op = this.prepare(text, `operations/${name}.graphql`);
      this.cache.set(name, op);
    }
    return op;
  }

  /** Parses and validates an ad-hoc document against the SDL; throws (a suite error) when it is invalid. */
  prepare(text: string, label = 'ad-hoc document'): PreparedOperation {
    const vendored = vendorize(text, this.vendor);
    let document: DocumentNode;
    try {
      document = parse(vendored);
    } catch (e) {
      throw new Error(`suite bug: ${label} does not parse: ${(e as Error).message}`);
    }
    const errors = validate(this.schema, document);
    if (errors.length > 0)
      throw new Error(
        `suite bug: ${label} is invalid against specs/graphql/schema.graphql: ${errors.map((e) => e.message).join('; ')}`,
      );
    return describeOperation(vendored, document, label);
  }
}

/** The single operation of a document, with its root fields; no SDL check (used for deliberate off-SDL probes too). */
export function describeOperation(text: string, document: DocumentNode, label = 'document'): PreparedOperation {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = ops[0];
  if (ops.length !== 1 || !operation) throw new Error(`suite bug: ${label} must hold exactly one operation`);
  const rootFields = operation.selectionSet.selections.flatMap((s) =>
    s.kind === Kind.FIELD ? [s.alias?.value ?? s.name.value] : [],
  );
  return {
    text,
    document,
    operation,
    ...(operation.name ? { operationName: operation.name.value } : {}),
    kind: operation.operation as PreparedOperation['kind'],
    rootFields,
  };
}

/** Parses a document without the SDL (for probes of readings the suite's SDL does not take). */
export function prepareUnchecked(text: string, vendor: string, label = 'probe'): PreparedOperation {
  const vendored = vendorize(text, vendor);
  return describeOperation(vendored, parse(vendored), label);
}

const books = new Map<string, OperationBook>();
/** One book per vendor per process: the SDL is built once. */
export function operationBook(vendor: string): OperationBook {
  let book = books.get(vendor);
  if (!book) {
    book = new OperationBook(vendor);
    books.set(vendor, book);
  }
  return book;
}
