import type { AreaSpec } from '../../../../checks/model.js';
import { categoryChecks } from './categories.js';
import { filterChecks } from './filters.js';
import { listingChecks, listingRequestChecks } from './listing.js';
import { searchChecks } from './search.js';
import { singleProductChecks } from './single-product.js';
import type { CatalogState } from './state.js';

// Products and product (no account needed, except to send a token where a target wants one).

export const catalogArea: AreaSpec<CatalogState> = {
  interface: 'rest-v1-shop',
  name: 'catalog',
  // The checks share state (page 1, every id, the category's pages), so they run in the order they were written:
  // the listing's two request checks came last, so listing.ts is two arrays.
  checks: [
    ...listingChecks,
    ...searchChecks,
    ...categoryChecks,
    ...filterChecks,
    ...singleProductChecks,
    ...listingRequestChecks,
  ],
};
