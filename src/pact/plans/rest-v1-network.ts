import { type InteractionPlan, injected } from '../model.js';

// Document 2 A. Payouts and commissions cannot be created through the API, so the account comes
// from the target's data (SFC_NET_USERNAME / SFC_NET_PASSWORD): the state returns its credentials
// and the login body takes them by provider-state injection, as do the user_key and payout_id
// lookups (the account's key and its first payout). `/user_info` is the samples'
// spelling (AMB: the headings write `/user-info`).

const account = { name: 'a network account with payouts and commissions exists' };

export function networkPlan(): InteractionPlan[] {
  const read = (endpoint: string, description: string, query?: Record<string, string>): InteractionPlan => ({
    endpoint,
    description,
    states: [account],
    auth: true,
    ...(query ? { query } : {}),
  });
  return [
    {
      endpoint: 'auth-login',
      description: 'a login with username and password',
      states: [account],
      auth: false,
      body: { username: injected('username', 'netroot'), password: injected('password', 'Root-pass-2024') },
    },
    read('user-info', 'a read of the own user record'),
    {
      endpoint: 'uni-get-user-info',
      description: 'a lookup of a user by user_key',
      states: [account],
      auth: false,
      query: { user_key: injected('user_key', 'ROOT000001') },
    },
    read('bank-details', 'a read of the bank details'),
    read('payout-list', 'a page of the payout list', { start: '0', limit: '2' }),
    {
      endpoint: 'payout-details',
      description: 'the details of one payout',
      states: [account],
      auth: true,
      query: { payout_id: injected('payout_id', '1') },
    },
    read('pair-commission', 'a page of pair commissions', { start: '0', limit: '2' }),
    read('level-commission', 'a page of level commissions', { start: '0', limit: '2' }),
    read('bonus-commission', 'a page of bonus commissions', { start: '0', limit: '2' }),
    read('user-geneology', 'a read of the geneology tree'),
    read('withdrawal', 'a read of the withdrawal page'),
  ];
}
