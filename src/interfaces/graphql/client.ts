import type { CheckContext } from '../../checks/context.js';
import { errorMessages, GraphQLClient, type GraphQLOptions, type GraphQLResult, hasErrors } from '../../graphql/client.js';
import { operationBook, prepareUnchecked } from '../../graphql/documents.js';
import { selectionIssues } from '../../graphql/selection.js';
import type { TargetClient } from '../../http/client.js';
import { sharedPerRun } from '../../provisioning/run-shared.js';

/** Any area's context: the adapter reads settings, data and verbs, never an area's own state. */
// biome-ignore lint/suspicious/noExplicitAny: the adapter serves areas of every state type and never touches state
export type Ctx = CheckContext<any>;

/** Outcomes of the ambiguity probes, kept once per area (one target client per area). */
interface Probes {
  phone?: 'string' | 'integer';
  options?: 'object' | 'list';
  emptyCart?: 'scalar' | 'object';
}
const probesByArea = new WeakMap<TargetClient, Probes>();
function probes(ctx: Ctx): Probes {
  let p = probesByArea.get(ctx.http);
  if (!p) {
    p = {};
    probesByArea.set(ctx.http, p);
  }
  return p;
}

/** `{base_url}/index.php?route=<vendor>_graphql/<vendor>_graphql` ("4. Endpoints"). */
export function graphqlUrl(baseUrl: string, vendor: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/index.php?route=${vendor}_graphql/${vendor}_graphql`;
}

const clients = new WeakMap<TargetClient, GraphQLClient>();
/** The GraphQL client of this area; skips the check when no base URL is set. */
export function gql(ctx: Ctx): GraphQLClient {
  let client = clients.get(ctx.http);
  if (!client) {
    if (!ctx.settings.baseUrl) ctx.skip('no base URL set (--base-url / SFC_BASE_URL)');
    client = new GraphQLClient(
      ctx.http,
      graphqlUrl(ctx.settings.baseUrl, ctx.settings.vendor),
      operationBook(ctx.settings.vendor),
    );
    clients.set(ctx.http, client);
  }
  return client;
}

/** Sends operation `name` after checking the suite's own variables against its request schema. */
export async function op(
  ctx: Ctx,
  name: string,
  variables: Record<string, unknown> = {},
  options: GraphQLOptions = {},
): Promise<GraphQLResult> {
  const issues = ctx.schemas.check(`graphql/schemas/${name}.request.schema.json`, variables);
  if (issues.length > 0)
    throw new Error(
      `suite bug: variables of ${name} break their schema: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    );
  return gql(ctx).run(name, variables, options);
}

/**
 * How the answer as a whole refused, whatever its result: no JSON object, errors, status false or
 * no data; undefined otherwise. The error shape is not shown (NS-GQL-08).
 */
export function answerRefusal(res: GraphQLResult): string | undefined {
  const status = res.exchange.response?.status;
  if (!res.exchange.response) return `no response (${res.exchange.error ?? 'network error'})`;
  if (!res.body) return `a body that is not a JSON object (HTTP ${status})`;
  if (hasErrors(res.errors)) return `errors: ${errorMessages(res.errors).join('; ').slice(0, 300)}`;
  if (res.body.status === false) return 'status false';
  if (!res.data) return 'no data';
  return undefined;
}

/**
 * How the target refused `field`, or undefined when the result looks like success. The error
 * shape is not shown (NS-GQL-08): an error in `errors`, `status: false`, or a null or false result.
 */
export function refusal(res: GraphQLResult, field: string): string | undefined {
  const whole = answerRefusal(res);
  if (whole || !res.data) return whole;
  const value = res.data[field];
  if (value === undefined || value === null) return `${field} null`;
  if (value === false) return `${field} false`;
  return undefined;
}

/** The result of `field`, failing the check unless the operation succeeded (JSON object, no errors, a non-null result). */
export function accepted(ctx: Ctx, res: GraphQLResult, field: string): unknown {
  const body = ctx.json<unknown>(res.exchange);
  ctx.expect(body !== null && typeof body === 'object' && !Array.isArray(body), 'expected a JSON object', res.exchange);
  ctx.validate('graphql/schemas/envelope.schema.json', body, res.exchange, 'response body');
  const why = refusal(res, field);
  if (why) ctx.fail(`${field}: expected a successful result, got ${why}`, res.exchange);
  return res.data?.[field];
}

/** Fails the check unless `field` was refused; returns how. */
export function expectRefused(ctx: Ctx, res: GraphQLResult, field: string, what: string): string {
  const why = refusal(res, field);
  if (!why)
    ctx.fail(
      `${what}: expected a refusal (an error, status false, or a null or false result), got ${field} = ${short(res.data?.[field])}`,
      res.exchange,
    );
  return why;
}

/** Fails the check unless the result holds exactly the selected fields ("4. Endpoints"). */
export function expectSelection(ctx: Ctx, res: GraphQLResult): void {
  if (!res.op) throw new Error('suite bug: selection check of a request sent without an operation');
  const issues = selectionIssues(res.op, res.data);
  if (issues.length > 0)
    ctx.fail(`the result does not hold exactly the selected fields:\n  ${issues.slice(0, 12).join('\n  ')}`, res.exchange);
}

/** The `data` object with `<vendor>_token` renamed to the document's `svc_token`, for the schemas. */
export function documentSpelling(data: Record<string, unknown> | null | undefined, vendor: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(data ?? {}) };
  const login = out.login;
  if (vendor !== 'svc' && login && typeof login === 'object' && !Array.isArray(login)) {
    const { [`${vendor}_token`]: token, ...rest } = login as Record<string, unknown>;
    out.login = token === undefined ? rest : { svc_token: token, ...rest };
  }
  return out;
}

/** Validates the `data` object against `graphql/schemas/<name>.response.schema.json`. */
export function validateData(ctx: Ctx, res: GraphQLResult, name: string): void {
  ctx.validate(
    `graphql/schemas/${name}.response.schema.json`,
    documentSpelling(res.data, ctx.settings.vendor),
    res.exchange,
    `data of ${name}`,
  );
}

export function short(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

/** A number from a JSON number or a decimal string; undefined otherwise. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?[0-9]+(\.[0-9]+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

/** What of a coupon a cart summary shows (a coupon_code, a coupon_discount other than 0); empty when it shows none. */
export function couponShown(summary: Record<string, unknown>): string[] {
  const code = summary.coupon_code;
  const discount = num(summary.coupon_discount) ?? 0;
  return [
    ...(code !== '' && code !== null && code !== undefined ? [`coupon_code is ${short(code)}`] : []),
    ...(Math.abs(discount) > 0.005 ? [`coupon_discount is ${discount}`] : []),
  ];
}

export function record(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The lines of a cart summary (`items`), objects only. */
export function cartLines(summary: unknown): Record<string, unknown>[] {
  const items = record(summary)?.items;
  return Array.isArray(items) ? items.filter((i): i is Record<string, unknown> => record(i) !== undefined) : [];
}

/** Sum of the quantities of the lines of `productId`. */
export function quantityOf(summary: unknown, productId: string): number {
  return cartLines(summary)
    .filter((l) => String(l.product_id) === productId)
    .reduce((sum, l) => sum + (num(l.quantity) ?? 0), 0);
}

/** SFC_GQL_PRODUCT_ID, or skip. */
export function productId(ctx: Ctx): string {
  return ctx.data('SFC_GQL_PRODUCT_ID') ?? ctx.skip('SFC_GQL_PRODUCT_ID is not set: no product to add to the cart');
}

/** SFC_GQL_SECOND_PRODUCT_ID when set and other than SFC_GQL_PRODUCT_ID; undefined otherwise. */
export function secondProduct(ctx: Ctx): string | undefined {
  const second = ctx.data('SFC_GQL_SECOND_PRODUCT_ID')?.trim();
  return second && second !== ctx.data('SFC_GQL_PRODUCT_ID')?.trim() ? second : undefined;
}

/** SFC_GQL_SECOND_PRODUCT_ID, or skip: the checks of carts of two lines. */
export function secondProductId(ctx: Ctx): string {
  const second = secondProduct(ctx);
  if (second) return second;
  return ctx.skip(
    ctx.data('SFC_GQL_SECOND_PRODUCT_ID')?.trim()
      ? 'SFC_GQL_SECOND_PRODUCT_ID names the same product as SFC_GQL_PRODUCT_ID: no cart of two lines'
      : 'SFC_GQL_SECOND_PRODUCT_ID is not set: no second product for a cart of two lines',
  );
}

// ---- accounts ---------------------------------------------------------------------------------

export interface Account {
  email: string;
  password: string;
  firstname: string;
  lastname: string;
}

/** A complete CustomerInput ("all required"); telephone and postcode in the form the target took (AMB-GQL-02). */
export function customerInput(ctx: Ctx, account: Account, phone: 'string' | 'integer' = 'string'): Record<string, unknown> {
  const digits = ctx.names.phone();
  return {
    customer_group_id: 1,
    firstname: account.firstname,
    lastname: account.lastname,
    email: account.email,
    // A 9-digit integer stays inside GraphQL's 32-bit Int.
    telephone: phone === 'string' ? digits : Number(digits.slice(1)),
    address_1: '1 Conformance Street',
    address_2: 'Suite 2',
    city: 'Testville',
    // OpenCart's defaults (United Kingdom, a zone of it): document 3 offers no way to list countries.
    country_id: 222,
    zone_id: 3563,
    password: account.password,
    confirm: account.password,
    agree: true,
    fax: '',
    company: 'Conformance Ltd',
    postcode: phone === 'string' ? '12345' : 12345,
  };
}

export function freshAccount(ctx: Ctx): Account {
  return {
    email: ctx.names.email(),
    password: ctx.names.password(),
    firstname: ctx.names.label('Ada'),
    lastname: ctx.names.label('Lovelace'),
  };
}

/**
 * Registers `account` (no token: "Login and register need no token"). The first call of an area
 * probes AMB-GQL-02: telephone and postcode as strings of digits, then as integers.
 */
export async function register(ctx: Ctx, account: Account): Promise<GraphQLResult> {
  const p = probes(ctx);
  if (p.phone) return op(ctx, 'register', { input: customerInput(ctx, account, p.phone) });
  const asString = await op(ctx, 'register', { input: customerInput(ctx, account, 'string') });
  if (asString.data?.register === true && !hasErrors(asString.errors)) {
    p.phone = 'string';
    ctx.choose('AMB-GQL-02', 'string');
    return asString;
  }
  const asInteger = await op(ctx, 'register', { input: customerInput(ctx, account, 'integer') });
  if (asInteger.data?.register === true && !hasErrors(asInteger.errors)) {
    p.phone = 'integer';
    ctx.choose('AMB-GQL-02', 'integer');
    ctx.note(`telephone and postcode as strings of digits were refused (${refusal(asString, 'register')}); as integers accepted`);
    return asInteger;
  }
  return asString;
}

/** Registers a new account and fails the check unless register returns true. */
export async function newAccount(ctx: Ctx, keep?: (res: GraphQLResult) => void): Promise<Account> {
  const account = freshAccount(ctx);
  const res = await register(ctx, account);
  keep?.(res); // the raw result, before it is judged (GQL-ENV-01 reads where it sits)
  ctx.expect(
    res.data?.register === true && !hasErrors(res.errors),
    `register of a new account: expected register: true, got ${refusal(res, 'register') ?? short(res.data?.register)}`,
    res.exchange,
  );
  return account;
}

/**
 * Names a String must carry as sent ("2. Resources and their fields"): an apostrophe, quotes,
 * markup characters and non-ASCII letters, where an HTML escaping or a lossy encoding of the stored
 * text shows; with `astral`, also a character outside the BMP (4 bytes in UTF-8), which a 3-byte
 * utf8 column cuts. The Ü of the lastname is written decomposed (U+0055 U+0308, as macOS and some keyboards
 * send it): a target that normalises stored text to NFC answers other characters. The lastname ends in Greek
 * letters (two bytes each in UTF-8): about 30 characters with the run's label, inside the platform's 32, but some
 * 35 bytes, so a store that cuts names at 32 bytes where it means 32 characters (mb_strcut for mb_substr) shows.
 */
export function awkwardNames(ctx: Ctx, astral = true): Pick<Account, 'firstname' | 'lastname'> {
  return {
    firstname: ctx.names.label(astral ? "Zoë O'Hara \u{1F33B}" : "Zoë O'Hara"),
    lastname: ctx.names.label('<U\u0308nal> & "Ωμέγα"'),
  };
}

/**
 * A new account with awkwardNames. No character set of names is stated, so a target that refuses
 * them is noted and tried without the character outside the BMP, then a plain account is made
 * instead (its names then show no escaping).
 */
export async function newAccountAwkward(ctx: Ctx): Promise<Account> {
  for (const astral of [true, false]) {
    const account = { ...freshAccount(ctx), ...awkwardNames(ctx, astral) };
    const res = await register(ctx, account);
    if (res.data?.register === true && !hasErrors(res.errors)) return account;
    ctx.note(
      `register refused the names ${JSON.stringify(`${account.firstname} / ${account.lastname}`)} (${refusal(res, 'register') ?? short(res.data?.register)}): ${astral ? 'tried again without the character outside the BMP' : 'a plain account is used, so names with quotes, markup and accents are not judged'}`,
    );
  }
  return newAccount(ctx);
}

/** The `<vendor>_token` of a login result (undefined when there is none). */
export function loginToken(ctx: Ctx, res: GraphQLResult): unknown {
  return record(res.data?.login)?.[`${ctx.settings.vendor}_token`];
}

/**
 * Logs in; returns the token (`<vendor>_token`) and the result, failing the check when there is none.
 * `keep` gets the raw result before any judgement, so a caller that reads the envelope itself
 * (GQL-ENV-01) still has it when the result is not where this function looks.
 */
export async function login(
  ctx: Ctx,
  account: Account,
  keep?: (res: GraphQLResult) => void,
): Promise<{ token: string; res: GraphQLResult }> {
  const res = await op(ctx, 'login', { email: account.email, password: account.password });
  keep?.(res);
  accepted(ctx, res, 'login');
  const token = loginToken(ctx, res);
  ctx.expect(
    typeof token === 'string' && token.length > 0,
    `login: expected ${ctx.settings.vendor}_token as a non-empty string, got ${short(token)}`,
    res.exchange,
  );
  return { token, res };
}

/** A new account, registered and logged in; with `awkward`, its names are awkwardNames (newAccountAwkward). */
export async function newSession(ctx: Ctx, awkward = false): Promise<Account & { token: string }> {
  const account = awkward ? await newAccountAwkward(ctx) : await newAccount(ctx);
  const { token } = await login(ctx, account);
  return { ...account, token };
}

/**
 * The customer the settings name (SFC_GQL_EMAIL / SFC_GQL_PASSWORD), the only one with orders (document 3
 * places none). The queries and properties areas both use it, at the same time: whether a login ends the
 * customer's older tokens is not shown (token lifetime), so it is logged in once per run and that token
 * shared (sharedPerRun), as the network shares its settings' account.
 */
export class SeededCustomer {
  private constructor(
    private readonly email: string,
    private readonly password: string,
  ) {}

  /** The customer the settings name, or undefined when they name none. */
  static of(ctx: Ctx): SeededCustomer | undefined {
    const email = ctx.data('SFC_GQL_EMAIL');
    const password = ctx.data('SFC_GQL_PASSWORD');
    return email && password ? new SeededCustomer(email, password) : undefined;
  }

  /** The run's token of the customer; a refused login fails the check (login() judges it) and is not kept. */
  private token(ctx: Ctx): Promise<string> {
    return sharedPerRun(
      ctx.settings.runId,
      'gql-seeded-login',
      [String(ctx.settings.baseUrl), this.email, this.password],
      async () => {
        const { token } = await login(ctx, { email: this.email, password: this.password, firstname: '', lastname: '' });
        return { value: token, keep: typeof token === 'string' && token !== '' };
      },
    );
  }

  /** `call` with the customer's token. */
  async send(ctx: Ctx, call: (options: GraphQLOptions) => Promise<GraphQLResult>): Promise<GraphQLResult> {
    return call({ token: await this.token(ctx) });
  }
}

// ---- cart -------------------------------------------------------------------------------------

/**
 * addProductToCart with empty options. The first call of an area probes AMB-GQL-04: options as
 * an empty object ("object; may be empty"), then as an empty list of option entries.
 */
export async function addToCart(
  ctx: Ctx,
  token: string | undefined,
  product: string,
  quantity: number,
  options: GraphQLOptions = {},
): Promise<GraphQLResult> {
  const p = probes(ctx);
  const send = (form: 'object' | 'list') =>
    op(
      ctx,
      'addProductToCart',
      { input: { product_id: product, quantity, options: form === 'object' ? {} : [] } },
      { ...options, ...(token !== undefined ? { token } : {}) },
    );
  if (p.options || token === undefined) return send(p.options ?? 'object');
  const asObject = await send('object');
  if (!refusal(asObject, 'addProductToCart')) {
    p.options = 'object';
    ctx.choose('AMB-GQL-04', 'object');
    return asObject;
  }
  const asList = await send('list');
  if (!refusal(asList, 'addProductToCart')) {
    p.options = 'list';
    ctx.choose('AMB-GQL-04', 'list');
    return asList;
  }
  return asObject;
}

export function phoneForm(ctx: Ctx): 'string' | 'integer' | undefined {
  return probes(ctx).phone;
}

export function optionsForm(ctx: Ctx): 'object' | 'list' | undefined {
  return probes(ctx).options;
}

/**
 * emptyCart, whose result is not shown. The first call with a token probes AMB-GQL-05: the
 * scalar selection `emptyCart`, then `emptyCart { __typename }` when the target says the field
 * needs a sub-selection.
 */
export async function emptyCart(ctx: Ctx, options: GraphQLOptions): Promise<GraphQLResult> {
  const p = probes(ctx);
  const objectForm = () =>
    gql(ctx).send(
      prepareUnchecked('mutation emptyCart { emptyCart { __typename } }', ctx.settings.vendor, 'emptyCart (object reading)'),
      {},
      options,
    );
  if (p.emptyCart === 'object') return objectForm();
  const scalar = await op(ctx, 'emptyCart', {}, options);
  if (p.emptyCart === 'scalar' || options.token === undefined) return scalar;
  const needsSubfields = errorMessages(scalar.errors).some((m) => /selection of subfields|emptyCart \{/i.test(m));
  if (!needsSubfields) {
    p.emptyCart = 'scalar';
    ctx.choose('AMB-GQL-05', 'scalar');
    return scalar;
  }
  p.emptyCart = 'object';
  ctx.choose('AMB-GQL-05', 'object');
  return objectForm();
}

export function emptyCartForm(ctx: Ctx): 'scalar' | 'object' | undefined {
  return probes(ctx).emptyCart;
}
