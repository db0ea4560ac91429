import fc from 'fast-check';
import type { Exchange } from '../../http/exchange.js';
import { type Ctx, call, envelope, listProducts, tryJson } from './client.js';
import {
  addItem,
  type CartData,
  type CartItem,
  emptyCart,
  getCart,
  mapKeys,
  near,
  num,
  type ProductSummary,
  register,
  removeItem,
  skipIfOutOfStock,
  updateQuantities,
} from './flows.js';

// The cart as a model (product -> quantity) and fc.commands that drive one account's cart and
// compare it with the model after every step (SHOP-STATE-01: items; SHOP-STATE-02: arithmetic).

/** Quantities up to this stay far below any stock a shop lists as in stock, so a refusal there is a fault. */
const SAFE_QUANTITY = 5;

export interface CartModel {
  /** product id -> quantity; a product absent is not in the cart. */
  lines: Map<number, number>;
}

export interface CartReal {
  ctx: Ctx;
  token: string;
  /** What the run verifies after each step: items and quantities only, or also counts and totals. */
  mode: 'items' | 'totals';
  coupon?: string;
  /** Cart item keys as the target gave them (keys are the target's, the model does not predict them). */
  keys: Map<number, string>;
  /** Unit price per product, from the first cart line seen (line_subtotal / quantity). */
  units: Map<number, number>;
  /** Readings fixed by the first observation, then held: add on an existing line adds or replaces; what cart_item_count counts. */
  readings: { add?: 'adds' | 'replaces'; count?: 'lines' | 'quantity' };
}

type Cmd = fc.AsyncCommand<CartModel, CartReal, boolean>;

const itemsOf = (data: CartData | undefined): CartItem[] => (Array.isArray(data?.cart_items) ? data.cart_items : []);

function describe(model: CartModel): string {
  const parts = [...model.lines].map(([p, q]) => `${p}x${q}`);
  return parts.length > 0 ? parts.join(', ') : 'empty';
}

/** GET /cart (with the run's coupon when asked) compared with the model. */
async function verify(real: CartReal, model: CartModel, step: Exchange, withCoupon?: string): Promise<void> {
  const ctx: Ctx = real.ctx;
  const ex = await getCart(ctx, real.token, withCoupon ? [withCoupon] : undefined);
  const body = envelope(ctx, ex, 'cart');
  const items = body.status === true ? itemsOf(body.data as CartData) : [];
  const want = describe(model);
  if (model.lines.size === 0) {
    ctx.expect(
      body.status === false && items.length === 0,
      `the cart should be empty (status false, no items), got status ${String(body.status)} with ${items.length} item(s)`,
      step,
      ex,
    );
    return;
  }
  ctx.expect(body.status === true, `GET /cart should list ${want}, got status false: "${body.message}"`, step, ex);
  const seen = new Map<number, CartItem>();
  for (const item of items) seen.set(Number(item.product_id), item);
  const got = items.map((i) => `${Number(i.product_id)}x${Number(i.quantity)}`).join(', ') || 'empty';
  ctx.expect(seen.size === items.length && seen.size === model.lines.size, `GET /cart lists ${got}; expected ${want}`, step, ex);
  for (const [product, quantity] of model.lines) {
    const item = seen.get(product);
    ctx.expect(item && Number(item.quantity) === quantity, `GET /cart lists ${got}; expected ${want}`, step, ex);
    real.keys.set(product, item.key);
  }
  if (real.mode === 'totals') checkTotals(real, model, body.data as CartData, ex, step, withCoupon, body.coupon_status);
}

/** Totals arithmetic of one cart answer (SHOP-STATE-02). */
function checkTotals(
  real: CartReal,
  model: CartModel,
  data: CartData,
  ex: Exchange,
  step: Exchange,
  coupon: string | undefined,
  couponStatus: unknown,
): void {
  const ctx: Ctx = real.ctx;
  const t = (k: string): number => num((data.cart_totals as Record<string, unknown>)[k]) ?? Number.NaN;
  let lineSubtotals = 0;
  let lineTotals = 0;
  for (const item of itemsOf(data)) {
    const product = Number(item.product_id);
    const quantity = model.lines.get(product) ?? 0;
    const sub = num(item.line_subtotal) ?? Number.NaN;
    const unit = real.units.get(product) ?? sub / quantity;
    real.units.set(product, unit);
    ctx.expect(
      near(sub, unit * quantity),
      `product ${product}: line_subtotal ${sub} should be the unit price ${unit} x ${quantity}`,
      step,
      ex,
    );
    lineSubtotals += sub;
    lineTotals += num(item.line_total) ?? Number.NaN;
  }
  const discounts = data.coupon_discount_totals as unknown;
  const discountSum = mapKeys(discounts).reduce((s, k) => s + (num((discounts as Record<string, unknown>)[k]) ?? Number.NaN), 0);
  const facts: [boolean, string][] = [
    [near(t('subtotal'), lineSubtotals), `subtotal ${t('subtotal')} should be the sum of line_subtotal ${lineSubtotals}`],
    [
      near(t('discount_total'), discountSum),
      `discount_total ${t('discount_total')} should be the sum of coupon_discount_totals ${discountSum}`,
    ],
    [
      near(t('cart_contents_total'), t('subtotal') - t('discount_total')),
      `cart_contents_total ${t('cart_contents_total')} should be subtotal - discount_total = ${t('subtotal') - t('discount_total')}`,
    ],
    [
      near(t('cart_contents_total'), lineTotals),
      `cart_contents_total ${t('cart_contents_total')} should be the sum of line_total ${lineTotals}`,
    ],
    [
      near(
        t('total'),
        t('cart_contents_total') +
          t('shipping_total') +
          t('fee_total') +
          t('cart_contents_tax') +
          t('shipping_tax') +
          t('fee_tax'),
      ),
      `total ${t('total')} should be contents + shipping + fees + their taxes`,
    ],
  ];
  if (coupon)
    facts.push([
      couponStatus === true && t('discount_total') > 0 && t('discount_total') <= t('subtotal') + 0.011,
      `with the valid coupon ${coupon}: coupon_status should be true and 0 < discount_total <= subtotal, got ${String(couponStatus)} and ${t('discount_total')}`,
    ]);
  for (const [ok, message] of facts) ctx.expect(ok, `cart ${describe(model)}: ${message}`, step, ex);
}

/** data.cart_item_count of a mutation answer agrees with the model (lines or quantities, AMB-SHOP-04, held once chosen). */
function checkCount(real: CartReal, model: CartModel, ex: Exchange, count: unknown): void {
  if (real.mode !== 'totals') return;
  const lines = model.lines.size;
  const quantity = [...model.lines.values()].reduce((a, b) => a + b, 0);
  const n = num(count);
  const allowed = real.readings.count ? [real.readings.count === 'lines' ? lines : quantity] : [lines, quantity];
  real.ctx.expect(
    n !== undefined && allowed.includes(n),
    `cart_item_count ${String(count)} for cart ${describe(model)}: expected ${allowed.join(' or ')}` +
      (real.readings.count ? ` (this target counts ${real.readings.count})` : ''),
    ex,
  );
  if (lines !== quantity) real.readings.count ??= n === lines ? 'lines' : 'quantity';
}

const countOf = (ex: Exchange): unknown => (tryJson(ex)?.data as { cart_item_count?: unknown } | undefined)?.cart_item_count;

class AddItem implements Cmd {
  constructor(
    readonly product: number,
    readonly quantity: number,
  ) {}
  check = async () => true;
  async run(model: CartModel, real: CartReal): Promise<void> {
    const ctx: Ctx = real.ctx;
    const before = model.lines.get(this.product) ?? 0;
    const ex = await addItem(ctx, real.token, this.product, this.quantity);
    const body = envelope(ctx, ex, 'cart-add-item');
    if (body.status !== true) {
      // Beyond the safe quantity a shop may refuse (stock); the cart must then be unchanged.
      if (before + this.quantity <= SAFE_QUANTITY)
        await skipIfOutOfStock(
          ctx,
          [[this.product, before + this.quantity]],
          `add-item of product ${this.product} x${this.quantity} was refused`,
        );
      ctx.expect(
        before + this.quantity > SAFE_QUANTITY,
        `add-item of product ${this.product} x${this.quantity} to cart ${describe(model)}: status false: "${body.message}"`,
        ex,
      );
      return verify(real, model, ex);
    }
    if (before === 0) model.lines.set(this.product, this.quantity);
    else {
      // Whether add-item adds to a line or replaces it is not stated: learn it once, then hold it.
      const peek = tryJson(await getCart(ctx, real.token));
      const item = itemsOf(peek?.data as CartData).find((i) => Number(i.product_id) === this.product);
      real.readings.add ??= Number(item?.quantity) === this.quantity && before !== 0 ? 'replaces' : 'adds';
      model.lines.set(this.product, real.readings.add === 'replaces' ? this.quantity : before + this.quantity);
    }
    checkCount(real, model, ex, countOf(ex));
    await verify(real, model, ex);
  }
  toString = () => `add(${this.product}, ${this.quantity})`;
}

class UpdateQuantity implements Cmd {
  constructor(
    readonly slot: number,
    readonly quantity: number,
  ) {}
  check = async (m: Readonly<CartModel>) => m.lines.size > 0;
  async run(model: CartModel, real: CartReal): Promise<void> {
    const product = [...model.lines.keys()][this.slot % model.lines.size] as number;
    const key = real.keys.get(product) as string;
    const ex = await updateQuantities(real.ctx, real.token, { [key]: this.quantity });
    const body = envelope(real.ctx, ex, 'cart-update-quantities');
    if (body.status !== true && this.quantity <= SAFE_QUANTITY)
      await skipIfOutOfStock(
        real.ctx,
        [[product, this.quantity]],
        `update-quantities of product ${product} to ${this.quantity} was refused`,
      );
    real.ctx.expect(
      body.status === true || this.quantity > SAFE_QUANTITY,
      `update-quantities of product ${product} to ${this.quantity} in cart ${describe(model)}: status false: "${body.message}"`,
      ex,
    );
    if (body.status === true) {
      if (this.quantity === 0) model.lines.delete(product);
      else model.lines.set(product, this.quantity);
      checkCount(real, model, ex, countOf(ex));
    }
    await verify(real, model, ex);
  }
  toString = () => `update(line ${this.slot}, ${this.quantity})`;
}

class RemoveItem implements Cmd {
  constructor(readonly slot: number) {}
  check = async (m: Readonly<CartModel>) => m.lines.size > 0;
  async run(model: CartModel, real: CartReal): Promise<void> {
    const product = [...model.lines.keys()][this.slot % model.lines.size] as number;
    const ex = await removeItem(real.ctx, real.token, real.keys.get(product) as string);
    const body = envelope(real.ctx, ex, 'cart-remove-item');
    real.ctx.expect(
      body.status === true,
      `remove-item of product ${product} from cart ${describe(model)}: status false: "${body.message}"`,
      ex,
    );
    model.lines.delete(product);
    checkCount(real, model, ex, countOf(ex));
    await verify(real, model, ex);
  }
  toString = () => `remove(line ${this.slot})`;
}

/** GET /cart, with the valid coupon or with an unknown code, compared with the model. */
class ListCart implements Cmd {
  constructor(readonly coupon: 'none' | 'valid' | 'unknown') {}
  check = async () => true;
  async run(model: CartModel, real: CartReal): Promise<void> {
    if (this.coupon === 'unknown' && model.lines.size > 0) {
      const code = `SFCNONE${real.ctx.settings.runId.toUpperCase()}`;
      const ex = await getCart(real.ctx, real.token, [code]);
      const body = envelope(real.ctx, ex, 'cart');
      real.ctx.expect(
        body.coupon_status === false && mapKeys(body.coupon_errors).includes(code),
        `GET /cart?coupons[]=${code} (unknown): expected coupon_status false and coupon_errors keyed by the code, got ${String(body.coupon_status)} and ${JSON.stringify(body.coupon_errors)}`,
        ex,
      );
      return verify(real, model, ex);
    }
    const coupon = this.coupon === 'valid' && model.lines.size > 0 ? real.coupon : undefined;
    const ex = await getCart(real.ctx, real.token, coupon ? [coupon] : undefined);
    await verify(real, model, ex, coupon);
  }
  toString = () => `list(${this.coupon})`;
}

/** GET /cart/count: its payload is not shown; when it carries data.cart_item_count, that agrees with the cart. */
class CountCart implements Cmd {
  check = async () => true;
  async run(model: CartModel, real: CartReal): Promise<void> {
    const ex = await call(real.ctx, 'GET', '/cart/count', { token: real.token });
    envelope(real.ctx, ex, 'cart-count');
    const count = countOf(ex);
    if (count !== undefined) checkCount(real, model, ex, count);
  }
  toString = () => 'count()';
}

/** The commands over `products` (ids a cart accepts); `coupons` adds the coupon listings. */
export function cartCommands(products: number[], coupons: boolean): fc.Arbitrary<Cmd>[] {
  const product = fc.constantFrom(...products);
  const slot = fc.nat({ max: 3 });
  return [
    fc.tuple(product, fc.integer({ min: 1, max: 3 })).map(([p, q]) => new AddItem(p, q)),
    fc.tuple(slot, fc.integer({ min: 0, max: 4 })).map(([s, q]) => new UpdateQuantity(s, q)),
    slot.map((s) => new RemoveItem(s)),
    fc
      .constantFrom<'none' | 'valid' | 'unknown'>(...(coupons ? (['none', 'valid', 'unknown'] as const) : (['none'] as const)))
      .map((c) => new ListCart(c)),
    fc.constant(null).map(() => new CountCart()),
  ];
}

/**
 * Up to `want` products that a fresh cart accepts (simple ones of the first listing page first),
 * found once per check with a scratch account whose cart is emptied again.
 */
export async function cartProducts(ctx: Ctx, want = 3): Promise<number[]> {
  const { account } = await register(ctx);
  const ex = await listProducts(ctx, { page: 1 }, account.token);
  const listed = ((tryJson(ex)?.data as { products?: ProductSummary[] } | undefined)?.products ?? []).filter(
    (p) => typeof p.id === 'number',
  );
  const ordered = [...listed.filter((p) => p.type === 'simple'), ...listed.filter((p) => p.type !== 'simple')];
  const found: number[] = [];
  for (const p of ordered.slice(0, 12)) {
    if (found.length >= want) break;
    const add = await addItem(ctx, account.token, p.id, SAFE_QUANTITY * 2);
    if (tryJson(add)?.status === true) found.push(p.id);
  }
  await emptyCart(ctx, account.token);
  if (found.length === 0) ctx.skip('no listed product could be added to a cart');
  return found;
}

/** A fresh account per run, so runs are independent. */
export async function freshCart(
  ctx: Ctx,
  mode: CartReal['mode'],
  coupon?: string,
): Promise<{ model: CartModel; real: CartReal }> {
  const { account } = await register(ctx);
  return {
    model: { lines: new Map() },
    real: { ctx, token: account.token, mode, ...(coupon ? { coupon } : {}), keys: new Map(), units: new Map(), readings: {} },
  };
}
