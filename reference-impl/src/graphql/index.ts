import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  GraphQLError,
  type GraphQLFormattedError,
  GraphQLIncludeDirective,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getDirectiveValues,
  getOperationAST,
  getVariableValues,
  Kind,
  parse,
  type SelectionNode,
  type SelectionSetNode,
  specifiedRules,
  validate,
} from 'graphql';
import type { AppContext, InterfaceModule } from '../context.js';
import { bodyOf } from '../http/body.js';
import { addCoupon, addProductToCart, deleteCartProduct, emptyCart, updateCartProduct } from './cart.js';
import { type GqlContext, stmt, UNAUTHENTICATED, unauthenticated } from './context.js';
import { customerByEmail, login, orders, register } from './customers.js';
import { rootFieldLimit } from './limits.js';
import { schemaFor } from './schema.js';
import { migrate, seed } from './store.js';

/** Bounds the work one request can ask for (a document of thousands of aliased logins). */
const MAX_TOKENS = 5000;

/** Root resolvers (buildSchema style: each gets args, context, info). */
const rootValue = {
  login,
  register,
  addProductToCart,
  updateCartProduct,
  deleteCartProduct,
  addCoupon,
  emptyCart,
  customerByEmail,
  orders,
};

/**
 * The response envelope: GraphQL's `{data, errors}`; when there are errors, also the `status: false`
 * and `message` keys that the document's general description mentions, so either reading finds them.
 */
function envelope(result: { data?: unknown; errors?: readonly GraphQLFormattedError[] }): Record<string, unknown> {
  if (!result.errors?.length) return { data: result.data ?? null };
  return { ...result, status: false, message: result.errors[0]?.message ?? 'Error.' };
}

/**
 * Parsed and validated documents per schema, by query text: clients send the same few operations
 * again and again, and parse + validate cost more than most resolvers. Only valid documents are
 * kept, the oldest dropped past the bound.
 */
const validDocuments = new WeakMap<GraphQLSchema, Map<string, DocumentNode>>();
const MAX_REMEMBERED = 256;
function remember(schema: GraphQLSchema, query: string, document: DocumentNode): void {
  let byQuery = validDocuments.get(schema);
  if (!byQuery) {
    byQuery = new Map();
    validDocuments.set(schema, byQuery);
  }
  if (byQuery.size >= MAX_REMEMBERED) byQuery.delete(byQuery.keys().next().value as string);
  byQuery.set(query, document);
}

/** Root fields anyone may call; every other root field (the cart, orders, customerByEmail) requires the bearer token. */
const PUBLIC_FIELDS = new Set(['login', 'register']);
const needsToken = (field: string): boolean => !PUBLIC_FIELDS.has(field) && !field.startsWith('__');

/** Whether a selection runs: its @skip / @include directives, as execution reads them. */
function included(node: SelectionNode, variables: Record<string, unknown>): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

/** Names of the root fields an operation executes, through fragments (a validated document has no fragment cycles). */
function rootFields(
  document: DocumentNode,
  set: SelectionSetNode,
  variables: Record<string, unknown>,
  seen = new Set<string>(),
): string[] {
  const names: string[] = [];
  for (const s of set.selections) {
    if (!included(s, variables)) continue;
    if (s.kind === Kind.FIELD) names.push(s.name.value);
    else if (s.kind === Kind.INLINE_FRAGMENT) names.push(...rootFields(document, s.selectionSet, variables, seen));
    else if (!seen.has(s.name.value)) {
      seen.add(s.name.value);
      const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value);
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION)
        names.push(...rootFields(document, fragment.selectionSet, variables, seen));
    }
  }
  return names;
}

/**
 * The refusal of a request without a valid token that selects a root field requiring one, decided
 * before anything executes: otherwise its other fields (register) would run and be committed
 * under a 401. Undefined when the request may execute (all fields public, or a valid token), and
 * when its operation or variables are wrong, which execution answers without running any field.
 * Which fields are public is PUBLIC_FIELDS; the resolvers still check the token themselves.
 */
function tokenRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  req: GraphQLRequest,
  gctx: GqlContext,
): GraphQLFormattedError | undefined {
  if (gctx.customerId !== null) return undefined;
  const operation = getOperationAST(document, req.operationName);
  // No such operation, or one of a type the schema lacks (subscription): execution refuses it.
  if (!operation || !schema.getRootType(operation.operation)) return undefined;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], req.variables ?? {}, { maxErrors: 1 });
  if (!coerced.coerced) return undefined;
  if (!rootFields(document, operation.selectionSet, coerced.coerced).some(needsToken)) return undefined;
  return unauthenticated(gctx).toJSON();
}

const errorBody = (message: string): Record<string, unknown> => envelope({ errors: [{ message }] });

interface GraphQLRequest {
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

/** `{query, variables?, operationName?}` from JSON, url-encoded or multipart (variables as a JSON string), or `application/graphql` text. */
function readRequest(request: FastifyRequest): GraphQLRequest | string {
  const contentType = String(request.headers['content-type'] ?? '');
  if (contentType.includes('application/graphql') && typeof request.body === 'string')
    return { query: request.body, variables: undefined, operationName: undefined };
  const { body, valid } = bodyOf(request);
  if (!valid) return 'The request body must be a JSON object {query, variables}.';
  if (typeof body.query !== 'string' || !body.query.trim())
    return 'The request body needs a "query" string holding a GraphQL document.';
  let variables: unknown = body.variables;
  if (typeof variables === 'string' && variables.trim()) {
    try {
      variables = JSON.parse(variables);
    } catch {
      return '"variables" must be a JSON object.';
    }
  }
  if (variables === '' || variables === null) variables = undefined;
  if (variables !== undefined && (typeof variables !== 'object' || Array.isArray(variables)))
    return '"variables" must be an object.';
  const operationName = body.operationName;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    return '"operationName" must be a string.';
  return {
    query: body.query,
    variables: variables as Record<string, unknown> | undefined,
    operationName: typeof operationName === 'string' && operationName ? operationName : undefined,
  };
}

/** The customer behind `Authorization: Bearer <token>` (a token wrapped in quotes is accepted too). */
async function authenticate(request: FastifyRequest, ctx: AppContext): Promise<Pick<GqlContext, 'customerId' | 'authProblem'>> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^\s*Bearer\s+"?([^"\s]+)"?\s*$/i.exec(header) : null;
  if (!match?.[1]) return { customerId: null, authProblem: header ? 'invalid' : 'missing' };
  const payload = await ctx.tokens.verify(match[1], 'graphql');
  const id = payload ? Number(payload.sub) : Number.NaN;
  // A token of a customer that no longer exists is as bad as a forged one.
  if (!Number.isSafeInteger(id) || !stmt(ctx.db, 'SELECT 1 FROM gql_customer WHERE customer_id = ?').get(id))
    return { customerId: null, authProblem: 'invalid' };
  return { customerId: id, authProblem: null };
}

/** Errors of resolvers that are not rule failures (bugs, database errors) are masked: no internals leak. */
function formatError(error: GraphQLError, request: FastifyRequest): GraphQLFormattedError {
  const original = error.originalError;
  if (original && !(original instanceof GraphQLError)) {
    request.log.error(original);
    return { message: 'Internal error.', ...(error.path ? { path: error.path } : {}), extensions: { code: 'INTERNAL' } };
  }
  return error.toJSON();
}

async function handle(request: FastifyRequest, reply: FastifyReply, ctx: AppContext): Promise<unknown> {
  reply.header('cache-control', 'no-store');
  if (request.method !== 'POST')
    return reply
      .code(405)
      .header('allow', 'POST')
      .send(errorBody('Send GraphQL requests with POST and a JSON body {query, variables}.'));
  const req = readRequest(request);
  if (typeof req === 'string') return reply.code(400).send(errorBody(req));

  const schema = schemaFor(ctx.vendor);
  let document = validDocuments.get(schema)?.get(req.query);
  if (!document) {
    try {
      document = parse(req.query, { maxTokens: MAX_TOKENS });
    } catch (e) {
      const error = e instanceof GraphQLError ? e : new GraphQLError('The query could not be parsed.');
      return reply.code(200).send(envelope({ errors: [error.toJSON()] }));
    }
    const invalid = validate(schema, document, [...specifiedRules, rootFieldLimit]);
    if (invalid.length) return reply.code(200).send(envelope({ errors: invalid.map((e) => e.toJSON()) }));
    remember(schema, req.query, document);
  }

  const gctx: GqlContext = {
    db: ctx.db,
    tokens: ctx.tokens,
    vendor: ctx.vendor,
    softErrors: [],
    ...(await authenticate(request, ctx)),
  };
  const refusal = tokenRefusal(schema, document, req, gctx);
  if (refusal)
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer')
      .send(envelope({ errors: [refusal] }));
  const result = (await execute({
    schema,
    document,
    rootValue,
    contextValue: gctx,
    variableValues: req.variables,
    operationName: req.operationName,
  })) as ExecutionResult;
  const errors = [...(result.errors ?? []), ...gctx.softErrors];
  const unauthenticated = errors.some((e) => e.extensions?.code === UNAUTHENTICATED);
  if (unauthenticated) reply.header('www-authenticate', 'Bearer');
  const body = envelope({
    ...('data' in result ? { data: result.data } : {}),
    ...(errors.length ? { errors: errors.map((e) => formatError(e, request)) } : {}),
  });
  return reply.code(unauthenticated ? 401 : 200).send(body);
}

export const graphqlModule: InterfaceModule = {
  name: 'graphql',
  migrate,
  seed: (ctx) => seed(ctx.db, ctx.fixturesDir),
  handle,
  errorBody,
};
