import { keepNewest } from './accounts.js';
import { bodyOf, call, dataOf, ROUTES, type Route, type Session, shown } from './client.js';
import { type PC, type PropState, ready, validAddress } from './prop-setup.js';

// The endpoints of document 1 with a body and query each would take, for the areas that send
// the same kind of request to every endpoint (robustness, tokens).

export interface NegState extends PropState {
  /** An address of the area's customer, for the edit calls. */
  own: string;
  /** The product_id of a listed product, for the product/product calls ('1' when none is listed). */
  product: string;
}
export type C = PC & { state: Partial<NegState> };

export interface Endpoint {
  method: 'GET' | 'POST';
  route: Route;
  /** A body the endpoint would take (POST), built from the area's customer. */
  body?: (ctx: C) => Record<string, unknown>;
  /** The query it takes (documented parameters), when any. */
  query?: (ctx: C) => Record<string, string>;
}

const EMAIL = (ctx: C) => ctx.state.a?.account.fields.email ?? '';
const PASSWORD = (ctx: C) => ctx.state.a?.account.fields.password ?? '';
const OWN = (ctx: C) => ({ address_id: ctx.state.own ?? '0' });

export const POSTS: Endpoint[] = [
  { method: 'POST', route: ROUTES.login, body: (ctx) => ({ email: EMAIL(ctx), password: PASSWORD(ctx) }) },
  {
    method: 'POST',
    route: ROUTES.register,
    body: (ctx) => {
      const p = ctx.names.password();
      return {
        firstname: 'Neg',
        lastname: 'Sfc',
        email: ctx.names.email(),
        telephone: ctx.names.phone(),
        password: p,
        confirm: p,
        newsletter: 0,
        agree: 1,
      };
    },
  },
  { method: 'POST', route: ROUTES.addressAdd, body: (ctx) => validAddress(ctx) },
  { method: 'POST', route: ROUTES.addressEdit, body: (ctx) => validAddress(ctx), query: OWN },
  // An id that names no address: an accepted delete must not remove anything the checks rely on.
  { method: 'POST', route: ROUTES.addressDelete, body: () => ({ address_id: 987654321 }) },
  { method: 'POST', route: ROUTES.forgotten, body: (ctx) => ({ email: EMAIL(ctx) }) },
  // The customer's own e-mail and current password: an accepted update changes nothing.
  { method: 'POST', route: ROUTES.updatePassword, body: (ctx) => ({ email: EMAIL(ctx), password: PASSWORD(ctx) }) },
];

export const GETS: Endpoint[] = [
  { method: 'GET', route: ROUTES.login },
  { method: 'GET', route: ROUTES.register },
  { method: 'GET', route: ROUTES.address },
  { method: 'GET', route: ROUTES.addressAdd },
  { method: 'GET', route: ROUTES.addressEdit, query: OWN },
  { method: 'GET', route: ROUTES.account },
  { method: 'GET', route: ROUTES.forgotten },
  { method: 'GET', route: ROUTES.category },
  { method: 'GET', route: ROUTES.listing, query: () => ({ search: 'a', category_ids: '1' }) },
  // A listed product: a request whose only defect is the token must otherwise be one that succeeds.
  { method: 'GET', route: ROUTES.product, query: (ctx) => ({ product_id: ctx.state.product ?? '1' }) },
];

/** Provisions the customer, finds a listed product and files one address for the edit calls. */
export async function setUp(ctx: C): Promise<void> {
  const a = await ready(ctx);
  if (ctx.state.own) return;
  if (ctx.state.product === undefined) {
    const listing = await call(ctx, 'GET', ROUTES.listing, { session: a.session });
    const products = dataOf(bodyOf(listing)).products;
    const first = Array.isArray(products) ? (products[0] as Record<string, unknown> | undefined)?.product_id : undefined;
    ctx.state.product = typeof first === 'string' || typeof first === 'number' ? String(first) : '1';
  }
  const ex = await call(ctx, 'POST', ROUTES.addressAdd, { session: a.session, json: validAddress(ctx) });
  const id = dataOf(bodyOf(ex)).address_id;
  if (typeof id !== 'number' && typeof id !== 'string') ctx.skip(`could not file an address to edit: ${shown(ex)}`);
  ctx.state.own = String(id);
}

export async function send(
  ctx: C,
  ep: Endpoint,
  opts: {
    json?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    query?: Record<string, string>;
    /** Overrides the area customer's session; `undefined` sends no token. */
    session?: Session | undefined;
  },
) {
  const ex = await call(ctx, ep.method, ep.route, {
    session: ctx.state.a?.session,
    ...opts,
    query: { ...(ep.query?.(ctx) ?? {}), ...(opts.query ?? {}) },
  });
  // POST login carries the customer's own credentials: a login the target accepts (an unknown field
  // alongside, say) may end the token the area sends next, so its token becomes the session.
  if (ep.route === ROUTES.login && ctx.state.a) keepNewest(ctx.state.a, ex);
  return ex;
}
