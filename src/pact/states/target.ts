import type { InterfaceId } from '../../checks/model.js';

// What a state handler needs to reach the target through its own API, and the token of the
// state's login that the verifier's request filter then puts on the contract's requests.

export interface StateTarget {
  iface: InterfaceId;
  /** base_url (documents 1 and 3) or {api_root} (document 2), without a trailing slash. */
  url: string;
  vendor: string;
  /** Target data (`SFC_*` keys). */
  data: Record<string, string>;
  timeoutMs: number;
  /** Set by the states that log in. */
  token?: string;
}

/** The target data keys the state handlers read (`need(t, key, ...)`); `pact verify --help` lists them. */
export const PROVIDER_STATE_DATA: readonly string[] = [
  'SFC_NET_USERNAME',
  'SFC_NET_PASSWORD',
  'SFC_SHOP_PAYMENT_METHOD',
  'SFC_GQL_EMAIL',
  'SFC_GQL_PASSWORD',
  'SFC_GQL_PRODUCT_ID',
  'SFC_GQL_COUPON',
];

/** A provider state that cannot be created: the verification of its interactions fails with this. */
export class StateError extends Error {
  override name = 'StateError';
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

export async function send(
  t: StateTarget,
  method: 'GET' | 'POST',
  url: string,
  opts: { json?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
    signal: AbortSignal.timeout(t.timeoutMs),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) body = v as Record<string, unknown>;
  } catch {
    // not JSON: the caller reports the text
  }
  return { status: res.status, body, text };
}

export function need(t: StateTarget, key: string, state: string): string {
  const v = t.data[key];
  if (!v) throw new StateError(`provider state "${state}" needs ${key} (target data; see .env.example)`);
  return v;
}

export function requireToken(t: StateTarget, state: string): string {
  if (!t.token) throw new StateError(`provider state "${state}" needs a logged-in customer: list the customer state first`);
  return t.token;
}

/**
 * A name no earlier run used (letters and digits, as usernames must be): accounts a contract
 * creates are new on every verification, so a second run is never refused as a duplicate.
 */
export const freshName = (prefix: string): string =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0')}`;

/** A fresh e-mail address of the reserved example.test domain. */
export const freshEmail = (): string => `${freshName('sfcpact')}@example.test`;

export const short = (a: Answer): string => `HTTP ${a.status} ${a.text.slice(0, 200)}`;

export const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

export const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A value for provider-state injection: a scalar, or a map the request sends whole (keys are the target's). */
export type StateValue = string | number | Record<string, string | number>;

/** A state handler: parameters of the contract in, values for provider-state injection out. */
export type Handler = (t: StateTarget, params: Record<string, unknown>) => Promise<Record<string, StateValue> | undefined>;
