// What the cart checks hand each other: they run in order on one account's cart, and a later check reads what an earlier one set.
import type { CheckContext } from '../../../../checks/context.js';
import type { GraphQLResult } from '../../../../graphql/client.js';
import type { Account } from '../../client.js';

export interface CartState {
  token: string;
  /** The account of `token`: GQL-CART-11 logs it in a second time, and `token` becomes that login's. */
  account: Account;
  product: string;
  first: GraphQLResult;
  /** The latest cart summary seen. */
  summary: unknown;
  emptied: boolean;
  /** SFC_GQL_SECOND_PRODUCT_ID once its line is in the cart beside the product's (a cart of two lines). */
  second: string;
  /** The quantity the second product's line must hold: other lines' updates and deletes leave it alone. */
  secondQuantity: number;
  /** The add that put the second product's line beside the product's: GQL-ENV-03 judges its selection. */
  secondAdd: GraphQLResult;
  /** cart_ids GQL-CART-08 deleted (answered true): GQL-CART-09 updates one and expects it still gone. */
  deleted: string[];
  /** The add GQL-CART-09 read the cart with after a deleteCartProduct: GQL-CART-01 judges its summary's types. */
  afterDelete: GraphQLResult;
}

export type C = CheckContext<CartState>;
