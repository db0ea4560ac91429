import { resolve } from 'node:path';
import { INTERFACES, type InterfaceId } from '../checks/model.js';
import { readDotenv, resolveSettings, UsageError } from '../config/load.js';
import { DATA_KEYS } from '../config/options.js';
import { generatePacts } from '../pact/generate.js';
import { PROVIDER_STATE_DATA } from '../pact/states/target.js';
import { DEFAULT_PACT_DIR, type InterfaceVerification, interfaceUrl, type VerifyOptions, verifyTarget } from '../pact/verify.js';
import { targetUrlOf } from '../run/target-urls.js';
import { parseCommandFlags } from './flags.js';

// `storefront-conformance pact generate|verify`. Exit codes: 0 verified (or written), 1 a contract
// broken, 2 usage, 3 target (or broker) unreachable.

type Flag = { flag: string; env?: string; arg?: string; help: string; bool?: boolean };

const GENERATE_FLAGS: Flag[] = [
  { flag: 'out', env: 'SFC_PACT_DIR', arg: 'DIR', help: 'where the Pact files are written (default pacts/)' },
  { flag: 'vendor', env: 'SFC_VENDOR', arg: 'NAME', help: 'vendor segment of header, route and namespace (default svc)' },
  { flag: 'interfaces', env: 'SFC_INTERFACES', arg: 'LIST', help: `comma list of ${INTERFACES.join(', ')} (default all)` },
];

const VERIFY_FLAGS: Flag[] = [
  { flag: 'base-url', env: 'SFC_BASE_URL', arg: 'URL', help: 'base of documents 1 and 3 (index.php?route=...)' },
  { flag: 'network-api-root', env: 'SFC_NETWORK_API_ROOT', arg: 'URL', help: '{api_root} of document 2, variant A' },
  { flag: 'shop-api-root', env: 'SFC_SHOP_API_ROOT', arg: 'URL', help: '{api_root} of document 2, variant B' },
  {
    flag: 'vendor',
    env: 'SFC_VENDOR',
    arg: 'NAME',
    help: 'vendor segment (default svc; another vendor verifies freshly generated pacts)',
  },
  { flag: 'interfaces', env: 'SFC_INTERFACES', arg: 'LIST', help: 'comma list (default: every interface whose URL is set)' },
  { flag: 'timeout', env: 'SFC_TIMEOUT_MS', arg: 'N', help: 'per-request timeout of the state handlers in ms (default 10000)' },
  { flag: 'pact-dir', env: 'SFC_PACT_DIR', arg: 'DIR', help: 'local Pact files (default pacts/); ignored with a broker' },
  { flag: 'broker-url', env: 'PACT_BROKER_BASE_URL', arg: 'URL', help: 'fetch the pacts from this Pact Broker / PactFlow' },
  {
    flag: 'publish',
    env: 'PACT_PUBLISH_VERIFICATION_RESULTS',
    bool: true,
    help: 'publish the results to the broker (needs --provider-version)',
  },
  { flag: 'provider-version', env: 'PACT_PROVIDER_VERSION', arg: 'VERSION', help: 'version of the provider, for publishing' },
  { flag: 'provider-branch', env: 'PACT_PROVIDER_BRANCH', arg: 'NAME', help: 'branch of the provider, for publishing' },
];

const ENV_ONLY = `Broker credentials (environment or .env only, never flags): PACT_BROKER_TOKEN, or
PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD.`;

function helpText(sub: 'generate' | 'verify'): string {
  const flags = sub === 'generate' ? GENERATE_FLAGS : VERIFY_FLAGS;
  const rows = flags.map((f) => {
    const flag = `--${f.flag}${f.arg ? ` ${f.arg}` : ''}`;
    return `  ${flag.padEnd(26)} ${f.help}\n  ${''.padEnd(26)} environment: ${f.env}`;
  });
  const intro =
    sub === 'generate'
      ? 'storefront-conformance pact generate: write Pact V4 files (consumer storefront-client, one provider\nper interface) from the specs: endpoint indexes and response schemas\n\nUsage: storefront-conformance pact generate [options]\n'
      : "storefront-conformance pact verify: verify a target against the Pact files with Pact's Verifier;\nprovider states are created through the target's own API\n\nUsage: storefront-conformance pact verify [options]\n";
  const data =
    sub === 'verify'
      ? `\n${ENV_ONLY}\n\nTarget data used by provider states (environment or .env; see .env.example):\n${DATA_KEYS.filter((d) =>
          PROVIDER_STATE_DATA.includes(d.key),
        )
          .map((d) => `  ${d.key.padEnd(26)} ${d.help}`)
          .join('\n')}\n\nExit codes: 0 verified, 1 a contract broken, 2 bad usage, 3 target or broker unreachable\n`
      : '\nExit codes: 0 written, 2 bad usage\n';
  return `${intro}\nOptions (a flag wins over the environment, the environment over .env):\n${rows.join('\n')}\n  -h, --help                 this text\n${data}`;
}

export const PACT_HELP = `storefront-conformance pact: Pact contracts of the four interfaces

Usage: storefront-conformance pact <generate|verify> [options]

  generate   write Pact files from the specs (default pacts/)
  verify     verify a target against them (local files or a Pact Broker)

Run "storefront-conformance pact <subcommand> --help" for the options.
`;

function parse(sub: 'generate' | 'verify', args: string[]): Record<string, string | boolean | undefined> {
  const flags = sub === 'generate' ? GENERATE_FLAGS : VERIFY_FLAGS;
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const f of flags) options[f.flag] = { type: f.bool ? 'boolean' : 'string' };
  return parseCommandFlags(args, options, `pact ${sub}`);
}

/** Flag over environment over `.env`, for the options `resolveSettings` does not know. */
function pick(flags: Record<string, string | boolean | undefined>, flag: string, env: string, dotenv: Record<string, string>) {
  const f = flags[flag];
  if (f !== undefined) return f;
  return process.env[env] || dotenv[env] || undefined;
}

export async function pactCommand(args: string[], log: (line: string) => void): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(PACT_HELP);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'generate' && sub !== 'verify') throw new UsageError(`unknown pact subcommand "${sub}": choose generate or verify`);
  const flags = parse(sub, rest);
  if (flags.help) {
    process.stdout.write(helpText(sub));
    return 0;
  }
  const dotenv = readDotenv();
  if (sub === 'generate') return generate(flags, dotenv, log);
  return verify(flags, dotenv, log);
}

async function generate(
  flags: Record<string, string | boolean | undefined>,
  dotenv: Record<string, string>,
  log: (l: string) => void,
) {
  const settings = resolveSettings(
    { flags: { vendor: flags.vendor, interfaces: flags.interfaces }, env: process.env, dotenv },
    'self-test',
  );
  const out = resolve(String(pick(flags, 'out', 'SFC_PACT_DIR', dotenv) ?? DEFAULT_PACT_DIR));
  const files = await generatePacts({ outDir: out, vendor: settings.vendor, interfaces: settings.interfaces });
  for (const f of files) log(`wrote ${f}`);
  return 0;
}

async function verify(
  flags: Record<string, string | boolean | undefined>,
  dotenv: Record<string, string>,
  log: (l: string) => void,
) {
  const runFlags: Record<string, string | boolean | undefined> = {};
  for (const k of ['base-url', 'network-api-root', 'shop-api-root', 'vendor', 'interfaces', 'timeout']) runFlags[k] = flags[k];
  const settings = resolveSettings({ flags: runFlags, env: process.env, dotenv }, 'run');
  const brokerUrl = pick(flags, 'broker-url', 'PACT_BROKER_BASE_URL', dotenv);
  const publish = /^(1|true|yes)$/i.test(String(pick(flags, 'publish', 'PACT_PUBLISH_VERIFICATION_RESULTS', dotenv) ?? ''));
  const providerVersion = pick(flags, 'provider-version', 'PACT_PROVIDER_VERSION', dotenv);
  const providerBranch = pick(flags, 'provider-branch', 'PACT_PROVIDER_BRANCH', dotenv);
  if (publish && !brokerUrl) throw new UsageError('--publish needs a broker (--broker-url or PACT_BROKER_BASE_URL)');
  if (publish && !providerVersion) throw new UsageError('--publish needs --provider-version (or PACT_PROVIDER_VERSION)');
  const pactDir = pick(flags, 'pact-dir', 'SFC_PACT_DIR', dotenv);
  const env = (k: string) => process.env[k] || dotenv[k] || undefined;
  const opts: VerifyOptions = {
    ...(typeof pactDir === 'string' ? { pactDir: resolve(pactDir) } : {}),
    ...(typeof brokerUrl === 'string'
      ? {
          broker: {
            url: brokerUrl,
            ...(env('PACT_BROKER_TOKEN') ? { token: env('PACT_BROKER_TOKEN') } : {}),
            ...(env('PACT_BROKER_USERNAME') ? { username: env('PACT_BROKER_USERNAME') } : {}),
            ...(env('PACT_BROKER_PASSWORD') ? { password: env('PACT_BROKER_PASSWORD') } : {}),
          },
        }
      : {}),
    publish,
    ...(typeof providerVersion === 'string' ? { providerVersion } : {}),
    ...(typeof providerBranch === 'string' ? { providerBranch } : {}),
  };
  const unreachable = await firstUnreachable(settings.interfaces, (i) => targetUrlOf(settings, i), settings.timeoutMs);
  if (unreachable) {
    log(`error: the target could not be reached: ${unreachable}`);
    return 3;
  }
  const results = await verifyTarget(settings, opts);
  for (const r of results) log(describe(r, interfaceUrl(settings, r.iface)));
  if (results.some((r) => r.error && r.failures.length === 0)) {
    const usage = results.find((r) => r.error?.startsWith('no pact file'));
    return usage ? 2 : 3;
  }
  return results.every((r) => r.ok) ? 0 : 1;
}

async function firstUnreachable(ifaces: InterfaceId[], urlOf: (i: InterfaceId) => string, timeoutMs: number) {
  for (const iface of ifaces) {
    const url = urlOf(iface);
    try {
      await fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then((r) => r.arrayBuffer());
    } catch (e) {
      return `${url} (${(e as Error).message})`;
    }
  }
  return undefined;
}

function describe(r: InterfaceVerification, url: string | undefined): string {
  const head = `${r.ok ? '✓' : '✗'} ${r.iface} (${r.provider}) at ${url ?? '?'}: `;
  if (r.ok) return `${head}verified in ${(r.durationMs / 1000).toFixed(1)} s`;
  const states = r.stateErrors.map((e) => `\n    provider state not created: ${e}`).join('');
  if (r.failures.length === 0) return `${head}${r.error ?? 'verification failed'}${states}`;
  return `${head}${r.failures.length} interaction(s) broken\n${r.failures.map((f) => `    - ${f.interaction}: ${f.detail}`).join('\n')}${states}`;
}
