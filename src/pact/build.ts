import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MatchersV3 } from '@pact-foundation/pact';
import type { InterfaceId } from '../checks/model.js';
import { type Endpoint, loadEndpointIndex } from '../specs/catalog.js';
import { SPECS_DIR } from '../specs/paths.js';
import { SchemaStore } from './matchers.js';
import { type InteractionPlan, type InterfacePlan, isInjected, TOKEN_EXAMPLE } from './model.js';
import { graphqlPlan } from './plans/graphql.js';
import { restRoutePlan } from './plans/rest-route.js';
import { networkPlan } from './plans/rest-v1-network.js';
import { shopPlan } from './plans/rest-v1-shop.js';

// Plans + the specs' endpoint indexes and response schemas → complete interactions: the request
// as Pact templates (with provider-state injection), the example request a client sends, and the
// response template that matches on shape.

export const PLANS: Record<InterfaceId, InterfacePlan> = {
  'rest-route': restRoutePlan,
  'rest-v1-network': networkPlan,
  'rest-v1-shop': shopPlan,
  graphql: graphqlPlan,
};

export interface BuiltInteraction {
  plan: InteractionPlan;
  endpoint: Endpoint;
  method: string;
  /** Plain path, or a provider-state template of it. */
  path: string | ReturnType<typeof MatchersV3.fromProviderState<string>>;
  examplePath: string;
  /** Query templates (injected values as provider-state generators) and the example query. */
  query: Record<string, unknown>;
  exampleQuery: Record<string, string>;
  headers: Record<string, unknown>;
  exampleHeaders: Record<string, string>;
  body?: unknown;
  exampleBody?: unknown;
  response: unknown;
  /** The specs schema the response template comes from: the endpoint's, or the refusal envelope's. */
  responseSchema: string;
  /** JSON pointers (in the response body) of required fields the contract leaves out: union types. */
  omitted: string[];
  graphql?: { operation: string; kind: 'query' | 'mutation'; text: string };
}

/**
 * The failure envelope a refusal is answered with, where the document states one: document 1's
 * envelope with `status` false (section 1, RR-ERR-01; errors and message are not shown for
 * refusals), document 2's `status` false with a general failure `message` (section 7; `errors` is an
 * array or an object, a union Pact cannot match, so it is left out). Document 3 shows no error
 * shape (NS-GQL-08): a GraphQL refusal cannot be a contract.
 */
export const REFUSALS: Record<InterfaceId, string | undefined> = {
  'rest-route': 'rest-route/schemas/failure.schema.json',
  'rest-v1-network': 'rest-v1-network/schemas/envelope.schema.json',
  'rest-v1-shop': 'rest-v1-shop/schemas/formats.schema.json#/$defs/envelope',
  graphql: undefined,
};

/** The path prefix of the contracts; the verifier maps it onto the target's own URL. */
export function contractPrefix(iface: InterfaceId, vendor: string): string {
  return iface === 'rest-v1-network' || iface === 'rest-v1-shop' ? `/wp-json/${vendor}/v1` : '';
}

export function buildInteractions(iface: InterfaceId, vendor: string, specsDir = SPECS_DIR): BuiltInteraction[] {
  const index = loadEndpointIndex(iface, specsDir);
  if (!index) throw new Error(`specs/${iface}/endpoints.json is missing`);
  const store = new SchemaStore(specsDir);
  const plans = PLANS[iface](vendor);
  // Pact names an interaction by its description: two alike would be one in the file.
  const seen = new Set<string>();
  for (const p of plans) {
    if (seen.has(p.description)) throw new Error(`${iface}: two interactions are described "${p.description}"`);
    seen.add(p.description);
  }
  return plans.map((plan) => {
    const endpoint = index.endpoints.find((e) => e.id === plan.endpoint);
    if (!endpoint) throw new Error(`${iface}: the plan names endpoint "${plan.endpoint}", which endpoints.json does not hold`);
    if (!endpoint.response) throw new Error(`${iface}/${endpoint.id}: no response schema`);
    const responseSchema = plan.refused ? REFUSALS[iface] : endpoint.response;
    if (!responseSchema) throw new Error(`${iface}/${endpoint.id}: the document shows no refusal shape to describe`);
    const { template: response, omitted } = store.template(responseSchema, vendor);
    // The one exact value of a refusal: the documents mark it by `status` false, never by a status code.
    if (plan.refused) (response as Record<string, unknown>).status = MatchersV3.equal(false);
    // And of a success: documents 1 and 2 mark it by `status` true (RR-ENV-01, NET-ENV-01, SHOP-ENV-01),
    // so a refusal in the same envelope cannot pass for one.
    else if (iface !== 'graphql' && response && typeof response === 'object' && 'status' in response)
      (response as Record<string, unknown>).status = MatchersV3.equal(true);
    const { path, examplePath } = pathOf(iface, vendor, endpoint, plan);
    const rawQuery = { ...routeQuery(iface, vendor, endpoint), ...plan.query };
    const query = template(rawQuery) as Record<string, unknown>;
    const exampleQuery = Object.fromEntries(
      Object.entries(example(rawQuery) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    );
    const { headers, exampleHeaders } = headersOf(iface, vendor, plan.auth);
    const built: BuiltInteraction = {
      plan,
      endpoint,
      method: endpoint.method,
      path,
      examplePath,
      query,
      exampleQuery,
      headers,
      exampleHeaders,
      response,
      responseSchema,
      omitted,
    };
    if (iface === 'graphql') {
      const text = readFileSync(join(specsDir, 'graphql', 'operations', `${endpoint.path}.graphql`), 'utf8')
        .replace(/^#.*\n/gm, '')
        .replace(/\bsvc_token\b/g, `${vendor}_token`)
        .trim();
      built.graphql = { operation: endpoint.path, kind: endpoint.kind ?? 'mutation', text };
      built.body = template(plan.body ?? {});
      built.exampleBody = { operationName: endpoint.path, query: text, variables: example(plan.body ?? {}) };
      built.response = { data: response };
    } else if (plan.body) {
      built.body = template(plan.body);
      built.exampleBody = example(plan.body);
    }
    return built;
  });
}

function routeQuery(iface: InterfaceId, vendor: string, endpoint: Endpoint): Record<string, string> {
  if (iface === 'rest-route') return { route: endpoint.path };
  if (iface === 'graphql') return { route: `${vendor}_graphql/${vendor}_graphql` };
  return {};
}

function pathOf(iface: InterfaceId, vendor: string, endpoint: Endpoint, plan: InteractionPlan) {
  if (iface === 'rest-route' || iface === 'graphql') return { path: '/index.php', examplePath: '/index.php' };
  let expression = contractPrefix(iface, vendor) + endpoint.path;
  let examplePath = expression;
  let dynamic = false;
  for (const [name, value] of Object.entries(plan.pathParams ?? {})) {
    const segment = `{${name}}`;
    if (isInjected(value)) {
      expression = expression.replace(segment, `\${${value.inject}}`);
      examplePath = examplePath.replace(segment, encodeURIComponent(String(value.example)));
      dynamic = true;
    } else {
      expression = expression.replace(segment, encodeURIComponent(String(value)));
      examplePath = examplePath.replace(segment, encodeURIComponent(String(value)));
    }
  }
  if (/\{[^}]+\}/.test(examplePath)) throw new Error(`${iface}/${endpoint.id}: path parameter of ${endpoint.path} not given`);
  return { path: dynamic ? MatchersV3.fromProviderState(expression, examplePath) : examplePath, examplePath };
}

/** Token headers by interface; the value matches any token (the verifier puts the state's in). */
function headersOf(
  iface: InterfaceId,
  vendor: string,
  auth: boolean,
): { headers: Record<string, unknown>; exampleHeaders: Record<string, string> } {
  if (!auth) return { headers: {}, exampleHeaders: {} };
  switch (iface) {
    case 'graphql':
      return {
        headers: { Authorization: MatchersV3.regex('^Bearer \\S+$', `Bearer ${TOKEN_EXAMPLE}`) },
        exampleHeaders: { Authorization: `Bearer ${TOKEN_EXAMPLE}` },
      };
    case 'rest-route':
      // The parameter tables' header (AMB-RR-02); the verifier also sends `Authorization: Bearer`.
      return { headers: { token: MatchersV3.regex('^\\S+$', TOKEN_EXAMPLE) }, exampleHeaders: { token: TOKEN_EXAMPLE } };
    default:
      return {
        headers: { [`${vendor}_token`]: MatchersV3.regex('^\\S+$', TOKEN_EXAMPLE) },
        exampleHeaders: { [`${vendor}_token`]: TOKEN_EXAMPLE },
      };
  }
}

/** Request values as Pact templates: injected ones become provider-state generators. */
function template(v: unknown): unknown {
  if (isInjected(v)) return MatchersV3.fromProviderState(`\${${v.inject}}`, v.example);
  if (Array.isArray(v)) return v.map(template);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, template(x)]));
  return v;
}

/** Request values as a client sends them in the consumer tests (the examples). */
export function example(v: unknown): unknown {
  if (isInjected(v)) return v.example;
  if (Array.isArray(v)) return v.map(example);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, example(x)]));
  return v;
}
