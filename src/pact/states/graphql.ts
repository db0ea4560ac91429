import {
  asList,
  asRecord,
  freshEmail,
  type Handler,
  need,
  requireToken,
  StateError,
  type StateTarget,
  send,
  short,
} from './target.js';

// Provider states of document 3, created through the target's GraphQL endpoint.

const endpoint = (t: StateTarget) => `${t.url}/index.php?route=${t.vendor}_graphql/${t.vendor}_graphql`;

async function gql(t: StateTarget, query: string, variables: Record<string, unknown>, token?: string) {
  return send(t, 'POST', endpoint(t), {
    json: { query, variables },
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
}

export const graphqlStates: Record<string, Handler> = {
  'a customer with orders exists': async (t) => {
    const state = 'a customer with orders exists';
    const email = need(t, 'SFC_GQL_EMAIL', state);
    const password = need(t, 'SFC_GQL_PASSWORD', state);
    const field = `${t.vendor}_token`;
    const a = await gql(t, `mutation ($e: String!, $p: String!) { login(email: $e, password: $p) { ${field} } }`, {
      e: email,
      p: password,
    });
    const token = asRecord(asRecord(a.body.data)?.login)?.[field];
    if (typeof token !== 'string') throw new StateError(`cannot log in as ${email}: ${short(a)}`);
    t.token = token;
    return { email, password };
  },
  'a product without required options exists': async (t) => ({
    product_id: need(t, 'SFC_GQL_PRODUCT_ID', 'a product without required options exists'),
  }),
  'the cart holds a product': async (t) => {
    const state = 'the cart holds a product';
    const token = requireToken(t, state);
    const productId = need(t, 'SFC_GQL_PRODUCT_ID', state);
    const a = await gql(
      t,
      'mutation ($input: CartProductInput!) { addProductToCart(input: $input) { items { cart_id product_id } } }',
      { input: { product_id: productId, quantity: 1, options: {} } },
      token,
    );
    const items = asList(asRecord(asRecord(a.body.data)?.addProductToCart)?.items).map(asRecord);
    const line = items.find((i) => String(i?.product_id) === productId) ?? items[0];
    if (line?.cart_id === undefined || line.cart_id === null)
      throw new StateError(`cannot put product ${productId} in the cart: ${short(a)}`);
    return { cart_id: String(line.cart_id) };
  },
  'a valid coupon exists': async (t) => ({ code: need(t, 'SFC_GQL_COUPON', 'a valid coupon exists') }),
  'no customer has the e-mail address of the registration': async () => ({ new_email: freshEmail() }),
};
