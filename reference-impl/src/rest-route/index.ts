import type Database from 'better-sqlite3';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, InterfaceModule } from '../context.js';
import { bodyOf } from '../http/body.js';
import * as account from './account.js';
import * as address from './address.js';
import * as catalog from './catalog.js';
import { authenticate, type Call, type Envelope, fail, ruleError } from './core.js';
import { migrate } from './schema.js';
import { seed } from './seed.js';

type Handler = (call: Call) => Envelope | Promise<Envelope>;
/** auth: whether the token header is required (Part 5: every endpoint but the login and register POSTs). */
type Endpoint = { auth: boolean; run: Handler };

const PREFIX = 'shoprestapi/';

/** Part 4: route (without `shoprestapi/`) -> method -> handler. */
const ROUTES: Record<string, Partial<Record<'GET' | 'POST', Endpoint>>> = {
  'account/login': { GET: { auth: true, run: account.loginForm }, POST: { auth: false, run: account.login } },
  'account/register': { GET: { auth: true, run: account.registerForm }, POST: { auth: false, run: account.register } },
  'account/address': { GET: { auth: true, run: address.list } },
  'account/address/add': { GET: { auth: true, run: address.addForm }, POST: { auth: true, run: address.add } },
  'account/address/edit': { GET: { auth: true, run: address.editForm }, POST: { auth: true, run: address.edit } },
  'account/address/delete': { POST: { auth: true, run: address.remove } },
  'account/account': { GET: { auth: true, run: account.accountInfo } },
  'account/forgotten': { GET: { auth: true, run: account.forgottenForm }, POST: { auth: true, run: account.forgotten } },
  'account/forgotten/updatepassword': { POST: { auth: true, run: account.updatePassword } },
  'common/category': { GET: { auth: true, run: catalog.categories } },
  'product/listing': { GET: { auth: true, run: catalog.listing } },
  'product/product': { GET: { auth: true, run: catalog.product } },
};

/** Framework-level failures (unknown path, bad JSON, body too large) in this interface's envelope. */
function errorBody(message: string, code = 'error_request'): Record<string, unknown> {
  return { status: false, errors: [{ code, message }], message, data: [] };
}

function routeOf(query: Record<string, unknown>): string {
  const raw = Array.isArray(query.route) ? query.route[0] : query.route;
  return typeof raw === 'string' ? raw.trim().replace(/\/+$/, '') : '';
}

async function handle(request: FastifyRequest, reply: FastifyReply, ctx: AppContext): Promise<unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const fullRoute = routeOf(query);
  const route = fullRoute.startsWith(PREFIX) ? fullRoute.slice(PREFIX.length) : '';
  const endpoints = ROUTES[route];
  if (!endpoints) return reply.code(404).send(errorBody(`Unknown route "${fullRoute.slice(0, 200)}".`, 'error_route'));
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const endpoint = method === 'GET' || method === 'POST' ? endpoints[method] : undefined;
  if (!endpoint || (method !== 'GET' && method !== 'POST')) {
    reply.header('allow', Object.keys(endpoints).join(', '));
    return reply.code(405).send(errorBody(`Method ${request.method} is not allowed for route ${fullRoute}.`, 'error_method'));
  }
  const { body, valid } = method === 'POST' ? bodyOf(request) : { body: {}, valid: true };
  const call: Call = { request, reply, app: ctx, db: ctx.db, route, method, query, body, customer: null };
  if (endpoint.auth) {
    call.customer = await authenticate(call);
    if (!call.customer) return reply.send(fail(call, [ruleError(call, 'error_token', 'token')], 401));
  }
  if (!valid) return reply.send(fail(call, [ruleError(call, 'error_request')]));
  return reply.send(await endpoint.run(call));
}

export const restRouteModule: InterfaceModule = {
  name: 'rest-route',
  migrate: (db: Database.Database) => migrate(db),
  seed,
  handle,
  errorBody: (message) => errorBody(message),
};
