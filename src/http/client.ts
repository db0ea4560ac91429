import { Agent, type Dispatcher, FormData, request as undiciRequest } from 'undici';
import type { Exchange } from './exchange.js';

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
  /** Bytes of a response body kept; the rest is read and dropped, and the exchange says so. */
  maxBodyBytes?: number;
  connections?: number;
}

export const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
/** Consecutive connection failures after which the target counts as gone and requests fail at once. */
const DEAD_TARGET_AFTER = 3;
/** Longest Retry-After the client honours; a longer wait is the target's problem, not the run's. */
const MAX_RETRY_WAIT_MS = 10_000;

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
  /** Consecutive connection-level failures per origin. */
  private readonly failuresByOrigin = new Map<string, number>();
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
    const { origin, pathname } = new URL(url);
    const endpoint = `${req.method} ${origin}${pathname}`;
    const dead =
      this.deadEndpoints.get(endpoint) ??
      ((this.failuresByOrigin.get(origin) ?? 0) >= DEAD_TARGET_AFTER
        ? `target ${origin} did not answer the last ${DEAD_TARGET_AFTER} requests`
        : undefined);
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
    for (;;) {
      await this.throttle();
      const ex = await this.attempt(req, url);
      const status = ex.response?.status;
      const retryAfter = ex.response?.headers['retry-after'];
      const retryable = status === 429 || (status === 503 && retryAfter !== undefined);
      if (!retryable || retries >= maxRetries) {
        if (retries > 0) ex.retries = retries;
        if (ex.error) {
          this.failuresByOrigin.set(origin, (this.failuresByOrigin.get(origin) ?? 0) + 1);
          if (ex.error.startsWith('timed out')) this.deadEndpoints.set(endpoint, `${endpoint} timed out earlier in this run`);
        } else this.failuresByOrigin.set(origin, 0);
        this.exchanges.push(ex);
        return ex;
      }
      retries++;
      this.retryCount++;
      await delay(retryDelay(retryAfter, retries));
    }
  }

  private async throttle(): Promise<void> {
    const rate = this.options.rateLimit;
    if (!rate) return;
    const now = performance.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / rate;
    if (slot > now) await delay(slot - now);
  }

  private async attempt(req: HttpRequest, url: string): Promise<Exchange> {
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: string | FormData | undefined;
    let bodyText: string | undefined;
    let form: Record<string, string> | undefined;
    if (req.json !== undefined) {
      bodyText = JSON.stringify(req.json);
      body = bodyText;
      headers['content-type'] ??= 'application/json';
    } else if (req.form) {
      form = Object.fromEntries(Object.entries(req.form).map(([k, v]) => [k, String(v)]));
      const fd = new FormData();
      for (const [k, v] of Object.entries(form)) fd.append(k, v);
      body = fd;
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
    if (form) exchange.request.headers['content-type'] = 'multipart/form-data';
    this.requestCount++;
    try {
      const res = await undiciRequest(url, {
        method: req.method,
        headers,
        body,
        dispatcher: this.agent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const { text, truncated } = await readCapped(res.body, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY);
      exchange.response = {
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        body: text,
        ...(truncated ? { truncated } : {}),
      };
    } catch (e) {
      exchange.error = describeNetworkError(e, timeoutMs);
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

async function readCapped(body: AsyncIterable<Buffer>, cap: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    if (size >= cap) {
      truncated = true;
      continue; // drain so the connection can be reused
    }
    const room = cap - size;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    if (chunk.length > room) truncated = true;
    size += Math.min(chunk.length, room);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated };
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function describeNetworkError(e: unknown, timeoutMs: number): string {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  if (
    err.name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return `timed out after ${timeoutMs} ms`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the target';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found';
  return `${code ? `${code}: ` : ''}${err.message ?? String(e)}`;
}
