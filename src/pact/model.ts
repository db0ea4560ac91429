import type { InterfaceId } from '../checks/model.js';

// The Pact contracts' own vocabulary: who the parties are and what one interaction is made of.
// Interactions are data; src/pact/build.ts turns them into Pact DSL calls with the spec schemas.

export const CONSUMER = 'storefront-client';

export const PROVIDERS: Record<InterfaceId, string> = {
  'rest-route': 'storefront-rest-route',
  'rest-v1-network': 'storefront-rest-v1-network',
  'rest-v1-shop': 'storefront-rest-v1-shop',
  graphql: 'storefront-graphql',
};

/** The file Pact writes for one interface (`<consumer>-<provider>.json`). */
export const pactFileName = (iface: InterfaceId): string => `${CONSUMER}-${PROVIDERS[iface]}.json`;

/** Example token of the contracts; the verifier replaces it with the token of the state's login. */
export const TOKEN_EXAMPLE = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';

export interface ProviderStateRef {
  name: string;
  params?: Record<string, string | number>;
}

/** A value the provider state handler returns under `inject` (Pact provider-state injection), with its example. */
export interface Injected {
  inject: string;
  /** An object example stands for a whole object the state returns (a map keyed by the target's own ids). */
  example: string | number | Record<string, string | number>;
}

export const injected = (expression: string, example: Injected['example']): Injected => ({ inject: expression, example });

export function isInjected(v: unknown): v is Injected {
  return typeof v === 'object' && v !== null && 'inject' in v && 'example' in v;
}

/** One interaction: the request a client sends in a provider state; the response comes from the specs. */
export interface InteractionPlan {
  /** Endpoint id in `specs/<interface>/endpoints.json`: gives method, path and response schema. */
  endpoint: string;
  description: string;
  states: ProviderStateRef[];
  /** Sends the token of the state's login (the verifier puts the real one in). */
  auth: boolean;
  /** Values for `{name}` segments of the endpoint path. */
  pathParams?: Record<string, string | number | Injected>;
  query?: Record<string, string | Injected>;
  /** JSON body (REST) or variables (GraphQL); values may be injected from the provider state. */
  body?: Record<string, unknown>;
  /**
   * A refusal: the response is the document's failure envelope (src/pact/build.ts REFUSALS) instead
   * of the endpoint's success schema, with any 2xx or 4xx status (the documents show no status code).
   */
  refused?: boolean;
}

/** The interactions of one interface. */
export type InterfacePlan = (vendor: string) => InteractionPlan[];
