import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3, PactV4, type V3MockServer } from '@pact-foundation/pact';
import { INTERFACES, type InterfaceId } from '../checks/model.js';
import { SPECS_DIR } from '../specs/paths.js';
import { type BuiltInteraction, buildInteractions } from './build.js';
import { CONSUMER, PROVIDERS, pactFileName } from './model.js';

// Pact files are written the standard way: each interaction is registered with Pact's consumer
// DSL and exercised once against Pact's mock server with the example request; Pact writes the
// file. Writing goes to a fresh directory (Pact merges into existing files), then the file is
// copied with stable formatting, so the same specs give byte-identical files.
// The mock server answers before it records the match (another task of the core does that), so
// under load a test can end before the match counts: matchRecorded waits for it, within a bound.

process.env.PACT_DO_NOT_TRACK ??= 'true';

export interface MockExchange {
  iface: InterfaceId;
  interaction: BuiltInteraction;
  status: number;
  body: unknown;
}

export interface GenerateOptions {
  outDir: string;
  vendor?: string;
  interfaces?: InterfaceId[];
  specsDir?: string;
  /** Called with each mock server answer (the consumer tests check it against the specs). */
  onExchange?: (x: MockExchange) => void;
}

export async function generatePacts(opts: GenerateOptions): Promise<string[]> {
  const vendor = opts.vendor ?? 'svc';
  const written: string[] = [];
  mkdirSync(opts.outDir, { recursive: true });
  for (const iface of opts.interfaces ?? INTERFACES) {
    const tmp = mkdtempSync(join(tmpdir(), 'sfc-pact-'));
    try {
      const pact = new PactV4({ consumer: CONSUMER, provider: PROVIDERS[iface], dir: tmp, logLevel: 'error' });
      const interactions = buildInteractions(iface, vendor, opts.specsDir ?? SPECS_DIR);
      for (const built of interactions) {
        await register(pact, built).executeTest(async (server) => {
          const answer = await sendExample(server, built);
          await matchRecorded(pact, server.port);
          opts.onExchange?.({ iface, interaction: built, ...answer });
        });
      }
      const pactJson = JSON.parse(readFileSync(join(tmp, pactFileName(iface)), 'utf8')) as PactJson;
      widenRefusalStatus(pactJson, interactions);
      const target = join(opts.outDir, pactFileName(iface));
      writeFileSync(target, `${JSON.stringify(pactJson, null, 2)}\n`);
      written.push(target);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return written;
}

interface PactJson {
  interactions?: { description: string; response?: { matchingRules?: Record<string, unknown> } }[];
}

/**
 * A refusal's status code is not shown in any document: its rule becomes "any 2xx or any 4xx"
 * (Pact's status classes combined with OR, which the DSL cannot write). The example stays 200.
 */
function widenRefusalStatus(pactJson: PactJson, interactions: BuiltInteraction[]): void {
  const refused = new Set(interactions.filter((b) => b.plan.refused).map((b) => b.plan.description));
  for (const i of pactJson.interactions ?? []) {
    if (!refused.has(i.description) || !i.response?.matchingRules) continue;
    i.response.matchingRules.status = {
      $: {
        combine: 'OR',
        matchers: [
          { match: 'statusCode', status: 'success' },
          { match: 'statusCode', status: 'clientError' },
        ],
      },
    };
  }
}

/** Waits (at most ~2 s) until the mock server has recorded the request it answered. */
async function matchRecorded(pact: PactV4, port: number): Promise<void> {
  const core = (pact as unknown as { pact?: { mockServerMatchedSuccessfully?: (port: number) => boolean } }).pact;
  if (!core?.mockServerMatchedSuccessfully) return;
  for (let i = 0; i < 400 && !core.mockServerMatchedSuccessfully(port); i++) await new Promise((r) => setTimeout(r, 5));
}

function register(pact: PactV4, b: BuiltInteraction) {
  const status = MatchersV3.matchStatus(200, 'success' as Parameters<typeof MatchersV3.matchStatus>[1]);
  if (b.graphql) {
    let gi = pact.addGraphQLInteraction();
    for (const s of b.plan.states) gi = gi.given(s.name, s.params);
    const withRequest = gi
      .uponReceiving(b.plan.description)
      .withOperation(b.graphql.operation)
      .withVariables(b.body as Record<string, never>)
      .withRequest(b.method, b.path as string, (r) => {
        r.query(b.query as Record<string, string>);
        r.headers({ 'Content-Type': 'application/json', ...(b.headers as Record<string, string>) });
      });
    const req = b.graphql.kind === 'query' ? withRequest.withQuery(b.graphql.text) : withRequest.withMutation(b.graphql.text);
    return req.willRespondWith(status, (r) => r.jsonBody(b.response));
  }
  let i = pact.addInteraction();
  for (const s of b.plan.states) i = i.given(s.name, s.params);
  return i
    .uponReceiving(b.plan.description)
    .withRequest(b.method, b.path as string, (r) => {
      if (Object.keys(b.query).length > 0) r.query(b.query as Record<string, string>);
      if (Object.keys(b.headers).length > 0) r.headers(b.headers as Record<string, string>);
      if (b.body !== undefined) r.jsonBody(b.body);
    })
    .willRespondWith(status, (r) => r.jsonBody(b.response));
}

/**
 * The request a client sends for this interaction, to the mock server. No connection pooling:
 * each interaction has its own mock server, and a port can be reused by the next one.
 */
function sendExample(server: V3MockServer, b: BuiltInteraction): Promise<{ status: number; body: unknown }> {
  const query = Object.entries(b.exampleQuery)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%2F/g, '/')}`)
    .join('&');
  const headers: Record<string, string> = { ...b.exampleHeaders };
  const body = b.exampleBody === undefined ? undefined : JSON.stringify(b.exampleBody);
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${b.examplePath}${query ? `?${query}` : ''}`,
      { method: b.method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: kept as text for the caller to report
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
