import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import { call, envelope, expectFieldError, tryJson } from '../client.js';
import {
  type Account,
  addItem,
  addPurchasable,
  type CartData,
  type CartItem,
  emptyCartOnTeardown,
  getCart,
  near,
  num,
  onSale,
  type ProductSummary,
  readCart,
  register,
  removeItem,
  skipIfOutOfStock,
  updateQuantities,
} from '../flows.js';

// One account's cart from empty to empty again: add, list, totals, update, remove, zero removes;
// a second account tries to read and change it.

interface CartState {
  account: Account;
  other: Account;
  product: ProductSummary;
  second: ProductSummary;
  addCount: number;
  addEx: Exchange;
  cart: CartData;
  key: string;
  secondKey: string;
  /** The product whose line SHOP-CART-13 removed. */
  removed: ProductSummary;
  /** The key of that line (SHOP-STATE-01 adds the product again and takes its line out again). */
  removedKey: string;
  /** GET /cart as SHOP-STATE-01 read it: the area's line, then the product added again after its line was removed. */
  readded: Exchange;
}

type C = CheckContext<CartState>;

const QTY = 2;
const itemOf = (cart: CartData, productId: number) => linesOf(cart).find((i) => Number(i.product_id) === productId);

export const cartArea: AreaSpec<CartState> = {
  interface: 'rest-v1-shop',
  name: 'cart',
  checks: [
    {
      id: 'SHOP-AUTH-01',
      title: 'register the accounts of the cart flow',
      run: async (ctx: C) => {
        ctx.state.account = (await register(ctx)).account;
        ctx.state.other = (await register(ctx)).account;
      },
    },
    {
      id: 'SHOP-CART-11',
      title: 'the empty cart of a new account: status false and an empty-cart message',
      needs: ['account'],
      run: async (ctx: C) => {
        const ex = await getCart(ctx, ctx.state.account!.token);
        const body = envelope(ctx, ex, 'cart');
        ctx.expect(body.status === false, `GET /cart of an empty cart: expected status false, got ${String(body.status)}`, ex);
        ctx.expect(body.message.trim() !== '', 'GET /cart of an empty cart: expected an empty-cart message, got ""', ex);
      },
    },
    {
      id: 'SHOP-CART-02',
      title: 'add-item without product_id / without quantity: errors keyed by the field',
      needs: ['account'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        const a = await call(ctx, 'POST', '/cart/add-item', { token, form: { quantity: 1 } });
        expectFieldError(ctx, a, envelope(ctx, a, 'cart-add-item'), 'product_id', 'add-item without product_id');
        const b = await call(ctx, 'POST', '/cart/add-item', { token, form: { product_id: 1 } });
        expectFieldError(ctx, b, envelope(ctx, b, 'cart-add-item'), 'quantity', 'add-item without quantity');
      },
    },
    {
      id: 'SHOP-CART-03',
      title: 'add-item of a product that does not exist: status false and a message',
      needs: ['account'],
      run: async (ctx: C) => {
        const ex = await addItem(ctx, ctx.state.account!.token, 987654321, 1);
        const body = envelope(ctx, ex, 'cart-add-item');
        ctx.expect(body.status === false, `add-item of product 987654321: expected status false, got ${String(body.status)}`, ex);
        ctx.expect(body.message.trim() !== '', 'add-item of a missing product: expected a failure message, got ""', ex);
      },
    },
    {
      id: 'SHOP-CART-01',
      title: `add a listed product with quantity ${QTY}: status true, coupon fields, data.cart_item_count`,
      needs: ['account'],
      run: async (ctx: C) => {
        emptyCartOnTeardown(ctx, ctx.state.account!.token);
        emptyCartOnTeardown(ctx, ctx.state.other!.token);
        // A product on sale when the listing shows one: its price is then the sale price, which a cart that prices
        // its lines at the regular price shows in SHOP-CART-09 (the other areas' carts hold products at full price).
        const { product, body, ex } = await addPurchasable(ctx, ctx.state.account!.token, QTY, [], onSale);
        const count = (body.data as { cart_item_count: number }).cart_item_count;
        ctx.expect(count > 0, `after add-item, cart_item_count should be positive, got ${count}`, ex);
        ctx.state.product = product;
        ctx.state.addCount = count;
        ctx.state.addEx = ex;
      },
    },
    {
      id: 'SHOP-CART-18',
      title: 'add-item with a quantity that is not an integer: status false',
      needs: ['account', 'product'],
      run: async (ctx: C) => {
        for (const q of ['two', '1.5']) {
          const ex = await addItem(ctx, ctx.state.other!.token, ctx.state.product!.id, q);
          const body = envelope(ctx, ex, 'cart-add-item');
          ctx.expect(
            body.status === false,
            `add-item with quantity "${q}": expected status false, got ${String(body.status)}`,
            ex,
          );
        }
      },
    },
    {
      // The properties area adds its zero to a product its cart holds already; a target that checks the quantity only
      // where it merges into a line stores a line of 0 for a product the cart does not hold. The second account's cart
      // is still empty here (the checks above were refused).
      id: 'SHOP-PROP-06',
      title: 'add-item with quantity 0 of a product not in the cart: errors keyed quantity, no line for it',
      needs: ['account', 'product'],
      run: async (ctx: C) => {
        const token = ctx.state.other!.token;
        const productId = ctx.state.product!.id;
        const ex = await addItem(ctx, token, productId, 0);
        const body = envelope(ctx, ex, 'cart-add-item');
        const after = await getCart(ctx, token);
        const cart = tryJson(after);
        const line = cart?.status === true ? itemOf(cart.data as CartData, productId) : undefined;
        // The later checks add their own line of this product to this cart: none is left behind, whatever is judged.
        if (line) await removeItem(ctx, token, line.key);
        expectFieldError(ctx, ex, body, 'quantity', `add-item of product ${productId}, not in the cart, with quantity 0`);
        ctx.expect(
          !line,
          `add-item of product ${productId} with quantity 0 left a line of quantity ${line?.quantity} in a cart that did not hold it`,
          ex,
          after,
        );
      },
    },
    {
      // Found by mutation testing: a handler that refused these without naming the field survived the suite.
      // Sharpened in the eighteenth fault wave (SHOP-ADD-PRODUCT-ID-ABSINT): a product_id cast to an integer first.
      id: 'SHOP-CART-20',
      title: 'add-item with a product_id or a quantity that is not an integer: errors keyed by that field',
      needs: ['account', 'product'],
      run: async (ctx: C) => {
        const token = ctx.state.other!.token;
        const a = await addItem(ctx, token, 'abc', 1);
        expectFieldError(ctx, a, envelope(ctx, a, 'cart-add-item'), 'product_id', 'add-item with product_id "abc"');
        // A fraction that starts with a real product's id: a target that casts before it validates (PHP absint(),
        // intval()) refuses "abc" as 0 yet reads this one as the product and adds it.
        const fraction = `${ctx.state.product!.id}.5`;
        const f = await addItem(ctx, token, fraction, 1);
        expectFieldError(ctx, f, envelope(ctx, f, 'cart-add-item'), 'product_id', `add-item with product_id "${fraction}"`);
        const b = await addItem(ctx, token, ctx.state.product!.id, 'two');
        expectFieldError(ctx, b, envelope(ctx, b, 'cart-add-item'), 'quantity', 'add-item with quantity "two"');
      },
    },
    {
      id: 'SHOP-CART-04',
      title: 'GET /cart: coupon_status, coupon_errors, data {cart_items, cart_totals, coupon_discount_totals, currency}',
      needs: ['product'],
      run: async (ctx: C) => {
        const { body, data } = await readCart(ctx, ctx.state.account!.token);
        ctx.choose('AMB-SHOP-06', Array.isArray(body.coupon_errors) ? 'array' : 'object');
        ctx.state.cart = data;
      },
    },
    {
      id: 'SHOP-CART-05',
      title: 'each cart item carries the Part 2 fields with their types',
      needs: ['cart'],
      run: async (ctx: C) => {
        const { ex, data } = await readCart(ctx, ctx.state.account!.token);
        // The product was added earlier in the area: an empty cart would leave the item fields unseen.
        ctx.expect(
          data.cart_items.length > 0,
          'GET /cart lists no cart item after the product was added, so no item carries the Part 2 fields',
          ex,
        );
        data.cart_items.forEach((item, i) => {
          ctx.validate('rest-v1-shop/schemas/cart-item.schema.json', item, ex, `cart_items[${i}]`);
        });
        const first = data.cart_items[0];
        if (first) ctx.choose('AMB-SHOP-03', typeof first.product_id === 'number' ? 'integer' : 'string');
      },
    },
    {
      id: 'SHOP-CART-06',
      title: 'cart_totals carries the Part 2 fields',
      needs: ['cart'],
      run: async (ctx: C) => {
        const { ex, data } = await readCart(ctx, ctx.state.account!.token);
        ctx.validate('rest-v1-shop/schemas/cart-totals.schema.json', data.cart_totals, ex, 'cart_totals');
      },
    },
    {
      id: 'SHOP-CART-07',
      title: 'the cart lists the product added with its quantity',
      needs: ['cart'],
      run: async (ctx: C) => {
        const { ex, data } = await readCart(ctx, ctx.state.account!.token);
        const item = itemOf(data, ctx.state.product!.id);
        ctx.expect(item, `the cart does not list product ${ctx.state.product!.id} just added`, ex);
        ctx.expect(
          Number(item.quantity) === QTY,
          `cart quantity of product ${ctx.state.product!.id}: expected ${QTY}, got ${item.quantity}`,
          ex,
        );
        ctx.state.key = item.key;
      },
    },
    {
      id: 'SHOP-CART-08',
      title: 'data.cart_item_count agrees with the cart',
      needs: ['cart', 'addCount'],
      run: async (ctx: C) => {
        const items = ctx.state.cart!.cart_items;
        const lines = items.length;
        const quantity = items.reduce((n, i) => n + Number(i.quantity), 0);
        const count = ctx.state.addCount!;
        ctx.expect(
          count === lines || count === quantity,
          `cart_item_count ${count} is neither the number of lines (${lines}) nor the sum of quantities (${quantity})`,
          ctx.state.addEx!,
        );
        if (lines !== quantity) ctx.choose('AMB-SHOP-04', count === lines ? 'lines' : 'quantity');
      },
    },
    {
      id: 'SHOP-CART-09',
      title: 'without coupons, line_subtotal and line_total are price x quantity',
      needs: ['cart', 'product'],
      run: async (ctx: C) => {
        const { ex, data } = await readCart(ctx, ctx.state.account!.token);
        const price = num(ctx.state.product!.price);
        if (price === undefined) ctx.skip(`the listed price "${ctx.state.product!.price}" is not a number`);
        if (!onSale(ctx.state.product!))
          ctx.note(`product ${ctx.state.product!.id} is not on sale: a cart priced at regular prices would not show here`);
        const item = itemOf(data, ctx.state.product!.id);
        ctx.expect(item, 'the added product left the cart', ex);
        const want = price * Number(item.quantity);
        ctx.expect(
          near(item.line_subtotal, want),
          `line_subtotal ${item.line_subtotal} should be ${price} x ${item.quantity} = ${want}`,
          ex,
        );
        ctx.expect(
          near(item.line_total, want),
          `line_total ${item.line_total} should be ${price} x ${item.quantity} = ${want} (no coupon)`,
          ex,
        );
      },
    },
    {
      id: 'SHOP-CART-10',
      title: 'cart_totals add up (contents = subtotal - discount; total = contents + shipping + fees + taxes)',
      needs: ['cart'],
      run: async (ctx: C) => {
        const { ex, data } = await readCart(ctx, ctx.state.account!.token);
        expectTotalsAddUp(ctx, data, ex);
      },
    },
    {
      // Amounts of 1,000 or more: the carts of the other checks stay below, where a target that writes its totals with
      // a thousands separator ("1,008.00", PHP's number_format defaults) answers plain decimals. One update raises the line.
      id: 'SHOP-CART-10',
      title: 'a cart worth 1,000 or more: cart_totals are decimals that add up',
      needs: ['key', 'product'],
      run: async (ctx: C) => {
        const price = num(ctx.state.product!.price);
        if (price === undefined || price <= 0)
          ctx.skip(`the listed price "${ctx.state.product!.price}" is not a positive number`);
        const quantity = Math.max(QTY, Math.ceil(1000 / price));
        const key = ctx.state.key!;
        const token = ctx.state.account!.token;
        try {
          const ex = await updateQuantities(ctx, token, { [key]: quantity });
          const body = tryJson(ex);
          // The document gives no stock or quantity limit, nor says what a shop does past its stock.
          if (body?.status !== true)
            ctx.skip(`update-quantities to ${quantity} (a line of 1,000 or more) was refused: "${String(body?.message)}"`);
          const cart = await readCart(ctx, token);
          expectTotalsAddUp(ctx, cart.data, cart.ex, ex);
        } finally {
          await updateQuantities(ctx, token, { [key]: QTY });
        }
      },
    },
    {
      id: 'SHOP-CART-12',
      title: 'GET /cart/count with a token answers the envelope',
      needs: ['cart'],
      run: async (ctx: C) => {
        const ex = await call(ctx, 'GET', '/cart/count', { token: ctx.state.account!.token });
        envelope(ctx, ex, 'cart-count');
      },
    },
    {
      id: 'SHOP-SEC-03',
      title: 'another account does not see my cart items',
      needs: ['key'],
      run: async (ctx: C) => {
        const ex = await getCart(ctx, ctx.state.other!.token);
        const body = envelope(ctx, ex, 'cart');
        const keys = body.status === true ? (body.data as CartData).cart_items.map((i) => i.key) : [];
        ctx.expect(!keys.includes(ctx.state.key!), `another account's GET /cart lists my cart item ${ctx.state.key}`, ex);
      },
    },
    {
      id: 'SHOP-SEC-04',
      title: 'another account cannot remove or update my cart item',
      needs: ['key'],
      run: async (ctx: C) => {
        const key = ctx.state.key!;
        let intact = false;
        try {
          const a = await removeItem(ctx, ctx.state.other!.token, key);
          const b = await updateQuantities(ctx, ctx.state.other!.token, { [key]: 0 });
          const { ex, data } = await readCart(ctx, ctx.state.account!.token);
          const item = data.cart_items.find((i) => i.key === key);
          intact = item !== undefined && Number(item.quantity) === QTY;
          ctx.expect(intact, `my cart item ${key} changed after another account removed/updated it`, a, b, ex);
        } finally {
          // An ADVISORY finding must not fail the MUST checks that follow on the same line (CART-15, -19, -13, -16):
          // the line is put back as it was, under its new key if the other account removed it.
          if (!intact) await restoreLine(ctx, key);
        }
      },
    },
    {
      id: 'SHOP-CART-15',
      title: 'update-quantities to 3: status true, same shape as remove-item, the cart shows 3',
      needs: ['key'],
      run: async (ctx: C) => {
        const key = ctx.state.key!;
        const ex = await updateQuantities(ctx, ctx.state.account!.token, { [key]: 3 });
        const body = envelope(ctx, ex, 'cart-update-quantities');
        if (body.status !== true) await skipIfOutOfStock(ctx, [[ctx.state.product!.id, 3]], 'update-quantities to 3 was refused');
        ctx.expect(
          body.status === true,
          `update-quantities: expected status true, got ${String(body.status)}: "${body.message}"`,
          ex,
        );
        const cart = await readCart(ctx, ctx.state.account!.token);
        const item = cart.data.cart_items.find((i) => i.key === key);
        ctx.expect(
          item && Number(item.quantity) === 3,
          `after update to 3 the cart shows quantity ${item?.quantity}`,
          ex,
          cart.ex,
        );
        // The quantity the line has is valid too (fault catalog: `$wpdb->update()` changing no row read as a bad key).
        const again = await updateQuantities(ctx, ctx.state.account!.token, { [key]: 3 });
        const againBody = envelope(ctx, again, 'cart-update-quantities');
        ctx.expect(
          againBody.status === true,
          `update-quantities to 3 of a line at 3: expected status true, got ${String(againBody.status)}: "${againBody.message}" ${JSON.stringify(againBody.errors).slice(0, 200)}`,
          again,
        );
      },
    },
    {
      // Several items in one request: the body is cart_data[<cart_item_key>]=<quantity> "for each item" (B. Shop
      // variant), so every entry is applied, not the first only.
      id: 'SHOP-CART-15',
      title: 'update-quantities of two items in one request: status true, the cart shows both new quantities',
      needs: ['key', 'product'],
      run: async (ctx: C) => {
        const key = ctx.state.key!;
        const token = ctx.state.account!.token;
        const { product } = await addPurchasable(ctx, token, 1, [ctx.state.product!.id]);
        const before = await readCart(ctx, token);
        const second = itemOf(before.data, product.id);
        ctx.expect(second, `product ${product.id} added second is not in the cart`, before.ex);
        try {
          // Both quantities change (3 -> 2 and 1 -> 2): a target that applies only one entry leaves the other as it was.
          const want = { [key]: 2, [second.key]: 2 };
          const ex = await updateQuantities(ctx, token, want);
          const body = envelope(ctx, ex, 'cart-update-quantities');
          if (body.status !== true)
            await skipIfOutOfStock(
              ctx,
              [
                [ctx.state.product!.id, 2],
                [product.id, 2],
              ],
              'update-quantities of two items to 2 was refused',
            );
          ctx.expect(
            body.status === true,
            `update-quantities of two items: expected status true, got ${String(body.status)}: "${body.message}"`,
            ex,
          );
          const after = await readCart(ctx, token);
          const wrong = Object.entries(want).flatMap(([k, q]) => {
            const item = after.data.cart_items.find((i) => i.key === k);
            return item && Number(item.quantity) === q ? [] : [`${k}: ${item ? item.quantity : 'gone'} (sent ${q})`];
          });
          ctx.expect(
            wrong.length === 0,
            `after update-quantities of two items to 2 the cart shows ${wrong.join(', ')}`,
            ex,
            after.ex,
          );
          // A zero on the line the cart lists first, a new quantity on the other, in one request: a target that removes
          // the line while walking the lines by index passes over the one after it, whose quantity is then not applied.
          const [zeroed, kept] = after.data.cart_items.map((i) => i.key);
          if (zeroed === undefined || kept === undefined) return;
          const mixed = await updateQuantities(ctx, token, { [zeroed]: 0, [kept]: 3 });
          const mixedBody = envelope(ctx, mixed, 'cart-update-quantities');
          const keptProduct = Number(after.data.cart_items.find((i) => i.key === kept)?.product_id);
          if (mixedBody.status !== true && Number.isInteger(keptProduct))
            await skipIfOutOfStock(ctx, [[keptProduct, 3]], `update-quantities of ${kept} to 3 was refused`);
          ctx.expect(
            mixedBody.status === true,
            `update-quantities of ${zeroed} to 0 and ${kept} to 3: expected status true, got ${String(mixedBody.status)}: "${mixedBody.message}"`,
            mixed,
          );
          const last = await readCart(ctx, token);
          const gone = last.data.cart_items.find((i) => i.key === zeroed);
          const other = last.data.cart_items.find((i) => i.key === kept);
          ctx.expect(
            !gone && other && Number(other.quantity) === 3,
            `after update-quantities of ${zeroed} to 0 and ${kept} to 3 in one request the cart shows ${zeroed}: ${gone ? gone.quantity : 'gone'}, ${kept}: ${other ? other.quantity : 'gone'}`,
            mixed,
            last.ex,
          );
        } finally {
          // Back to the area's cart (the first item x3 alone), one item per request: the restore does not lean on what was judged.
          await restoreAlone(ctx, 3);
        }
      },
    },
    {
      id: 'SHOP-CART-17',
      title: 'update-quantities with a key that is not in the cart: status false, errors keyed by that key',
      needs: ['key'],
      run: async (ctx: C) => {
        const bad = `sfc${ctx.names.username()}`;
        const ex = await updateQuantities(ctx, ctx.state.account!.token, { [bad]: 1 });
        const body = envelope(ctx, ex, 'cart-update-quantities');
        expectFieldError(ctx, ex, body, bad, 'update-quantities with an unknown key');
      },
    },
    {
      // Found by mutation testing: a handler that skipped the quantity check survived the suite.
      id: 'SHOP-CART-19',
      title: 'update-quantities with a quantity that is not an integer: status false, the quantity unchanged',
      needs: ['key'],
      run: async (ctx: C) => {
        const key = ctx.state.key!;
        const token = ctx.state.account!.token;
        const before = (await readCart(ctx, token)).data.cart_items.find((i) => i.key === key)?.quantity;
        const ex = await updateQuantities(ctx, token, { [key]: 'abc' });
        const body = envelope(ctx, ex, 'cart-update-quantities');
        // A crash (5xx) that happens to roll back is not a refusal.
        ctx.expect(
          body.status === false && (ex.response?.status ?? 0) < 500,
          `update-quantities to "abc": expected a refusal (status false, no 5xx), got HTTP ${ex.response?.status} status ${String(body.status)}`,
          ex,
        );
        const after = await readCart(ctx, token);
        const now = after.data.cart_items.find((i) => i.key === key)?.quantity;
        ctx.expect(now === before, `after update to "abc" the quantity went from ${before} to ${now}`, ex, after.ex);
      },
    },
    {
      id: 'SHOP-CART-13',
      title: 'remove an item by its key: status true, count drops, the item leaves the cart',
      needs: ['key', 'product'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        const { product } = await addPurchasable(ctx, token, 1, [ctx.state.product!.id]);
        const before = await readCart(ctx, token);
        const second = itemOf(before.data, product.id);
        ctx.expect(second, `product ${product.id} added second is not in the cart`, before.ex);
        const ex = await removeItem(ctx, token, second.key);
        const body = envelope(ctx, ex, 'cart-remove-item');
        ctx.expect(
          body.status === true,
          `remove-item ${second.key}: expected status true, got ${String(body.status)}: "${body.message}"`,
          ex,
        );
        const after = await readCart(ctx, token);
        ctx.expect(
          !after.data.cart_items.some((i) => i.key === second.key),
          `item ${second.key} is still in the cart after remove-item`,
          ex,
          after.ex,
        );
        const count = (body.data as { cart_item_count: number }).cart_item_count;
        const lines = after.data.cart_items.length;
        const quantity = after.data.cart_items.reduce((n, i) => n + Number(i.quantity), 0);
        ctx.expect(
          count === lines || count === quantity,
          `remove-item answered cart_item_count ${count}; the cart now has ${lines} line(s), ${quantity} unit(s)`,
          ex,
          after.ex,
        );
        ctx.state.removed = product;
        ctx.state.removedKey = second.key;
      },
    },
    {
      // remove-item ends the line on every path: a target that keeps removed lines for an undo and restores one when its
      // product is added again lists the removed quantity plus the one added. Whether add-item adds to an existing line
      // or replaces it does not matter here: the line is gone.
      id: 'SHOP-STATE-01',
      title: 'add-item of the product whose line remove-item took out: the cart lists the quantity added, 1',
      needs: ['removed'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        const product = ctx.state.removed!;
        const add = await addItem(ctx, token, product.id, 1);
        const read = await getCart(ctx, token);
        const cart = tryJson(read);
        const item = cart?.status === true ? linesOf(cart.data).find((i) => Number(i.product_id) === product.id) : undefined;
        // The line goes again before anything is judged, read raw: the checks after this one start from the area's line alone.
        if (item) await removeItem(ctx, token, item.key);
        ctx.state.readded = read;
        const added = envelope(ctx, add, 'cart-add-item');
        if (added.status !== true)
          await skipIfOutOfStock(ctx, [[product.id, 1]], 'add-item after the line was removed was refused');
        ctx.expect(
          added.status === true,
          `add-item of product ${product.id} x1 after its line was removed: expected status true, got ${String(added.status)}: "${added.message}"`,
          add,
        );
        ctx.expect(
          item && Number(item.quantity) === 1,
          `after remove-item of product ${product.id}'s line and add-item of 1, the cart lists it with ${item ? `quantity ${item.quantity}` : 'no line'}; expected 1`,
          add,
          read,
        );
      },
    },
    {
      // The first GET /cart after a line left from before the last one (SHOP-CART-13 took the second line out, the one
      // added back follows it): a target that drops lines from its own list with unset() and answers that list without
      // array_values() writes cart_items as an object keyed {"0", "2"} from here on. The document gives cart_items as
      // [cart item]. Reads SHOP-STATE-01's answer: no request more.
      id: 'SHOP-CART-04',
      title: 'GET /cart after a line was removed and another added: cart_items is still a list',
      needs: ['readded'],
      run: async (ctx: C) => {
        const read = ctx.state.readded!;
        const body = tryJson(read);
        if (body?.status !== true) return ctx.skip('GET /cart after the product was added again did not answer status true');
        const items: unknown =
          typeof body.data === 'object' && body.data !== null ? (body.data as { cart_items?: unknown }).cart_items : undefined;
        ctx.expect(
          Array.isArray(items),
          `GET /cart after remove-item and add-item answered cart_items as ${items === null ? 'null' : typeof items} ${JSON.stringify(items)?.slice(0, 120)}; the document gives a list, [cart item]`,
          read,
        );
      },
    },
    {
      // The key sent is that of the line SHOP-CART-13 took out (and SHOP-STATE-01 took out again after adding its product
      // back): no longer in the cart, so as invalid as a key never seen, which the check sends when the area has no removed
      // line. Found by the fault catalog: a target that answers a second remove-item of a key as done (it looks the key up
      // among the lines removed for an undo) passed a check that only sent a key never in any cart.
      id: 'SHOP-CART-14',
      title: 'remove-item with a key that is not in the cart (one whose line was removed): status false and a message',
      needs: ['account'],
      run: async (ctx: C) => {
        const removed = ctx.state.removedKey;
        const key = removed ?? `sfc${ctx.names.username()}`;
        const what = removed === undefined ? 'an unknown key' : `the key ${removed} whose line was removed`;
        const ex = await removeItem(ctx, ctx.state.account!.token, key);
        const body = envelope(ctx, ex, 'cart-remove-item');
        ctx.expect(
          body.status === false,
          `remove-item of ${what}: expected status false, got ${String(body.status)}: "${body.message}"`,
          ex,
        );
        ctx.expect(body.message.trim() !== '', `remove-item of ${what}: expected an invalid-key message, got ""`, ex);
      },
    },
    {
      // The key of another account's line is not in the token's cart: a target that removes by key alone (no owner
      // condition on remove-item) answers success and takes the line out of the other cart.
      id: 'SHOP-CART-14',
      title: "remove-item with the key of another account's line: status false, the line stays in that account's cart",
      needs: ['account', 'product'],
      run: async (ctx: C) => {
        const other = ctx.state.other!.token;
        const line = await addOtherLine(ctx);
        const ex = await removeItem(ctx, ctx.state.account!.token, line.key);
        const body = envelope(ctx, ex, 'cart-remove-item');
        ctx.expect(
          body.status === false,
          `remove-item with the key of another account's line: expected status false (the key is not in the token's cart), got ${String(body.status)}: "${body.message}"`,
          ex,
        );
        const after = await getCart(ctx, other);
        const cart = envelope(ctx, after, 'cart');
        const kept = cart.status === true && linesOf(cart.data).some((i) => i.key === line.key);
        ctx.expect(kept, "remove-item with another account's key was refused, yet the line left that account's cart", ex, after);
      },
    },
    {
      // The sibling of the check above: update-quantities must find the key in the token's cart too. A target that
      // sets the line by key alone answers success and changes the other account's quantity.
      id: 'SHOP-CART-17',
      title: "update-quantities with the key of another account's line: errors keyed by that key, the line keeps its quantity",
      needs: ['account', 'product'],
      run: async (ctx: C) => {
        const other = ctx.state.other!.token;
        // The line the check above added to the other cart, added again if that check removed it or did not run.
        const line = (await otherLine(ctx)).line ?? (await addOtherLine(ctx));
        const want = Number(line.quantity) + 3;
        const ex = await updateQuantities(ctx, ctx.state.account!.token, { [line.key]: want });
        const body = envelope(ctx, ex, 'cart-update-quantities');
        const after = await getCart(ctx, other);
        const cart = envelope(ctx, after, 'cart');
        const now = cart.status === true ? linesOf(cart.data).find((i) => i.key === line.key) : undefined;
        expectFieldError(ctx, ex, body, line.key, "update-quantities with the key of another account's line");
        ctx.expect(
          now && Number(now.quantity) === Number(line.quantity),
          `update-quantities to ${want} with another account's key was refused, yet that account's line now shows ${now ? `quantity ${now.quantity}` : 'nothing (gone)'} (was ${line.quantity})`,
          ex,
          after,
        );
      },
    },
    {
      // The key of another account's line after one of the token's own, in one request: a target that checks the owner
      // of the first key only trusts the second and sets that account's line. The own line is sent with the quantity it
      // has, so whether a refused request applies its other entries is not what is judged.
      id: 'SHOP-CART-17',
      title:
        "update-quantities of an own line, then another account's line: errors keyed by that key, the line keeps its quantity",
      needs: ['account', 'product', 'key'],
      run: async (ctx: C) => {
        const token = ctx.state.account!.token;
        const key = ctx.state.key!;
        const mine = tryJson(await getCart(ctx, token));
        const own = mine?.status === true ? linesOf(mine.data).find((i) => i.key === key) : undefined;
        if (!own) ctx.skip(`the area's line ${key} is not in the cart (a check before left it otherwise)`);
        const line = (await otherLine(ctx)).line ?? (await addOtherLine(ctx));
        const want = Number(line.quantity) + 3;
        const ex = await updateQuantities(ctx, token, { [key]: own.quantity, [line.key]: want });
        const body = envelope(ctx, ex, 'cart-update-quantities');
        const after = await getCart(ctx, ctx.state.other!.token);
        const cart = envelope(ctx, after, 'cart');
        const now = cart.status === true ? linesOf(cart.data).find((i) => i.key === line.key) : undefined;
        ctx.expect(
          now && Number(now.quantity) === Number(line.quantity),
          `update-quantities of my line ${key} and, second, another account's line ${line.key} to ${want}: that account's line now shows ${now ? `quantity ${now.quantity}` : 'nothing (gone)'} (was ${line.quantity})`,
          ex,
          after,
        );
        expectFieldError(ctx, ex, body, line.key, "update-quantities with the key of another account's line after an own key");
        // The key at fault first, an own line with the quantity it has last: the refusal names the key at fault, not
        // the last key of the request (a loop variable read after its loop).
        const bad = `sfc${ctx.names.username()}`;
        const first = await updateQuantities(ctx, token, { [bad]: 1, [key]: own.quantity });
        expectFieldError(
          ctx,
          first,
          envelope(ctx, first, 'cart-update-quantities'),
          bad,
          'update-quantities of an unknown key, then an own line with its quantity',
        );
      },
    },
    {
      id: 'SHOP-CART-16',
      title: 'update-quantities to 0 removes the item; the emptied cart reports count 0',
      needs: ['key'],
      run: async (ctx: C) => {
        const key = ctx.state.key!;
        const token = ctx.state.account!.token;
        const ex = await updateQuantities(ctx, token, { [key]: 0 });
        const body = envelope(ctx, ex, 'cart-update-quantities');
        ctx.expect(body.status === true, `update to 0: expected status true, got ${String(body.status)}: "${body.message}"`, ex);
        const count = (body.data as { cart_item_count: number }).cart_item_count;
        ctx.expect(count === 0, `update to 0 of the last item: expected cart_item_count 0, got ${count}`, ex);
        const after = await getCart(ctx, token);
        const cart = envelope(ctx, after, 'cart');
        const left = cart.status === true ? linesOf(cart.data).some((i) => i.key === key) : false;
        ctx.expect(!left, `item ${key} is still in the cart after update to 0`, ex, after);
        ctx.expect(cart.status === false, 'the emptied cart should answer status false (empty cart)', after);
      },
    },
  ],
};

/** SHOP-CART-10 on one cart answer: contents = subtotal - discount, total = contents + shipping + fees + taxes, subtotal = the lines. */
function expectTotalsAddUp(ctx: C, data: CartData, ...evidence: Exchange[]): void {
  const t = Object.fromEntries(Object.entries(data.cart_totals).map(([k, v]) => [k, num(v) ?? Number.NaN]));
  const v = (k: string) => t[k] ?? Number.NaN;
  const contents = v('subtotal') - v('discount_total');
  ctx.expect(
    near(v('cart_contents_total'), contents),
    `cart_contents_total ${String(data.cart_totals.cart_contents_total)} should be subtotal - discount_total = ${contents}`,
    ...evidence,
  );
  const total =
    v('cart_contents_total') + v('shipping_total') + v('fee_total') + v('cart_contents_tax') + v('shipping_tax') + v('fee_tax');
  ctx.expect(
    near(v('total'), total),
    `total ${String(data.cart_totals.total)} should be contents + shipping + fees + their taxes = ${total}`,
    ...evidence,
  );
  const lines = data.cart_items.reduce((n, i) => n + i.line_subtotal, 0);
  ctx.expect(
    near(v('subtotal'), lines),
    `subtotal ${String(data.cart_totals.subtotal)} should be the sum of line_subtotal = ${lines}`,
    ...evidence,
  );
}

/**
 * The lines of a cart answer's data whatever its shape (cart_items as a list, as an object of kept PHP keys, or missing),
 * for a check that judges quantities: the shape is SHOP-CART-04's to judge, and a check must not crash on it.
 */
function linesOf(data: unknown): CartItem[] {
  const items: unknown = typeof data === 'object' && data !== null ? (data as { cart_items?: unknown }).cart_items : undefined;
  const lines = Array.isArray(items) ? items : typeof items === 'object' && items !== null ? Object.values(items) : [];
  return lines.filter((i): i is CartItem => typeof i === 'object' && i !== null);
}

/** Puts the area's line (the product x QTY) back in the account's cart; reads raw, so a broken cart judges nothing here. */
async function restoreLine(ctx: C, key: string): Promise<void> {
  const token = ctx.state.account!.token;
  const cartOf = (ex: Exchange): CartData | undefined => {
    const body = tryJson(ex);
    return body?.status === true ? (body.data as CartData) : undefined;
  };
  const line = linesOf(cartOf(await getCart(ctx, token))).find((i) => i.key === key);
  if (line && Number(line.quantity) === QTY) return;
  if (line) {
    await updateQuantities(ctx, token, { [key]: QTY });
    return;
  }
  await addItem(ctx, token, ctx.state.product!.id, QTY);
  const again = cartOf(await getCart(ctx, token));
  const added = again && itemOf(again, ctx.state.product!.id);
  if (added) ctx.state.key = added.key;
}

/**
 * The cart back to the area's product alone with `quantity` units, whatever the check before left: other lines removed,
 * the area's line updated or added again (its key kept in the state, a target may give a line added again a new key).
 */
async function restoreAlone(ctx: C, quantity: number): Promise<void> {
  const token = ctx.state.account!.token;
  const productId = ctx.state.product!.id;
  const read = async () => {
    const body = tryJson(await getCart(ctx, token));
    // cart_items written as an object (kept PHP keys, which SHOP-CART-19 judges) still lists the lines to put back.
    return body?.status === true ? linesOf(body.data) : [];
  };
  const lines = await read();
  for (const line of lines) if (Number(line.product_id) !== productId) await removeItem(ctx, token, line.key);
  const line = lines.find((l) => Number(l.product_id) === productId);
  if (line) {
    ctx.state.key = line.key;
    if (Number(line.quantity) !== quantity) await updateQuantities(ctx, token, { [line.key]: quantity });
    return;
  }
  await addItem(ctx, token, productId, quantity);
  const added = (await read()).find((l) => Number(l.product_id) === productId);
  if (added) ctx.state.key = added.key;
}

/** The second account's line of the area's product as its cart lists it (undefined: not listed, or no cart read). */
async function otherLine(ctx: C): Promise<{ ex: Exchange; line: CartData['cart_items'][number] | undefined }> {
  const ex = await getCart(ctx, ctx.state.other!.token);
  const body = tryJson(ex);
  return { ex, line: body?.status === true ? itemOf(body.data as CartData, ctx.state.product!.id) : undefined };
}

/** Puts 1 unit of the area's product in the second account's cart and returns its line; skips when the add is refused. */
async function addOtherLine(ctx: C): Promise<CartData['cart_items'][number]> {
  const productId = ctx.state.product!.id;
  const add = await addItem(ctx, ctx.state.other!.token, productId, 1);
  const added = tryJson(add);
  if (added?.status !== true)
    ctx.skip(`the second account could not add product ${productId} to its cart: "${String(added?.message)}"`);
  const { ex, line } = await otherLine(ctx);
  ctx.expect(line, `product ${productId} added by the second account is not in its cart`, add, ex);
  return line;
}
