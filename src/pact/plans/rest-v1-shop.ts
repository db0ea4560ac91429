import { type InteractionPlan, injected } from '../model.js';

// Document 2 B. The customer is created through the API (register, then log in), so its
// username and password are state parameters; products and cart lines are whatever the target
// holds, returned by the state handlers and injected into paths and bodies.

export const SHOP_CUSTOMER = { username: 'pactshopper', password: 'Pact-pass-2024' };
const customer = { name: 'a shop customer {username} with password {password} exists', params: SHOP_CUSTOMER };

export function shopPlan(): InteractionPlan[] {
  return [
    {
      endpoint: 'login',
      description: 'a login with username and password',
      states: [customer],
      auth: false,
      body: { username: SHOP_CUSTOMER.username, password: SHOP_CUSTOMER.password },
    },
    {
      endpoint: 'products',
      description: 'the first page of products',
      states: [{ name: 'products exist' }],
      auth: false,
      query: { page: '1' },
    },
    {
      endpoint: 'product',
      description: 'a read of one product',
      states: [{ name: 'products exist' }],
      auth: false,
      pathParams: { product_id: injected('product_id', 1) },
    },
    {
      endpoint: 'cart-add-item',
      description: 'a product added to the cart',
      states: [customer, { name: 'a product in stock exists' }],
      auth: true,
      body: { product_id: injected('product_id', 1), quantity: 1 },
    },
    {
      endpoint: 'cart',
      description: 'a read of a cart holding a product',
      states: [customer, { name: 'the cart holds a product' }],
      auth: true,
    },
    {
      endpoint: 'cart-remove-item',
      description: 'a cart line removed by its key',
      states: [customer, { name: 'the cart holds a product' }],
      auth: true,
      pathParams: { cart_item_key: injected('cart_item_key', 'a1b2c3') },
    },
    { endpoint: 'orders', description: 'a read of the own orders', states: [customer], auth: true },
  ];
}
