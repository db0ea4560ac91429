import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import { bareEnvelope, call, conformsTo, type Envelope, envelope, errorsObject, expectFieldError, tokenOf } from '../client.js';
import {
  type Account,
  addPurchasable,
  type CartData,
  emptyCartOnTeardown,
  login,
  near,
  num,
  type ProductSummary,
  readCart,
  register,
  skipIfOutOfStock,
  updateQuantities,
} from '../flows.js';

// Order create (its response is not shown) and the orders list that must then hold the order.

interface OrderSummary {
  order_id: number;
  total: string;
  payment_method: string;
  payment_title: string;
  billing_country: string;
  items: { item_name: string; quantity: number | string }[];
  date_created: { date: string };
}

interface OrderState {
  account: Account;
  product: ProductSummary;
  /** A second product in the first order's cart: the order then has two lines. */
  second: ProductSummary;
  createEx: Exchange;
  createBody: Envelope;
  orders: OrderSummary[];
  /** The GET /orders that listed `orders`: evidence for the checks that read them. */
  ordersEx: Exchange;
  mine: number[];
  /** The coupon order of SHOP-ORD-09, placed with another billing country than the orders before it. */
  countries: { earlier: number[]; created: number; country: string; orders: OrderSummary[]; ex: Exchange };
  /** GET /orders after the coupon order of SHOP-ORD-09, which orders the first order's product again. */
  reordered: { orders: OrderSummary[]; ex: Exchange };
}

type C = CheckContext<OrderState>;
const COUNTRY = 'US';
/** The billing country of the coupon order: another than the first order's, so each order must keep its own. */
const OTHER_COUNTRY = 'CA';
/** Units of the product in the first order: more than one, so an order that lists each item once (quantity 1) shows. */
const ORDER_QTY = 2;
/** Units of the second product in the first order: an order of two lines, so a list that keeps one line shows. */
const SECOND_QTY = 3;
/** The billing names of the coupon order (SHOP-ORD-09): not the account's, as for an order billed to someone else. */
const BILLED_TO = { first_name: 'Billing', last_name: 'Recipient' };
/** The optional address_2 of the first order (B. Shop variant, POST /order/create: "optional: address_2"). */
const ADDRESS_2 = 'Suite 5';
/** The required body fields of POST /order/create (B. Shop variant) besides first_name (SHOP-ORD-06). */
const OTHER_REQUIRED = [
  'last_name',
  'country',
  'city',
  'state',
  'postcode',
  'phone',
  'email',
  'payment_method',
  'payment_method_title',
  'address_1',
] as const;

function orderForm(ctx: C, account: Account, paymentMethod: string): Record<string, string> {
  return {
    first_name: account.first_name,
    last_name: account.last_name,
    country: COUNTRY,
    city: 'Austin',
    state: 'TX',
    postcode: '73301',
    phone: ctx.names.phone(),
    email: account.email,
    payment_method: paymentMethod,
    payment_method_title: paymentMethod,
    address_1: ctx.names.label('street'),
  };
}

/** POST /order/create as the flow's account: the complete form, with `extra` fields over it. */
function createOrder(ctx: C, method: string, extra: Record<string, string> = {}): Promise<Exchange> {
  const account = ctx.state.account as Account;
  return call(ctx, 'POST', '/order/create', { token: account.token, form: { ...orderForm(ctx, account, method), ...extra } });
}

/**
 * Order create once per field, the form changed by `alter` for that field (left out, sent empty): each
 * must be refused with errors keyed by the field. An accepted order empties the cart, so it ends the loop.
 */
async function expectEachFieldRefused(
  ctx: C,
  fields: readonly string[],
  alter: (form: Record<string, string>, field: string) => Record<string, string>,
  shownAs: (field: string) => string,
): Promise<void> {
  const account = ctx.state.account as Account;
  const method = ctx.data('SFC_SHOP_PAYMENT_METHOD') ?? 'cod';
  const wrong: string[] = [];
  const seen: Exchange[] = [];
  for (const field of fields) {
    const form = alter(orderForm(ctx, account, method), field);
    const ex = await call(ctx, 'POST', '/order/create', { token: account.token, form });
    const body = envelope(ctx, ex, 'order-create');
    const msg = errorsObject(body)?.[field];
    if (body.status === false && ((typeof msg === 'string' && msg !== '') || (Array.isArray(msg) && msg.length > 0))) continue;
    wrong.push(
      `${shownAs(field)}: status ${String(body.status)}, errors ${JSON.stringify(body.errors).slice(0, 200)} (expected status false and errors.${field} with a message)`,
    );
    seen.push(ex);
    if (body.status === true) break;
  }
  ctx.expect(wrong.length === 0, `order create: ${wrong.join('; ')}`, ...seen);
}

const orderIds = (body: Envelope): number[] =>
  ((body.data as { orders?: OrderSummary[] } | undefined)?.orders ?? []).map((o) => o.order_id);

async function listOrders(ctx: C, token: string): Promise<{ ex: Exchange; body: Envelope }> {
  const ex = await call(ctx, 'GET', '/orders', { token });
  return { ex, body: envelope(ctx, ex, 'orders') };
}

export const ordersArea: AreaSpec<OrderState> = {
  interface: 'rest-v1-shop',
  name: 'orders',
  checks: [
    {
      id: 'SHOP-AUTH-01',
      title: 'register the account of the order flow',
      run: async (ctx: C) => {
        ctx.state.account = (await register(ctx)).account;
      },
    },
    {
      // Found by mutation testing: a handler that created an order from an empty cart survived the suite.
      id: 'SHOP-ORD-11',
      title: 'order create with every required field but an empty cart: status false and a message',
      needs: ['account'],
      run: async (ctx: C) => {
        const method = ctx.data('SFC_SHOP_PAYMENT_METHOD');
        if (!method) ctx.skip("SFC_SHOP_PAYMENT_METHOD is not set: a refusal could be the payment method's");
        const ex = await createOrder(ctx, method);
        const body = envelope(ctx, ex, 'order-create');
        ctx.expect(
          body.status === false,
          `order create with an empty cart: expected status false (nothing to order), got ${String(body.status)}: "${body.message}"`,
          ex,
        );
        ctx.expect(body.message.trim() !== '', 'order create with an empty cart: expected a failure message, got ""', ex);
      },
    },
    {
      id: 'SHOP-CART-01',
      title: `put a product in the cart (quantity ${ORDER_QTY})`,
      needs: ['account'],
      run: async (ctx: C) => {
        emptyCartOnTeardown(ctx, ctx.state.account!.token);
        ctx.state.product = (await addPurchasable(ctx, ctx.state.account!.token, ORDER_QTY)).product;
      },
    },
    {
      id: 'SHOP-CART-01',
      title: 'put a second product in the cart (quantity 1)',
      needs: ['product'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        ctx.state.second = (await addPurchasable(ctx, token, 1, [ctx.state.product!.id])).product;
      },
    },
    {
      // The order is placed after an update-quantities: a target whose order create reads another copy of the cart
      // than the one update-quantities writes orders the quantity added, not the one the cart shows (wave 18).
      id: 'SHOP-CART-15',
      title: `update the second product's quantity to ${SECOND_QTY} before the order`,
      needs: ['second'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        const { ex, data } = await readCart(ctx, token);
        const item = data.cart_items.find((i) => Number(i.product_id) === ctx.state.second!.id);
        ctx.expect(item, `the cart does not list product ${ctx.state.second!.id} just added`, ex);
        const up = await updateQuantities(ctx, token, { [item.key]: SECOND_QTY });
        const body = envelope(ctx, up, 'cart-update-quantities');
        ctx.expect(
          body.status === true,
          `update-quantities of product ${ctx.state.second!.id} to ${SECOND_QTY}: expected status true, got ${String(body.status)}: "${body.message}"`,
          up,
        );
      },
    },
    {
      id: 'SHOP-ORD-06',
      title: 'order create without first_name: status false, errors.first_name',
      needs: ['product'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        const form = orderForm(ctx, ctx.state.account!, ctx.data('SFC_SHOP_PAYMENT_METHOD') ?? 'cod');
        delete form.first_name;
        const before = await listOrders(ctx, token);
        const ex = await call(ctx, 'POST', '/order/create', { token, form });
        expectFieldError(ctx, ex, envelope(ctx, ex, 'order-create'), 'first_name', 'order create without first_name');
        // A refused create places no order: a target that creates the order from the cart before it checks the
        // billing fields answers the refusal, yet lists an order made without a required field.
        const after = await listOrders(ctx, token);
        const had = orderIds(before.body);
        const made = orderIds(after.body).filter((id) => !had.includes(id));
        ctx.expect(
          made.length === 0,
          `order create without first_name was refused, yet GET /orders now lists ${made.length} new order(s): ${made.join(', ')}`,
          ex,
          before.ex,
          after.ex,
        );
      },
    },
    {
      // Found by mutation testing: a handler that never checked email survived the suite.
      id: 'SHOP-ORD-07',
      title: 'order create without each other required field: status false, errors keyed by that field',
      needs: ['product'],
      run: (ctx: C) =>
        expectEachFieldRefused(
          ctx,
          OTHER_REQUIRED,
          (form, field) => Object.fromEntries(Object.entries(form).filter(([k]) => k !== field)),
          (field) => `without ${field}`,
        ),
    },
    {
      // Found by mutation testing: a handler that took "" for a required text field survived the suite.
      id: 'SHOP-ORD-10',
      title: 'order create with each required field sent empty: status false, errors keyed by that field',
      needs: ['product'],
      run: (ctx: C) =>
        expectEachFieldRefused(
          ctx,
          ['first_name', ...OTHER_REQUIRED],
          (form, field) => ({ ...form, [field]: '' }),
          (field) => `${field}=""`,
        ),
    },
    {
      id: 'SHOP-ORD-01',
      title: 'order create with every required field (SFC_SHOP_PAYMENT_METHOD) and the optional address_2 answers the envelope',
      needs: ['product'],
      run: async (ctx: C) => {
        const method = ctx.data('SFC_SHOP_PAYMENT_METHOD');
        if (!method) ctx.skip('SFC_SHOP_PAYMENT_METHOD (a payment method of the target) is not set');
        // With address_2, an optional field of the table, so SHOP-ORD-02 sees it accepted (found by the mutation audit: a
        // handler that refused every order sending address_2 survived the suite).
        const ex = await createOrder(ctx, method, { address_2: ADDRESS_2 });
        ctx.state.createBody = envelope(ctx, ex, 'order-create');
        ctx.state.createEx = ex;
      },
    },
    {
      id: 'SHOP-ORD-02',
      title: 'the valid order (with the optional address_2) answers status true',
      needs: ['createBody', 'createEx'],
      run: async (ctx: C) => {
        const body = ctx.state.createBody!;
        if (body.status !== true) {
          const lines: [number, number][] = [[ctx.state.product!.id, ORDER_QTY]];
          if (ctx.state.second) lines.push([ctx.state.second.id, SECOND_QTY]);
          await skipIfOutOfStock(ctx, lines, 'the order was refused');
        }
        ctx.expect(
          body.status === true,
          `order create: expected status true, got ${String(body.status)}: "${body.message}" ${JSON.stringify(body.errors)}`,
          ctx.state.createEx!,
        );
      },
    },
    {
      id: 'SHOP-ORD-03',
      title: 'GET /orders: data {orders, currency}',
      needs: ['createBody'],
      run: async (ctx: C) => {
        const ex = await call(ctx, 'GET', '/orders', { token: ctx.state.account!.token });
        const body = bareEnvelope(ctx, ex);
        ctx.expect(
          body.status === true,
          `GET /orders after an order: expected status true, got ${String(body.status)}: "${body.message}"`,
          ex,
        );
        const orders = (body.data as { orders?: unknown } | undefined)?.orders;
        ctx.expect(Array.isArray(orders), 'GET /orders: data.orders is not a list', ex);
        ctx.state.orders = orders as OrderSummary[];
        ctx.state.ordersEx = ex;
        // The schema last, so that SHOP-ORD-04 still judges an order summary with a mistyped field.
        conformsTo(ctx, ex, body, 'orders');
      },
    },
    {
      id: 'SHOP-ORD-04',
      title: 'each order summary carries the Part 2 fields with their types',
      needs: ['orders'],
      run: async (ctx: C) => {
        const { ex, body } = await listOrders(ctx, ctx.state.account!.token);
        const orders = (body.data as { orders?: OrderSummary[] } | undefined)?.orders ?? [];
        if (orders.length === 0) ctx.skip('GET /orders lists no order to check');
        orders.forEach((o, i) => {
          ctx.validate('rest-v1-shop/schemas/order-summary.schema.json', o, ex, `orders[${i}]`);
        });
        ctx.choose('AMB-SHOP-07', orders[0]!.date_created.date.includes('.') ? 'fraction' : 'plain');
        const q = orders[0]!.items[0]?.quantity;
        if (q !== undefined) ctx.choose('AMB-SHOP-03', typeof q === 'number' ? 'integer' : 'string');
      },
    },
    {
      id: 'SHOP-ORD-05',
      title: 'the order created is listed with its payment method, billing country and each line with its quantity',
      needs: ['orders', 'product'],
      run: async (ctx: C) => {
        const method = ctx.data('SFC_SHOP_PAYMENT_METHOD')!;
        const orders = ctx.state.orders!;
        // Every line of the cart ordered, the second one too when it could be added (an order of two lines).
        const lines: [ProductSummary, number][] = [[ctx.state.product!, ORDER_QTY]];
        if (ctx.state.second) lines.push([ctx.state.second, SECOND_QTY]);
        else ctx.note('no second product could be added to the cart: the order is judged on its one line');
        const found = orders.find(
          (o) =>
            o.payment_method === method &&
            o.billing_country === COUNTRY &&
            lines.every(
              ([p, q]) => Array.isArray(o.items) && o.items.some((i) => i.item_name === p.name && Number(i.quantity) === q),
            ),
        );
        ctx.expect(
          found,
          `GET /orders of a new account lists ${orders.length} order(s) (items ${orders.map((o) => JSON.stringify(o.items)).join('; ')}), none with payment_method ${method}, billing_country ${COUNTRY} and ${lines.map(([p, q]) => `${q} x "${p.name}"`).join(' and ')}`,
          ctx.state.ordersEx!,
        );
        ctx.state.mine = orders.map((o) => o.order_id);
      },
    },
    {
      // Found by the mutation audit: an order listed with the method's own title, not the one sent, survived the suite.
      id: 'SHOP-ORD-12',
      title: 'the order created is listed with the payment_method_title sent as its payment_title',
      needs: ['orders'],
      run: async (ctx: C) => {
        // The fresh account's orders so far were all made by orderForm, which sends the method id as its title.
        const title = ctx.data('SFC_SHOP_PAYMENT_METHOD')!;
        const orders = ctx.state.orders!;
        const ex = ctx.state.ordersEx!;
        if (orders.length === 0) ctx.skip('GET /orders lists no order to check');
        const other = orders.filter((o) => o.payment_title !== title);
        ctx.expect(
          other.length === 0,
          `orders created with payment_method_title "${title}" are listed with payment_title ${other.map((o) => JSON.stringify(o.payment_title)).join(', ')}`,
          ex,
        );
      },
    },
    {
      id: 'SHOP-SEC-05',
      title: 'another account does not see my orders',
      needs: ['mine'],
      run: async (ctx: C) => {
        const other = (await register(ctx)).account;
        const { ex, body } = await listOrders(ctx, other.token);
        const ids = ((body.data as { orders?: OrderSummary[] } | undefined)?.orders ?? []).map((o) => o.order_id);
        const leaked = ids.filter((id) => ctx.state.mine!.includes(id));
        ctx.expect(leaked.length === 0, `a new account's GET /orders lists my orders ${leaked.join(', ')}`, ex);
      },
    },
    {
      // Found by mutation testing: coupons sent with an order were never exercised (a crash there survived).
      id: 'SHOP-ORD-09',
      title:
        'an order of 2 units with coupons[]=<SFC_SHOP_COUPON>: status true, listed with the total the cart showed with that coupon',
      needs: ['mine'],
      run: async (ctx: C) => {
        const code = ctx.data('SFC_SHOP_COUPON');
        if (!code) ctx.skip('SFC_SHOP_COUPON (a valid coupon code of the target) is not set');
        const method = ctx.data('SFC_SHOP_PAYMENT_METHOD')!;
        const token = ctx.state.account!.token;
        // Two units: a total that counts each line once whatever its quantity differs from the cart's. The first
        // order's product when it can be had: the earlier order must keep its line when the product is ordered again.
        await addPurchasable(ctx, token, 2, [], (p) => p.id === ctx.state.product!.id);
        const cart = await readCart(ctx, token, [code]);
        const want = num((cart.data as CartData).cart_totals.total);
        ctx.expect(cart.body.coupon_status === true, `GET /cart?coupons[]=${code}: coupon_status is not true`, cart.ex);
        // Another billing country than the account's earlier orders (SHOP-ORD-05 below); a target that does not sell
        // there refuses it under country, and the order is placed with the first order's country instead.
        let country = OTHER_COUNTRY;
        // Billed to someone else's e-mail too: the account's order all the same (found by the fault catalog: a list of the
        // orders billed to the account's e-mail, wc_get_orders( billing_email ), left it out).
        const billed = { ...BILLED_TO, email: ctx.names.email() };
        let ex = await createOrder(ctx, method, { 'coupons[]': code, country, ...billed });
        let body = envelope(ctx, ex, 'order-create');
        if (body.status === false && errorsObject(body)?.country !== undefined) {
          ctx.note(`order create with country ${OTHER_COUNTRY} was refused under country: placed with ${COUNTRY}`);
          country = COUNTRY;
          ex = await createOrder(ctx, method, { 'coupons[]': code, ...billed });
          body = envelope(ctx, ex, 'order-create');
        }
        if (body.status !== true)
          await skipIfOutOfStock(
            ctx,
            (cart.data as CartData).cart_items.map((i): [number, number] => [Number(i.product_id), Number(i.quantity)]),
            `order create with coupons[]=${code} was refused`,
          );
        ctx.expect(
          body.status === true,
          `order create with coupons[]=${code}: expected status true, got ${String(body.status)}: "${body.message}" ${JSON.stringify(body.errors)}`,
          ex,
        );
        const list = await listOrders(ctx, token);
        const orders = (list.body.data as { orders?: OrderSummary[] } | undefined)?.orders ?? [];
        ctx.state.reordered = { orders, ex: list.ex };
        const created = orders.filter((o) => !ctx.state.mine!.includes(o.order_id));
        ctx.expect(created.length === 1, `GET /orders should list the one new order, lists ${created.length} new`, ex, list.ex);
        // The earlier orders judged are those listed with COUNTRY before: an order a target kept from a refused create
        // (SHOP-ORD-06's to judge) may carry no country at all.
        const earlier = ctx.state.orders!.filter((o) => o?.billing_country === COUNTRY).map((o) => o.order_id);
        if (country !== COUNTRY) ctx.state.countries = { earlier, created: created[0]!.order_id, country, orders, ex: list.ex };
        const got = num(created[0]!.total);
        ctx.expect(
          want !== undefined && got !== undefined && near(got, want),
          `the order with coupon ${code} is listed with total ${created[0]!.total}; GET /cart with that coupon showed ${String(cart.data.cart_totals.total)}`,
          cart.ex,
          ex,
          list.ex,
        );
        ctx.state.mine = orders.map((o) => o.order_id);
      },
    },
    {
      // The coupon order above was billed to other names than the account's (wave 18): a target that answers login's
      // first_name and last_name from the billing details its orders saved shows the names of that order instead.
      id: 'SHOP-AUTH-03',
      title: "login after an order billed to other names: first_name and last_name are still the account's",
      needs: ['reordered'],
      run: async (ctx: C) => {
        const a = ctx.state.account!;
        const ex = await login(ctx, a.username, a.password);
        const body = envelope(ctx, ex, 'login');
        if (body.status !== true)
          ctx.skip(`login of the account answered status ${String(body.status)} (SHOP-AUTH-02's to judge)`);
        // A target that keeps one session per account ends the older token at this login: the checks after it use the new one.
        const token = tokenOf(ctx, body);
        if (token) ctx.state.account = { ...a, token };
        const user = (body.user ?? {}) as { first_name?: unknown; last_name?: unknown };
        ctx.expect(
          user.first_name === a.first_name && user.last_name === a.last_name,
          `login after an order billed to "${BILLED_TO.first_name} ${BILLED_TO.last_name}" answers first_name ${JSON.stringify(user.first_name)} and last_name ${JSON.stringify(user.last_name)}; the account registered "${a.first_name}" and "${a.last_name}"`,
          ex,
        );
      },
    },
    {
      // An order keeps its lines once the account orders one of its products again: a target that files order lines
      // by the cart item key (the same for a product in each cart of the account) moves the line to the newer order.
      id: 'SHOP-ORD-05',
      title: 'after an order of a product ordered before, the earlier orders are still listed with each of their lines',
      needs: ['reordered', 'orders'],
      run: async (ctx: C) => {
        const { orders, ex } = ctx.state.reordered!;
        const lineList = (o: OrderSummary): string[] =>
          Array.isArray(o.items) ? o.items.map((i) => `${Number(i?.quantity)} x "${String(i?.item_name)}"`).sort() : [];
        // Entries that are not objects are SHOP-ORD-04's to judge.
        const isOrder = (o: unknown): o is OrderSummary =>
          typeof o === 'object' && o !== null && Array.isArray((o as OrderSummary).items);
        const wrong = ctx.state.orders!.filter(isOrder).flatMap((before) => {
          const now = orders.find((o) => isOrder(o) && o.order_id === before.order_id);
          if (!now) return [`order ${before.order_id} is no longer listed`];
          const [was, is] = [lineList(before), lineList(now)];
          return JSON.stringify(was) === JSON.stringify(is)
            ? []
            : [`order ${before.order_id} was listed with ${was.join(', ') || 'no line'}, now with ${is.join(', ') || 'no line'}`];
        });
        ctx.expect(
          wrong.length === 0,
          `GET /orders after a further order of the account: ${wrong.join('; ')}`,
          ctx.state.ordersEx!,
          ex,
        );
      },
    },
    {
      // Each order is listed with the billing country it was placed with, also once a later order of the account went
      // to another country: a target that answers the customer's (last saved) billing country lists them all alike.
      id: 'SHOP-ORD-05',
      title: `after an order billed to ${OTHER_COUNTRY}, the earlier orders are still listed with ${COUNTRY} and the new one with ${OTHER_COUNTRY}`,
      needs: ['countries'],
      run: async (ctx: C) => {
        const { earlier, created, country, orders, ex } = ctx.state.countries!;
        // An entry that is not an object is SHOP-ORD-04's to judge.
        const wrong = orders.flatMap((o) => {
          if (typeof o !== 'object' || o === null) return [];
          const want = o.order_id === created ? country : earlier.includes(o.order_id) ? COUNTRY : undefined;
          return want === undefined || o.billing_country === want
            ? []
            : [`order ${o.order_id}: billing_country ${JSON.stringify(o.billing_country)}, placed with ${want}`];
        });
        ctx.expect(wrong.length === 0, `GET /orders after an order billed to ${country}: ${wrong.join('; ')}`, ex);
      },
    },
    {
      // Found by mutation testing: a GET /orders that ignored start and limit survived the suite.
      id: 'SHOP-ORD-08',
      title:
        'GET /orders with limit=1 lists the first order only; with start=1, every order but the first; start=1&limit=2 the next two, start=1&limit=1 the second alone',
      needs: ['mine'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        // Three orders at least: a window that starts past the first order and ends before the last one tells a
        // count from an end index (found by the fault catalog: array_slice( $orders, $start, $start + $limit )).
        for (let n = ctx.state.mine!.length; n < 3; n++) {
          const { product } = await addPurchasable(ctx, token, 1);
          const method = ctx.data('SFC_SHOP_PAYMENT_METHOD')!;
          const ex = await createOrder(ctx, method);
          const accepted = envelope(ctx, ex, 'order-create').status === true;
          if (!accepted) await skipIfOutOfStock(ctx, [[product.id, 1]], `order ${n + 1} of the account was refused`);
          ctx.expect(accepted, `order ${n + 1} of the account was not accepted`, ex);
        }
        const ids = async (query?: Record<string, string>) => {
          const ex = await call(ctx, 'GET', '/orders', { token, ...(query ? { query } : {}) });
          const body = envelope(ctx, ex, 'orders');
          return { ex, ids: ((body.data as { orders?: OrderSummary[] } | undefined)?.orders ?? []).map((o) => o.order_id) };
        };
        const all = await ids();
        ctx.expect(all.ids.length >= 3, `GET /orders lists ${all.ids.length} order(s) of an account that placed three`, all.ex);
        const one = await ids({ limit: '1' });
        ctx.expect(
          JSON.stringify(one.ids) === JSON.stringify(all.ids.slice(0, 1)),
          `GET /orders?limit=1 lists [${one.ids.join(', ')}]; the unpaged list starts with ${all.ids[0]}`,
          all.ex,
          one.ex,
        );
        const rest = await ids({ start: '1' });
        ctx.expect(
          JSON.stringify(rest.ids) === JSON.stringify(all.ids.slice(1)),
          `GET /orders?start=1 lists [${rest.ids.join(', ')}]; the unpaged list without its first order is [${all.ids.slice(1).join(', ')}]`,
          all.ex,
          rest.ex,
        );
        // Both at once, start not a multiple of limit: start is an offset, not a page (a target that turns the two
        // into a page number lists the first order again).
        const window = await ids({ start: '1', limit: '2' });
        ctx.expect(
          JSON.stringify(window.ids) === JSON.stringify(all.ids.slice(1, 3)),
          `GET /orders?start=1&limit=2 lists [${window.ids.join(', ')}]; orders 2 and 3 of the unpaged list are [${all.ids.slice(1, 3).join(', ')}]`,
          all.ex,
          window.ex,
        );
        // limit is a count from start, not an end index: start=1&limit=1 lists the second order alone.
        const second = await ids({ start: '1', limit: '1' });
        ctx.expect(
          JSON.stringify(second.ids) === JSON.stringify(all.ids.slice(1, 2)),
          `GET /orders?start=1&limit=1 lists [${second.ids.join(', ')}]; order 2 of the unpaged list is [${all.ids.slice(1, 2).join(', ')}]`,
          all.ex,
          second.ex,
        );
      },
    },
  ],
};
