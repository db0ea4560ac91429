/** One request and what came back: the evidence every failure carries. */
export interface Exchange {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    /** The body as sent (JSON text, url-encoded text, or a description of multipart fields). */
    body?: string;
    /** For multipart requests: the fields, so the curl line can repeat them. */
    form?: Record<string, string>;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    /** Body text, cut at the size cap (see `truncated`). */
    body: string;
    truncated?: boolean;
  };
  /** Network-level failure: refused, reset, timed out. No response then. */
  error?: string;
  /** Times the client retried after a 429 (or a 503 with Retry-After) before this answer. */
  retries?: number;
  /** Not sent: the client knew the endpoint or target was dead (see `error`). */
  notSent?: boolean;
  durationMs: number;
  startedAt: string;
}

/** What JSON text can start with, after white space: anything else is not JSON, without a parse to say so. */
const JSON_START = /^[\s]*[[{"\-0-9tfn]/;
const NOT_JSON = Symbol('not JSON');
const parsedBodies = new WeakMap<object, unknown>();

/**
 * The response body parsed as JSON, or undefined when there is no response or the body is not JSON.
 * Parsed once per response: checks read one body many times (an area's envelope sweep reads every
 * body of the area a dozen times). The value is frozen, since every reader gets the same one.
 */
export function responseJson(ex: Exchange): unknown {
  const res = ex.response;
  if (!res) return undefined;
  let v = parsedBodies.get(res);
  if (v === undefined) {
    v = NOT_JSON;
    if (JSON_START.test(res.body)) {
      try {
        v = deepFreeze(JSON.parse(res.body) as unknown);
      } catch {
        // not JSON after all: NOT_JSON stays
      }
    }
    parsedBodies.set(res, v);
  }
  return v === NOT_JSON ? undefined : v;
}

/** The response body as a JSON object (not an array), or undefined. */
export function responseObject(ex: Exchange): Record<string, unknown> | undefined {
  const v = responseJson(ex);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

const SECRET_HEADER = /^(authorization|token|cookie|.*_token|x-api-key)$/i;
const SECRET_FIELD = /(password|confirm|token|secret|otp)/i;
export const REDACTED = '«redacted»';
const JWT = /\b(eyJ[A-Za-z0-9_-]{5,})\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

/** A copy of the exchange with tokens, cookies and passwords replaced, safe to write to a report. */
export function redact(ex: Exchange, secrets: string[] = []): Exchange {
  const scrub = (text: string) => {
    let out = text;
    for (const s of secrets) if (s.length >= 4) out = out.split(s).join(REDACTED);
    // Tokens the run obtained: keep a JWT's header segment (its `alg` can be evidence), drop the rest.
    return out.replace(JWT, `$1.${REDACTED}`);
  };
  const headers = Object.fromEntries(
    Object.entries(ex.request.headers).map(([k, v]) => [k, SECRET_HEADER.test(k) ? REDACTED : scrub(v)]),
  );
  let body = ex.request.body;
  if (body !== undefined) body = scrub(redactBodyFields(body));
  const form = ex.request.form
    ? Object.fromEntries(Object.entries(ex.request.form).map(([k, v]) => [k, SECRET_FIELD.test(k) ? REDACTED : scrub(v)]))
    : undefined;
  const out: Exchange = { ...ex, request: { ...ex.request, headers, body, form } };
  if (!form) delete out.request.form;
  if (body === undefined) delete out.request.body;
  if (ex.response) {
    out.response = {
      ...ex.response,
      headers: Object.fromEntries(
        Object.entries(ex.response.headers).map(([k, v]) => [k, /^set-cookie$/i.test(k) ? REDACTED : v]),
      ),
      body: scrub(redactResponseFields(ex.response.body)),
    };
  }
  return out;
}

const TOKEN_FIELD = /(^|_)token$/i;

/** Token fields of a JSON response (login answers): their values are credentials, not evidence. */
function redactResponseFields(body: string): string {
  if (!/token/i.test(body)) return body;
  try {
    return JSON.stringify(scrubTokens(JSON.parse(body) as unknown));
  } catch {
    return body;
  }
}

function scrubTokens(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(scrubTokens);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [
        k,
        TOKEN_FIELD.test(k) && typeof x === 'string' && x !== '' ? REDACTED : scrubTokens(x),
      ]),
    );
  return v;
}

function redactBodyFields(body: string): string {
  if (JSON_START.test(body)) {
    try {
      return JSON.stringify(scrubValue(JSON.parse(body) as unknown));
    } catch {
      // a form body that starts like JSON: redacted as a form below
    }
  }
  return body.replace(/((?:password|confirm|token|otp)[^=&]*=)[^&]*/gi, `$1${REDACTED}`);
}

/** A GraphQL argument or input field with a secret's name, written inline as a string literal. */
const INLINE_SECRET = /(\b\w*(?:password|confirm|token|secret|otp)\w*\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

function scrubValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(scrubValue);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [
        k,
        SECRET_FIELD.test(k) && typeof x !== 'object'
          ? REDACTED
          : // A GraphQL document may carry its arguments inline, not as variables.
            k === 'query' && typeof x === 'string'
            ? x.replace(INLINE_SECRET, `$1"${REDACTED}"`)
            : scrubValue(x),
      ]),
    );
  }
  return v;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A `curl` command that replays the request (pass it a redacted exchange for reports). */
export function toCurl(ex: Exchange): string {
  const parts = ['curl', '-sS', '-X', ex.request.method, shellQuote(ex.request.url)];
  for (const [k, v] of Object.entries(ex.request.headers)) {
    if (ex.request.form && k.toLowerCase() === 'content-type') continue; // curl sets the multipart boundary
    parts.push('-H', shellQuote(`${k}: ${v}`));
  }
  if (ex.request.form) for (const [k, v] of Object.entries(ex.request.form)) parts.push('-F', shellQuote(`${k}=${v}`));
  else if (ex.request.body !== undefined) parts.push('--data-raw', shellQuote(ex.request.body));
  return parts.join(' ');
}
