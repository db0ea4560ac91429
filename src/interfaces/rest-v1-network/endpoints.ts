import type { Query } from './client.js';

/**
 * The endpoints that take the token header (rows of the variant A table marked "header"), with a
 * request that changes nothing when it is refused: POSTs carry no body, reads no side effects.
 */
export interface TokenEndpoint {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  query?: Query;
}

export const TOKEN_ENDPOINTS: TokenEndpoint[] = [
  { id: 'user-info', method: 'GET', path: '/user-info' },
  { id: 'bank-details', method: 'GET', path: '/bank_details' },
  { id: 'bank-details-save', method: 'POST', path: '/bank_details_save' },
  { id: 'payout-list', method: 'GET', path: '/payout_list' },
  { id: 'payout-details', method: 'GET', path: '/payout_details', query: { payout_id: 1 } },
  { id: 'pair-commission', method: 'GET', path: '/pair_commission' },
  { id: 'level-commission', method: 'GET', path: '/level_commission' },
  { id: 'bonus-commission', method: 'GET', path: '/bonus_commission' },
  { id: 'user-geneology', method: 'GET', path: '/user_geneology' },
  { id: 'withdrawal', method: 'GET', path: '/withdrawal' },
  { id: 'withdrawal-request', method: 'POST', path: '/withdrawal_request' },
  { id: 'join-net', method: 'POST', path: '/Join_net' },
];

/** The paged lists (Part 1, Pagination) and their payload keys. */
export const LISTS = [
  { id: 'payout-list', path: '/payout_list', key: 'payout' },
  { id: 'pair-commission', path: '/pair_commission', key: 'pair_commission' },
  { id: 'level-commission', path: '/level_commission', key: 'level_commission' },
  { id: 'bonus-commission', path: '/bonus_commission', key: 'bonus_commission' },
] as const;
