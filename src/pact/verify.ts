import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Verifier, type VerifierOptions } from '@pact-foundation/pact';
import type { InterfaceId } from '../checks/model.js';
import type { Settings } from '../config/settings.js';
import { REPO_ROOT } from '../specs/paths.js';
import { contractPrefix } from './build.js';
import { generatePacts } from './generate.js';
import { PROVIDERS, pactFileName } from './model.js';
import { graphqlStates } from './states/graphql.js';
import { networkStates, restRouteStates, shopStates } from './states/rest.js';
import type { Handler, StateTarget, StateValue } from './states/target.js';

// Runs Pact's Verifier against a target, one interface (one provider) at a time. State handlers
// create each state through the target's own API; the request filter maps the contract's paths
// onto the target's URLs and puts the token of the state's login on requests that carry one.

process.env.PACT_DO_NOT_TRACK ??= 'true';

export const DEFAULT_PACT_DIR = resolve(REPO_ROOT, 'pacts');

const STATES: Record<InterfaceId, Record<string, Handler>> = {
  'rest-route': restRouteStates,
  'rest-v1-network': networkStates,
  'rest-v1-shop': shopStates,
  graphql: graphqlStates,
};

export interface BrokerOptions {
  url: string;
  token?: string;
  username?: string;
  password?: string;
}

export interface VerifyOptions {
  /** Pact files; default `pacts/` for vendor svc, freshly generated ones for another vendor. */
  pactDir?: string;
  broker?: BrokerOptions;
  publish?: boolean;
  providerVersion?: string;
  providerBranch?: string;
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
}

export interface Mismatch {
  interaction: string;
  detail: string;
}

export interface InterfaceVerification {
  iface: InterfaceId;
  provider: string;
  ok: boolean;
  durationMs: number;
  failures: Mismatch[];
  /** Provider states that could not be created (the interactions needing them then fail). */
  stateErrors: string[];
  /** Set when the verifier could not run at all (no pact file, broker unreachable). */
  error?: string;
}

/** The URL of one interface in the settings (documents 1 and 3 share base_url). */
export function interfaceUrl(settings: Settings, iface: InterfaceId): string | undefined {
  if (iface === 'rest-v1-network') return settings.networkApiRoot;
  if (iface === 'rest-v1-shop') return settings.shopApiRoot;
  return settings.baseUrl;
}

export async function verifyTarget(settings: Settings, opts: VerifyOptions = {}): Promise<InterfaceVerification[]> {
  let pactDir = opts.pactDir;
  let generated: string | undefined;
  if (!pactDir && !opts.broker) {
    if (settings.vendor === 'svc') pactDir = DEFAULT_PACT_DIR;
    else {
      // The committed contracts name svc's header, route and namespace: another vendor gets its own.
      generated = mkdtempSync(join(tmpdir(), 'sfc-pacts-'));
      await generatePacts({ outDir: generated, vendor: settings.vendor, interfaces: settings.interfaces });
      pactDir = generated;
    }
  }
  try {
    const out: InterfaceVerification[] = [];
    for (const iface of settings.interfaces) out.push(await verifyInterface(settings, iface, pactDir, opts));
    return out;
  } finally {
    if (generated) rmSync(generated, { recursive: true, force: true });
  }
}

async function verifyInterface(
  settings: Settings,
  iface: InterfaceId,
  pactDir: string | undefined,
  opts: VerifyOptions,
): Promise<InterfaceVerification> {
  const provider = PROVIDERS[iface];
  const started = Date.now();
  const url = interfaceUrl(settings, iface);
  if (!url) return { iface, provider, ok: false, durationMs: 0, failures: [], stateErrors: [], error: `no URL for ${iface}` };
  const target: StateTarget = { iface, url, vendor: settings.vendor, data: settings.data, timeoutMs: settings.timeoutMs };
  const base = new URL(url);
  const prefix = contractPrefix(iface, settings.vendor);
  const targetPath = base.pathname.replace(/\/+$/, '');

  const stateErrors: string[] = [];
  const stateHandlers: Record<string, { setup: (params?: unknown) => Promise<Record<string, StateValue> | undefined> }> = {};
  for (const [name, handler] of Object.entries(STATES[iface]))
    stateHandlers[name] = {
      setup: async (params) => {
        try {
          return await handler(target, (params ?? {}) as Record<string, unknown>);
        } catch (e) {
          const message = (e as Error)?.message ?? String(e);
          if (!stateErrors.includes(message)) stateErrors.push(message);
          throw e;
        }
      },
    };

  // Express middleware of Pact's verification proxy; it also sees the state calls (/_pactSetup).
  const requestFilter = (req: IncomingMessage, _res: ServerResponse, next: () => void) => {
    const url = req.url ?? '/';
    if (!url.startsWith('/_pactSetup')) {
      // Contract path → the target's own: {api_root} or base_url may sit under any path.
      const rest = prefix && url.startsWith(prefix) ? url.slice(prefix.length) : url;
      req.url = targetPath + rest;
      const token = target.token;
      if (token) {
        if (iface === 'graphql' && req.headers.authorization) req.headers.authorization = `Bearer ${token}`;
        else if (iface === 'rest-route' && req.headers.token) {
          req.headers.token = token;
          req.headers.authorization = `Bearer ${token}`;
        } else if (req.headers[`${settings.vendor}_token`]) req.headers[`${settings.vendor}_token`] = token;
      }
      // The token belongs to this interaction's states: the next interaction logs in through its own,
      // and one whose state failed goes without rather than with a token left from another.
      target.token = undefined;
    }
    next();
  };

  const options: VerifierOptions = {
    provider,
    providerBaseUrl: base.origin,
    changeOrigin: true,
    logLevel: opts.logLevel ?? 'error',
    timeout: Math.max(30_000, settings.timeoutMs * 3),
    stateHandlers: stateHandlers as unknown as VerifierOptions['stateHandlers'],
    requestFilter: requestFilter as unknown as VerifierOptions['requestFilter'],
  };
  if (opts.broker) {
    Object.assign(options, {
      pactBrokerUrl: opts.broker.url,
      ...(opts.broker.token ? { pactBrokerToken: opts.broker.token } : {}),
      ...(opts.broker.username ? { pactBrokerUsername: opts.broker.username } : {}),
      ...(opts.broker.password ? { pactBrokerPassword: opts.broker.password } : {}),
      consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
    });
  } else {
    const file = join(pactDir ?? DEFAULT_PACT_DIR, pactFileName(iface));
    if (!existsSync(file))
      return { iface, provider, ok: false, durationMs: 0, failures: [], stateErrors, error: `no pact file ${file}` };
    options.pactUrls = [file];
  }
  if (opts.publish) {
    options.publishVerificationResult = true;
    if (opts.providerVersion) options.providerVersion = opts.providerVersion;
    if (opts.providerBranch) options.providerVersionBranch = opts.providerBranch;
  }
  try {
    await new Verifier(options).verifyProvider();
    return { iface, provider, ok: true, durationMs: Date.now() - started, failures: [], stateErrors };
  } catch (e) {
    const failures = mismatchesOf(e);
    return {
      iface,
      provider,
      ok: false,
      durationMs: Date.now() - started,
      failures,
      stateErrors,
      ...(failures.length === 0 ? { error: String((e as Error)?.message ?? e).slice(0, 500) } : {}),
    };
  }
}

/** The verifier rejects with the core's JSON result: the broken interactions and why. */
export function mismatchesOf(e: unknown): Mismatch[] {
  const text = String((e as Error)?.message ?? e);
  const start = text.indexOf('{');
  if (start < 0) return [];
  try {
    const result = JSON.parse(text.slice(start)) as {
      errors?: { interaction?: string; mismatch?: { message?: string; mismatches?: { mismatch?: string; path?: string }[] } }[];
    };
    return (result.errors ?? []).map((err) => ({
      interaction: err.interaction ?? '(unnamed interaction)',
      detail:
        err.mismatch?.mismatches?.map((m) => `${m.path ?? ''} ${m.mismatch ?? ''}`.trim()).join('; ') ||
        err.mismatch?.message ||
        'failed',
    }));
  } catch {
    return [];
  }
}
