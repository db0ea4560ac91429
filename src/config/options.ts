/** Every setting of `run` and `self-test`: one table drives parsing, validation and `--help`. */
export interface OptionDef {
  flag: string;
  env?: string;
  key: string;
  kind: 'url' | 'string' | 'int' | 'list' | 'bool' | 'path';
  default?: string;
  help: string;
  /** Commands that take it. */
  commands: ('run' | 'self-test')[];
}

const both: OptionDef['commands'] = ['run', 'self-test'];

export const OPTIONS: OptionDef[] = [
  {
    flag: 'base-url',
    env: 'SFC_BASE_URL',
    key: 'baseUrl',
    kind: 'url',
    help: 'base of documents 1 and 3 (index.php?route=...)',
    commands: ['run'],
  },
  {
    flag: 'network-api-root',
    env: 'SFC_NETWORK_API_ROOT',
    key: 'networkApiRoot',
    kind: 'url',
    help: '{api_root} of document 2, variant A (network plan)',
    commands: ['run'],
  },
  {
    flag: 'shop-api-root',
    env: 'SFC_SHOP_API_ROOT',
    key: 'shopApiRoot',
    kind: 'url',
    help: '{api_root} of document 2, variant B (shop)',
    commands: ['run'],
  },
  {
    flag: 'vendor',
    env: 'SFC_VENDOR',
    key: 'vendor',
    kind: 'string',
    default: 'svc',
    help: 'vendor segment: header <vendor>_token, route <vendor>_graphql/...',
    commands: both,
  },
  {
    flag: 'interfaces',
    env: 'SFC_INTERFACES',
    key: 'interfaces',
    kind: 'list',
    help: 'comma list of rest-route, rest-v1-network, rest-v1-shop, graphql (default: every interface whose URL is set)',
    commands: both,
  },
  {
    flag: 'report-dir',
    env: 'SFC_REPORT_DIR',
    key: 'reportDir',
    kind: 'path',
    default: './reports',
    help: 'where the reports are written',
    commands: both,
  },
  {
    flag: 'seed',
    env: 'SFC_SEED',
    key: 'seed',
    kind: 'int',
    help: 'seed of every property, 0 to 2147483647; the same seed replays the same generated inputs (default: random, printed)',
    commands: both,
  },
  {
    flag: 'runs',
    env: 'SFC_RUNS',
    key: 'runs',
    kind: 'int',
    default: '20',
    help: 'runs per property (a certification run uses 1000)',
    commands: both,
  },
  {
    flag: 'timeout',
    env: 'SFC_TIMEOUT_MS',
    key: 'timeoutMs',
    kind: 'int',
    default: '10000',
    help: 'per-request timeout in milliseconds',
    commands: both,
  },
  {
    flag: 'rate-limit',
    env: 'SFC_RATE_LIMIT',
    key: 'rateLimit',
    kind: 'int',
    help: 'at most N requests per second (areas then run one at a time)',
    commands: both,
  },
  {
    flag: 'concurrency',
    env: 'SFC_CONCURRENCY',
    key: 'concurrency',
    kind: 'int',
    default: '16',
    help: 'areas of checks run at once, 1 to 64, each area its checks in order (--rate-limit makes it 1)',
    commands: both,
  },
  {
    flag: 'max-duration',
    env: 'SFC_MAX_DURATION_S',
    key: 'maxDurationS',
    kind: 'int',
    default: '1800',
    help: 'bound on the whole run in seconds; past it the run is aborted with exit 3',
    commands: both,
  },
  {
    flag: 'waivers',
    env: 'SFC_WAIVERS',
    key: 'waivers',
    kind: 'path',
    help: 'known-failure file: requirement ids with a reason and an expiry date',
    commands: both,
  },
  {
    flag: 'baseline',
    env: 'SFC_BASELINE',
    key: 'baseline',
    kind: 'path',
    help: "a previous conformance-report.json (main's): exit 1 only for MUSTs that newly fail or are no longer exercised",
    commands: ['run'],
  },
  {
    flag: 'allow-incomplete',
    env: 'SFC_ALLOW_INCOMPLETE',
    key: 'allowIncomplete',
    kind: 'bool',
    help: 'exit 0 when the verdict is incomplete (a MUST could not be exercised)',
    commands: both,
  },
];

/** An amount (`10.00`) or a share of the subtotal (`10%`, at most 100 %). */
const COUPON_OFF = /^(\d{1,9}(\.\d{1,4})?|(100|\d{1,2})(\.\d{1,4})?%)$/;
const COUPON_OFF_HELP = 'an amount such as 10.00, or a share of the subtotal such as 10% (at most 100%)';
/** Codes separated by commas, none empty (blanks around a comma are allowed). */
const CODE_LIST = /^[^,\s]+(\s*,\s*[^,\s]+)*$/;
/** `<product_id>:<option_id>=<value>[,<option_id>=<value>...]`: ids without blanks, values without commas or `=`. */
const OPTION_PRODUCT = /^[^\s:,=]+:[^\s:,=]+=[^,=]*[^\s,=][^,=]*(,[^\s:,=]+=[^,=]*[^\s,=][^,=]*)*$/;

/**
 * Target data keys (`.env.example`): passed to the checks, never printed in reports. `form`: a
 * value must match it (`formHelp` says how), checked when the settings are read.
 */
export const DATA_KEYS: { key: string; help: string; reference: string; form?: RegExp; formHelp?: string }[] = [
  {
    key: 'SFC_NET_USERNAME',
    help: 'document 2 A: account with payouts, commissions, bank details and a balance',
    reference: 'netroot',
  },
  { key: 'SFC_NET_PASSWORD', help: 'document 2 A: its password', reference: 'Root-pass-2024' },
  { key: 'SFC_SHOP_COUPON', help: 'document 2 B: a valid coupon code', reference: 'SAVE10' },
  {
    key: 'SFC_SHOP_COUPON_OFF',
    help: 'document 2 B: what that coupon takes off, an amount (10.00) or a share (10%); empty: SHOP-COUP-07 is skipped',
    reference: '10%',
    form: COUPON_OFF,
    formHelp: COUPON_OFF_HELP,
  },
  {
    key: 'SFC_SHOP_UNUSABLE_COUPONS',
    help: 'document 2 B: codes of coupons that exist but must not apply (expired, used up), comma-separated',
    reference: 'EXPIRED5,USEDUP',
    form: CODE_LIST,
    formHelp: 'coupon codes separated by commas, such as EXPIRED5,USEDUP',
  },
  { key: 'SFC_SHOP_CATEGORY', help: 'document 2 B: a category slug holding products', reference: 'clothing' },
  { key: 'SFC_SHOP_PAYMENT_METHOD', help: 'document 2 B: a payment method id for order/create', reference: 'cod' },
  {
    key: 'SFC_NET_JOIN_USERNAME',
    help: 'document 2 A: an account that has no binary position yet (for /Join_net)',
    reference: 'netjoin',
  },
  { key: 'SFC_NET_JOIN_PASSWORD', help: 'document 2 A: its password', reference: 'Join-pass-2024' },
  {
    key: 'SFC_GQL_EMAIL',
    help: 'document 3: a customer with several orders (orders paging)',
    reference: 'jane.doe@example.test',
  },
  { key: 'SFC_GQL_PASSWORD', help: 'document 3: its password', reference: 'Customer-pass-2024' },
  { key: 'SFC_GQL_PRODUCT_ID', help: 'document 3: a product addable to the cart without options', reference: '40' },
  {
    key: 'SFC_GQL_SECOND_PRODUCT_ID',
    help: 'document 3: a second product, other than SFC_GQL_PRODUCT_ID, addable to the cart without options (carts of two lines)',
    reference: '43',
  },
  { key: 'SFC_GQL_COUPON', help: 'document 3: a valid coupon code', reference: '2222' },
  {
    key: 'SFC_GQL_UNUSABLE_COUPONS',
    help: 'document 3: codes of coupons that exist but must not apply to a cart of one SFC_GQL_PRODUCT_ID (expired, not yet valid, used up, disabled, a higher minimum total), comma-separated',
    reference: '3333,4444,5555,6666,7777',
    form: CODE_LIST,
    formHelp: 'coupon codes separated by commas, such as 3333,4444',
  },
  {
    key: 'SFC_GQL_OPTION_PRODUCT',
    help: 'document 3: a product with options and a choice for each required one: <product_id>:<option_id>=<value>,...',
    reference: '30:226=16,227=SFC',
    form: OPTION_PRODUCT,
    formHelp:
      '<product_id>:<option_id>=<value>, more options after commas, such as 30:226=16,227=Gift (a select option takes the id of one of its values)',
  },
  {
    key: 'SFC_GQL_COUPON_OFF',
    help: 'document 3: what that coupon takes off, an amount (10.00) or a share (10%); empty: sign and bound only',
    reference: '10',
    form: COUPON_OFF,
    formHelp: COUPON_OFF_HELP,
  },
];

/** The target data of the reference implementation (its seeded accounts, products and coupons), by key. */
export const referenceData = (): Record<string, string> => Object.fromEntries(DATA_KEYS.map((d) => [d.key, d.reference]));

/** Keys whose values are secrets: redacted wherever they could appear. */
export const SECRET_DATA_KEYS = new Set(['SFC_NET_PASSWORD', 'SFC_NET_JOIN_PASSWORD', 'SFC_GQL_PASSWORD']);

/** The values of the secret target data (passwords) to scrub from evidence; coupon codes and slugs are evidence. */
export function secretValues(data: Record<string, string>): string[] {
  return Object.entries(data)
    .filter(([k, v]) => SECRET_DATA_KEYS.has(k) && v.length >= 4)
    .map(([, v]) => v);
}
