import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, InterfaceModule } from '../context.js';
import { joinNet, login, register, uniUserInfo, userInfo } from './accounts.js';
import {
  bankDetails,
  bankDetailsSave,
  bonusCommission,
  levelCommission,
  pairCommission,
  payoutDetails,
  payoutList,
  refCommission,
} from './earnings.js';
import { downliners, userGeneology } from './geneology.js';
import { migrate } from './schema.js';
import { seed } from './seed.js';
import { fail, type Json } from './util.js';
import { withdrawalInfo, withdrawalRequest } from './withdrawals.js';

/** A handler gives the body to send, or undefined when it has already replied (401). */
type Handler = (request: FastifyRequest, reply: FastifyReply, ctx: AppContext) => Json | undefined | Promise<Json | undefined>;

/**
 * Document 2 variant A: the network-plan API under {api_root}. Every answer is the document's
 * envelope; rule and validation failures are HTTP 200 with status false (the documents show no
 * status codes), a missing or bad token is 401.
 */
export const networkModule: InterfaceModule = {
  name: 'network',
  migrate,
  seed,
  routes(app: FastifyInstance, ctx: AppContext) {
    // server.ts sets its error handler after this scope is registered, and fastify scopes copy the
    // handler at registration, so framework errors here (bad JSON, too large) are enveloped here.
    app.setErrorHandler((err: Error, request, reply) => {
      const error = err as Error & { statusCode?: number; code?: string };
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error(error);
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is not valid JSON.'
          : status === 413
            ? 'The request body is too large.'
            : status === 500
              ? 'Internal error.'
              : 'The request could not be read.';
      reply.code(status).send(fail(message));
    });
    const on = (method: 'GET' | 'POST', paths: string[], handler: Handler) => {
      for (const url of paths) {
        app.route({
          method,
          url,
          handler: async (request, reply) => {
            const out = await handler(request, reply, ctx);
            return out === undefined ? reply : reply.send(out);
          },
        });
      }
    };
    on('POST', ['/auth/login'], (request, _reply, c) => login(request, c));
    on('POST', ['/auth/register'], (request, _reply, c) => register(request, c));
    // The headings write /user-info, the samples /user_info: both are served.
    on('GET', ['/user-info', '/user_info'], userInfo);
    on('GET', ['/uni-get-user-info', '/uni_get_user_info'], (request, _reply, c) => uniUserInfo(request, c));
    on('GET', ['/bank_details'], bankDetails);
    on('POST', ['/bank_details_save'], bankDetailsSave);
    on('GET', ['/payout_list'], payoutList);
    on('GET', ['/payout_details'], payoutDetails);
    on('GET', ['/pair_commission'], pairCommission);
    on('GET', ['/level_commission'], levelCommission);
    on('GET', ['/bonus_commission'], bonusCommission);
    on('GET', ['/ref_commission'], refCommission);
    on('GET', ['/user_geneology'], userGeneology);
    on('GET', ['/downliners'], downliners);
    on('GET', ['/withdrawal'], withdrawalInfo);
    on('POST', ['/withdrawal_request'], withdrawalRequest);
    on('POST', ['/Join_net', '/join_net'], joinNet);
  },
  errorBody: (message: string) => fail(message),
};
