import type { AreaSpec } from '../../../../checks/model.js';
import type { AddressState } from '../../address-ops.js';
import { sweepChecks } from '../../sweep.js';
import { addChecks } from './add.js';
import { addRefusalChecks } from './add-refusals.js';
import { deleteChecks } from './delete.js';
import { editChecks } from './edit.js';
import { listedAddressChecks } from './listed-address.js';

// The address book (rows 5 to 10): add, list, edit, delete, the limits of section 8, the two
// delete refusals of section 7, and that one customer cannot touch another's addresses.
// The files run in this order and share ctx.state: each reads what the ones before it filed.

export const addressBookArea: AreaSpec<AddressState> = {
  interface: 'rest-route',
  name: 'address-book',
  checks: [
    ...addChecks,
    ...listedAddressChecks,
    ...addRefusalChecks,
    ...editChecks,
    ...deleteChecks,
    ...sweepChecks<AddressState>(),
  ],
};
