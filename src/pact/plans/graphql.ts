import { type InteractionPlan, injected } from '../model.js';

// Document 3. The customer, product and coupon come from the target's data (SFC_GQL_EMAIL,
// SFC_GQL_PASSWORD, SFC_GQL_PRODUCT_ID, SFC_GQL_COUPON): register needs country and zone ids the
// GraphQL interface cannot list. The states return them and the variables take them by injection.

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
  ];
}
