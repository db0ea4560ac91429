import type { GraphQLResolveInfo } from 'graphql';
import { type GqlContext, idOf, requireCustomer, softFail, stmt, userError } from './context.js';
import { optionEntries } from './schema.js';
import { cartSummary, couponIsUsable, couponResult } from './totals.js';

/** Largest quantity of one cart line: keeps totals far from overflow and rejects absurd input. */
const MAX_QUANTITY = 10000;

interface ProductRow {
  product_id: number;
  name: string;
  minimum: number;
  status: number;
}

interface OptionRow {
  option_id: number;
  name: string;
  type: 'select' | 'text';
  required: number;
}

/**
 * A client's value for an error message: a scalar as JSON writes it, at most 60 characters; a list
 * or object by its type only. Never serialises a list or object: one nested 100,000 deep would
 * overflow the stack, and a big one would be echoed whole.
 */
function briefly(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length} item(s)`;
  if (value !== null && typeof value === 'object') return 'an object';
  if (typeof value !== 'string') return String(value).slice(0, 60);
  return value.length > 60 ? `${JSON.stringify(value.slice(0, 60)).slice(0, -1)}..."` : JSON.stringify(value);
}

/**
 * The options of one line checked against the product and written as canonical JSON
 * (`[[option_id, value], ...]` sorted by option_id), so equal selections merge into one line.
 */
function canonicalOptions(ctx: GqlContext, productId: number, raw: unknown): string {
  const entries = optionEntries(raw);
  const defined = stmt(ctx.db, 'SELECT * FROM gql_product_option WHERE product_id = ? ORDER BY option_id').all(
    productId,
  ) as OptionRow[];
  const chosen = new Map<number, string | number>();
  for (const entry of entries) {
    const id = idOf(entry.option_id);
    const option = defined.find((o) => o.option_id === id);
    if (id === null || !option) throw userError(`Option ${entry.option_id} does not exist for this product.`, 'INVALID_OPTION');
    if (chosen.has(id)) throw userError(`Option ${id} is given twice.`, 'INVALID_OPTION');
    const value = entry.value;
    if (value === null || value === undefined || value === '') continue; // an empty entry is "not chosen"
    if (option.type === 'select') {
      const valueId = idOf(value);
      const known =
        valueId !== null &&
        stmt(ctx.db, 'SELECT 1 FROM gql_product_option_value WHERE option_id = ? AND option_value_id = ?').get(id, valueId);
      if (!known) throw userError(`${option.name}: ${briefly(value)} is not one of its values.`, 'INVALID_OPTION');
      chosen.set(id, valueId as number);
    } else {
      if (typeof value !== 'string' && typeof value !== 'number')
        throw userError(`${option.name}: the value must be text.`, 'INVALID_OPTION');
      const textValue = String(value).trim();
      if (textValue.length > 255) throw userError(`${option.name}: at most 255 characters.`, 'INVALID_OPTION');
      if (textValue) chosen.set(id, textValue);
    }
  }
  for (const o of defined)
    if (o.required && !chosen.has(o.option_id))
      throw userError(`${o.name} is required.`, 'OPTION_REQUIRED', { option_id: o.option_id });
  return JSON.stringify([...chosen.entries()].sort((a, b) => a[0] - b[0]));
}

function quantityProblem(quantity: number): string | null {
  return quantity < 1 || quantity > MAX_QUANTITY ? `quantity must be 1 to ${MAX_QUANTITY}.` : null;
}

/** Quantity of one product over all of a customer's lines, except one line (the one being changed). */
function productQuantity(ctx: GqlContext, customerId: number, productId: number, exceptCartId = 0): number {
  const row = stmt(
    ctx.db,
    'SELECT COALESCE(SUM(quantity), 0) AS n FROM gql_cart WHERE customer_id = ? AND product_id = ? AND cart_id <> ?',
  ).get(customerId, productId, exceptCartId) as { n: number };
  return row.n;
}

export function addProductToCart(
  args: { input: { product_id?: unknown; quantity?: number | null; options?: unknown; recurring_id?: unknown } },
  ctx: GqlContext,
): Record<string, unknown> {
  const me = requireCustomer(ctx);
  const { input } = args;
  const productId = idOf(input.product_id);
  const product =
    productId === null
      ? undefined
      : (stmt(ctx.db, 'SELECT * FROM gql_product WHERE product_id = ? AND status = 1').get(productId) as ProductRow | undefined);
  if (!product) throw userError('Product not found.', 'PRODUCT_NOT_FOUND');
  const quantity = input.quantity ?? 1;
  const problem = quantityProblem(quantity);
  if (problem) throw userError(problem);
  const recurring = input.recurring_id;
  if (recurring !== null && recurring !== undefined && recurring !== '' && recurring !== '0' && recurring !== 0)
    throw userError('This product has no recurring profile.', 'INVALID_RECURRING');
  const options = canonicalOptions(ctx, product.product_id, input.options);

  ctx.db.transaction(() => {
    const existing = stmt(
      ctx.db,
      'SELECT cart_id, quantity FROM gql_cart WHERE customer_id = ? AND product_id = ? AND recurring_id = 0 AND options = ?',
    ).get(me, product.product_id, options) as { cart_id: number; quantity: number } | undefined;
    const lineQuantity = (existing?.quantity ?? 0) + quantity;
    if (lineQuantity > MAX_QUANTITY) throw userError(`quantity must be 1 to ${MAX_QUANTITY} per cart line.`);
    const productTotal = productQuantity(ctx, me, product.product_id, existing?.cart_id ?? 0) + lineQuantity;
    if (productTotal < product.minimum)
      throw userError(`The minimum quantity of ${product.name} is ${product.minimum}.`, 'MINIMUM_QUANTITY', {
        minimum: product.minimum,
      });
    if (existing) stmt(ctx.db, 'UPDATE gql_cart SET quantity = ? WHERE cart_id = ?').run(lineQuantity, existing.cart_id);
    else
      stmt(
        ctx.db,
        'INSERT INTO gql_cart (customer_id, product_id, recurring_id, options, quantity, date_added) VALUES (?, ?, 0, ?, ?, ?)',
      ).run(me, product.product_id, options, lineQuantity, new Date().toISOString());
  })();
  return cartSummary(ctx.db, me);
}

interface LineRow {
  cart_id: number;
  product_id: number;
  quantity: number;
  minimum: number;
  name: string;
}

function ownLine(ctx: GqlContext, customerId: number, cartId: unknown): LineRow | undefined {
  const id = idOf(cartId);
  if (id === null) return undefined;
  return stmt(
    ctx.db,
    `SELECT c.cart_id, c.product_id, c.quantity, p.minimum, p.name FROM gql_cart c
       JOIN gql_product p ON p.product_id = c.product_id WHERE c.cart_id = ? AND c.customer_id = ?`,
  ).get(id, customerId) as LineRow | undefined;
}

export function updateCartProduct(
  args: { cart_id: string; quantity: number },
  ctx: GqlContext,
  info: GraphQLResolveInfo,
): boolean {
  const me = requireCustomer(ctx);
  const problem = quantityProblem(args.quantity);
  if (problem) return softFail(ctx, info, problem);
  return ctx.db.transaction((): boolean => {
    // Another customer's line is "not found" too: its existence is not revealed.
    const line = ownLine(ctx, me, args.cart_id);
    if (!line) return softFail(ctx, info, 'Cart item not found.', 'CART_ITEM_NOT_FOUND');
    if (productQuantity(ctx, me, line.product_id, line.cart_id) + args.quantity < line.minimum)
      return softFail(ctx, info, `The minimum quantity of ${line.name} is ${line.minimum}.`, 'MINIMUM_QUANTITY', {
        minimum: line.minimum,
      });
    stmt(ctx.db, 'UPDATE gql_cart SET quantity = ? WHERE cart_id = ?').run(args.quantity, line.cart_id);
    return true;
  })();
}

export function deleteCartProduct(args: { cart_id: string }, ctx: GqlContext, info: GraphQLResolveInfo): boolean {
  const me = requireCustomer(ctx);
  const id = idOf(args.cart_id);
  const removed =
    id === null ? 0 : stmt(ctx.db, 'DELETE FROM gql_cart WHERE cart_id = ? AND customer_id = ?').run(id, me).changes;
  return removed > 0 ? true : softFail(ctx, info, 'Cart item not found.', 'CART_ITEM_NOT_FOUND');
}

export function addCoupon(args: { code: string }, ctx: GqlContext): Record<string, unknown> {
  const me = requireCustomer(ctx);
  const code = args.code.trim();
  if (!code || code.length > 20) throw userError('Enter a coupon code.', 'INVALID_COUPON');
  return ctx.db.transaction(() => {
    const coupon = stmt(ctx.db, 'SELECT coupon_id FROM gql_coupon WHERE code = ?').get(code) as { coupon_id: number } | undefined;
    if (!coupon || !couponIsUsable(ctx.db, coupon.coupon_id, me))
      throw userError('Coupon is either invalid, expired or reached its usage limit.', 'INVALID_COUPON');
    stmt(
      ctx.db,
      'INSERT INTO gql_cart_coupon (customer_id, coupon_id) VALUES (?, ?) ON CONFLICT (customer_id) DO UPDATE SET coupon_id = excluded.coupon_id',
    ).run(me, coupon.coupon_id);
    return couponResult(ctx.db, me);
  })();
}

/** Removes every line and the applied coupon: an emptied cart starts afresh. */
export function emptyCart(_args: unknown, ctx: GqlContext): boolean {
  const me = requireCustomer(ctx);
  ctx.db.transaction(() => {
    stmt(ctx.db, 'DELETE FROM gql_cart WHERE customer_id = ?').run(me);
    stmt(ctx.db, 'DELETE FROM gql_cart_coupon WHERE customer_id = ?').run(me);
  })();
  return true;
}
