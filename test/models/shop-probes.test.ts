import { afterAll, describe, expect, it } from 'vitest';

import { CheckSkipped } from '../../src/checks/model.js';
import { securityArea } from '../../src/interfaces/rest-v1-shop/areas/security.js';
import { listProducts } from '../../src/interfaces/rest-v1-shop/client.js';
import { addPurchasable, register } from '../../src/interfaces/rest-v1-shop/flows.js';
import { contextFor, type Reference, runCheck, startReference, testSettings } from '../properties/harness.js';

// The shop adapter probes the method (and token) of the listing and of the single product once per
// {api_root}, in a module; with isolate false every area of a worker shares that module, so the
// probe is made by whichever area of the worker calls first. What it finds must not depend on that
// caller: on a target that took another documented reading, an area's outcome would otherwise
// depend on which area the worker happened to run before it.

const refs: Reference[] = [];
afterAll(async () => {
  for (const r of refs) await r.close();
});

const SHOP = '/shop/wp-json/svc/v1';

describe('shop probes shared by the areas of a worker', () => {
  it('a listing that needs the token (AMB-SHOP-08 token): an area with a token finds products after an area without one called first', async () => {
    // The reference, but its listing refuses a request without the token header (the sample sends it).
    const ref = await startReference(({ app }) => {
      app.addHook('onRequest', async (request, reply) => {
        if (request.url.startsWith(`${SHOP}/products`) && request.headers.svc_token === undefined)
          return reply.code(401).send({ status: false, errors: [], message: 'The svc_token header is missing.' });
      });
    });
    refs.push(ref);
    const settings = testSettings(ref, 'rest-v1-shop', 1, 'p7k2t9', 10);
    const catalog = contextFor<Record<string, never>>(settings, 'rest-v1-shop/catalog');
    const cart = contextFor<Record<string, never>>(settings, 'rest-v1-shop/cart');
    try {
      // The catalog area reads the listing without a token; first in the worker, it makes the probe.
      const first = await listProducts(catalog.ctx, { page: 1 });
      expect(first.response?.status).toBe(401);
      // The cart area runs next in the same worker, with an account's token.
      const { account } = await register(cart.ctx);
      let outcome: string;
      try {
        const { product } = await addPurchasable(cart.ctx, account.token, 1);
        outcome = `added ${product.id}`;
      } catch (e) {
        if (!(e instanceof CheckSkipped)) throw e;
        outcome = `skipped: ${e.message}`;
      }
      expect(outcome).toMatch(/^added \d+$/);
      const listings = cart.http.exchanges.filter((x) => x.request.url.includes('/products'));
      expect(listings.at(-1)?.request.headers.svc_token).toBe(account.token);
    } finally {
      await catalog.close();
      await cart.close();
    }
  }, 30_000);

  it('a single product served by POST only (AMB-SHOP-02 post): a request for a missing id uses POST though no area probed with a known id before', async () => {
    // The reference, but GET /product/<id> is no route (as WordPress answers a method it does not serve).
    const ref = await startReference(({ app }) => {
      app.addHook('onRequest', async (request, reply) => {
        if (request.method === 'GET' && request.url.startsWith(`${SHOP}/product/`))
          return reply.code(404).send({ code: 'rest_no_route', message: 'No route was found.', data: { status: 404 } });
      });
    });
    refs.push(ref);
    const settings = testSettings(ref, 'rest-v1-shop', 1, 'q4n8w3', 10);
    // The security area first in its worker: SHOP-ENV-06 asks for product 987654321, which does not exist.
    const check = securityArea.checks.find((c) => c.id === 'SHOP-ENV-06');
    const exchanges = await runCheck(settings, 'rest-v1-shop/security', check);
    const missing = exchanges.filter((x) => x.request.url.endsWith('/product/987654321'));
    expect(missing.map((x) => x.request.method)).toEqual(['POST']);
  }, 30_000);
});
