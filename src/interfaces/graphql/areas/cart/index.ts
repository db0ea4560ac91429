/** The cart mutations with a bearer token: add, update, delete, empty ("4. Endpoints", "1. What the service does"). */
import type { AreaSpec } from '../../../../checks/model.js';
import { noSecretsCheck } from '../common.js';
import { emptyingChecks } from './emptying.js';
import { firstAddChecks } from './first-add.js';
import { inputAndTokenChecks } from './inputs-and-tokens.js';
import { lineChangeChecks } from './line-changes.js';
import type { CartState } from './state.js';
import { totalChecks } from './totals.js';

// The checks run in this order and share one cart (state.ts): each file holds a contiguous run of them.
export const cartArea: AreaSpec<CartState> = {
  interface: 'graphql',
  name: 'cart',
  checks: [
    ...firstAddChecks,
    ...totalChecks,
    ...lineChangeChecks,
    ...emptyingChecks,
    ...inputAndTokenChecks,
    noSecretsCheck<CartState>(),
  ],
};
