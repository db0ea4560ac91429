import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { INTERFACES, type InterfaceId } from '../checks/model.js';
import { newRunId } from '../provisioning/names.js';
import { DATA_KEYS, OPTIONS } from './options.js';
import type { Settings } from './settings.js';

/** Areas at once, at most: each holds its own connections to the target. */
const MAX_CONCURRENCY = 64;

/** A user's mistake in flags, environment or `.env`: one line, exit 2, nothing sent. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface RawInputs {
  flags: Record<string, string | boolean | undefined>;
  env: NodeJS.ProcessEnv;
  /** Contents of `.env` (already parsed), if any. */
  dotenv: Record<string, string>;
}

export function readDotenv(cwd = process.cwd()): Record<string, string> {
  const file = resolve(cwd, '.env');
  if (!existsSync(file)) return {};
  return parseDotenv(readFileSync(file));
}

/** Flag over environment over `.env`; then validation. `command` decides which options apply. */
export function resolveSettings(input: RawInputs, command: 'run' | 'self-test'): Settings {
  const pick = (flag: string, env?: string): { value: string | boolean | undefined; from: string } => {
    const f = input.flags[flag];
    if (f !== undefined) return { value: f, from: `--${flag}` };
    if (env && input.env[env] !== undefined && input.env[env] !== '') return { value: input.env[env], from: env };
    if (env && input.dotenv[env] !== undefined && input.dotenv[env] !== '')
      return { value: input.dotenv[env], from: `${env} in .env` };
    return { value: undefined, from: '' };
  };
  const out: Record<string, unknown> = {};
  for (const opt of OPTIONS.filter((o) => o.commands.includes(command))) {
    const { value, from } = pick(opt.flag, opt.env);
    const raw = value ?? opt.default;
    if (raw === undefined) continue;
    const where = from || `default of --${opt.flag}`;
    switch (opt.kind) {
      case 'url':
        out[opt.key] = validUrl(String(raw), where);
        break;
      case 'int': {
        const s = String(raw).trim();
        if (!/^\d{1,12}$/.test(s)) throw new UsageError(`${where} must be a whole number of 0 or more, got "${raw}"`);
        const n = Number(s);
        if (
          (opt.key === 'runs' ||
            opt.key === 'timeoutMs' ||
            opt.key === 'rateLimit' ||
            opt.key === 'maxDurationS' ||
            opt.key === 'concurrency') &&
          n < 1
        )
          throw new UsageError(`${where} must be at least 1, got "${raw}"`);
        if (opt.key === 'concurrency' && n > MAX_CONCURRENCY)
          throw new UsageError(`${where} must be at most ${MAX_CONCURRENCY}, got "${raw}"`);
        out[opt.key] = n;
        break;
      }
      case 'bool':
        out[opt.key] = raw === true || /^(1|true|yes)$/i.test(String(raw));
        break;
      case 'list':
        out[opt.key] = String(raw)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      default:
        out[opt.key] = String(raw);
    }
  }
  const vendor = String(out.vendor ?? 'svc');
  if (!/^[a-z][a-z0-9]{0,31}$/.test(vendor))
    throw new UsageError(`vendor must be lower-case letters and digits (e.g. svc or letscms), got "${vendor}"`);

  const urlOf: Record<InterfaceId, string | undefined> = {
    'rest-route': out.baseUrl as string | undefined,
    graphql: out.baseUrl as string | undefined,
    'rest-v1-network': out.networkApiRoot as string | undefined,
    'rest-v1-shop': out.shopApiRoot as string | undefined,
  };
  const flagOf: Record<InterfaceId, string> = {
    'rest-route': '--base-url',
    graphql: '--base-url',
    'rest-v1-network': '--network-api-root',
    'rest-v1-shop': '--shop-api-root',
  };
  let interfaces: InterfaceId[];
  if (out.interfaces) {
    const asked = out.interfaces as string[];
    const unknown = asked.filter((i) => !(INTERFACES as readonly string[]).includes(i));
    if (unknown.length > 0) throw new UsageError(`unknown interface "${unknown[0]}": choose from ${INTERFACES.join(', ')}`);
    interfaces = [...new Set(asked)] as InterfaceId[];
    if (command === 'run') {
      const missing = interfaces.find((i) => !urlOf[i]);
      if (missing) throw new UsageError(`interface ${missing} needs ${flagOf[missing]} (or its environment variable)`);
    }
  } else if (command === 'run') {
    interfaces = INTERFACES.filter((i) => urlOf[i]);
    if (interfaces.length === 0)
      throw new UsageError(
        'no target: give --base-url, --network-api-root or --shop-api-root (or SFC_* in the environment or .env)',
      );
  } else interfaces = [...INTERFACES];

  const data: Record<string, string> = {};
  for (const { key, form, formHelp } of DATA_KEYS) {
    const v = input.flags[key] ?? input.env[key] ?? input.dotenv[key];
    if (typeof v !== 'string') continue;
    if (form && v.trim() !== '' && !form.test(v.trim())) throw new UsageError(`${key} must be ${formHelp}, got "${v}"`);
    data[key] = v;
  }
  const seed = out.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : (out.seed as number);
  if (seed >= 2 ** 31) throw new UsageError(`seed must be below 2147483648, got ${seed}`);

  return {
    baseUrl: out.baseUrl as string | undefined,
    networkApiRoot: out.networkApiRoot as string | undefined,
    shopApiRoot: out.shopApiRoot as string | undefined,
    vendor,
    interfaces,
    reportDir: resolve(String(out.reportDir ?? './reports')),
    seed,
    runs: (out.runs as number | undefined) ?? 20,
    timeoutMs: (out.timeoutMs as number | undefined) ?? 10_000,
    waivers: out.waivers as string | undefined,
    baseline: out.baseline as string | undefined,
    allowIncomplete: Boolean(out.allowIncomplete),
    rateLimit: out.rateLimit as number | undefined,
    concurrency: (out.concurrency as number | undefined) ?? 16,
    maxDurationS: (out.maxDurationS as number | undefined) ?? 1800,
    data,
    runId: newRunId(),
  };
}

function validUrl(raw: string, where: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${where} is not a URL: "${raw}" (expected e.g. http://127.0.0.1:8080)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${where} must be an http or https URL, got "${raw}"`);
  if (url.search || url.hash) throw new UsageError(`${where} must not carry a query or fragment, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}
