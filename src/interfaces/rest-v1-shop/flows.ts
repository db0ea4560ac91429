import type { Exchange } from '../../http/exchange.js';
import {
  bareEnvelope,
  type Ctx,
  call,
  conformsTo,
  type Envelope,
  envelope,
  listProducts,
  schema,
  tokenOf,
  tryJson,
} from './client.js';

// Multi-request steps the areas share: an account, a product that can go in a cart, the cart.

export interface Account {
  username: string;
  password: string;
  email: string;
  first_name: string;
  last_name: string;
  token: string;
}

export interface ProductSummary {
  id: number;
  type: string;
  name: string;
  price: string;
  [key: string]: unknown;
}

export interface CartItem {
  key: string;
  product_id: number | string;
  quantity: number | string;
  line_subtotal: number;
  line_total: number;
  [key: string]: unknown;
}

export interface CartData {
  cart_items: CartItem[];
  cart_totals: Record<string, unknown>;
  coupon_discount_totals: Record<string, number> | [];
  currency: string;
}

export function newAccountForm(ctx: Ctx): Omit<Account, 'token'> {
  return {
    username: ctx.names.username(),
    password: ctx.names.password(),
    email: ctx.names.email(),
    first_name: 'Sfc',
    last_name: ctx.names.label('last'),
  };
}

/** A registration that succeeded: the account, its exchange and answer. */
export interface Registered {
  account: Account;
  ex: Exchange;
  body: Envelope;
}

/**
 * POST /auth/register with a fresh account (`names` over the default names or password); fails the check
 * unless a token comes back. The endpoint's full schema is judged last: `keep` gets the registration
 * before it, so a caller whose later checks read the user record keeps it when only a field's type is off,
 * and those checks name the requirement the field breaks instead of being skipped.
 */
export async function register(
  ctx: Ctx,
  names: Partial<Pick<Account, 'username' | 'first_name' | 'last_name' | 'password'>> = {},
  keep?: (r: Registered) => void,
): Promise<Registered> {
  const form = { ...newAccountForm(ctx), ...names };
  const ex = await call(ctx, 'POST', '/auth/register', { form: { ...form } });
  const body = bareEnvelope(ctx, ex);
  ctx.expect(
    body.status === true,
    `register of a fresh account: expected status true, got ${String(body.status)}: "${body.message}"`,
    ex,
  );
  const token = tokenOf(ctx, body);
  ctx.expect(
    token,
    `register: expected the token under key "${ctx.settings.vendor}_token", got keys ${Object.keys(body).join(', ')}`,
    ex,
  );
  const registered = { account: { ...form, token }, ex, body };
  keep?.(registered);
  conformsTo(ctx, ex, body, 'register');
  return registered;
}

/** POST /auth/login by username (the variant B table). */
export function login(ctx: Ctx, username: string, password: string): Promise<Exchange> {
  return call(ctx, 'POST', '/auth/login', { form: { username, password } });
}

export function addItem(ctx: Ctx, token: string, productId: number | string, quantity: number | string): Promise<Exchange> {
  return call(ctx, 'POST', '/cart/add-item', { token, form: { product_id: productId, quantity } });
}

export function getCart(ctx: Ctx, token: string, coupons?: string[]): Promise<Exchange> {
  return call(ctx, 'GET', '/cart', { token, ...(coupons ? { query: { 'coupons[]': coupons } } : {}) });
}

export function removeItem(ctx: Ctx, token: string, key: string): Promise<Exchange> {
  return call(ctx, 'POST', `/cart/remove-item/${encodeURIComponent(key)}`, { token });
}

/** cart_data[<key>]=<quantity> fields, as the samples send them. */
export function updateQuantities(ctx: Ctx, token: string, quantities: Record<string, number | string>): Promise<Exchange> {
  const form = Object.fromEntries(Object.entries(quantities).map(([k, q]) => [`cart_data[${k}]`, q]));
  return call(ctx, 'POST', '/cart/update-quantities', { token, form });
}

/** The cart of a token (status true), validated; fails the check otherwise. */
export async function readCart(
  ctx: Ctx,
  token: string,
  coupons?: string[],
): Promise<{ ex: Exchange; body: Envelope; data: CartData }> {
  const ex = await getCart(ctx, token, coupons);
  const body = envelope(ctx, ex, 'cart');
  ctx.expect(
    body.status === true,
    `GET /cart of a non-empty cart: expected status true, got ${String(body.status)}: "${body.message}"`,
    ex,
  );
  return { ex, body, data: body.data as CartData };
}

/**
 * A product that the target lets into a cart: simple products of the first listing pages first
 * (variable ones need a variation the document does not describe), those `prefer` picks before the
 * others, tried with add-item until one is accepted. The product is then in the token's cart with `quantity`.
 */
export async function addPurchasable(
  ctx: Ctx,
  token: string,
  quantity: number,
  exclude: number[] = [],
  prefer: (p: ProductSummary) => boolean = () => false,
): Promise<{ product: ProductSummary; ex: Exchange; body: Envelope }> {
  const candidates: ProductSummary[] = [];
  for (let page = 1; page <= 3 && candidates.length < 40; page++) {
    const ex = await listProducts(ctx, { page }, token);
    const data = tryJson(ex)?.data as { products?: ProductSummary[]; total_pages?: number } | undefined;
    candidates.push(...(data?.products ?? []));
    if (!data?.total_pages || page >= data.total_pages) break;
  }
  const simpleFirst = [...candidates.filter((p) => p.type === 'simple'), ...candidates.filter((p) => p.type !== 'simple')];
  const ordered = [...simpleFirst.filter(prefer), ...simpleFirst.filter((p) => !prefer(p))].filter(
    (p) => typeof p.id === 'number' && !exclude.includes(p.id),
  );
  if (ordered.length === 0) ctx.skip('the product listing gave no product to add to a cart');
  for (const product of ordered.slice(0, 12)) {
    const ex = await addItem(ctx, token, product.id, quantity);
    const body = tryJson(ex);
    if (body?.status === true) {
      ctx.validate(schema('cart-add-item.response'), body, ex);
      return { product, ex, body };
    }
  }
  ctx.skip(`none of the first ${Math.min(12, ordered.length)} listed products could be added to a cart (out of stock?)`);
}

/**
 * Whether a fresh account's cart takes `quantity` of the product now (the cart is emptied again).
 * Orders take stock, and other areas order while this one runs: when a product an area put in its cart
 * is refused later, this tells the shop's stock running short (a fresh cart is refused too) from a
 * fault of the cart or order being checked (a fresh cart takes it). The document shows no stock rule.
 */
export async function freshCartTakes(ctx: Ctx, productId: number, quantity: number): Promise<boolean> {
  const { account } = await register(ctx);
  const taken = tryJson(await addItem(ctx, account.token, productId, quantity))?.status === true;
  if (taken) await emptyCart(ctx, account.token);
  return taken;
}

/** Ends the check as skipped when a product ran short of stock during the run, as `freshCartTakes` tells. */
export async function skipIfOutOfStock(ctx: Ctx, lines: [productId: number, quantity: number][], what: string): Promise<void> {
  for (const [productId, quantity] of lines)
    if (!(await freshCartTakes(ctx, productId, quantity)))
      ctx.skip(
        `${what}, and a fresh cart is refused ${quantity} of product ${productId} too: the shop ran short of stock during the run (orders of this and other areas take it), so the refusal says nothing about the rule checked`,
      );
}

/** A product the listing shows on sale: a sale_price below its regular_price. */
export function onSale(p: ProductSummary): boolean {
  const sale = num(p.sale_price);
  const regular = num(p.regular_price);
  return sale !== undefined && regular !== undefined && sale < regular;
}

/** A decimal of the document (number or numeric string); undefined when it is not one. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?[0-9]+(\.[0-9]+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

/** Equal within a cent: the target rounds to the currency's decimals. */
export const near = (a: number, b: number, tolerance = 0.011): boolean => Math.abs(a - b) <= tolerance;

/** Keys of an object-or-empty-list map (AMB-SHOP-06). */
export function mapKeys(v: unknown): string[] {
  return v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
}

/** Removes every item GET /cart lists for the token (best effort: nothing is judged). */
export async function emptyCart(ctx: Ctx, token: string): Promise<void> {
  const items = (tryJson(await getCart(ctx, token))?.data as CartData | undefined)?.cart_items;
  for (const item of Array.isArray(items) ? items : []) await removeItem(ctx, token, item.key);
}

/** Teardown: empties the token's cart (the cart is the only thing the API can delete). */
export function emptyCartOnTeardown(ctx: Ctx, token: string): void {
  ctx.onTeardown(() => emptyCart(ctx, token));
}
