// The token rule of Part 5 from the other side: no token endpoint answers a request that carries none.
import type { CheckSpec } from '../../../../checks/model.js';
import { bareEnvelope, call, TOKEN_ENDPOINTS } from '../../client.js';
import type { AuthState, C } from './state.js';

export const withoutTokenChecks: CheckSpec<AuthState>[] = [
  {
    id: 'SHOP-AUTH-11',
    title: 'every token endpoint refuses a request without the token header, asking for it',
    run: async (ctx: C) => {
      for (const e of TOKEN_ENDPOINTS) {
        const ex = await call(ctx, e.method, e.path, e.form ? { form: e.form } : {});
        const body = bareEnvelope(ctx, ex);
        ctx.expect(
          body.status === false,
          `${e.method} ${e.path} without the token: expected status false, got ${String(body.status)}`,
          ex,
        );
        ctx.expect(
          /token/i.test(body.message),
          `${e.method} ${e.path} without the token: expected a message asking for the token in the header, got "${body.message}"`,
          ex,
        );
      }
    },
  },
];
