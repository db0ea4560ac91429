import fc from 'fast-check';
import { invalidPhone, phone } from '../../../arbitraries/identifiers.js';
import { notInteger } from '../../../arbitraries/shop-quantities.js';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { checkProperty } from '../../../checks/properties.js';
import { cappedRuns } from '../budget.js';
import { call, envelope, expectFieldError, tryJson } from '../client.js';
import { type Account, addItem, addPurchasable, emptyCartOnTeardown, register, skipIfOutOfStock } from '../flows.js';

// Boundary properties of order create: phone 10 digits ("8. Limits"; the row types it integer)
// and postcode (integer). The account keeps a product in its cart, so a refusal cannot be the
// empty cart's; the edge values that must be accepted create real orders.

interface OrderPropState {
  account: Account;
  productId: number;
  method: string;
}

type C = CheckContext<OrderPropState>;

/** Each accepted run creates an order (stock goes down): at most this many, whatever --runs says. */
const ORDER_RUNS = 8;

function form(ctx: C, over: Record<string, string>): Record<string, string> {
  const a = ctx.state.account!;
  const method = ctx.state.method!;
  return {
    first_name: a.first_name,
    last_name: a.last_name,
    country: 'US',
    city: 'Austin',
    state: 'TX',
    postcode: '73301',
    phone: ctx.names.phone(),
    email: a.email,
    payment_method: method,
    payment_method_title: method,
    address_1: ctx.names.label('street'),
    ...over,
  };
}

/** Postcodes a reading of "integer" must accept: 1 to 9 digits, no leading zero (an integer keeps none). */
const postcode = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 0, maxLength: 8 }))
  .map(([d, rest]) => `${d}${rest.join('')}`);

export const orderPropertiesArea: AreaSpec<OrderPropState> = {
  interface: 'rest-v1-shop',
  name: 'order-properties',
  checks: [
    {
      id: 'SHOP-CART-01',
      title: 'register an account and put a product in its cart',
      run: async (ctx: C) => {
        const account = (await register(ctx)).account;
        ctx.state.account = account;
        emptyCartOnTeardown(ctx, account.token);
        ctx.state.productId = (await addPurchasable(ctx, account.token, 1)).product.id;
        ctx.state.method = ctx.data('SFC_SHOP_PAYMENT_METHOD') ?? 'cod';
      },
    },
    {
      id: 'SHOP-PROP-01',
      title: 'property: a phone that is not exactly 10 digits is refused with errors.phone',
      needs: ['productId'],
      run: async (ctx: C) => {
        await checkProperty(
          ctx,
          'shop order phone refused',
          invalidPhone({ digits: 10 }),
          async (bad) => {
            const ex = await call(ctx, 'POST', '/order/create', {
              token: ctx.state.account!.token,
              form: form(ctx, { phone: bad }),
            });
            expectFieldError(
              ctx,
              ex,
              envelope(ctx, ex, 'order-create'),
              'phone',
              `order create with phone ${JSON.stringify(bad)}`,
            );
          },
          { runs: cappedRuns(ctx, 1) },
        );
      },
    },
    {
      id: 'SHOP-PROP-01',
      title:
        'a phone of nine digits and a decimal point (ten characters of a number), and ten digits with separators: errors.phone',
      needs: ['productId'],
      run: async (ctx: C) => {
        // "10 digits" counted as ten characters of a number (is_numeric and strlen) takes a point, a sign or a blank
        // for a digit; the property's random phones rarely put one where such a test lets it through. Ten digits
        // written with separators ("512-555-0199") are not 10 digits either: a target that strips every non-digit
        // before counting lets them through, and the property's phones put a non-digit in place of a digit, never
        // beside ten of them (found by the fault catalog). One request each.
        const digits = ctx.names.phone();
        const spaced = `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
        for (const bad of ['12345678.9', spaced]) {
          const ex = await call(ctx, 'POST', '/order/create', {
            token: ctx.state.account!.token,
            form: form(ctx, { phone: bad }),
          });
          expectFieldError(ctx, ex, envelope(ctx, ex, 'order-create'), 'phone', `order create with phone ${JSON.stringify(bad)}`);
        }
      },
    },
    {
      id: 'SHOP-PROP-02',
      title: 'property: a postcode that is not an integer is refused with errors.postcode',
      needs: ['productId'],
      run: async (ctx: C) => {
        await checkProperty(
          ctx,
          'shop order postcode refused',
          notInteger({ max: 99_999 }),
          async (bad) => {
            const ex = await call(ctx, 'POST', '/order/create', {
              token: ctx.state.account!.token,
              form: form(ctx, { postcode: bad }),
            });
            const body = envelope(ctx, ex, 'order-create');
            expectFieldError(ctx, ex, body, 'postcode', `order create with postcode ${JSON.stringify(bad)}`);
          },
          { runs: cappedRuns(ctx, 1) },
        );
      },
    },
    {
      id: 'SHOP-PROP-03',
      title: `property: a 10-digit phone and an integer postcode of 1 to 9 digits create the order (at most ${ORDER_RUNS} runs)`,
      needs: ['productId'],
      run: async (ctx: C) => {
        if (!ctx.data('SFC_SHOP_PAYMENT_METHOD')) ctx.skip('SFC_SHOP_PAYMENT_METHOD is not set: no payment method to order with');
        const token = ctx.state.account!.token;
        await checkProperty(
          ctx,
          'shop order phone and postcode accepted',
          fc.record({ phone: phone({ digits: 10 }), postcode }),
          async (edge) => {
            const add = await addItem(ctx, token, ctx.state.productId!, 1);
            // The property is about the order form; a cart the shop no longer fills is its precondition failing.
            if (tryJson(add)?.status !== true)
              await skipIfOutOfStock(ctx, [[ctx.state.productId!, 1]], 'the product was refused');
            const ex = await call(ctx, 'POST', '/order/create', { token, form: form(ctx, edge) });
            const body = envelope(ctx, ex, 'order-create');
            // Another area's order can take the last units between the add and this order ("out of stock" at create):
            // the precondition failing too, when a fresh cart is refused the product as well.
            if (body.status !== true) await skipIfOutOfStock(ctx, [[ctx.state.productId!, 1]], 'the order was refused');
            ctx.expect(
              body.status === true,
              `order create with phone ${edge.phone} and postcode ${edge.postcode}: expected status true, got false: "${body.message}" ${JSON.stringify(body.errors)}`,
              add,
              ex,
            );
          },
          { runs: cappedRuns(ctx, 2, ORDER_RUNS) },
        );
      },
    },
  ],
};
