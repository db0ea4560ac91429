import { deeplyNestedBody, deeplyNestedJson, MULTIPART_WITHOUT_BOUNDARY, NESTING_DEPTH } from '../../../arbitraries/hostile.js';
import type { CheckContext } from '../../../checks/context.js';
import type { AreaSpec } from '../../../checks/model.js';
import type { Exchange } from '../../../http/exchange.js';
import { type CallOptions, call, type Envelope, getProduct, listProducts, SCHEMAS, tryJson } from '../client.js';
import { type Account, addPurchasable, emptyCartOnTeardown, register } from '../flows.js';

// Robustness of every endpoint: one request per endpoint per kind of bad input (malformed JSON,
// wrong content type, empty body, missing fields, wrong types, unknown fields, very long
// strings). The requests are sent once; the checks then judge the same answers: the envelope
// (MUST, Part 1), no 5xx (SHOULD), and status false where the input cannot be valid (SHOULD).

type Kind =
  | 'malformed-json'
  | 'wrong-content-type'
  | 'multipart-without-boundary'
  | 'deep-nesting'
  | 'empty-body'
  | 'missing-fields'
  | 'wrong-types'
  | 'unknown-fields'
  | 'long-strings';

interface Sent {
  endpoint: string;
  kind: Kind;
  ex: Exchange;
  /** The input cannot be valid, so the answer must be a failure (status false). */
  mustFail: boolean;
}

interface NegState {
  account: Account;
  sent: Sent[];
}

type C = CheckContext<NegState>;

const LONG = 'A'.repeat(20_000);
const JSON_TYPE = { 'content-type': 'application/json' };

interface Endpoint {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  token: boolean;
  /** Documented fields with a plausible value (POST bodies) or query parameters (GET). */
  fields: Record<string, string>;
  /** Whether the endpoint has required input, so missing or wrongly typed input must fail. */
  required: boolean;
}

/** The billing fields of the negative area's orders (POST /order/create, B. Shop variant). */
const NEG_BILLING = { first_name: 'Sfc', last_name: 'Neg', country: 'US', city: 'Austin', state: 'TX', postcode: '73301' };

const ENDPOINTS: Endpoint[] = [
  {
    id: 'login',
    method: 'POST',
    path: '/auth/login',
    token: false,
    fields: { username: 'sfcnobody', password: 'x' },
    required: true,
  },
  {
    id: 'register',
    method: 'POST',
    path: '/auth/register',
    token: false,
    fields: { username: 'sfcneg', first_name: 'Sfc', last_name: 'Neg', password: 'Pw-neg-1!', email: 'neg@example.test' },
    required: true,
  },
  {
    id: 'cart-add-item',
    method: 'POST',
    path: '/cart/add-item',
    token: true,
    fields: { product_id: '1', quantity: '1' },
    required: true,
  },
  {
    id: 'cart-update-quantities',
    method: 'POST',
    path: '/cart/update-quantities',
    token: true,
    fields: { 'cart_data[sfcnokey]': '1' },
    required: true,
  },
  { id: 'cart-remove-item', method: 'POST', path: '/cart/remove-item/sfcnokey', token: true, fields: {}, required: true },
  {
    id: 'order-create',
    method: 'POST',
    path: '/order/create',
    token: true,
    // address_2, an optional field (found by the mutation audit: a handler that crashed on an address_2 that was no text,
    // here sent null or nested, survived the suite).
    fields: { ...NEG_BILLING, address_2: 'Suite 5' },
    required: true,
  },
  { id: 'cart', method: 'GET', path: '/cart', token: true, fields: { 'coupons[]': 'SFCNONE' }, required: false },
  { id: 'cart-count', method: 'GET', path: '/cart/count', token: true, fields: {}, required: false },
  { id: 'products', method: 'GET', path: '/products', token: false, fields: { page: '1' }, required: true },
  // The product id is the path: a word and a very long id stand for the wrong type and the long string.
  { id: 'product', method: 'GET', path: '/product/<id>', token: false, fields: {}, required: true },
  // start and limit, the paging of every list endpoint (Part 1): the long strings are then no integer (found by the
  // mutation audit: a GET /orders that crashed on a start or limit it could not read survived the suite).
  { id: 'orders', method: 'GET', path: '/orders', token: true, fields: { start: '0', limit: '10' }, required: false },
];

/** A valid order whose optional coupons is sent null (JSON): what a client without coupons may send. */
function orderWithNulls(paymentMethod: string): Record<string, unknown> {
  return {
    ...NEG_BILLING,
    phone: '5125550100',
    email: 'neg@example.test',
    payment_method: paymentMethod,
    payment_method_title: paymentMethod,
    address_1: '1 Neg Street',
    coupons: null,
  };
}

/** How many orders GET /orders lists for the token (undefined when it gives no list). */
async function orderCount(ctx: C, token: string): Promise<number | undefined> {
  const orders = (tryJson(await call(ctx, 'GET', '/orders', { token }))?.data as { orders?: unknown } | undefined)?.orders;
  return Array.isArray(orders) ? orders.length : undefined;
}

/** The fields as JSON text with `coupons` an array nested deep (written as text: stringifying it would recurse). */
function withDeepCoupons(fields: Record<string, unknown>): string {
  const { coupons: _, ...rest } = fields;
  const json = JSON.stringify(rest);
  return `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}"coupons":${deeplyNestedJson()}}`;
}

/** The bad requests of one endpoint, one per kind that applies (GET has no body). */
function cases(e: Endpoint, paymentMethod: string): { kind: Kind; opts: CallOptions; mustFail: boolean }[] {
  const plain = Object.keys(e.fields).map((k) => k.replace(/\[.*$/, ''));
  const wrongTypes = Object.fromEntries(plain.map((k, i) => [k, i % 2 === 0 ? { nested: ['x'] } : [1, 2]]));
  // Found by mutation testing: a JSON null where an object was expected crashed a handler unseen.
  const nulls = Object.fromEntries(plain.map((k) => [k, null]));
  const long = Object.fromEntries(Object.keys(e.fields).map((k) => [k, LONG]));
  const unknown = { ...e.fields, sfc_unknown_field: 'x', 'sfc[nested][deep]': 'y', __proto__x: 'z' };
  if (e.id === 'product')
    return [
      { kind: 'wrong-types', opts: { raw: 'sfc-not-an-id' }, mustFail: true },
      { kind: 'long-strings', opts: { raw: LONG.slice(0, 4000) }, mustFail: true },
    ];
  if (e.method === 'GET') {
    const longQuery = Object.fromEntries(Object.keys(e.fields).map((k) => [k, LONG.slice(0, 2000)]));
    const wrongQuery = Object.fromEntries(plain.map((k) => [`${k}[sfc][]`, 'x']));
    return [
      { kind: 'unknown-fields', opts: { query: unknown }, mustFail: false },
      // A scalar sent as a nested parameter: refused where the parameter is required (page).
      { kind: 'wrong-types', opts: { query: wrongQuery }, mustFail: e.required },
      // Long, but the whole URL stays under the 8 KB most HTTP servers allow before the application sees it.
      { kind: 'long-strings', opts: { query: { ...longQuery, sfc_long: LONG.slice(0, 2000) } }, mustFail: false },
    ];
  }
  return [
    { kind: 'malformed-json', opts: { raw: '{"username": "x", ', headers: JSON_TYPE }, mustFail: true },
    {
      kind: 'wrong-content-type',
      opts: { raw: '<xml><quantity>1</quantity></xml>', headers: { 'content-type': 'application/xml' } },
      mustFail: true,
    },
    {
      kind: 'multipart-without-boundary',
      opts: { raw: 'product_id=1&quantity=1', headers: { 'content-type': MULTIPART_WITHOUT_BOUNDARY } },
      mustFail: true,
    },
    { kind: 'empty-body', opts: { raw: '', headers: JSON_TYPE }, mustFail: true },
    { kind: 'missing-fields', opts: { raw: '{}', headers: JSON_TYPE }, mustFail: true },
    { kind: 'wrong-types', opts: { raw: JSON.stringify(wrongTypes), headers: JSON_TYPE }, mustFail: e.required },
    ...(plain.length > 0
      ? [{ kind: 'wrong-types' as const, opts: { raw: JSON.stringify(nulls), headers: JSON_TYPE }, mustFail: e.required }]
      : []),
    ...(plain.length > 0
      ? [{ kind: 'deep-nesting' as const, opts: { raw: deeplyNestedBody(plain), headers: JSON_TYPE }, mustFail: e.required }]
      : []),
    // coupons, documented for order/create ("array of codes") and read by some carts too, nested deep
    // beside otherwise plausible fields: a recursive walk of the codes overflows.
    ...(e.id === 'order-create' || e.id.startsWith('cart-')
      ? [
          {
            kind: 'deep-nesting' as const,
            opts: {
              raw: withDeepCoupons(e.id === 'order-create' ? orderWithNulls(paymentMethod) : e.fields),
              headers: JSON_TYPE,
            },
            mustFail: e.id === 'order-create',
          },
        ]
      : []),
    // A password sent as a JSON number beside a plain username (found by the mutation audit: a login that crashed on
    // it survived, as the other wrong-typed bodies are refused at their username first).
    ...(e.id === 'login'
      ? [
          {
            kind: 'wrong-types' as const,
            opts: { raw: JSON.stringify({ username: e.fields.username, password: 12345678 }), headers: JSON_TYPE },
            mustFail: true,
          },
        ]
      : []),
    // The cart of this account is empty, so the order may still be refused; only the envelope and "no 5xx" are judged.
    ...(e.id === 'order-create'
      ? [
          {
            kind: 'wrong-types' as const,
            opts: { raw: JSON.stringify(orderWithNulls(paymentMethod)), headers: JSON_TYPE },
            mustFail: false,
          },
        ]
      : []),
    { kind: 'unknown-fields', opts: { form: unknown }, mustFail: false },
    // A 20 000-letter username or name is not refused by any document rule: register may accept it.
    { kind: 'long-strings', opts: { form: long }, mustFail: e.required && e.id !== 'register' },
  ];
}

/** Listing and product go through the adapter, which knows the method the target chose (AMB-SHOP-01, -02). */
function send(ctx: C, e: Endpoint, opts: CallOptions): Promise<Exchange> {
  if (e.id === 'products') return listProducts(ctx, (opts.query ?? {}) as Record<string, string>);
  if (e.id === 'product') return getProduct(ctx, opts.raw ?? '');
  return call(ctx, e.method, e.path, opts);
}

const label = (s: Sent): string => `${s.ex.request.method} ${s.endpoint} (${s.kind})`;

function failList(ctx: C, what: string, bad: Sent[], why: (s: Sent) => string): void {
  if (bad.length === 0) return;
  const lines = bad.slice(0, 12).map((s) => `${label(s)}: ${why(s)}`);
  if (bad.length > 12) lines.push(`... and ${bad.length - 12} more`);
  ctx.fail(
    `${bad.length} of ${ctx.state.sent!.length} bad requests ${what}:\n  ${lines.join('\n  ')}`,
    ...bad.slice(0, 4).map((s) => s.ex),
  );
}

export const negativeArea: AreaSpec<NegState> = {
  interface: 'rest-v1-shop',
  name: 'negative',
  checks: [
    {
      id: 'SHOP-AUTH-01',
      title: 'register the account whose token the bad requests carry',
      run: async (ctx: C) => {
        ctx.state.account = (await register(ctx)).account;
        emptyCartOnTeardown(ctx, ctx.state.account.token);
      },
    },
    {
      id: 'SHOP-NEG-01',
      title: `malformed JSON, wrong content type (also multipart without its boundary), empty body, missing fields, wrong types (also arrays nested ${NESTING_DEPTH} deep), unknown fields, long strings: the envelope`,
      needs: ['account'],
      run: async (ctx: C) => {
        const sent: Sent[] = [];
        for (const e of ENDPOINTS)
          for (const c of cases(e, ctx.data('SFC_SHOP_PAYMENT_METHOD') ?? 'cod')) {
            const opts = e.token ? { ...c.opts, token: ctx.state.account!.token } : c.opts;
            sent.push({ endpoint: e.id, kind: c.kind, ex: await send(ctx, e, opts), mustFail: c.mustFail });
          }
        ctx.state.sent = sent;
        const issues = new Map<Sent, string>();
        for (const s of sent) {
          const body = tryJson(s.ex);
          if (!s.ex.response) issues.set(s, `no response (${s.ex.error ?? 'unknown error'})`);
          else if (!body) issues.set(s, `HTTP ${s.ex.response.status}, body is not a JSON object`);
          else {
            const problems = ctx.schemas.check(`${SCHEMAS}formats.schema.json#/$defs/envelope`, body);
            if (problems.length > 0) issues.set(s, `not the envelope: ${problems[0]?.path} ${problems[0]?.message}`);
          }
        }
        failList(
          ctx,
          'were not answered with the envelope (status, errors, message)',
          [...issues.keys()],
          (s) => issues.get(s) ?? '',
        );
      },
    },
    {
      id: 'SHOP-ENV-05',
      title: 'none of those bad requests is answered with a 5xx',
      needs: ['sent'],
      run: async (ctx: C) => {
        const bad = ctx.state.sent!.filter((s) => (s.ex.response?.status ?? 0) >= 500);
        failList(ctx, 'were answered with a 5xx', bad, (s) => `HTTP ${s.ex.response?.status}`);
      },
    },
    {
      id: 'SHOP-NEG-02',
      title: 'input that cannot be valid (unreadable, missing, wrongly typed) is answered with status false',
      needs: ['sent'],
      run: async (ctx: C) => {
        const bad = ctx.state.sent!.filter((s) => s.mustFail && (tryJson(s.ex) as Envelope | undefined)?.status !== false);
        failList(ctx, 'that cannot be valid were not refused with status false', bad, (s) => {
          const b = tryJson(s.ex);
          return `status ${String(b?.status)}, message "${String(b?.message ?? '')}"`;
        });
      },
    },
    {
      // Found by mutation testing: an order whose coupons was not a list of codes was refused only because
      // the cart was empty; a handler that ignored the malformed coupons survived. Last: it fills the cart.
      id: 'SHOP-NEG-02',
      title: `order create whose coupons is not a list of codes (a list nested ${NESTING_DEPTH} deep), the cart holding an item: status false, and no order is added`,
      needs: ['account'],
      run: async (ctx: C) => {
        const method = ctx.data('SFC_SHOP_PAYMENT_METHOD');
        if (!method) ctx.skip('SFC_SHOP_PAYMENT_METHOD is not set: a refusal could be for the payment method');
        const token = ctx.state.account!.token;
        await addPurchasable(ctx, token, 1);
        const before = await orderCount(ctx, token);
        const ex = await call(ctx, 'POST', '/order/create', {
          token,
          raw: withDeepCoupons(orderWithNulls(method)),
          headers: JSON_TYPE,
        });
        const body = tryJson(ex) as Envelope | undefined;
        ctx.expect(
          body?.status === false,
          `expected status false, got ${ex.response ? `HTTP ${ex.response.status} ${ex.response.body.slice(0, 200)}` : ex.error}`,
          ex,
        );
        const after = await orderCount(ctx, token);
        ctx.expect(
          before === undefined || after === before,
          `GET /orders listed ${before} orders before and ${after} after the refused order`,
          ex,
        );
      },
    },
  ],
};
