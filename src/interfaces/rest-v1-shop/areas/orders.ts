import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import { call, type Envelope, envelope, errorsObject, expectFieldError } from '../client.js';
import { type Account, addPurchasable, emptyCartOnTeardown, type ProductSummary, register } from '../flows.js';

// Order create (its response is not shown) and the orders list that must then hold the order.

interface OrderSummary {
  order_id: number;
  payment_method: string;
  billing_country: string;
  items: { item_name: string; quantity: number | string }[];
  date_created: { date: string };
}

interface OrderState {
  account: Account;
  product: ProductSummary;
  createEx: Exchange;
  createBody: Envelope;
  orders: OrderSummary[];
  mine: number[];
}

type C = CheckContext<OrderState>;
const COUNTRY = 'US';
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
      id: 'SHOP-CART-01',
      title: 'put a product in the cart (quantity 1)',
      needs: ['account'],
      run: async (ctx: C) => {
        emptyCartOnTeardown(ctx, ctx.state.account!.token);
        ctx.state.product = (await addPurchasable(ctx, ctx.state.account!.token, 1)).product;
      },
    },
    {
      id: 'SHOP-ORD-06',
      title: 'order create without first_name: status false, errors.first_name',
      needs: ['product'],
      run: async (ctx: C) => {
        const form = orderForm(ctx, ctx.state.account!, ctx.data('SFC_SHOP_PAYMENT_METHOD') ?? 'cod');
        delete form.first_name;
        const ex = await call(ctx, 'POST', '/order/create', { token: ctx.state.account!.token, form });
        expectFieldError(ctx, ex, envelope(ctx, ex, 'order-create'), 'first_name', 'order create without first_name');
      },
    },
    {
      // Found by mutation testing: a handler that never checked email survived the suite.
      id: 'SHOP-ORD-07',
      title: 'order create without each other required field: status false, errors keyed by that field',
      needs: ['product'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        const method = ctx.data('SFC_SHOP_PAYMENT_METHOD') ?? 'cod';
        const wrong: string[] = [];
        const seen: Exchange[] = [];
        for (const field of OTHER_REQUIRED) {
          const form = orderForm(ctx, ctx.state.account!, method);
          delete form[field];
          const ex = await call(ctx, 'POST', '/order/create', { token, form });
          const body = envelope(ctx, ex, 'order-create');
          const errors = errorsObject(body);
          const msg = errors?.[field];
          if (body.status === false && ((typeof msg === 'string' && msg !== '') || (Array.isArray(msg) && msg.length > 0)))
            continue;
          wrong.push(
            `without ${field}: status ${String(body.status)}, errors ${JSON.stringify(body.errors).slice(0, 200)} (expected status false and errors.${field} with a message)`,
          );
          seen.push(ex);
          // An accepted order empties the cart: the fields after it could not be judged.
          if (body.status === true) break;
        }
        ctx.expect(wrong.length === 0, `order create: ${wrong.join('; ')}`, ...seen);
      },
    },
    {
      id: 'SHOP-ORD-01',
      title: 'order create with every required field (SFC_SHOP_PAYMENT_METHOD) answers the envelope',
      needs: ['product'],
      run: async (ctx: C) => {
        const method = ctx.data('SFC_SHOP_PAYMENT_METHOD');
        if (!method) ctx.skip('SFC_SHOP_PAYMENT_METHOD (a payment method of the target) is not set');
        const ex = await call(ctx, 'POST', '/order/create', {
          token: ctx.state.account!.token,
          form: orderForm(ctx, ctx.state.account!, method),
        });
        ctx.state.createBody = envelope(ctx, ex, 'order-create');
        ctx.state.createEx = ex;
      },
    },
    {
      id: 'SHOP-ORD-02',
      title: 'the valid order answers status true',
      needs: ['createBody', 'createEx'],
      run: async (ctx: C) => {
        const body = ctx.state.createBody!;
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
        const { ex, body } = await listOrders(ctx, ctx.state.account!.token);
        ctx.expect(
          body.status === true,
          `GET /orders after an order: expected status true, got ${String(body.status)}: "${body.message}"`,
          ex,
        );
        ctx.state.orders = (body.data as { orders: OrderSummary[] }).orders;
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
      title: 'the order created is listed with its payment method, billing country and item',
      needs: ['orders', 'product'],
      run: async (ctx: C) => {
        const method = ctx.data('SFC_SHOP_PAYMENT_METHOD')!;
        const orders = ctx.state.orders!;
        const found = orders.find(
          (o) =>
            o.payment_method === method &&
            o.billing_country === COUNTRY &&
            o.items.some((i) => i.item_name === ctx.state.product!.name && Number(i.quantity) === 1),
        );
        ctx.expect(
          found,
          `GET /orders of a new account lists ${orders.length} order(s), none with payment_method ${method}, billing_country ${COUNTRY} and 1 x "${ctx.state.product!.name}"`,
        );
        ctx.state.mine = orders.map((o) => o.order_id);
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
  ],
};
