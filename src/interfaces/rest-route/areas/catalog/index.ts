import type { AreaSpec } from '../../../../checks/model.js';
import { sweepChecks } from '../../sweep.js';
import { categoryFilterChecks, categoryTreeChecks } from './categories.js';
import { listingChecks, summaryChecks } from './listing.js';
import { productDetailChecks } from './product-detail.js';
import { searchChecks, sqlSearchChecks } from './search.js';
import type { CatalogState } from './state.js';
import { withoutTokenChecks } from './without-token.js';

// Categories, the product listing with its search and category filters, and product detail
// (rows 15 to 17). The seed of a target is unknown: everything is discovered through the API.

export const catalogArea: AreaSpec<CatalogState> = {
  interface: 'rest-route',
  name: 'catalog',
  // The checks share ctx.state, so they run in the order they were written: a subject whose checks are apart is two arrays.
  checks: [
    ...categoryTreeChecks,
    ...listingChecks,
    ...searchChecks,
    ...categoryFilterChecks,
    ...summaryChecks,
    ...withoutTokenChecks,
    ...productDetailChecks,
    ...sqlSearchChecks,
    ...sweepChecks<CatalogState>({ naming: false }),
  ],
};
