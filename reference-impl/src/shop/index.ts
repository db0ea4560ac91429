import type { FastifyError } from 'fastify';
import type { InterfaceModule } from '../context.js';
import { accountRoutes } from './accounts.js';
import { cartRoutes } from './cart.js';
import { catalogRoutes } from './catalog.js';
import { orderRoutes } from './orders.js';
import { migrateShop } from './schema.js';
import { seedShop } from './seed.js';

const errorBody = (message: string) => ({ status: false, errors: [], message });

/**
 * Document 2, variant B: the shop API under `/shop/wp-json/<vendor>/v1` (all 11 endpoints of
 * the variant B table). Every answer is the document's envelope {status, errors, message, ...}.
 */
export const shopModule: InterfaceModule = {
  name: 'shop',
  migrate: migrateShop,
  seed: seedShop,
  routes(app, ctx) {
    // The server sets its error handler after this scope is registered, and fastify scopes keep
    // the handler they were created with, so bad JSON and oversize bodies would otherwise come
    // back in fastify's own shape. Same status codes and messages as server.ts, in our envelope.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error(error);
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is not valid JSON.'
          : status === 413
            ? 'The request body is too large.'
            : status === 500
              ? 'Internal error.'
              : error.message || 'Bad request.';
      reply.code(status).send(errorBody(message));
    });
    accountRoutes(app, ctx);
    cartRoutes(app, ctx);
    catalogRoutes(app, ctx);
    orderRoutes(app, ctx);
  },
  errorBody,
};
