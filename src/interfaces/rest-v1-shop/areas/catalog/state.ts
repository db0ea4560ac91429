import type { CheckContext } from '../../../../checks/context.js';
import type { Exchange } from '../../../../http/exchange.js';
import type { ProductSummary } from '../../flows.js';

// What the catalog checks hand each other (they run in order), the listing's data, and how many pages a check reads.

export interface ListingData {
  slider: unknown[];
  currency: string;
  total_pages: number;
  products: ProductSummary[];
}

export interface ListedPage {
  ids: number[];
  ex: Exchange;
}

export interface CatalogState {
  page1: ListingData;
  /** Every product id of the unfiltered listing (up to 10 pages). */
  allIds: number[];
  allProducts: ProductSummary[];
  productId: number;
  /** Every product id of categories=SFC_SHOP_CATEGORY (SHOP-PROD-08), sorted. */
  categoryIds: number[];
  /** The pages of that listing as read, in order: each page's product ids and its exchange. */
  categoryPages: ListedPage[];
}

export type C = CheckContext<CatalogState>;
export const MAX_PAGES = 10;
