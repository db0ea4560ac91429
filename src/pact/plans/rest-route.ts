import { type InteractionPlan, injected } from '../model.js';

// Document 1. The customer of the states is created through the API itself (register, then log
// in), so the contract names it: its e-mail and password are state parameters. The login body
// sends `email`, as the request sample does (the parameter table's `username` is AMB-RR-01).

export const RR_CUSTOMER = { email: 'pact.customer@example.test', password: 'Pact-pass-2024' };
const customer = { name: 'a customer {email} with password {password} exists', params: RR_CUSTOMER };

export function restRoutePlan(): InteractionPlan[] {
  return [
    {
      endpoint: 'account-login.post',
      description: 'a login with e-mail and password',
      states: [customer],
      auth: false,
      body: { email: RR_CUSTOMER.email, password: RR_CUSTOMER.password },
    },
    { endpoint: 'account-login.get', description: 'a read of the login page', states: [customer], auth: true },
    { endpoint: 'account-register.get', description: 'a read of the register form', states: [customer], auth: true },
    { endpoint: 'account-address.get', description: 'a read of the address book', states: [customer], auth: true },
    {
      endpoint: 'account-address-add.get',
      description: 'a read of the countries and zones for a new address',
      states: [customer],
      auth: true,
    },
    {
      endpoint: 'account-address-add.post',
      description: 'a new address in a country with zones',
      states: [customer, { name: 'a country with zones exists' }],
      auth: true,
      body: {
        firstname: 'Pact',
        lastname: 'Customer',
        city: 'Springfield',
        address_1: '1 Contract Street',
        postcode: '12345',
        country_id: injected('country_id', 222),
        zone_id: injected('zone_id', 3513),
      },
    },
    {
      endpoint: 'account-address-edit.post',
      description: 'an edit of an existing address',
      states: [customer, { name: 'the customer has an address' }],
      auth: true,
      query: { address_id: injected('address_id', '1') },
      body: {
        firstname: 'Pact',
        lastname: 'Customer',
        city: 'Shelbyville',
        address_1: '2 Contract Street',
        postcode: '54321',
        country_id: injected('country_id', 222),
        zone_id: injected('zone_id', 3513),
      },
    },
    { endpoint: 'account-account.get', description: 'a read of the store info', states: [customer], auth: true },
    { endpoint: 'account-forgotten.get', description: 'a read of the forgotten-password page', states: [customer], auth: true },
    { endpoint: 'common-category.get', description: 'a read of the category tree', states: [customer], auth: true },
    { endpoint: 'product-listing.get', description: 'a read of the product listing', states: [customer], auth: true },
  ];
}
