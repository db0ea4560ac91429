import { createRequire } from 'node:module';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher, Agent as UndiciAgent } from 'undici';
import type { Exchange } from './exchange.js';
import { encodeMultipart } from './multipart.js';

// Only undici's Agent, not its index: the index loads fetch, cookies, WebSocket and mocks too, 45 ms of
// the run's start-up on the thread that sends the requests (undici 7 has no exports map, so the path
// is reachable; package.json pins the version).
const Agent = createRequire(import.meta.url)('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** Appended to the URL (arrays repeat the key: `coupons[]=a&coupons[]=b` with key `coupons[]`). */
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  headers?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as multipart/form-data (the documents' samples for `{api_root}`). */
  form?: Record<string, string | number>;
  /** Sent as application/x-www-form-urlencoded. */
  urlencoded?: Record<string, string | number>;
  /** Raw body with the caller's own content type (negative tests). */
  raw?: string;
  timeoutMs?: number;
}

export interface ClientOptions {
  timeoutMs: number;
  /** Requests per second at most (for targets that need it); unlimited when absent. */
  rateLimit?: number;
  /** Retries after 429, or 503 with Retry-After (default 3). */
  maxRetries?: number;
  /** Bytes of a (decoded) response body kept; the rest is not read, and the exchange says `truncated`. */
  maxBodyBytes?: number;
  connections?: number;
  /** Names the suite and the area in the target's logs (and lets an in-process target attribute requests). */
  userAgent?: string;
}

export const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
/** Refused connections in a row after which the target counts as gone and requests fail at once. */
const DEAD_TARGET_AFTER = 3;
/** Longest Retry-After the client honours; a longer wait is the target's problem, not the run's. */
const MAX_RETRY_WAIT_MS = 10_000;
/** After this pause a gone origin gets one more try (a target that restarted). */
const DEAD_TARGET_RETRY_MS = 5_000;

/**
 * The target client: one keep-alive pool, a timeout per request, and a record of every exchange.
 * It never throws for what the target does (refused, reset, timeout, garbage): that is evidence,
 * returned in the exchange for the checks to judge.
 */
export class TargetClient {
  private readonly agent: Dispatcher;
  readonly exchanges: Exchange[] = [];
  requestCount = 0;
  retryCount = 0;
  /** Endpoints (method + path) that timed out: a second request would only wait again. */
  private readonly deadEndpoints = new Map<string, string>();
  /** Refused connections in a row per origin, and when the last one was. */
  private readonly failuresByOrigin = new Map<string, { count: number; at: number }>();
  private nextSlot = 0;

  constructor(readonly options: ClientOptions) {
    this.agent = new Agent({
      connections: options.connections ?? 16,
      keepAliveTimeout: 10_000,
      connectTimeout: options.timeoutMs,
    });
  }

  /**
   * Sends the request, retrying a bounded number of times on 429 (or 503 with Retry-After).
   * A request to an endpoint that already timed out, or to a target that refused the last
   * connections, is not sent again: the exchange says why, at once.
   */
  async send(req: HttpRequest): Promise<Exchange> {
    const url = withQuery(req.url, req.query);
    const target = new URL(url); // parsed once: the dead-endpoint key and the dispatch both use it
    const { origin, pathname } = target;
    const endpoint = `${req.method} ${origin}${pathname}`;
    const dead = this.deadEndpoints.get(endpoint) ?? this.originDown(origin);
    if (dead) {
      const ex: Exchange = {
        request: { method: req.method, url, headers: { ...req.headers } },
        error: `not sent: ${dead}`,
        notSent: true,
        durationMs: 0,
        startedAt: new Date().toISOString(),
      };
      this.exchanges.push(ex);
      return ex;
    }
    const maxRetries = this.options.maxRetries ?? 3;
    let retries = 0;
    let waited = 0;
    for (;;) {
      await this.throttle();
      const ex = await this.attempt(req, url, target);
      const status = ex.response?.status;
      const retryAfter = ex.response?.headers['retry-after'];
      const retryable = status === 429 || (status === 503 && retryAfter !== undefined);
      const wait = retryable ? retryDelay(retryAfter, retries + 1) : 0;
      // The wait budget bounds one request however long the target asks us to wait.
      if (!retryable || retries >= maxRetries || waited + wait > MAX_RETRY_WAIT_MS) {
        if (retries > 0) ex.retries = retries;
        this.recordOutcome(ex, origin, endpoint);
        this.exchanges.push(ex);
        return ex;
      }
      retries++;
      this.retryCount++;
      waited += wait;
      await delay(wait);
    }
  }

  /**
   * Only a refused connection (or a vanished host) counts towards "the target is gone": a reset
   * or a timeout is one endpoint misbehaving, and the other endpoints may well answer.
   */
  private recordOutcome(ex: Exchange, origin: string, endpoint: string): void {
    if (ex.error === undefined) {
      this.failuresByOrigin.delete(origin);
      return;
    }
    if (isGoneError(ex.error)) {
      const prior = this.failuresByOrigin.get(origin);
      this.failuresByOrigin.set(origin, { count: (prior?.count ?? 0) + 1, at: performance.now() });
    }
    if (ex.error.startsWith('timed out')) this.deadEndpoints.set(endpoint, `${endpoint} timed out earlier in this run`);
  }

  /** Why the origin counts as gone, or undefined. After a pause one request may try again (a restart). */
  private originDown(origin: string): string | undefined {
    const f = this.failuresByOrigin.get(origin);
    if (!f || f.count < DEAD_TARGET_AFTER) return undefined;
    if (performance.now() - f.at >= DEAD_TARGET_RETRY_MS) {
      f.at = performance.now(); // let this one through; the others wait for its outcome's pause
      return undefined;
    }
    return `target ${origin} refused the last ${f.count} connections`;
  }

  private async throttle(): Promise<void> {
    const rate = this.options.rateLimit;
    if (!rate) return;
    const now = performance.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / rate;
    if (slot > now) await delay(slot - now);
  }

  private async attempt(req: HttpRequest, url: string, target: URL): Promise<Exchange> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(this.options.userAgent ? { 'user-agent': this.options.userAgent } : {}),
      ...req.headers,
    };
    let body: string | Buffer | undefined;
    let bodyText: string | undefined;
    let form: Record<string, string> | undefined;
    if (req.json !== undefined) {
      bodyText = JSON.stringify(req.json);
      body = bodyText;
      headers['content-type'] ??= 'application/json';
    } else if (req.form) {
      form = Object.fromEntries(Object.entries(req.form).map(([k, v]) => [k, String(v)]));
      const multipart = encodeMultipart(form);
      body = multipart.body;
      headers['content-type'] ??= multipart.contentType;
      bodyText = new URLSearchParams(form).toString();
    } else if (req.urlencoded) {
      bodyText = new URLSearchParams(Object.entries(req.urlencoded).map(([k, v]): [string, string] => [k, String(v)])).toString();
      body = bodyText;
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (req.raw !== undefined) {
      bodyText = req.raw;
      body = req.raw;
    }
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs;
    const exchange: Exchange = {
      request: {
        method: req.method,
        url,
        headers: { ...headers },
        ...(bodyText !== undefined ? { body: bodyText } : {}),
        ...(form ? { form } : {}),
      },
      durationMs: 0,
      startedAt,
    };
    if (form) exchange.request.headers['content-type'] = 'multipart/form-data'; // the boundary is noise in evidence
    this.requestCount++;
    const got = await exchangeOnce(
      this.agent,
      target,
      { method: req.method, headers, body },
      timeoutMs,
      this.options.maxBodyBytes ?? DEFAULT_MAX_BODY,
    );
    if ('error' in got) {
      // Headers came, the body did not (reset, stalled, undecodable): no answer to judge, but say how far it got.
      exchange.error =
        got.status === undefined
          ? describeNetworkError(got.error, timeoutMs)
          : `${describeNetworkError(got.error, timeoutMs)} (after the HTTP ${got.status} headers and ${got.bytes} bytes of body)`;
    } else {
      exchange.response = {
        status: got.status,
        headers: got.headers,
        body: got.text,
        ...(got.truncated ? { truncated: true } : {}),
      };
    }
    exchange.durationMs = Math.round(performance.now() - started);
    return exchange;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retry-After in seconds or as a date; otherwise 250 ms doubling. Capped either way. */
function retryDelay(retryAfter: string | undefined, attempt: number): number {
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS);
  }
  return Math.min(250 * 2 ** (attempt - 1), MAX_RETRY_WAIT_MS);
}

export function withQuery(url: string, query: HttpRequest['query']): string {
  if (!query) return url;
  const params: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v])
      params.push(`${encodeURIComponent(k).replace(/%5B%5D$/, '[]')}=${encodeURIComponent(String(item))}`);
  }
  if (params.length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${params.join('&')}`;
}

const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};

type Received = { status: number; headers: Record<string, string>; text: string; truncated: boolean };
type Failed = { error: unknown; status?: number; bytes: number };

/**
 * One request through undici's dispatcher, its answer read whole up to `cap` bytes, decoded when the
 * target compressed it (the client sends no Accept-Encoding, which allows any coding, RFC 9110
 * 12.5.3). The cap applies to the decoded bytes, so a compression bomb stops there too; past the cap
 * the request is aborted, not drained: a target may send gigabytes or never stop. `timeoutMs`
 * bounds the whole exchange (and each wait for headers or body), so a target that trickles bytes
 * cannot hold it. The dispatcher's handler, not undici's request() with its body stream and abort
 * signal, because this is the one thread that runs every area: half the client's cost per request
 * (measured on loopback, 42 against 79 microseconds).
 */
function exchangeOnce(
  agent: Dispatcher,
  url: URL,
  req: { method: string; headers: Record<string, string>; body: string | Buffer | undefined },
  timeoutMs: number,
  cap: number,
): Promise<Received | Failed> {
  return new Promise((resolve) => {
    let controller: { abort(reason: Error): void } | undefined;
    let status: number | undefined;
    let headers: Record<string, string> = {};
    let decoder: Transform | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (out: Received | Failed, abort?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      decoder?.destroy();
      if (abort) controller?.abort(abort);
      resolve(out);
    };
    const received = (truncated: boolean): Received => ({
      status: status as number,
      headers,
      text: Buffer.concat(chunks).toString('utf8'),
      truncated,
    });
    const take = (chunk: Buffer) => {
      if (settled) return;
      const room = cap - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size = cap;
        settle(received(true), new Error('the body passed the size cap'));
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    };
    // An error of our own (timeout, undecodable body) aborts the request; one undici reports has ended it.
    const fail = (error: unknown, ended = false) =>
      settle({ error, status, bytes: size }, !ended && error instanceof Error ? error : undefined);
    const timer = setTimeout(() => {
      const e = new Error(`timed out after ${timeoutMs} ms`);
      e.name = 'TimeoutError';
      fail(e);
    }, timeoutMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (settled) c.abort(new Error('timed out before the request started'));
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        status = statusCode;
        headers = flattenHeaders(responseHeaders as Record<string, string | string[] | undefined>);
        const coding = headers['content-encoding']?.trim().toLowerCase();
        const make = coding && coding !== 'identity' ? DECODERS[coding] : undefined;
        if (make) {
          decoder = make();
          decoder.on('data', take);
          decoder.once('error', fail);
          decoder.once('end', () => settle(received(false)));
        }
      },
      onResponseData(_c, chunk) {
        if (decoder) decoder.write(chunk);
        else take(chunk);
      },
      onResponseEnd() {
        if (decoder) decoder.end();
        else settle(received(false));
      },
      onResponseError(_c, error) {
        fail(error, true);
      },
    };
    const options: Dispatcher.DispatchOptions = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    };
    try {
      agent.dispatch(options, handler);
    } catch (e) {
      fail(e, true); // refused before it was sent (a header undici will not write, say)
    }
  });
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Errors that say the target is not there at all (as opposed to one endpoint misbehaving). */
export function isGoneError(error: string): boolean {
  return /^(connection refused|host name not found|could not connect within)/.test(error);
}

export function describeNetworkError(e: unknown, timeoutMs: number): string {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  if (err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return `timed out after ${timeoutMs} ms`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return `could not connect within ${timeoutMs} ms`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code && /^Z_|^ERR__|BROTLI/.test(code))
    return `the body does not decode as its content-encoding says (${err.message ?? code})`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the target';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found';
  return `${code ? `${code}: ` : ''}${err.message ?? String(e)}`;
}
