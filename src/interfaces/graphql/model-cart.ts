import fc from 'fast-check';
import type { CouponOff } from '../../checks/target-data.js';
import type { GraphQLResult } from '../../graphql/client.js';
import {
  addToCart,
  answerRefusal,
  type Ctx,
  cartLines,
  couponShown,
  emptyCart,
  num,
  op,
  record,
  refusal,
  short,
} from './client.js';

/**
 * The cart of one customer as the model sees it ("1. What the service does": add, change a
 * quantity, remove a line, apply a coupon, empty). One or two products (SFC_GQL_PRODUCT_ID,
 * SFC_GQL_SECOND_PRODUCT_ID) and one valid coupon (SFC_GQL_COUPON) are all the data contract
 * offers; the document gives no coupon amount, so what the coupon takes off is the target's data
 * too (SFC_GQL_COUPON_OFF), and without it only the sign and bound of coupon_discount are judged.
 */
export interface CartModel {
  /** The lines by cart_id, in the order the target listed them. */
  lines: { cartId: string; product: string; quantity: number }[];
  /** Whether the coupon is on the cart; `unknown` where the document leaves it open (after emptyCart). */
  coupon: 'none' | 'applied' | 'unknown';
  /** Unit price of each product, learned from the first summary holding it and held fixed afterwards. */
  prices: Record<string, number>;
}

export interface CartReal {
  ctx: Ctx;
  token: string;
  /** SFC_GQL_PRODUCT_ID, and SFC_GQL_SECOND_PRODUCT_ID when set: a cart of two lines. */
  products: string[];
  coupon?: string;
  /** What the coupon takes off (SFC_GQL_COUPON_OFF); unknown: sign and bound only. */
  couponOff?: CouponOff;
  /** Every result of the run, so a failure shows the steps before it. */
  trail: GraphQLResult[];
}

/**
 * The coupon_discount due on `subtotal`, and how far from it a target may round: a share may be
 * rounded either way to the cent (the document does not say how).
 */
export function couponDue(off: CouponOff, subtotal: number): { due: number; slack: number } {
  if (off.kind === 'amount') return { due: -Math.min(off.value, subtotal), slack: CENT };
  return { due: -(subtotal * off.percent) / 100, slack: 0.01 + CENT };
}

const CENT = 0.005;

const total = (m: CartModel) => m.lines.reduce((s, l) => s + l.quantity, 0);
/** The subtotal the model expects (sum of price x quantity); undefined while a price is unknown. */
function subtotalOf(m: CartModel): number | undefined {
  let sum = 0;
  for (const l of m.lines) {
    const price = m.prices[l.product];
    if (price === undefined) return undefined;
    sum += price * l.quantity;
  }
  return sum;
}
const linesOf = (m: CartModel) => short(m.lines.map((l) => `${l.quantity} x ${l.product} (${l.cartId})`));
const lastTrail = (r: CartReal) => r.trail.slice(-3).map((t) => t.exchange);

function fail(r: CartReal, message: string, res: GraphQLResult): never {
  r.ctx.fail(message, ...r.trail.slice(-3, -1).map((t) => t.exchange), res.exchange);
}

/**
 * Judges the money of a summary (addProductToCart) or coupon result (addCoupon) against the
 * model: subtotal = sum of price x quantity over the lines, coupon_code / coupon_discount as the
 * coupon state says, and total = subtotal + coupon_discount + tax. Resolves an `unknown` coupon
 * state from what it sees.
 */
function checkMoney(m: CartModel, r: CartReal, res: GraphQLResult, field: string): void {
  const quantity = total(m);
  const want = subtotalOf(m);
  const s = record(res.data?.[field]);
  if (!s) fail(r, `${field}: expected an object, got ${short(res.data?.[field])}`, res);
  const subtotal = num(s.subtotal);
  const tot = num(s.total);
  const discount = num(s.coupon_discount) ?? 0;
  const tax = num(s.tax) ?? 0;
  if (subtotal === undefined || tot === undefined)
    fail(r, `${field}: subtotal and total must be numbers, got ${short({ subtotal: s.subtotal, total: s.total })}`, res);
  if (want !== undefined && Math.abs(subtotal - want) > CENT)
    fail(
      r,
      `${field}: the model holds ${linesOf(m)} at ${short(m.prices)}, subtotal ${want}; the target says subtotal ${subtotal}`,
      res,
    );
  const code = s.coupon_code;
  const carries = r.coupon !== undefined && code === r.coupon;
  if (m.coupon === 'unknown') m.coupon = carries ? 'applied' : 'none';
  if (m.coupon === 'applied' && quantity > 0) {
    if (!carries) fail(r, `${field}: coupon ${r.coupon} was applied, but coupon_code is ${short(code)}`, res);
    if (r.couponOff) {
      const { due, slack } = couponDue(r.couponOff, subtotal);
      const off = r.couponOff.kind === 'amount' ? `${r.couponOff.value} off` : `${r.couponOff.percent}% off`;
      if (Math.abs(discount - due) > slack)
        fail(r, `${field}: expected coupon_discount ${due} (${off}, SFC_GQL_COUPON_OFF), got ${short(s.coupon_discount)}`, res);
    } else if (discount > CENT || discount < -subtotal - CENT)
      // "coupon_discount (negative when a discount applies)": never positive, never more than the subtotal.
      fail(r, `${field}: coupon_discount ${discount} should lie between -subtotal (${-subtotal}) and 0`, res);
  }
  if (m.coupon === 'none') for (const shown of couponShown(s)) fail(r, `${field}: no coupon was applied, but ${shown}`, res);
  if (Math.abs(subtotal + discount + tax - tot) > CENT)
    fail(r, `${field}: expected total = subtotal + coupon_discount + tax = ${subtotal + discount + tax}, got ${tot}`, res);
}

/** Compares a cart summary with the model after adding `added` of `product`, and adopts the target's cart_ids. */
function checkSummary(m: CartModel, r: CartReal, res: GraphQLResult, product: string, added: number): void {
  const why = refusal(res, 'addProductToCart');
  if (why) fail(r, `addProductToCart of ${added} x ${product} (cart holds ${linesOf(m)}) was refused: ${why}`, res);
  const summary = res.data?.addProductToCart;
  const all = cartLines(summary);
  const others = all.filter((l) => !r.products.includes(String(l.product_id)));
  if (others.length > 0) fail(r, `the cart holds lines of products never added: ${short(others.map((l) => l.product_id))}`, res);
  const seen = all.map((l) => ({
    cartId: String(l.cart_id),
    product: String(l.product_id),
    quantity: num(l.quantity) ?? Number.NaN,
  }));
  // Each product's quantity: the model's, plus `added` of the product added.
  for (const p of r.products) {
    const want = m.lines.filter((l) => l.product === p).reduce((s, l) => s + l.quantity, 0) + (p === product ? added : 0);
    const got = seen.filter((l) => l.product === p).reduce((s, l) => s + l.quantity, 0);
    if (got !== want)
      fail(
        r,
        `expected ${want} of product ${p} in the cart (model lines ${linesOf(m)} + ${added} x ${product}), found ${short(seen)}`,
        res,
      );
  }
  // One line of the product grew by `added` (the platform merges equal lines), or one new line of
  // `added` appeared; every other line is as it was.
  const before = new Map(m.lines.map((l) => [l.cartId, l]));
  const changed = seen.filter((l) => before.get(l.cartId)?.quantity !== l.quantity);
  const gone = m.lines.filter((l) => !seen.some((x) => x.cartId === l.cartId));
  const grown = changed[0];
  const ok =
    gone.length === 0 &&
    changed.length === 1 &&
    grown !== undefined &&
    grown.product === product &&
    (before.get(grown.cartId)?.product ?? product) === product &&
    grown.quantity === (before.get(grown.cartId)?.quantity ?? 0) + added;
  if (!ok)
    fail(
      r,
      `after adding ${added} x ${product}, expected one line of it to grow by ${added} or one new line, the others as they were; model ${linesOf(m)}, target ${short(seen)}`,
      res,
    );
  for (const l of all) {
    const price = num(l.price);
    const lineTotal = num(l.total);
    const q = num(l.quantity) ?? 0;
    if (price === undefined || lineTotal === undefined) continue; // types not shown (NS-GQL-12): judged by GQL-CART-05
    const p = String(l.product_id);
    const known = m.prices[p];
    if (known === undefined) m.prices[p] = price;
    else if (Math.abs(price - known) > CENT)
      fail(r, `the unit price of product ${p} changed from ${known} to ${price} within one cart`, res);
    if (Math.abs(price * q - lineTotal) > CENT)
      fail(r, `line ${String(l.cart_id)} (product ${p}): expected total ${price} x ${q} = ${price * q}, got ${lineTotal}`, res);
  }
  m.lines = seen;
  checkMoney(m, r, res, 'addProductToCart');
}

type Cmd = fc.AsyncCommand<CartModel, CartReal, boolean>;

/** Adds `quantity` of product #`which` (SFC_GQL_PRODUCT_ID, or the second product when one is set). */
class AddProduct implements Cmd {
  constructor(
    readonly quantity: number,
    readonly which = 0,
  ) {}
  check = () => true;
  async run(m: CartModel, r: CartReal): Promise<void> {
    const product = r.products[this.which % r.products.length] as string;
    const res = await addToCart(r.ctx, r.token, product, this.quantity);
    r.trail.push(res);
    checkSummary(m, r, res, product, this.quantity);
  }
  toString = () => `addProductToCart(${this.quantity}, product #${this.which + 1})`;
}

class UpdateLine implements Cmd {
  constructor(
    readonly index: number,
    readonly quantity: number,
  ) {}
  check = (m: Readonly<CartModel>) => m.lines.length > 0;
  async run(m: CartModel, r: CartReal): Promise<void> {
    const line = m.lines[this.index % m.lines.length];
    if (!line) return;
    const res = await op(r.ctx, 'updateCartProduct', { cart_id: line.cartId, quantity: this.quantity }, { token: r.token });
    r.trail.push(res);
    if (res.data?.updateCartProduct !== true)
      fail(
        r,
        `updateCartProduct of own line ${line.cartId} to ${this.quantity}: expected true, got ${refusal(res, 'updateCartProduct') ?? short(res.data?.updateCartProduct)}`,
        res,
      );
    line.quantity = this.quantity;
  }
  toString = () => `updateCartProduct(line #${this.index}, ${this.quantity})`;
}

class DeleteLine implements Cmd {
  constructor(readonly index: number) {}
  check = (m: Readonly<CartModel>) => m.lines.length > 0;
  async run(m: CartModel, r: CartReal): Promise<void> {
    const i = this.index % m.lines.length;
    const line = m.lines[i];
    if (!line) return;
    const res = await op(r.ctx, 'deleteCartProduct', { cart_id: line.cartId }, { token: r.token });
    r.trail.push(res);
    if (res.data?.deleteCartProduct !== true)
      fail(
        r,
        `deleteCartProduct of own line ${line.cartId}: expected true, got ${refusal(res, 'deleteCartProduct') ?? short(res.data?.deleteCartProduct)}`,
        res,
      );
    m.lines.splice(i, 1);
    // Whether a coupon outlives the last line is not shown: the next result decides.
    if (m.lines.length === 0 && m.coupon === 'applied') m.coupon = 'unknown';
  }
  toString = () => `deleteCartProduct(line #${this.index})`;
}

/** A cart_id the cart does not hold: whatever the answer, the cart stays as it was. */
class UpdateMissingLine implements Cmd {
  check = () => true;
  async run(_m: CartModel, r: CartReal): Promise<void> {
    r.trail.push(await op(r.ctx, 'updateCartProduct', { cart_id: '987654321', quantity: 3 }, { token: r.token }));
  }
  toString = () => 'updateCartProduct(cart_id 987654321, 3)';
}

class ApplyCoupon implements Cmd {
  constructor(readonly valid: boolean) {}
  check = () => true;
  async run(m: CartModel, r: CartReal): Promise<void> {
    const code = this.valid ? (r.coupon ?? '') : 'SFC-NO-SUCH-COUPON';
    if (this.valid && !r.coupon) return;
    const res = await op(r.ctx, 'addCoupon', { code }, { token: r.token });
    r.trail.push(res);
    const why = refusal(res, 'addCoupon');
    if (!this.valid) {
      // Refused (GQL-COUP-03); whether an earlier coupon survives a bad code is not shown.
      if (!why && res.data?.addCoupon && record(res.data.addCoupon)?.coupon_code === code)
        fail(r, `addCoupon of unknown code ${code} was applied`, res);
      if (m.coupon === 'applied') m.coupon = 'unknown';
      return;
    }
    if (total(m) === 0) {
      // On an empty cart the document says nothing: applied (with no discount yet) or refused are both readings.
      if (why) return;
      m.coupon = 'applied';
      const d = num(record(res.data?.addCoupon)?.coupon_discount) ?? 0;
      // Never positive; an amount coupon may show its whole amount before there is anything to cut.
      const floor = r.couponOff?.kind === 'amount' ? -r.couponOff.value : r.couponOff ? 0 : Number.NEGATIVE_INFINITY;
      if (d > CENT || d < floor - CENT)
        fail(r, `addCoupon on an empty cart: coupon_discount ${d} is not between ${floor} and 0`, res);
      return;
    }
    if (why) fail(r, `addCoupon of the valid coupon ${code} on a cart of ${total(m)} was refused: ${why}`, res);
    m.coupon = 'applied';
    checkMoney(m, r, res, 'addCoupon');
  }
  toString = () => (this.valid ? 'addCoupon(valid)' : 'addCoupon(unknown code)');
}

/**
 * Fails the check unless emptyCart was taken. Its result is not shown (NS-GQL-03): a null or false
 * result is not a refusal, only a refusal of the answer as a whole is (answerRefusal); whether the
 * cart was emptied is judged by what the cart holds next.
 */
export function expectEmptyCartTaken(ctx: Ctx, res: GraphQLResult, what = 'emptyCart'): void {
  const body = ctx.json<unknown>(res.exchange);
  ctx.expect(body !== null && typeof body === 'object' && !Array.isArray(body), 'expected a JSON object', res.exchange);
  ctx.validate('graphql/schemas/envelope.schema.json', body, res.exchange, 'response body');
  const why = answerRefusal(res);
  if (why) ctx.fail(`${what}: expected it to be taken, got ${why}`, res.exchange);
}

class EmptyCart implements Cmd {
  check = () => true;
  async run(m: CartModel, r: CartReal): Promise<void> {
    const res = await emptyCart(r.ctx, { token: r.token });
    r.trail.push(res);
    // Its result is not shown (NS-GQL-03): only errors or status false are a refusal; the next add judges the effect.
    const why = answerRefusal(res);
    if (why) r.ctx.fail(`emptyCart was refused: ${why}`, ...lastTrail(r));
    m.lines = [];
    // Whether emptyCart also drops the coupon is not shown: the next result decides.
    if (m.coupon === 'applied') m.coupon = 'unknown';
  }
  toString = () => 'emptyCart';
}

/**
 * The command generators, weighted (fc.commands picks uniformly from the list): adds (the only
 * read of the whole cart) and updates and deletes of existing lines, which only run when the
 * model holds a line, come more often than empty and the missing-line update. The coupon comes
 * twice, valid two times in three: its money is judged only once it is on the cart, and at one
 * entry in eleven, valid one time in two, a default run's 8 sequences missed a positive
 * coupon_discount with 1 of seeds 1 to 8.
 */
export function cartCommands(): fc.Arbitrary<Cmd>[] {
  // Either product: with a second one set, carts of two lines, where updates and deletes of one
  // line must leave the other alone (the first product only when none is set).
  const add = fc.tuple(fc.integer({ min: 1, max: 5 }), fc.nat({ max: 1 })).map(([q, which]): Cmd => new AddProduct(q, which));
  const update = fc.tuple(fc.nat({ max: 3 }), fc.integer({ min: 1, max: 9 })).map(([i, q]): Cmd => new UpdateLine(i, q));
  const del = fc.nat({ max: 3 }).map((i): Cmd => new DeleteLine(i));
  const coupon = fc.constantFrom(true, true, false).map((valid): Cmd => new ApplyCoupon(valid));
  return [
    add,
    add,
    add,
    update,
    update,
    update,
    del,
    del,
    coupon,
    coupon,
    fc.constant<Cmd>(new EmptyCart()),
    fc.constant<Cmd>(new UpdateMissingLine()),
  ];
}

/** After the sequence: one more add reads the whole cart back, so the last step is judged too. */
export async function finalRead(m: CartModel, r: CartReal): Promise<void> {
  await new AddProduct(1).run(m, r);
}
