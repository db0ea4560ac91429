import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERFACES, type InterfaceId } from '../../src/checks/model.js';
import { example, PLANS, REFUSALS } from '../../src/pact/build.js';
import { generatePacts, type MockExchange } from '../../src/pact/generate.js';
import { CONSUMER, PROVIDERS, pactFileName } from '../../src/pact/model.js';
import { type SchemaIssue, schemaRegistry } from '../../src/schemas/registry.js';
import { loadEndpointIndex } from '../../src/specs/catalog.js';
import { REPO_ROOT } from '../../src/specs/paths.js';

// The committed pacts/ are a product of the specs: regenerating them must give the same bytes.
// Consumer side: every interaction is exercised against Pact's mock server with the request a
// client sends; the mock's answer (the matchers' examples) must be a valid response of the specs.

interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  metadata: { pactSpecification: { version: string } };
  interactions: {
    description: string;
    type: string;
    providerStates?: { name: string; params?: Record<string, unknown> }[];
    request: { path: string; query?: Record<string, string[]>; headers?: Record<string, string[]> };
    response: {
      body?: { content: unknown };
      matchingRules?: { body?: Record<string, { matchers: Record<string, unknown>[] }>; status?: Record<string, unknown> };
    };
  }[];
}

const COMMITTED = join(REPO_ROOT, 'pacts');
let dir: string;
let letscms: string;
const exchanges: MockExchange[] = [];

// One process generates at a time (see src/pact/generate.ts), so the consumer checks share this run.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sfc-pact-gen-'));
  letscms = mkdtempSync(join(tmpdir(), 'sfc-pact-gen-letscms-'));
  await generatePacts({ outDir: dir, onExchange: (x) => exchanges.push(x) });
  await generatePacts({ outDir: letscms, vendor: 'letscms' });
}, 60_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(letscms, { recursive: true, force: true });
});

const read = (d: string, f: string) => JSON.parse(readFileSync(join(d, f), 'utf8')) as PactFile;

/** JSON paths of every scalar in a body (`$.a.b[0].c` in Pact's notation, arrays as `[*]`-free indexes). */
function leaves(v: unknown, path = '$'): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, `${path}[${i}]`));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, `${path}.${k}`));
  return [path];
}

describe('pact generate', () => {
  it('writes one Pact V4 file per interface, consumer storefront-client', () => {
    expect(readdirSync(dir).sort()).toEqual(INTERFACES.map(pactFileName).sort());
    for (const iface of INTERFACES) {
      const pact = read(dir, pactFileName(iface));
      expect(pact.consumer.name).toBe(CONSUMER);
      expect(pact.provider.name).toBe(PROVIDERS[iface]);
      expect(pact.metadata.pactSpecification.version).toBe('4.0');
      expect(pact.interactions.length).toBeGreaterThanOrEqual(6);
    }
  });

  it('the committed pacts/ are up to date with the specs (run `storefront-conformance pact generate`)', () => {
    expect(
      readdirSync(COMMITTED)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(readdirSync(dir).sort());
    for (const f of readdirSync(dir))
      expect(readFileSync(join(COMMITTED, f), 'utf8'), f).toBe(readFileSync(join(dir, f), 'utf8'));
  });

  it('matches responses on shape: every scalar of every response body has a matching rule', () => {
    for (const f of readdirSync(dir)) {
      for (const i of read(dir, f).interactions) {
        const rules = Object.keys(i.response.matchingRules?.body ?? {});
        const covered = (leaf: string) =>
          rules.some((r) => {
            const pattern = `^${r.replace(/[.$]/g, (c) => `\\${c}`).replace(/\\\[\*\]|\[\*\]/g, '\\[\\d+\\]')}`;
            return new RegExp(`${pattern}($|[.[])`).test(leaf) || leaf === r;
          });
        const exact = leaves(i.response.body?.content).filter((l) => !covered(l));
        expect(exact, `${f}: ${i.description}`).toEqual([]);
      }
    }
  });

  it('provider states carry parameters where the contract names the data', () => {
    const shop = read(dir, pactFileName('rest-v1-shop'));
    const login = shop.interactions.find((i) => i.description === 'a login with username and password');
    expect(login?.providerStates?.[0]).toEqual({
      name: 'a shop customer {username} with password {password} exists',
      params: { username: 'pactshopper', password: 'Pact-pass-2024' },
    });
    const rr = read(dir, pactFileName('rest-route'));
    const customerState = 'a customer {email} with password {password} exists';
    const withCustomer = rr.interactions.filter((i) => i.providerStates?.some((s) => s.name === customerState));
    expect(withCustomer.length).toBeGreaterThanOrEqual(10);
    for (const i of withCustomer)
      expect(i.providerStates?.find((s) => s.name === customerState)?.params?.email, i.description).toBe(
        'pact.customer@example.test',
      );
  });

  it('covers every endpoint and operation of the four endpoint indexes', () => {
    const uncovered: string[] = [];
    for (const iface of INTERFACES) {
      const index = loadEndpointIndex(iface);
      expect(index?.endpoints.length, iface).toBeGreaterThan(0);
      const planned = new Set(PLANS[iface]('svc').map((p) => p.endpoint));
      for (const e of index?.endpoints ?? []) if (!planned.has(e.id)) uncovered.push(`${iface}/${e.id}`);
    }
    expect(uncovered).toEqual([]);
  });

  it('refusals: status false exactly, any 2xx or 4xx status code, on each REST interface (none for GraphQL: NS-GQL-08)', () => {
    for (const iface of INTERFACES) {
      const refusals = PLANS[iface]('svc').filter((p) => p.refused);
      if (REFUSALS[iface] === undefined) {
        expect(refusals, iface).toEqual([]);
        continue;
      }
      expect(refusals.length, iface).toBeGreaterThanOrEqual(2);
      const pact = read(dir, pactFileName(iface));
      for (const plan of refusals) {
        const i = pact.interactions.find((x) => x.description === plan.description);
        expect(i?.response.matchingRules?.body?.['$.status']?.matchers, plan.description).toEqual([{ match: 'equality' }]);
        expect(i?.response.matchingRules?.status, plan.description).toEqual({
          $: {
            combine: 'OR',
            matchers: [
              { match: 'statusCode', status: 'success' },
              { match: 'statusCode', status: 'clientError' },
            ],
          },
        });
      }
    }
  });

  it('successes: status true exactly on each REST interface, so a refusal in the same envelope fails them', () => {
    for (const iface of INTERFACES) {
      if (iface === 'graphql') continue;
      const pact = read(dir, pactFileName(iface));
      const successes = PLANS[iface]('svc').filter((p) => !p.refused);
      expect(successes.length, iface).toBeGreaterThan(0);
      for (const plan of successes) {
        const i = pact.interactions.find((x) => x.description === plan.description);
        expect(i?.response.matchingRules?.body?.['$.status']?.matchers, plan.description).toEqual([{ match: 'equality' }]);
        expect((i?.response.body as { content?: { status?: unknown } } | undefined)?.content?.status, plan.description).toBe(
          true,
        );
      }
    }
  });

  it('the vendor decides header, route and namespace names', () => {
    const shop = read(letscms, pactFileName('rest-v1-shop'));
    expect(shop.interactions.every((i) => i.request.path.startsWith('/wp-json/letscms/v1/'))).toBe(true);
    const cart = shop.interactions.find((i) => i.description === 'a read of a cart holding a product');
    expect(Object.keys(cart?.request.headers ?? {})).toContain('letscms_token');
    const gql = read(letscms, pactFileName('graphql'));
    expect(gql.interactions.every((i) => i.request.query?.route?.[0] === 'letscms_graphql/letscms_graphql')).toBe(true);
    const login = gql.interactions.find((i) => i.description === 'a login mutation');
    expect(JSON.stringify(login)).toContain('letscms_token');
    for (const f of readdirSync(letscms)) expect(readFileSync(join(letscms, f), 'utf8'), f).not.toMatch(/\bsvc[_/]/);
  });
});

/**
 * Issues that only say a field the contract leaves out (its type is a union Pact cannot express)
 * is missing, and the conditional schemas that fail because of it.
 */
function tolerated(issues: SchemaIssue[], omitted: string[]): SchemaIssue[] {
  const at = (p: string) => (p === '/' ? '' : p);
  const dropped = issues.filter((i) => {
    const m = /^misses required field "(.+)"$/.exec(i.message);
    return m !== null && omitted.includes(`${at(i.path)}/${m[1]}`);
  });
  return issues.filter(
    (i) =>
      !dropped.includes(i) &&
      !(/^must match (a schema in anyOf|"then" schema)$/.test(i.message) && dropped.some((d) => d.path === i.path)),
  );
}

const of = (iface: InterfaceId) => exchanges.filter((x) => x.iface === iface);

describe('consumer interactions against the Pact mock server', () => {
  it('covers all four interfaces', () => {
    for (const iface of INTERFACES) expect(of(iface).length, iface).toBeGreaterThanOrEqual(6);
  });

  it('the mock server accepts every request and answers 2xx', () => {
    const refused = exchanges
      .filter((x) => x.status < 200 || x.status > 299)
      .map((x) => `${x.iface}: ${x.interaction.plan.description}`);
    expect(refused).toEqual([]);
  });

  it('every mock response is valid against the response schema of its endpoint (a refusal: the failure envelope)', () => {
    const registry = schemaRegistry();
    const invalid: string[] = [];
    for (const x of exchanges) {
      const ref = x.interaction.responseSchema;
      const body = x.iface === 'graphql' ? (x.body as { data?: unknown }).data : x.body;
      const issues = tolerated(registry.check(ref, body), x.interaction.omitted);
      if (issues.length > 0) invalid.push(`${x.iface}/${x.interaction.endpoint.id}: ${JSON.stringify(issues)}`);
    }
    expect(invalid).toEqual([]);
  });

  it('every request body is valid against the request schema of its endpoint', () => {
    const registry = schemaRegistry();
    const invalid: string[] = [];
    let checked = 0;
    for (const x of exchanges) {
      const req = x.interaction.endpoint.request;
      const ref = x.iface === 'graphql' ? req.variables : req.body;
      if (!ref || !x.interaction.plan.body) continue;
      checked++;
      const issues = registry.check(ref, example(x.interaction.plan.body));
      if (issues.length > 0) invalid.push(`${x.iface}/${x.interaction.endpoint.id}: ${JSON.stringify(issues)}`);
    }
    expect(invalid).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('token-carrying requests use the interface header: token, <vendor>_token or Authorization Bearer', () => {
    for (const x of exchanges.filter((e) => e.interaction.plan.auth)) {
      const names = Object.keys(x.interaction.exampleHeaders);
      const expected = x.iface === 'graphql' ? 'Authorization' : x.iface === 'rest-route' ? 'token' : 'svc_token';
      expect(names, `${x.iface}: ${x.interaction.plan.description}`).toContain(expected);
    }
  });
});
