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
    {
      endpoint: 'account-register.post',
      description: 'a registration with a new e-mail address',
      states: [{ name: 'no customer has the e-mail address of the registration' }],
      auth: false,
      // The request sample's wire fields (the parameter table's names are AMB-RR-03).
      body: {
        firstname: 'Pact',
        lastname: 'Newcomer',
        email: injected('email', 'pact.newcomer@example.test'),
        telephone: '0123456789',
        password: RR_CUSTOMER.password,
        confirm: RR_CUSTOMER.password,
        newsletter: 0,
        agree: 1,
      },
    },
    {
      endpoint: 'account-address-edit.get',
      description: 'a read of an own address for editing',
      states: [customer, { name: 'the customer has an address' }],
      auth: true,
      query: { address_id: injected('address_id', '1') },
    },
    {
      endpoint: 'account-address-delete.post',
      description: 'a delete of an address that is neither the only one nor the default',
      states: [customer, { name: 'the customer has an address besides the default one' }],
      auth: true,
      body: { address_id: injected('address_id', 2) },
    },
    {
      endpoint: 'account-forgotten.post',
      description: 'a forgotten-password request for the own e-mail address',
      states: [customer],
      auth: true,
      body: { email: RR_CUSTOMER.email },
    },
    {
      // The new password is the customer's own, so the state's login keeps working on every run.
      endpoint: 'account-forgotten-updatepassword.post',
      description: 'a password update after a forgotten-password request',
      states: [customer, { name: 'the customer {email} requested a password reset', params: { email: RR_CUSTOMER.email } }],
      auth: true,
      body: { email: RR_CUSTOMER.email, password: RR_CUSTOMER.password },
    },
    {
      endpoint: 'product-product.get',
      description: 'a read of one product',
      states: [customer, { name: 'a product is listed' }],
      auth: true,
      query: { product_id: injected('product_id', '40') },
    },
    // Refusals: the envelope with status false (section 1, RR-ERR-01); the status code is not shown
    // (section 7). A wrong password (row 2, RR-LOGIN-03); no token header (section 5, RR-AUTH-05).
    {
      endpoint: 'account-login.post',
      description: 'a login with a wrong password, refused',
      states: [customer],
      auth: false,
      body: { email: RR_CUSTOMER.email, password: 'Wrong-pass-2024' },
      refused: true,
    },
    {
      endpoint: 'account-account.get',
      description: 'a read of the store info without a token, refused',
      states: [],
      auth: false,
      refused: true,
    },
  ];
}
