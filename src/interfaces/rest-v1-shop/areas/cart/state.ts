import type { CheckContext } from '../../../../checks/context.js';
import type { Exchange } from '../../../../http/exchange.js';
import type { Account, CartData, ProductSummary } from '../../flows.js';

// What the cart checks hand each other (they run in order on one cart), and the quantity of the area's line.

export interface CartState {
  account: Account;
  other: Account;
  product: ProductSummary;
  second: ProductSummary;
  addCount: number;
  addEx: Exchange;
  cart: CartData;
  key: string;
  secondKey: string;
  /** The product whose line SHOP-CART-13 removed. */
  removed: ProductSummary;
  /** The key of that line (SHOP-STATE-01 adds the product again and takes its line out again). */
  removedKey: string;
  /** GET /cart as SHOP-STATE-01 read it: the area's line, then the product added again after its line was removed. */
  readded: Exchange;
}

export type C = CheckContext<CartState>;

export const QTY = 2;
