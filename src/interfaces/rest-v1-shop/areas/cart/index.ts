import type { AreaSpec } from '../../../../checks/model.js';
import { addItemChecks } from './add-item.js';
import { otherAccountChecks, otherKeyChecks } from './another-account.js';
import { contentsChecks } from './contents.js';
import { quantityChecks } from './quantities.js';
import { emptyingChecks, removeChecks } from './removal.js';
import type { CartState } from './state.js';

// One account's cart from empty to empty again: add, list, totals, update, remove, zero removes;
// a second account tries to read and change it.

export const cartArea: AreaSpec<CartState> = {
  interface: 'rest-v1-shop',
  name: 'cart',
  // The checks share one cart, so they run in the order they were written: a subject whose checks are apart is two arrays.
  checks: [
    ...addItemChecks,
    ...contentsChecks,
    ...otherAccountChecks,
    ...quantityChecks,
    ...removeChecks,
    ...otherKeyChecks,
    ...emptyingChecks,
  ],
};
