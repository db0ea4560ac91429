import type { CheckContext } from '../../checks/context.js';
import type { HttpRequest } from '../../http/client.js';
import { type Exchange, responseObject } from '../../http/exchange.js';

/**
 * The adapter of interface rest-v1-network (document 2, variant A): URLs under
 * `settings.networkApiRoot`, the `<vendor>_token` header, multipart bodies (the samples), and the
 * probes of the document's ambiguities, each recorded with `ctx.choose`.
 */

export type Json = Record<string, unknown>;
export type Query = HttpRequest['query'];
export type Form = Record<string, string | number>;

/** What a call returns: the exchange (evidence) and the parsed body (`{}` when not a JSON object). */
export interface Call {
  ex: Exchange;
  body: Json;
}

export const SCHEMAS = 'rest-v1-network/schemas/';
/** The schema of an endpoint's response, by endpoint id (see specs/rest-v1-network/endpoints.json). */
export const responseSchema = (endpointId: string) => `${SCHEMAS}${endpointId}.response.schema.json`;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// Probe outcomes are cached per worker and run: a worker kept for several runs (the fault matrix) may
// meet another target on the same URL.
const probes = new Map<string, string>();

export class NetClient {
  constructor(private readonly ctx: CheckContext<unknown>) {}

  /** `{api_root}` without a trailing slash; skips the check when the setting is missing. */
  get root(): string {
    const root = this.ctx.settings.networkApiRoot;
    if (!root) this.ctx.skip('no network api_root configured (--network-api-root / SFC_NETWORK_API_ROOT)');
    return root.replace(/\/+$/, '');
  }

  /** The token header: `<vendor>_token` (the documents write `svc_token`). */
  get tokenHeader(): string {
    return `${this.ctx.settings.vendor}_token`;
  }

  url(path: string): string {
    return `${this.root}${path.startsWith('/') ? path : `/${path}`}`;
  }

  async send(method: 'GET' | 'POST', path: string, opts: { token?: string; query?: Query; form?: Form } = {}): Promise<Call> {
    const headers: Record<string, string> = {};
    if (opts.token !== undefined) headers[this.tokenHeader] = opts.token;
    const ex = await this.ctx.http.send({
      method,
      url: this.url(path),
      headers,
      ...(opts.query ? { query: opts.query } : {}),
      // A POST always carries a multipart body, even an empty one, as the samples do.
      ...(method === 'POST' ? { form: opts.form ?? {} } : {}),
    });
    return { ex, body: parse(ex) };
  }

  get(path: string, opts: { token?: string; query?: Query } = {}): Promise<Call> {
    return this.send('GET', path, opts);
  }

  post(path: string, opts: { token?: string; form?: Form; query?: Query } = {}): Promise<Call> {
    return this.send('POST', path, opts);
  }

  /** The token of a login or register response (`<vendor>_token`), if any. */
  tokenOf(body: Json): string | undefined {
    const t = body[this.tokenHeader];
    return typeof t === 'string' && t.length > 0 ? t : undefined;
  }

  /** Why no token was found: another `<x>_token` key means the vendor setting does not match the target. */
  tokenHint(body: Json): string {
    const other = Object.keys(body).filter((k) => /^[A-Za-z0-9]+_token$/.test(k) && k !== this.tokenHeader);
    return other.length > 0
      ? ` (the response carries ${other.join(', ')}: set --vendor ${other[0]?.replace(/_token$/, '')})`
      : '';
  }

  async login(username: string, password: string): Promise<Call & { token?: string }> {
    const call = await this.post('/auth/login', { form: { username, password } });
    return { ...call, token: call.body.status === true ? this.tokenOf(call.body) : undefined };
  }

  /**
   * GET user-info under the spelling the target serves (AMB-NET-01): `/user-info` (headings) first,
   * then `/user_info` (samples). The first that answers status true wins and is remembered.
   */
  async userInfo(token: string): Promise<Call & { path: string }> {
    const key = `${this.ctx.settings.runId} user-info ${this.root}`;
    const known = probes.get(key);
    if (known) {
      this.ctx.choose('AMB-NET-01', known === '/user-info' ? 'hyphen' : 'underscore');
      return { ...(await this.get(known, { token })), path: known };
    }
    const first = await this.get('/user-info', { token });
    if (first.body.status === true) return this.remember(key, '/user-info', first);
    const second = await this.get('/user_info', { token });
    if (second.body.status === true) return this.remember(key, '/user_info', second);
    // Neither spelling succeeded: report the one that looks most like this interface's envelope.
    return { ...(second.ex.response && second.ex.response.status < 400 ? second : first), path: '/user-info' };
  }

  private remember(key: string, path: string, call: Call): Call & { path: string } {
    probes.set(key, path);
    this.ctx.choose('AMB-NET-01', path === '/user-info' ? 'hyphen' : 'underscore');
    return { ...call, path };
  }

  /**
   * The unilevel lookup (AMB-NET-05): without a token, as the samples; when that is refused
   * with a message about the token, again with `token` (if given). The choice is recorded.
   */
  async uniLookup(query: Query, token?: string): Promise<Call & { open: boolean }> {
    const bare = await this.get('/uni-get-user-info', { query });
    if (bare.body.status === true || !asksForToken(bare) || token === undefined) {
      if (bare.body.status === true) this.ctx.choose('AMB-NET-05', 'open');
      return { ...bare, open: !asksForToken(bare) };
    }
    this.ctx.choose('AMB-NET-05', 'token-required');
    return { ...(await this.get('/uni-get-user-info', { query, token })), open: false };
  }
}

export const net = (ctx: CheckContext<unknown>): NetClient => new NetClient(ctx);

/** The body as a JSON object, or `{}` (checks that need JSON call ctx.json for the failure). */
export const parse = (ex: Exchange): Json => (responseObject(ex) as Json | undefined) ?? {};

/** A refusal that asks for the token: status false and a message naming the token. */
export function asksForToken(call: Call): boolean {
  return call.body.status === false && typeof call.body.message === 'string' && /token/i.test(call.body.message);
}
