import type { CheckSpec } from '../../../../checks/model.js';
import { call, ROUTES } from '../../client.js';
import { expectRefused } from '../../refusals.js';
import type { C, CatalogState } from './state.js';

// The catalog is a customer's: its routes without a token are refused.

export const withoutTokenChecks: CheckSpec<CatalogState>[] = [
  {
    id: 'RR-AUTH-05',
    title: 'GET category and GET product/listing without a token are not a success',
    run: async (ctx: C) => {
      for (const route of [ROUTES.category, ROUTES.listing]) {
        const ex = await call(ctx, 'GET', route);
        expectRefused(ctx, ex, `GET ${route} without a token`);
      }
    },
  },
];
