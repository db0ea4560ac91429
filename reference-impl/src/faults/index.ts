import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { graphqlFaults } from './graphql/index.js';
import type { Fault, FaultInterface, FaultRequest } from './model.js';
import { networkFaults } from './network/index.js';
import { restRouteFaults } from './rest-route/index.js';
import { shopFaults } from './shop/index.js';

/** Every implemented fault, by id (the catalog is fixtures/faults/catalog.json). */
export const FAULTS: ReadonlyMap<string, Fault> = new Map(
  [...restRouteFaults, ...networkFaults, ...shopFaults, ...graphqlFaults].map((f) => [f.id, f]),
);

const DESCRIBED = new WeakMap<FastifyRequest, FaultRequest>();

function describe(request: FastifyRequest, vendor: string): FaultRequest {
  const known = DESCRIBED.get(request);
  if (known) return known;
  const path = (request.url.split('?')[0] ?? '').replace(/\/{2,}/g, '/').replace(/\/$/, '');
  const query = (request.query ?? {}) as Record<string, unknown>;
  let iface: FaultInterface = 'rest-route';
  let endpoint = '';
  const prefixes: Array<[string, FaultInterface]> = [
    [`/network/wp-json/${vendor}/v1`, 'rest-v1-network'],
    [`/shop/wp-json/${vendor}/v1`, 'rest-v1-shop'],
  ];
  const hit = prefixes.find(([p]) => path.startsWith(p));
  if (hit) {
    iface = hit[1];
    endpoint = path.slice(hit[0].length) || '/';
  } else {
    const route = typeof query.route === 'string' ? query.route.replace(/\/+$/, '') : '';
    if (route === `${vendor}_graphql/${vendor}_graphql`) {
      iface = 'graphql';
      const body = request.body as { query?: unknown } | undefined;
      endpoint = typeof body?.query === 'string' ? body.query : '';
    } else endpoint = route.replace(/^shoprestapi\//, '');
  }
  const described: FaultRequest = { raw: request, iface, endpoint, method: request.method, query };
  DESCRIBED.set(request, described);
  return described;
}

/**
 * Switches one catalogued fault on: a preHandler hook (the request side) and an onSend hook (the
 * response side), both limited to the fault's interface. Added before the modules register, so
 * every scope inherits them. Without `--fault` nothing is installed.
 */
export function installFault(app: FastifyInstance, ctx: AppContext): void {
  if (!ctx.fault) return;
  const fault = FAULTS.get(ctx.fault);
  if (!fault) throw new Error(`unknown fault "${ctx.fault}" (see fixtures/faults/catalog.json)`);
  const { before, after } = fault;
  if (before) {
    app.addHook('preHandler', async (request) => {
      const req = describe(request, ctx.vendor);
      if (req.iface === fault.iface) await before(req, ctx);
    });
  }
  if (after) {
    app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const req = describe(request, ctx.vendor);
      if (req.iface !== fault.iface || typeof payload !== 'string') return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const res = { status: reply.statusCode, body };
      await after(res, req, ctx);
      if (res.status !== reply.statusCode) reply.code(res.status);
      return typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    });
  }
}
