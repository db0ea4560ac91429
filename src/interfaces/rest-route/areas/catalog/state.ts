import type { CheckContext } from '../../../../checks/context.js';
import type { Provisioned } from '../../accounts.js';

// What the catalog checks hand each other (they run in order), and how many categories the filter checks list.

export type Rec = Record<string, unknown>;

export interface CatalogState {
  me: Provisioned;
  categories: Rec[];
  products: Rec[];
  /** The listings of RR-LIST-05, one per category tried (reused by RR-PROD-03). */
  categoryLists?: Array<{ category: string; products: Rec[] }>;
}
export type C = CheckContext<CatalogState>;

/** Categories whose listings RR-LIST-05 compares (RR-PROD-03 reuses the listings). */
export const CATEGORIES_LISTED = 12;
