// What the cart mutations refuse (unknown product IDs, quantities below 1, missing or forged tokens), and the request forms they take.
import type { CheckSpec } from '../../../../checks/model.js';
import { forgedTokens, malformedTokens } from '../../../../checks/tokens.js';
import type { GraphQLResult } from '../../../../graphql/client.js';
import {
  accepted,
  addToCart,
  cartLines,
  emptyCart,
  emptyCartForm,
  expectRefused,
  num,
  op,
  optionsForm,
  quantityOf,
  refusal,
  short,
} from '../../client.js';
import { expectEmptyCartTaken } from '../../model-cart.js';
import { add, brief, lineIds } from './lines.js';
import type { C, CartState } from './state.js';

export const inputAndTokenChecks: CheckSpec<CartState>[] = [
  {
    id: 'GQL-CART-12',
    title: 'addProductToCart with a product_id no product has is refused and adds no line',
    needs: ['token'],
    async run(ctx: C) {
      const missing = '987654321';
      const res = await addToCart(ctx, ctx.state.token!, missing, 1);
      // No ambiguity covers it: refused (an error, status false, or a null or false result: NS-GQL-08) ...
      const found = cartLines(res.data?.addProductToCart).some((l) => String(l.product_id) === missing);
      ctx.expect(!found, `product ${missing} (no such product) was added to the cart`, res.exchange);
      expectRefused(ctx, res, 'addProductToCart', `addProductToCart of product ${missing}, which no product has`);
      // ... and no line added: the cart, read by adding 1 of the real product, holds none of it.
      const read = await add(ctx, 1);
      const held = cartLines(read.summary).filter((l) => String(l.product_id) === missing);
      ctx.expect(
        held.length === 0,
        `after the refusal the cart holds a line of product ${missing} (no such product): ${short(held[0])}`,
        res.exchange,
        read.res.exchange,
      );
    },
  },
  {
    id: 'GQL-CART-12',
    title:
      "addProductToCart with the product's ID followed by a letter (no product's ID) is refused, never read as the product's ID",
    needs: ['token', 'summary'],
    async run(ctx: C) {
      const product = ctx.state.product!;
      // An ID read through an integer cast (PHP's (int) of "40x" is 40) adds the product the digits name.
      const missing = `${product}x`;
      const held = quantityOf(ctx.state.summary, product);
      const res = await addToCart(ctx, ctx.state.token!, missing, 1);
      const why = refusal(res, 'addProductToCart');
      if (why) {
        ctx.note(`addProductToCart of product_id ${missing} was refused (${why})`);
        return;
      }
      const summary = res.data?.addProductToCart;
      ctx.state.summary = summary; // the cart as it now is, for the checks after this one
      // Accepted: only a product whose ID is exactly that one may have been added.
      ctx.expect(
        cartLines(summary).some((l) => String(l.product_id) === missing),
        `addProductToCart of product_id ${missing}, which no product has, was answered with a cart holding no line of it; product ${product} went from ${held} to ${quantityOf(summary, product)} (lines ${brief(summary)})`,
        res.exchange,
      );
    },
  },
  {
    id: 'GQL-CART-13',
    title: 'quantity 0 or negative is refused or adds nothing, and never answers 5xx',
    needs: ['token', 'product'],
    async run(ctx: C) {
      for (const quantity of [0, -1]) {
        const res = await addToCart(ctx, ctx.state.token!, ctx.state.product!, quantity);
        ctx.expect(
          (res.exchange.response?.status ?? 500) < 500,
          `quantity ${quantity}: expected no 5xx, got ${res.exchange.response?.status ?? res.exchange.error}`,
          res.exchange,
        );
        const bad = cartLines(res.data?.addProductToCart).filter((l) => (num(l.quantity) ?? 1) <= 0);
        ctx.expect(
          bad.length === 0,
          `quantity ${quantity}: the cart now holds a line with quantity ${short(bad[0]?.quantity)}`,
          res.exchange,
        );
      }
    },
  },
  {
    id: 'GQL-AUTH-03',
    title: 'every cart mutation without a bearer token is refused and changes nothing',
    needs: ['token', 'product'],
    async run(ctx: C) {
      const before = await add(ctx, 1);
      const base = quantityOf(before.summary, ctx.state.product!);
      const [line] = lineIds(before.summary, ctx.state.product!);
      const cartId = line ?? '1';
      if (!emptyCartForm(ctx)) ctx.note('emptyCart was sent in its scalar reading (the probe had not run)');
      const cases: [string, string, Promise<GraphQLResult>][] = [
        ['addProductToCart', 'addProductToCart', addToCart(ctx, undefined, ctx.state.product!, 5)],
        ['updateCartProduct', 'updateCartProduct', op(ctx, 'updateCartProduct', { cart_id: cartId, quantity: 9 })],
        ['deleteCartProduct', 'deleteCartProduct', op(ctx, 'deleteCartProduct', { cart_id: cartId })],
        ['addCoupon', 'addCoupon', op(ctx, 'addCoupon', { code: ctx.data('SFC_GQL_COUPON') ?? 'SFC-ANY' })],
        ['emptyCart', 'emptyCart', emptyCart(ctx, {})],
      ];
      for (const [what, field, pending] of cases) {
        const res = await pending;
        const why = expectRefused(ctx, res, field, `${what} without a token`);
        if (res.exchange.response && res.exchange.response.status >= 500)
          ctx.note(`${what} without a token was refused with HTTP ${res.exchange.response.status}: ${why}`);
      }
      const after = await add(ctx, 1);
      const q = quantityOf(after.summary, ctx.state.product!);
      ctx.expect(
        q === base + 1,
        `expected the token-less calls to change nothing (quantity ${base} + 1 = ${base + 1}), found ${q}`,
        after.res.exchange,
      );
    },
  },
  {
    id: 'GQL-AUTH-04',
    title: 'a malformed bearer token (not a JWT, altered signature) is refused',
    needs: ['token', 'product'],
    async run(ctx: C) {
      for (const bad of malformedTokens(ctx.state.token!)) {
        const res = await addToCart(ctx, bad.token, ctx.state.product!, 1);
        expectRefused(ctx, res, 'addProductToCart', `addProductToCart with ${bad.label}`);
      }
    },
  },
  {
    id: 'GQL-AUTH-05',
    title: 'a token the service did not sign (RS256 with a foreign key, alg none) is refused',
    needs: ['token', 'product'],
    async run(ctx: C) {
      // GQL-TOK-02 sends the HS256 tokens too; this requirement names these two kinds.
      const named = (await forgedTokens(ctx.state.token!)).filter((t) => !t.label.startsWith('HS256'));
      for (const bad of named) {
        const res = await addToCart(ctx, bad.token, ctx.state.product!, 1);
        expectRefused(ctx, res, 'addProductToCart', `addProductToCart with ${bad.label}`);
      }
    },
  },
  {
    id: 'GQL-AUTH-02',
    title: 'add, update, delete and empty are each accepted with Authorization: Bearer <token>',
    needs: ['token', 'product'],
    async run(ctx: C) {
      const token = ctx.state.token!;
      const { summary } = await add(ctx, 1);
      const [cartId] = lineIds(summary, ctx.state.product!);
      if (!cartId) ctx.fail('expected a line of the product after adding it');
      accepted(ctx, await op(ctx, 'updateCartProduct', { cart_id: cartId, quantity: 2 }, { token }), 'updateCartProduct');
      accepted(ctx, await op(ctx, 'deleteCartProduct', { cart_id: cartId }, { token }), 'deleteCartProduct');
      // emptyCart's result is not shown (NS-GQL-03): taken means no error, and the cart is empty after.
      expectEmptyCartTaken(ctx, await emptyCart(ctx, { token }));
      const after = await add(ctx, 1);
      const lines = cartLines(after.summary);
      ctx.expect(
        lines.length === 1 && quantityOf(after.summary, ctx.state.product!) === 1,
        `after emptyCart with the bearer token, adding 1 should leave one line of 1, got ${short(lines.map((l) => ({ product_id: l.product_id, quantity: l.quantity })))}`,
        after.res.exchange,
      );
    },
  },
  {
    id: 'GQL-AUTH-06',
    title: 'addProductToCart is accepted with the scheme written in lower case (Authorization: bearer <token>)',
    needs: ['token', 'summary'],
    async run(ctx: C) {
      // The auth scheme is case-insensitive (RFC 9110, 11.1), which the document's "Bearer" does not restate: a
      // SHOULD, not GQL-AUTH-02's MUST. A token read after the exact text "Bearer " is lost here.
      const product = ctx.state.product!;
      const held = quantityOf(ctx.state.summary, product);
      const res = await addToCart(ctx, undefined, product, 1, { headers: { authorization: `bearer ${ctx.state.token!}` } });
      const summary = accepted(ctx, res, 'addProductToCart');
      ctx.state.summary = summary;
      const q = quantityOf(summary, product);
      ctx.expect(
        q === held + 1,
        `the cart held ${held} of product ${product}; after adding 1 with Authorization: bearer <token>, expected ${held + 1}, found ${q}`,
        res.exchange,
      );
    },
  },
  {
    id: 'GQL-CART-14',
    title: 'addProductToCart with product_id written as an integer (an ID, as GraphQL coerces it) adds 1 of the product',
    needs: ['token', 'summary'],
    async run(ctx: C) {
      const product = ctx.state.product!;
      // Every other add sends the ID as a string: a schema that types product_id String refuses the integer.
      if (!/^[1-9]\d{0,8}$/.test(product)) ctx.skip(`SFC_GQL_PRODUCT_ID ${product} is not an integer to send as one`);
      const held = quantityOf(ctx.state.summary, product);
      const res = await op(
        ctx,
        'addProductToCart',
        { input: { product_id: Number(product), quantity: 1, options: optionsForm(ctx) === 'list' ? [] : {} } },
        { token: ctx.state.token! },
      );
      const summary = accepted(ctx, res, 'addProductToCart');
      ctx.state.summary = summary;
      const q = quantityOf(summary, product);
      ctx.expect(
        q === held + 1,
        `the cart held ${held} of product ${product}; after adding 1 with product_id ${Number(product)} (an integer), expected ${held + 1}, found ${q}`,
        res.exchange,
      );
    },
  },
];
