import fc from 'fast-check';
import { invalidUsername } from '../../../arbitraries/identifiers.js';
import { notInteger as badQuantity } from '../../../arbitraries/shop-quantities.js';
import { text } from '../../../arbitraries/strings.js';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { checkProperty } from '../../../checks/properties.js';
import { cappedRuns } from '../budget.js';
import { call, envelope, expectFieldError, listProducts, tokenOf } from '../client.js';
import { type Account, addItem, addPurchasable, newAccountForm, readCart, register, updateQuantities } from '../flows.js';

// Boundary properties of the documented limits of variant B: username letters and digits,
// cart quantities (integers; zero removes), the products page. Edges accepted, values past them
// refused, and the refusal names the field (update-quantities: the cart item key).

interface PropState {
  account: Account;
  productId: number;
  key: string;
  totalPages: number;
}

type C = CheckContext<PropState>;

/** One registration per run: at most this many, whatever --runs says. */
const REGISTRATION_RUNS = 25;

/** The quantity the account's line holds before each update property; refusals must leave it. */
const HELD = 2;

/** After a property of refusals, the account's line still holds HELD (one read for the whole property). */
async function expectHeld(ctx: C, what: string): Promise<void> {
  const { ex, data } = await readCart(ctx, ctx.state.account!.token);
  const item = data.cart_items.find((i) => i.key === ctx.state.key);
  ctx.expect(
    item && Number(item.quantity) === HELD,
    `after ${what} the line of product ${ctx.state.productId} holds ${item?.quantity ?? 'nothing'}, not ${HELD}`,
    ex,
  );
}

/** The update-quantities refusal for `quantity`: status false with errors keyed by the cart item key. */
async function refusedUpdate(ctx: C, quantity: string): Promise<void> {
  const key = ctx.state.key!;
  const ex = await updateQuantities(ctx, ctx.state.account!.token, { [key]: quantity });
  const body = envelope(ctx, ex, 'cart-update-quantities');
  expectFieldError(ctx, ex, body, key, `update-quantities with quantity ${JSON.stringify(quantity)}`);
}

export const propertiesArea: AreaSpec<PropState> = {
  interface: 'rest-v1-shop',
  name: 'properties',
  checks: [
    {
      id: 'SHOP-CART-01',
      title: `register an account and put a product in its cart (quantity ${HELD})`,
      run: async (ctx: C) => {
        const account = (await register(ctx)).account;
        ctx.state.account = account;
        const { product } = await addPurchasable(ctx, account.token, HELD);
        const { ex, data } = await readCart(ctx, account.token);
        const item = data.cart_items.find((i) => Number(i.product_id) === product.id);
        ctx.expect(item, `product ${product.id} just added is not in the cart`, ex);
        ctx.state.productId = product.id;
        ctx.state.key = item.key;
      },
    },
    {
      id: 'SHOP-AUTH-01',
      title: 'property: any username of letters and digits (run prefix + 0..12 more) registers',
      run: async (ctx: C) => {
        await checkProperty(
          ctx,
          'shop username letters and digits accepted',
          text({ minLength: 0, maxLength: 12, alphabet: 'alnum' }),
          async (suffix) => {
            const form = { ...newAccountForm(ctx), username: `${ctx.names.username()}${suffix}` };
            const ex = await call(ctx, 'POST', '/auth/register', { form });
            const body = envelope(ctx, ex, 'register');
            ctx.expect(
              body.status === true && tokenOf(ctx, body) !== undefined,
              `register with username "${form.username}" (letters and digits): expected status true and a token, got ${String(body.status)}: "${body.message}" ${JSON.stringify(body.errors)}`,
              ex,
            );
          },
          { runs: Math.min(ctx.settings.runs, REGISTRATION_RUNS) },
        );
      },
    },
    {
      id: 'SHOP-AUTH-09',
      title: 'property: a username with one character other than a letter or digit is refused, errors.username',
      run: async (ctx: C) => {
        const prefix = ctx.names.username();
        // A blank at either end is not counted: servers trim input fields (WordPress does) before the rule.
        const names = invalidUsername({ prefix }).filter((u) => u.trim() === u);
        await checkProperty(
          ctx,
          'shop username other characters refused',
          names,
          async (username) => {
            const form = { ...newAccountForm(ctx), username };
            const ex = await call(ctx, 'POST', '/auth/register', { form });
            expectFieldError(
              ctx,
              ex,
              envelope(ctx, ex, 'register'),
              'username',
              `register with username ${JSON.stringify(username)}`,
            );
          },
          { runs: cappedRuns(ctx, 1) },
        );
      },
    },
    {
      id: 'SHOP-PROP-06',
      title: 'property: add-item with quantity 0 or negative is refused with errors.quantity; the cart is unchanged',
      needs: ['key'],
      run: async (ctx: C) => {
        await checkProperty(
          ctx,
          'shop add-item quantity below 1 refused',
          fc.oneof(fc.constantFrom(0, -1), fc.integer({ min: -100_000, max: -2 })),
          async (quantity) => {
            const ex = await addItem(ctx, ctx.state.account!.token, ctx.state.productId!, quantity);
            expectFieldError(ctx, ex, envelope(ctx, ex, 'cart-add-item'), 'quantity', `add-item with quantity ${quantity}`);
          },
          { runs: cappedRuns(ctx, 1) },
        );
        await expectHeld(ctx, 'the refused add-items');
      },
    },
    {
      id: 'SHOP-CART-18',
      title: 'property: add-item with a quantity that is not an integer (fraction, text) is refused',
      needs: ['key'],
      run: async (ctx: C) => {
        await checkProperty(
          ctx,
          'shop add-item non-integer quantity refused',
          badQuantity(),
          async (quantity) => {
            const ex = await addItem(ctx, ctx.state.account!.token, ctx.state.productId!, quantity);
            const body = envelope(ctx, ex, 'cart-add-item');
            ctx.expect(body.status === false, `add-item with quantity ${JSON.stringify(quantity)}: expected status false`, ex);
          },
          { runs: cappedRuns(ctx, 1) },
        );
        await expectHeld(ctx, 'the refused add-items');
      },
    },
    {
      id: 'SHOP-PROP-04',
      title: 'property: update-quantities with a non-integer quantity: status false, errors keyed by the cart item key',
      needs: ['key'],
      run: async (ctx: C) => {
        await checkProperty(ctx, 'shop update non-integer quantity refused', badQuantity(), (q) => refusedUpdate(ctx, q), {
          runs: cappedRuns(ctx, 1),
        });
        await expectHeld(ctx, 'the refused updates');
      },
    },
    {
      id: 'SHOP-PROP-05',
      title: 'property: update-quantities with a negative quantity: refused, keyed by the item key, quantity kept',
      needs: ['key'],
      run: async (ctx: C) => {
        await checkProperty(
          ctx,
          'shop update negative quantity refused',
          fc.oneof(fc.constant(-1), fc.integer({ min: -100_000, max: -2 })),
          (quantity) => refusedUpdate(ctx, String(quantity)),
          { runs: cappedRuns(ctx, 1) },
        );
        await expectHeld(ctx, 'the refused updates');
      },
    },
    {
      id: 'SHOP-PROD-05',
      title: 'property: every page from 1 to total_pages lists products; the pages after it list none',
      run: async (ctx: C) => {
        const first = await listProducts(ctx, { page: 1 });
        const total = (envelope(ctx, first, 'products').data as { total_pages?: number } | undefined)?.total_pages ?? 0;
        if (total < 1) ctx.skip('page 1 of the listing reports no pages');
        ctx.state.totalPages = total;
        const pages = fc.integer({ min: 1, max: total + 3 });
        await checkProperty(
          ctx,
          'shop products page range',
          pages,
          async (page) => {
            const ex = await listProducts(ctx, { page });
            const body = envelope(ctx, ex, 'products');
            const products = (body.data as { products?: unknown[] } | undefined)?.products ?? [];
            if (page <= total)
              ctx.expect(
                body.status === true && products.length > 0,
                `page ${page} of ${total}: expected status true with products, got ${String(body.status)} and ${products.length} product(s)`,
                ex,
              );
            else
              ctx.expect(products.length === 0, `page ${page} past total_pages ${total} lists ${products.length} product(s)`, ex);
          },
          { runs: cappedRuns(ctx, 1) },
        );
      },
    },
    {
      id: 'SHOP-PROP-07',
      title: 'property: a page that is not a positive integer is refused with errors.page',
      run: async (ctx: C) => {
        const bad = fc.oneof(
          fc.constantFrom('0', '-1', '1.5', 'abc', 'one'),
          fc.integer({ min: -100_000, max: 0 }).map(String),
          badQuantity(),
        );
        await checkProperty(
          ctx,
          'shop products page refused',
          bad,
          async (page) => {
            const ex = await listProducts(ctx, { page });
            const body = envelope(ctx, ex, 'products');
            expectFieldError(ctx, ex, body, 'page', `GET /products?page=${JSON.stringify(page)}`);
          },
          { runs: cappedRuns(ctx, 1) },
        );
      },
    },
  ],
};
