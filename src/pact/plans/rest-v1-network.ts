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
    {
      // A new account on every run, at a free position of the account's tree (a parent has two).
      endpoint: 'auth-register',
      description: 'a registration at a free position of the tree',
      states: [{ name: 'a free position in the tree of the network account exists' }],
      auth: false,
      body: {
        first_name: 'Pact',
        last_name: 'Network',
        username: injected('new_username', 'pactnet1'),
        password: 'Pact-pass-2024',
        email: injected('new_email', 'pact.net@example.test'),
        net_user: {
          phone: '0123456789',
          sponsor_name: injected('sponsor_name', 'netroot'),
          parent_name: injected('parent_name', 'netroot'),
          position: injected('position', 'left'),
          address: '1 Contract Street',
        },
      },
    },
    {
      // The bank details of a new account, not of the target data's account.
      endpoint: 'bank-details-save',
      description: 'a save of the bank details',
      states: [{ name: 'a new network account in the tree exists' }],
      auth: true,
      body: {
        account_holder_name: 'Pact Network',
        account_number: '12345678',
        bank_name: 'Contract Bank',
        branch: 'Springfield',
        ifsc_code: 'PACT0001',
        contact_number: '0123456789',
      },
    },
    {
      endpoint: 'withdrawal-request',
      description: 'a withdrawal request of the minimum amount',
      states: [account, { name: 'the account can withdraw the minimum amount' }],
      auth: true,
      body: { amount: injected('amount', 10) },
    },
    {
      // An account registered without a place (AMB-NET-03) joins at a free position.
      endpoint: 'join-net',
      description: 'a join of the tree at a free position',
      states: [
        { name: 'a network account without a place in the tree exists' },
        { name: 'a free position in the tree of the network account exists' },
      ],
      auth: true,
      body: {
        sponsor_name: injected('sponsor_name', 'netroot'),
        parent_name: injected('parent_name', 'netroot'),
        position: injected('position', 'left'),
      },
    },
    // Refusals (section 7, NET-ENV-03): status false and a general failure message; no status code is
    // shown. A wrong password (NET-AUTH-03); no svc_token header (section 5, NET-AUTH-05).
    {
      endpoint: 'auth-login',
      description: 'a login with a wrong password, refused',
      states: [account],
      auth: false,
      body: { username: injected('username', 'netroot'), password: 'Wrong-pass-2024' },
      refused: true,
    },
    {
      endpoint: 'bank-details',
      description: 'a read of the bank details without a token, refused',
      states: [],
      auth: false,
      refused: true,
    },
  ];
}
