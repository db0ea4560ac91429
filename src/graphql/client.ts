import type { TargetClient } from '../http/client.js';
import { type Exchange, responseObject } from '../http/exchange.js';
import type { OperationBook, PreparedOperation } from './documents.js';

export interface GraphQLOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Extra or replacing headers (negative tests: a malformed Authorization header). */
  headers?: Record<string, string>;
}

/** What came back for one GraphQL request. `body` is undefined when the response is not a JSON object. */
export interface GraphQLResult {
  exchange: Exchange;
  op?: PreparedOperation;
  body?: Record<string, unknown>;
  data?: Record<string, unknown> | null;
  /** The `errors` member as sent: a list (GraphQL) or anything else a status envelope uses. */
  errors?: unknown;
}

/**
 * A small GraphQL client over the recording target client: POST `{query, variables}` as JSON.
 * Operations are validated against the SDL by the book before sending; it never throws for what
 * the target does (that is evidence, judged by the checks).
 */
export class GraphQLClient {
  constructor(
    private readonly http: TargetClient,
    readonly url: string,
    readonly book: OperationBook,
  ) {}

  /** Sends the operation document `specs/graphql/operations/<name>.graphql`. */
  run(name: string, variables: Record<string, unknown> = {}, options: GraphQLOptions = {}): Promise<GraphQLResult> {
    return this.send(this.book.operation(name), variables, options);
  }

  /** Sends an ad-hoc document, validated against the SDL first. */
  runText(text: string, variables: Record<string, unknown> = {}, options: GraphQLOptions = {}): Promise<GraphQLResult> {
    return this.send(this.book.prepare(text), variables, options);
  }

  /** Sends a prepared operation (also one prepared without the SDL, for probes of the other reading). */
  async send(op: PreparedOperation, variables: Record<string, unknown>, options: GraphQLOptions = {}): Promise<GraphQLResult> {
    // Exactly the document's body `{query, variables}`; each document holds one operation, so no operationName.
    const result = await this.raw({ json: { query: op.text, variables } }, options);
    return { ...result, op };
  }

  /** Sends any body unvalidated (malformed-request tests): `json` as JSON, or `raw` text with `contentType`. */
  async raw(
    body: { json: unknown } | { raw: string; contentType?: string },
    options: GraphQLOptions = {},
  ): Promise<GraphQLResult> {
    const contentType = 'raw' in body && body.contentType ? body.contentType : 'application/json';
    const headers: Record<string, string> = { 'content-type': contentType };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    Object.assign(headers, options.headers);
    const exchange = await this.http.send({
      method: 'POST',
      url: this.url,
      headers,
      ...('json' in body ? { json: body.json } : { raw: body.raw }),
    });
    return { exchange, ...parseBody(exchange) };
  }
}

function parseBody(exchange: Exchange): Pick<GraphQLResult, 'body' | 'data' | 'errors'> {
  const body = responseObject(exchange);
  if (!body) return {};
  const data = body.data;
  return {
    body,
    ...(data === null || (typeof data === 'object' && !Array.isArray(data))
      ? { data: data as Record<string, unknown> | null }
      : {}),
    ...('errors' in body ? { errors: body.errors } : {}),
  };
}

/** True when `errors` reports something: a non-empty list, or a non-empty object or string. */
export function hasErrors(errors: unknown): boolean {
  if (errors === undefined || errors === null || errors === false) return false;
  if (Array.isArray(errors)) return errors.length > 0;
  if (typeof errors === 'object') return Object.keys(errors).length > 0;
  return String(errors).length > 0;
}

/** The messages of a GraphQL `errors` list (or of any other errors value), for reports. */
export function errorMessages(errors: unknown): string[] {
  if (Array.isArray(errors))
    return errors.map((e) =>
      e && typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : JSON.stringify(e),
    );
  if (errors && typeof errors === 'object') return Object.entries(errors).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return errors === undefined || errors === null ? [] : [String(errors)];
}
