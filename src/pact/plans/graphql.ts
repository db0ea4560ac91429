import { type InteractionPlan, injected } from '../model.js';

// Document 3. The customer, product and coupon come from the target's data (SFC_GQL_EMAIL,
// SFC_GQL_PASSWORD, SFC_GQL_PRODUCT_ID, SFC_GQL_COUPON). The states return them and the variables
// take them by injection. No refusal is described: document 3 shows no error shape (NS-GQL-08).

const customer = { name: 'a customer with orders exists' };
const product = { name: 'a product without required options exists' };
const inCart = { name: 'the cart holds a product' };

export function graphqlPlan(): InteractionPlan[] {
  return [
    {
      endpoint: 'login',
      description: 'a login mutation',
      states: [customer],
      auth: false,
      body: {
        email: injected('email', 'jane.doe@example.test'),
        password: injected('password', 'Customer-pass-2024'),
      },
    },
    {
      endpoint: 'addProductToCart',
      description: 'an addProductToCart mutation',
      states: [customer, product],
      auth: true,
      body: { input: { product_id: injected('product_id', '40'), quantity: 1, options: {} } },
    },
    {
      endpoint: 'updateCartProduct',
      description: 'an updateCartProduct mutation',
      states: [customer, inCart],
      auth: true,
      body: { cart_id: injected('cart_id', '1'), quantity: 2 },
    },
    {
      endpoint: 'addCoupon',
      description: 'an addCoupon mutation with a valid coupon',
      states: [customer, inCart, { name: 'a valid coupon exists' }],
      auth: true,
      body: { code: injected('code', '2222') },
    },
    {
      endpoint: 'deleteCartProduct',
      description: 'a deleteCartProduct mutation',
      states: [customer, inCart],
      auth: true,
      body: { cart_id: injected('cart_id', '1') },
    },
    {
      endpoint: 'orders',
      description: 'an orders query with start and limit',
      states: [customer],
      auth: true,
      body: { start: 0, limit: 2 },
    },
    {
      // CustomerInput: all fields required. Country and zone are OpenCart's defaults (United Kingdom
      // and a zone of it), as the suite's own register checks send: document 3 cannot list them.
      endpoint: 'register',
      description: 'a register mutation with a new e-mail address',
      states: [{ name: 'no customer has the e-mail address of the registration' }],
      auth: false,
      body: {
        input: {
          customer_group_id: 1,
          firstname: 'Pact',
          lastname: 'Newcomer',
          email: injected('new_email', 'pact.newcomer@example.test'),
          telephone: '0123456789',
          address_1: '1 Contract Street',
          address_2: 'Suite 2',
          city: 'Springfield',
          country_id: 222,
          zone_id: 3563,
          password: 'Pact-pass-2024',
          confirm: 'Pact-pass-2024',
          agree: true,
          fax: '',
          company: 'Pact Ltd',
          postcode: '12345',
        },
      },
    },
    {
      endpoint: 'emptyCart',
      description: 'an emptyCart mutation',
      states: [customer, inCart],
      auth: true,
    },
    {
      endpoint: 'customerByEmail',
      description: 'a customerByEmail query for the own e-mail address',
      states: [customer],
      auth: true,
      body: { email: injected('email', 'jane.doe@example.test') },
    },
  ];
}
