import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppContext, InterfaceModule } from './context.js';
import { isSeeded, markSeeded, openDatabase } from './db.js';
import { installFault } from './faults/index.js';
import { graphqlModule } from './graphql/index.js';
import { multipartFields } from './http/body.js';
import { hostProblem } from './http/origin.js';
import { networkModule } from './network/index.js';
import { DEFAULT_HASH_COST, setHashCost } from './passwords.js';
import { restRouteModule } from './rest-route/index.js';
import { shopModule } from './shop/index.js';
import { loadTokenService } from './tokens.js';

export interface ServerOptions {
  /** SQLite file, or `:memory:`. */
  db: string;
  vendor?: string;
  /** RS256 key pair file; default `<db>.keys.json` beside a file database, none (fresh keys) in memory. */
  keyFile?: string | null;
  fixturesDir?: string;
  fault?: string | null;
  logger?: boolean;
  /** scrypt cost of new password hashes; default SFC_REFERENCE_HASH_COST or 16384. */
  hashCost?: number;
  /** A new token of an account ends its older ones (see loadTokenService); off unless given. */
  singleSession?: boolean;
}

const here = dirname(fileURLToPath(import.meta.url));
export const DEFAULT_FIXTURES = resolve(here, '../../fixtures/seed');
/** Largest request body accepted; beyond it the interface's envelope with 413. */
const BODY_LIMIT = 1024 * 1024;

export const modules: InterfaceModule[] = [restRouteModule, networkModule, shopModule, graphqlModule];

export function urlsFor(origin: string, vendor: string) {
  return {
    baseUrl: origin,
    restRoute: `${origin}/index.php?route=shoprestapi/...`,
    graphql: `${origin}/index.php?route=${vendor}_graphql/${vendor}_graphql`,
    networkApiRoot: `${origin}/network/wp-json/${vendor}/v1`,
    shopApiRoot: `${origin}/shop/wp-json/${vendor}/v1`,
  };
}

export async function buildServer(options: ServerOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const vendor = options.vendor ?? 'svc';
  if (!/^[a-z][a-z0-9]{0,31}$/.test(vendor)) throw new Error(`vendor must be lower-case letters and digits, got "${vendor}"`);
  setHashCost(options.hashCost ?? (Number(process.env.SFC_REFERENCE_HASH_COST) || DEFAULT_HASH_COST));
  const db = openDatabase(options.db);
  const keyFile = options.keyFile !== undefined ? options.keyFile : options.db === ':memory:' ? null : `${options.db}.keys.json`;
  const ctx: AppContext = {
    db,
    tokens: await loadTokenService(keyFile, { singleSession: options.singleSession === true }),
    vendor,
    fixturesDir: options.fixturesDir ?? DEFAULT_FIXTURES,
    fault: options.fault ?? null,
  };
  for (const m of modules) m.migrate(db);
  for (const m of modules) {
    if (!isSeeded(db, m.name))
      db.transaction(() => {
        m.seed(ctx);
        markSeeded(db, m.name);
      })();
  }

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
  });
  app.addHook('onClose', async () => db.close());
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: BODY_LIMIT } });
  // An invalid Host header is the client's error (400 in the interface's envelope, through the error
  // handler below), not text to copy into the URLs of the answer.
  app.addHook('onRequest', async (request) => {
    const problem = hostProblem(request);
    if (problem) throw Object.assign(new Error(problem), { statusCode: 400 });
  });
  // Fields to request.body here rather than with the plugin's attachFieldsToBody, whose hook lets a
  // parse failure (no boundary, a part cut short) through as an error without a status (a 500).
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart()) request.body = await multipartFields(request);
  });
  // Any other content type arrives as text; the handlers decide (a body they cannot read is a validation failure).
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  // The fault matrix (--fault ID): hooks added here, before the modules, reach every route.
  installFault(app, ctx);

  const byPrefix: Array<{ prefix: string; module: InterfaceModule }> = [
    { prefix: `/network/wp-json/${vendor}/v1`, module: networkModule },
    { prefix: `/shop/wp-json/${vendor}/v1`, module: shopModule },
  ];
  const graphqlRoute = `${vendor}_graphql/${vendor}_graphql`;
  const moduleFor = (request: FastifyRequest): InterfaceModule => {
    const path = request.url.replace(/\/{2,}/g, '/');
    for (const { prefix, module } of byPrefix) if (path.startsWith(prefix)) return module;
    const route = (request.query as Record<string, unknown> | undefined)?.route;
    return route === graphqlRoute ? graphqlModule : restRouteModule;
  };

  // Set before the prefixed scopes register, so that they inherit it.
  app.setErrorHandler((error: { statusCode?: number; message?: string; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error(error);
    const message =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'The request body is not valid JSON.'
        : status === 413
          ? 'The request body is too large.'
          : status === 500
            ? 'Internal error.'
            : (error.message ?? 'Bad request.');
    reply.code(status).send(moduleFor(request).errorBody(message));
  });
  for (const { prefix, module } of byPrefix) {
    await app.register(
      async (scope) => {
        module.routes?.(scope, ctx);
      },
      { prefix },
    );
  }
  // Documents 1 and 3 share one entry point; the `route` query parameter selects the operation.
  const indexHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const module = moduleFor(request);
    if (!module.handle) return reply.code(404).send(module.errorBody('Unknown route.'));
    return module.handle(request, reply, ctx);
  };
  app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/index.php', handler: indexHandler });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(moduleFor(request).errorBody(`No endpoint ${request.method} ${request.url.split('?')[0]}.`));
  });
  return { app, ctx };
}

export function defaultDbFile(): string {
  return join(process.cwd(), '.sfc-reference', 'reference.db');
}
