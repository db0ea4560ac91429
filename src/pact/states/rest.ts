import {
  asList,
  asRecord,
  freshEmail,
  freshName,
  type Handler,
  need,
  requireToken,
  StateError,
  type StateTarget,
  send,
  short,
} from './target.js';

// Provider states of documents 1 and 2, created through the target's own API.

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

// Document 1 (rest-route) ------------------------------------------------------------------------

const routeUrl = (t: StateTarget, route: string) => `${t.url}/index.php?route=${route}`;
/** The table's `token` header and the samples' `Authorization` (AMB-RR-02): a target reads one. */
const routeAuth = (token: string) => ({ token, authorization: `Bearer ${token}` });

export const restRouteStates: Record<string, Handler> = {
  'a customer {email} with password {password} exists': async (t, p) => {
    const email = str(p.email);
    const password = str(p.password);
    const login = await send(t, 'POST', routeUrl(t, 'shoprestapi/account/login'), { json: { email, password } });
    if (login.body.status === true && typeof login.body.token === 'string') {
      t.token = login.body.token;
      return undefined;
    }
    const reg = await send(t, 'POST', routeUrl(t, 'shoprestapi/account/register'), {
      json: {
        firstname: 'Pact',
        lastname: 'Customer',
        email,
        telephone: '0123456789',
        password,
        confirm: password,
        newsletter: 0,
        agree: 1,
      },
    });
    if (reg.body.status !== true || typeof reg.body.token !== 'string')
      throw new StateError(`cannot register customer ${email}: ${short(reg)}`);
    t.token = reg.body.token;
    return undefined;
  },
  'a country with zones exists': async (t) => countryWithZones(t, requireToken(t, 'a country with zones exists')),
  'the customer has an address': async (t) => {
    const token = requireToken(t, 'the customer has an address');
    const { id, place } = await addAddress(t, token, '1 Contract Street');
    return { address_id: String(id), ...place };
  },
  'no customer has the e-mail address of the registration': async () => ({ email: freshEmail() }),
  'the customer has an address besides the default one': async (t) => {
    const state = 'the customer has an address besides the default one';
    const token = requireToken(t, state);
    // At least one address must remain and the default cannot be deleted (section 7): add until
    // the book holds two, then name one that is not the default.
    for (let attempt = 0; attempt < 3; attempt++) {
      const book = await send(t, 'GET', routeUrl(t, 'shoprestapi/account/address'), { headers: routeAuth(token) });
      const addresses = asList(asRecord(book.body.data)?.addresses)
        .map(asRecord)
        .filter((a): a is Record<string, unknown> => a !== undefined);
      const spare = addresses.find((a) => Number(a.default) !== 1 && a.address_id !== undefined);
      if (addresses.length >= 2 && spare) return { address_id: Number(spare.address_id) };
      await addAddress(t, token, '3 Contract Street');
    }
    throw new StateError(`provider state "${state}": every address of the book is the default one`);
  },
  'the customer {email} requested a password reset': async (t, p) => {
    const token = requireToken(t, 'the customer {email} requested a password reset');
    const a = await send(t, 'POST', routeUrl(t, 'shoprestapi/account/forgotten'), {
      headers: routeAuth(token),
      json: { email: str(p.email) },
    });
    if (a.body.status !== true) throw new StateError(`cannot request a password reset for ${str(p.email)}: ${short(a)}`);
    return undefined;
  },
  'a product is listed': async (t) => {
    const token = requireToken(t, 'a product is listed');
    const a = await send(t, 'GET', routeUrl(t, 'shoprestapi/product/listing'), { headers: routeAuth(token) });
    const id = asRecord(asList(asRecord(a.body.data)?.products)[0])?.product_id;
    if (id === undefined || id === null || id === '') throw new StateError(`the product listing lists no product: ${short(a)}`);
    return { product_id: String(id) };
  },
};

/** Adds an address in the first country with zones; its id and place (country_id, zone_id). */
async function addAddress(t: StateTarget, token: string, street: string) {
  const place = await countryWithZones(t, token);
  const a = await send(t, 'POST', routeUrl(t, 'shoprestapi/account/address/add'), {
    headers: routeAuth(token),
    json: { firstname: 'Pact', lastname: 'Customer', city: 'Springfield', address_1: street, postcode: '12345', ...place },
  });
  const id = asRecord(a.body.data)?.address_id;
  if (a.body.status !== true || id === undefined) throw new StateError(`cannot add an address: ${short(a)}`);
  return { id, place };
}

/** The first country (by id) that has zones, with its first zone (address/add GET). */
async function countryWithZones(t: StateTarget, token: string): Promise<{ country_id: number; zone_id: number }> {
  const a = await send(t, 'GET', routeUrl(t, 'shoprestapi/account/address/add'), { headers: routeAuth(token) });
  const states = asRecord(asRecord(a.body.data)?.states) ?? {};
  const ids = Object.keys(states).sort((x, y) => Number(x) - Number(y));
  for (const id of ids) {
    const zone = asRecord(asList(states[id])[0]);
    if (zone?.zone_id !== undefined) return { country_id: Number(id), zone_id: Number(zone.zone_id) };
  }
  throw new StateError(`no country with zones in address/add: ${short(a)}`);
}

// Document 2 (both variants) ---------------------------------------------------------------------

const tokenOf = (t: StateTarget, body: Record<string, unknown>) => body[`${t.vendor}_token`];
const v1Auth = (t: StateTarget, token: string) => ({ [`${t.vendor}_token`]: token });

/** Logs in as the target data's network account (SFC_NET_USERNAME), for the states built on it. */
async function netRoot(
  t: StateTarget,
  state: string,
): Promise<{ username: string; password: string; token: string; body: Record<string, unknown> }> {
  const username = need(t, 'SFC_NET_USERNAME', state);
  const password = need(t, 'SFC_NET_PASSWORD', state);
  const login = await send(t, 'POST', `${t.url}/auth/login`, { json: { username, password } });
  const token = tokenOf(t, login.body);
  if (login.body.status !== true || typeof token !== 'string')
    throw new StateError(`cannot log in as ${username}: ${short(login)}`);
  return { username, password, token, body: login.body };
}

/**
 * The shallowest free position of the SFC_NET_USERNAME account's geneology tree: a side with no
 * child whose link is not false (a link string is the registration URL of a free side).
 */
async function freePosition(
  t: StateTarget,
  state: string,
): Promise<{ sponsor_name: string; parent_name: string; position: string }> {
  const root = await netRoot(t, state);
  const tree = await send(t, 'GET', `${t.url}/user_geneology`, { headers: v1Auth(t, root.token) });
  const queue = [asRecord(tree.body.geneology_data)];
  while (queue.length > 0) {
    const node = queue.shift();
    if (!node) continue;
    const kids = asList(node.children)
      .map(asRecord)
      .filter((k): k is Record<string, unknown> => k !== undefined);
    const data = asRecord(node.userData) ?? {};
    const taken = new Set(kids.map((k) => str(asRecord(k.userData)?.position).toLowerCase()));
    for (const side of ['left', 'right'] as const) {
      const link = data[`${side}_link`];
      if (typeof node.name === 'string' && node.name && kids.length < 2 && !taken.has(side) && link !== false)
        return { sponsor_name: root.username, parent_name: node.name, position: side };
    }
    queue.push(...kids);
  }
  throw new StateError(
    `provider state "${state}": the geneology tree of ${root.username} shows no free position (${short(tree)})`,
  );
}

/** A new account registered through /auth/register (fresh username and e-mail); its token becomes the state's. */
async function registerNetAccount(t: StateTarget, state: string, place?: Record<string, string>) {
  const username = freshName('pactnet');
  const reg = await send(t, 'POST', `${t.url}/auth/register`, {
    json: {
      first_name: 'Pact',
      last_name: 'Network',
      username,
      password: 'Pact-pass-2024',
      email: freshEmail(),
      net_user: { phone: '0123456789', address: '1 Contract Street', ...place },
    },
  });
  const token = tokenOf(t, reg.body);
  if (reg.body.status !== true || typeof token !== 'string')
    throw new StateError(`provider state "${state}": cannot register ${username}: ${short(reg)}`);
  t.token = token;
  return reg;
}

export const networkStates: Record<string, Handler> = {
  'a network account with payouts and commissions exists': async (t) => {
    const { username, password, token, body } = await netRoot(t, 'a network account with payouts and commissions exists');
    t.token = token;
    const values: Record<string, string | number> = { username, password };
    const userKey = asRecord(body.net_user)?.user_key;
    if (typeof userKey === 'string' && userKey) values.user_key = userKey;
    // The first payout of the account, for payout_details.
    const list = await send(t, 'GET', `${t.url}/payout_list?start=0&limit=1`, { headers: v1Auth(t, token) });
    const payout = asRecord(asList(list.body.payout)[0]);
    const payoutId = payout?.payout_id ?? payout?.id;
    if (payoutId !== undefined && payoutId !== null) values.payout_id = String(payoutId);
    return values;
  },
  'a free position in the tree of the network account exists': async (t) => ({
    ...(await freePosition(t, 'a free position in the tree of the network account exists')),
    new_username: freshName('pactnet'),
    new_email: freshEmail(),
  }),
  'a new network account in the tree exists': async (t) => {
    const state = 'a new network account in the tree exists';
    await registerNetAccount(t, state, await freePosition(t, state));
    return undefined;
  },
  'a network account without a place in the tree exists': async (t) => {
    const state = 'a network account without a place in the tree exists';
    // AMB-NET-03: the register row marks only net_user[address] as required.
    const reg = await registerNetAccount(t, state);
    const position = str(asRecord(reg.body.net_user)?.position).toLowerCase();
    if (position === 'left' || position === 'right')
      throw new StateError(
        `provider state "${state}": the target placed the account at register (${position}), so it cannot join`,
      );
    return undefined;
  },
  'the account can withdraw the minimum amount': async (t) => {
    const state = 'the account can withdraw the minimum amount';
    const token = requireToken(t, state);
    const page = await send(t, 'GET', `${t.url}/withdrawal`, { headers: v1Auth(t, token) });
    const info = asRecord(page.body.withdrawal_info) ?? {};
    const min = Number(asRecord(page.body.general_setting)?.net_withdrawal_limit_min);
    const available = Number(info.total_balance) - Number(info.pending_withdrawal ?? 0);
    if (!Number.isFinite(min) || !Number.isFinite(available))
      throw new StateError(`cannot read the withdrawal limits: ${short(page)}`);
    const amount = Math.max(min, 1);
    if (available < amount)
      throw new StateError(
        `provider state "${state}": the balance left (${available}) is below the minimum withdrawal (${amount})`,
      );
    return { amount };
  },
};

async function shopProducts(t: StateTarget): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; page <= 3; page++) {
    const a = await send(t, 'GET', `${t.url}/products?page=${page}`);
    const products = asList(asRecord(a.body.data)?.products);
    for (const p of products) {
      const id = Number(asRecord(p)?.id);
      if (Number.isInteger(id) && id > 0) ids.push(id);
    }
    if (products.length === 0 || Number(asRecord(a.body.data)?.total_pages ?? 1) <= page) break;
  }
  return ids;
}

async function cartLines(t: StateTarget, token: string): Promise<Record<string, unknown>[]> {
  const cart = await send(t, 'GET', `${t.url}/cart`, { headers: v1Auth(t, token) });
  return asList(asRecord(cart.body.data)?.cart_items)
    .map(asRecord)
    .filter((x): x is Record<string, unknown> => x !== undefined);
}

/** Puts a product the target accepts into the cart; its line's key and product id. */
async function addSomeProduct(t: StateTarget, token: string, state: string): Promise<{ key: string; productId: number }> {
  for (const productId of await shopProducts(t)) {
    const add = await send(t, 'POST', `${t.url}/cart/add-item`, {
      json: { product_id: productId, quantity: 1 },
      headers: v1Auth(t, token),
    });
    if (add.body.status !== true) continue;
    const line = (await cartLines(t, token)).find((l) => Number(l.product_id) === productId);
    if (line && typeof line.key === 'string') return { key: line.key, productId };
  }
  throw new StateError(`provider state "${state}": no product of /products could be added to the cart`);
}

export const shopStates: Record<string, Handler> = {
  'a shop customer {username} with password {password} exists': async (t, p) => {
    const username = str(p.username);
    const password = str(p.password);
    const login = await send(t, 'POST', `${t.url}/auth/login`, { json: { username, password } });
    let token = tokenOf(t, login.body);
    if (login.body.status !== true || typeof token !== 'string') {
      const reg = await send(t, 'POST', `${t.url}/auth/register`, {
        json: { username, first_name: 'Pact', last_name: 'Shopper', password, email: `${username}@example.test` },
      });
      token = tokenOf(t, reg.body);
      if (reg.body.status !== true || typeof token !== 'string')
        throw new StateError(`cannot register shop customer ${username}: ${short(reg)}`);
    }
    t.token = token;
    return undefined;
  },
  'products exist': async (t) => {
    const [first] = await shopProducts(t);
    if (first === undefined) throw new StateError('provider state "products exist": /products?page=1 lists no product');
    return { product_id: first };
  },
  'a product in stock exists': async (t) => {
    const state = 'a product in stock exists';
    const token = requireToken(t, state);
    const { key, productId } = await addSomeProduct(t, token, state);
    // Found by adding it; the cart is left as it was so that add-item starts from a known state.
    await send(t, 'POST', `${t.url}/cart/remove-item/${encodeURIComponent(key)}`, { headers: v1Auth(t, token) });
    return { product_id: productId };
  },
  'the cart holds a product': async (t) => {
    const state = 'the cart holds a product';
    const token = requireToken(t, state);
    const line = (await cartLines(t, token)).find((l) => typeof l.key === 'string');
    if (line)
      return { cart_item_key: line.key as string, product_id: Number(line.product_id), cart_data: { [line.key as string]: 2 } };
    const { key, productId } = await addSomeProduct(t, token, state);
    return { cart_item_key: key, product_id: productId, cart_data: { [key]: 2 } };
  },
  'no shop customer has the username of the registration': async () => ({
    new_username: freshName('pactshop'),
    new_email: freshEmail(),
  }),
  'a payment method exists': async (t) => ({ payment_method: need(t, 'SFC_SHOP_PAYMENT_METHOD', 'a payment method exists') }),
};
