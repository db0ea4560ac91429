import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import { bareEnvelope, type CallOptions, call, envelope, getProduct, listProducts, TOKEN_ENDPOINTS, tryJson } from '../client.js';
import { type Account, login, register } from '../flows.js';

// The envelope on every endpoint, robustness against malformed input, and forged tokens.

interface SecurityState {
  account: Account;
  /** The answers SHOP-ENV-01 collected, one per endpoint: SHOP-ENV-06 judges the failures among them too. */
  envelopes: Exchange[];
}

type C = CheckContext<SecurityState>;

/** Flips one character of the signature: same header and payload, a signature that cannot verify. */
function tamper(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -2)}${last}${token.slice(-1)}`;
}

export const securityArea: AreaSpec<SecurityState> = {
  interface: 'rest-v1-shop',
  name: 'security',
  checks: [
    {
      id: 'SHOP-AUTH-01',
      title: 'register the account of the security checks',
      run: async (ctx: C) => {
        ctx.state.account = (await register(ctx)).account;
      },
    },
    {
      id: 'SHOP-ENV-01',
      title: 'every endpoint answers a JSON object with status, errors and message',
      needs: ['account'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        const seen: Exchange[] = [];
        seen.push(await login(ctx, ctx.state.account!.username, ctx.state.account!.password));
        seen.push(await call(ctx, 'POST', '/auth/register', { form: { username: ctx.state.account!.username } }));
        seen.push(await listProducts(ctx, { page: 1 }));
        seen.push(await getProduct(ctx, 987654321));
        for (const e of TOKEN_ENDPOINTS)
          seen.push(await call(ctx, e.method, e.path, { token, ...(e.form ? { form: e.form } : {}) }));
        ctx.state.envelopes = seen;
        for (const ex of seen) bareEnvelope(ctx, ex);
      },
    },
    {
      id: 'SHOP-ENV-06',
      title: 'failures carry a message: wrong login, missing token, missing product, and each failure SHOP-ENV-01 met',
      run: async (ctx: C) => {
        const failures = [
          await login(ctx, ctx.names.username(), 'Wrong-pass-123'),
          await call(ctx, 'GET', '/cart'),
          await getProduct(ctx, 987654321),
        ];
        // The refusals among SHOP-ENV-01's answers, one per endpoint (an unknown cart item key, a product that does not
        // exist, an order without its fields...), no request added (found by the fault catalog: an update-quantities
        // refusal whose message was left "" when no line of the request was written).
        const met = (ctx.state.envelopes ?? []).filter((ex) => tryJson(ex)?.status === false);
        for (const ex of [...failures, ...met]) {
          const body = bareEnvelope(ctx, ex);
          ctx.expect(body.status === false, `${ex.request.method} ${ex.request.url}: expected a failure (status false)`, ex);
          ctx.expect(
            body.message.trim() !== '',
            `${ex.request.method} ${ex.request.url}: the failure carries an empty message`,
            ex,
          );
        }
      },
    },
    {
      id: 'SHOP-ENV-05',
      title: 'malformed input never makes the target answer 5xx',
      needs: ['account'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        const long = 'x'.repeat(5000);
        const cases: [method: 'GET' | 'POST', path: string, opts: CallOptions][] = [
          ['POST', '/auth/login', { raw: '{"username":', headers: { 'content-type': 'application/json' } }],
          ['POST', '/auth/login', { form: { username: long, password: long } }],
          [
            'POST',
            '/auth/register',
            { form: { username: long, email: 'not-an-email', password: '', first_name: '', last_name: '' } },
          ],
          ['POST', '/cart/add-item', { token, form: { product_id: 'abc', quantity: '-5' } }],
          ['POST', '/cart/add-item', { token, form: { product_id: '99999999999999999999', quantity: '99999999999999999999' } }],
          ['POST', '/cart/update-quantities', { token, form: { cart_data: 'x' } }],
          ['POST', '/cart/update-quantities', { token, form: { 'cart_data[][]': '1' } }],
          ['POST', '/cart/remove-item/%00%27%22', { token }],
          ['GET', '/cart', { token, query: { 'coupons[]': ['', long, "'"] } }],
          [
            'GET',
            '/products',
            { query: { page: 'abc', price_from: 'x', price_to: '-1', sort_by: "';--", sort_order: 'sideways' } },
          ],
          ['GET', '/products', { query: { page: -1, categories: ',,,', search: long } }],
          ['GET', '/product/abc', {}],
          ['GET', '/product/-1', {}],
          ['POST', '/order/create', { token, form: { postcode: 'x', phone: 'y', coupons: 'z', payment_method: long } }],
        ];
        for (const [method, path, opts] of cases) {
          const ex = await call(ctx, method, path, opts);
          ctx.expect(ex.response, `${method} ${path}: no response (${ex.error})`, ex);
          ctx.expect(ex.response.status < 500, `${method} ${path} with malformed input: HTTP ${ex.response.status}`, ex);
        }
      },
    },
    {
      id: 'SHOP-SEC-01',
      title: 'a token with an altered signature is refused',
      needs: ['account'],
      run: async (ctx: C) => {
        const ex = await call(ctx, 'GET', '/orders', { token: tamper(ctx.state.account!.token) });
        const body = envelope(ctx, ex, 'orders');
        ctx.expect(
          body.status === false,
          `GET /orders with a forged token: expected status false, got ${String(body.status)}`,
          ex,
        );
        const cart = await call(ctx, 'GET', '/cart/count', { token: tamper(ctx.state.account!.token) });
        ctx.expect(tryJson(cart)?.status === false, 'GET /cart/count with a forged token: expected status false', cart);
      },
    },
    {
      id: 'SHOP-SEC-02',
      title: 'a token header holding "null" or garbage is refused without a 5xx',
      run: async (ctx: C) => {
        for (const token of ['null', 'garbage', 'a.b.c', '""']) {
          for (const path of ['/cart', '/orders']) {
            const ex = await call(ctx, 'GET', path, { token });
            ctx.expect(
              ex.response && ex.response.status < 500,
              `GET ${path} with token "${token}": HTTP ${ex.response?.status ?? ex.error}`,
              ex,
            );
            const body = bareEnvelope(ctx, ex);
            ctx.expect(
              body.status === false,
              `GET ${path} with token "${token}": expected status false, got ${String(body.status)}`,
              ex,
            );
          }
        }
      },
    },
  ],
};
