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
    {
      endpoint: 'register',
      description: 'a registration with a new username',
      states: [{ name: 'no shop customer has the username of the registration' }],
      auth: false,
      body: {
        username: injected('new_username', 'pactnewcomer'),
        first_name: 'Pact',
        last_name: 'Newcomer',
        password: SHOP_CUSTOMER.password,
        email: injected('new_email', 'pact.newcomer@example.test'),
      },
    },
    { endpoint: 'cart-count', description: 'a read of the cart count', states: [customer], auth: true },
    {
      // cart_data[<cart_item_key>]=<quantity>: the key is the target's, so the state returns the whole map.
      endpoint: 'cart-update-quantities',
      description: 'a new quantity for a cart line',
      states: [customer, { name: 'the cart holds a product' }],
      auth: true,
      body: { cart_data: injected('cart_data', { a1b2c3: 2 }) },
    },
    {
      endpoint: 'order-create',
      description: 'an order of the cart',
      states: [customer, { name: 'the cart holds a product' }, { name: 'a payment method exists' }],
      auth: true,
      body: {
        first_name: 'Pact',
        last_name: 'Shopper',
        country: 'US',
        city: 'Austin',
        state: 'TX',
        postcode: 73301,
        phone: 5125550100,
        email: `${SHOP_CUSTOMER.username}@example.test`,
        payment_method: injected('payment_method', 'cod'),
        payment_method_title: injected('payment_method', 'cod'),
        address_1: '1 Contract Street',
      },
    },
    // Refusals (section 7, SHOP-ENV-03): status false and a general failure message; no status code is
    // shown. A wrong password (SHOP-AUTH-06); no svc_token header (section 5, SHOP-AUTH-11).
    {
      endpoint: 'login',
      description: 'a login with a wrong password, refused',
      states: [customer],
      auth: false,
      body: { username: SHOP_CUSTOMER.username, password: 'Wrong-pass-2024' },
      refused: true,
    },
    {
      endpoint: 'cart',
      description: 'a read of the cart without a token, refused',
      states: [],
      auth: false,
      refused: true,
    },
  ];
}
