import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import { type OptionProduct, optionProduct } from '../../../checks/target-data.js';
import type { GraphQLResult } from '../../../graphql/client.js';
import {
  accepted,
  addToCart,
  cartLines,
  emptyCart,
  expectSelection,
  newSession,
  op,
  optionsForm,
  productId,
  refusal,
  short,
  validateData,
} from '../client.js';
import { expectConsistent } from './cart/totals.js';
import { noSecretsCheck } from './common.js';

/**
 * A cart line with options: CartProductInput's option entries {option_id, value} and the cart line's
 * option list {option_id, name, value} ("2. Resources and their fields"). The document names no
 * product with options, so the operator names one (SFC_GQL_OPTION_PRODUCT); without it the cart
 * lines the suite builds all have empty options and the option list of a line is never judged.
 */
interface OptionsState {
  /** The summary after the product with options was added beside SFC_GQL_PRODUCT_ID's line. */
  added: GraphQLResult;
  summary: unknown;
  chosen: OptionProduct;
}
type C = CheckContext<OptionsState>;

/** The option entries in the form the target took for empty options (AMB-GQL-04), the object form before it is known. */
function optionsInput(ctx: C, chosen: OptionProduct): unknown {
  if (optionsForm(ctx) === 'list') return chosen.options.map((o) => ({ option_id: o.optionId, value: o.value }));
  return Object.fromEntries(chosen.options.map((o) => [o.optionId, o.value]));
}

export const optionsArea: AreaSpec<OptionsState> = {
  interface: 'graphql',
  name: 'options',
  checks: [
    {
      id: 'GQL-CART-15',
      title:
        'the product of SFC_GQL_OPTION_PRODUCT added with its option entries beside a product added without: one line of it listing each chosen option (option_id, name, value), none on the other line',
      async run(ctx: C) {
        const chosen = optionProduct(ctx.data('SFC_GQL_OPTION_PRODUCT'));
        if (!chosen) ctx.skip('SFC_GQL_OPTION_PRODUCT (a product with options and a choice for each) is not set');
        const plain = productId(ctx);
        const session = await newSession(ctx);
        ctx.onTeardown(async () => {
          await emptyCart(ctx, { token: session.token });
        });
        // The product without options first: it settles the options form (AMB-GQL-04) this area then sends.
        const first = await addToCart(ctx, session.token, plain, 1);
        if (refusal(first, 'addProductToCart'))
          ctx.skip(`adding 1 of SFC_GQL_PRODUCT_ID ${plain} was refused (judged by GQL-CART-01 and GQL-CART-03)`);
        const options = optionsInput(ctx, chosen);
        const res = await op(
          ctx,
          'addProductToCart',
          { input: { product_id: chosen.productId, quantity: 1, options } },
          { token: session.token },
        );
        const summary = accepted(ctx, res, 'addProductToCart');
        Object.assign(ctx.state, { added: res, summary, chosen });
        const lines = cartLines(summary);
        const mine = lines.filter((l) => String(l.product_id) === chosen.productId);
        ctx.expect(
          mine.length === 1,
          `after adding product ${chosen.productId} with options ${short(options)}, expected one line of it, got ${mine.length} (${short(lines.map((l) => ({ product_id: l.product_id, option: l.option })))})`,
          res.exchange,
        );
        const listed = Array.isArray(mine[0]?.option) ? (mine[0].option as Record<string, unknown>[]) : [];
        for (const o of chosen.options) {
          const entry = listed.find((e) => String(e?.option_id) === o.optionId);
          ctx.expect(
            typeof entry?.name === 'string' && entry.name !== '' && String(entry.value ?? '') !== '',
            `the line of product ${chosen.productId} should list option ${o.optionId} (sent with value ${JSON.stringify(o.value)}) with a name and a value; its option list is ${short(mine[0]?.option)}`,
            res.exchange,
          );
        }
        const others = lines.filter((l) => String(l.product_id) === plain && Array.isArray(l.option) && l.option.length > 0);
        ctx.expect(
          others.length === 0,
          `the line of product ${plain}, added with empty options, lists options: ${short(others.map((l) => l.option))}`,
          res.exchange,
        );
      },
    },
    {
      id: 'GQL-CART-02',
      title: 'the cart summary holding a line with options validates (each option entry {option_id, name, value})',
      needs: ['added'],
      async run(ctx: C) {
        validateData(ctx, ctx.state.added!, 'addProductToCart');
      },
    },
    {
      id: 'GQL-ENV-03',
      title: 'the cart summary holding a line with options returns exactly the selected fields, in its option entries too',
      needs: ['added'],
      async run(ctx: C) {
        expectSelection(ctx, ctx.state.added!);
      },
    },
    {
      id: 'GQL-CART-05',
      title: 'with a line with options beside one without, each line total is price x quantity and subtotal is their sum',
      needs: ['added'],
      async run(ctx: C) {
        expectConsistent(ctx, ctx.state.added!, ctx.state.summary);
      },
    },
    noSecretsCheck<OptionsState>(),
  ],
};
