import { Agent, createServer, type IncomingMessage, request as proxyRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

// A target that misbehaves on purpose, to prove the suite survives it. It forwards every request
// to an upstream (the reference implementation) so a realistic run reaches the broken endpoint,
// and misbehaves only where a rule (or the global mode) says so. node:http only: the point is to
// send what no well-behaved framework would.

export type Misbehaviour =
  /** Close the connection without a byte of answer. */
  | 'drop'
  /** Send the status line, headers and half a body, then reset the connection. */
  | 'reset'
  /** Send the status line, headers and half a body, then nothing more (never ends). */
  | 'never-end'
  /** Accept the request and never answer at all. */
  | 'hang'
  /** A proxy's HTML error page (502) where JSON is due. */
  | 'html'
  /** A plain-text 200 answer where JSON is due. */
  | 'text'
  /** JSON that does not parse (cut off), labelled application/json. */
  | 'bad-json'
  /** HTTP 200 with an empty body. */
  | 'empty'
  /** HTTP 500 with a PHP-style stack trace. */
  | 'stack-500'
  /** A 302 to the same URL, forever. */
  | 'redirect-loop'
  /** The upstream's (valid JSON) answer labelled text/html. */
  | 'wrong-type'
  /** The upstream's (valid JSON) answer with no content type at all. */
  | 'no-type'
  /** The upstream's answer gzip-encoded although the client sent no Accept-Encoding. */
  | 'gzip'
  /** A JSON-looking body of `hugeBytes` (default 40 MiB; Infinity: never stops). */
  | 'huge'
  /** 429 with Retry-After for the first `times` matching requests, then the upstream's answer. */
  | 'rate-limit'
  /** Forward without the `<vendor>_token` header (a proxy dropping underscore headers). */
  | 'drop-token-header';

export interface Rule {
  /** Matched against the path after the prefix, without the query (e.g. `/orders`). */
  path: RegExp;
  method?: string;
  /** Every one of these query keys must be present. */
  queryHas?: string[];
  mode: Misbehaviour;
  /** For `rate-limit`: how many matching requests are refused before the upstream answers. */
  times?: number;
}

export interface Hit {
  method: string;
  url: string;
  mode: Misbehaviour | 'forward';
  rule?: number;
}

export interface HostileOptions {
  /** Where well-behaved requests go (an origin, e.g. http://127.0.0.1:3000). */
  upstream?: string;
  rules?: Rule[];
  /** A misbehaviour for every request (rules are then ignored). */
  global?: Misbehaviour;
  /** The vendor segment of the token header (`<vendor>_token`). */
  vendor?: string;
  /** Path prefix stripped before rules match (e.g. /shop/wp-json/acme/v1). */
  prefix?: string;
  hugeBytes?: number;
  /** Forward this many requests normally, then refuse connections altogether (the target goes away). */
  goAwayAfter?: number;
}

export interface HostileServer {
  origin: string;
  port: number;
  hits: Hit[];
  /** Closes the port and every open connection: later connections are refused. */
  goAway(): Promise<void>;
  close(): Promise<void>;
}

const STACK_TRACE = `<br />
<b>Fatal error</b>:  Uncaught Error: Call to a member function get_cart() on null in /var/www/html/wp-content/plugins/shop-api/includes/class-cart.php:88
Stack trace:
#0 /var/www/html/wp-includes/rest-api/class-wp-rest-server.php(1188): Shop_Api_Cart->get_cart(Object(WP_REST_Request))
#1 /var/www/html/wp-includes/rest-api/class-wp-rest-server.php(1035): WP_REST_Server->respond_to_request(Object(WP_REST_Request), '/svc/v1/order/c...', Array, NULL)
#2 {main}
  thrown in <b>/var/www/html/wp-content/plugins/shop-api/includes/class-cart.php</b> on line <b>88</b><br />
`;

const BAD_GATEWAY = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.24.0</center>
</body>
</html>
`;

export async function startHostile(options: HostileOptions): Promise<HostileServer> {
  const hits: Hit[] = [];
  const sockets = new Set<Socket>();
  const counts = new Map<number, number>();
  let forwarded = 0;
  let gone = false;
  const vendorHeader = `${options.vendor ?? 'svc'}_token`;
  // No keep-alive to the upstream: an idle pooled socket would hold the upstream's close() open.
  const upstreamAgent = new Agent({ keepAlive: false });

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hostile.invalid');
    const path =
      options.prefix && url.pathname.startsWith(options.prefix) ? url.pathname.slice(options.prefix.length) : url.pathname;
    let mode: Misbehaviour | undefined = options.global;
    let ruleIndex: number | undefined;
    if (!mode) {
      ruleIndex = (options.rules ?? []).findIndex(
        (r) =>
          r.path.test(path) &&
          (r.method === undefined || r.method === req.method) &&
          (r.queryHas ?? []).every((k) => url.searchParams.has(k)),
      );
      const rule = options.rules?.[ruleIndex];
      if (rule) {
        const n = (counts.get(ruleIndex) ?? 0) + 1;
        counts.set(ruleIndex, n);
        // A rate limit lets the request through once its refusals are used up.
        if (rule.mode !== 'rate-limit' || n <= (rule.times ?? 1)) mode = rule.mode;
      } else ruleIndex = undefined;
    }
    hits.push({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      mode: mode ?? 'forward',
      ...(ruleIndex !== undefined ? { rule: ruleIndex } : {}),
    });
    void misbehave(mode, req, res).catch(() => res.destroy());
    if (options.goAwayAfter !== undefined && mode === undefined && ++forwarded >= options.goAwayAfter && !gone) {
      gone = true;
      res.on('finish', () => void goAway());
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // A client that stops reading a huge body resets the connection: that is not the server's error.
  server.on('clientError', (_e, s) => s.destroy());

  async function misbehave(mode: Misbehaviour | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
    switch (mode) {
      case undefined:
        return forward(req, res);
      case 'drop':
        req.socket.destroy();
        return;
      case 'hang':
        return;
      case 'reset':
      case 'never-end':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"status":true,"errors":[],"message":"Half of an ans');
        if (mode === 'reset') setTimeout(() => req.socket.destroy(), 20);
        return;
      case 'html':
        return send(res, 502, 'text/html', BAD_GATEWAY);
      case 'text':
        return send(res, 200, 'text/plain; charset=utf-8', 'OK');
      case 'bad-json':
        return send(res, 200, 'application/json; charset=UTF-8', '{"status":true,"errors":[],"message":"Done.","data":{"cou');
      case 'empty':
        return send(res, 200, 'application/json', '');
      case 'stack-500':
        return send(res, 500, 'text/html; charset=UTF-8', STACK_TRACE);
      case 'redirect-loop':
        res.writeHead(302, { location: req.url ?? '/', 'content-length': '0' });
        res.end();
        return;
      case 'huge':
        return sendHuge(res, options.hugeBytes ?? 40 * 1024 * 1024);
      case 'rate-limit':
        return send(res, 429, 'application/json', '{"code":"too_many_requests","message":"Slow down."}', { 'retry-after': '1' });
      case 'drop-token-header':
        delete req.headers[vendorHeader];
        return forward(req, res);
      case 'wrong-type':
      case 'no-type':
      case 'gzip': {
        const up = await fetchUpstream(req);
        const headers: Record<string, string> = {};
        if (mode === 'wrong-type') headers['content-type'] = 'text/html; charset=UTF-8';
        else if (mode === 'gzip') headers['content-type'] = up.type ?? 'application/json';
        const body = mode === 'gzip' ? gzipSync(up.body) : up.body;
        if (mode === 'gzip') headers['content-encoding'] = 'gzip';
        headers['content-length'] = String(body.length);
        res.writeHead(up.status, headers);
        // Node adds no content type of its own, so `no-type` really sends none.
        res.end(body);
        return;
      }
    }
  }

  function upstreamRequest(req: IncomingMessage, onResponse: (up: IncomingMessage) => void): void {
    if (!options.upstream) throw new Error('hostile server: no upstream to forward to');
    const target = new URL(req.url ?? '/', options.upstream);
    const headers = { ...req.headers, host: target.host };
    const up = proxyRequest(target, { method: req.method, headers, agent: upstreamAgent }, onResponse);
    up.on('error', () => req.socket.destroy());
    req.pipe(up);
  }

  function forward(req: IncomingMessage, res: ServerResponse): void {
    upstreamRequest(req, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
  }

  function fetchUpstream(req: IncomingMessage): Promise<{ status: number; type?: string; body: Buffer }> {
    return new Promise((resolve, reject) => {
      upstreamRequest(req, (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('error', reject);
        up.on('end', () =>
          resolve({
            status: up.statusCode ?? 502,
            ...(typeof up.headers['content-type'] === 'string' ? { type: up.headers['content-type'] } : {}),
            body: Buffer.concat(chunks),
          }),
        );
      });
    });
  }

  async function goAway(): Promise<void> {
    gone = true;
    upstreamAgent.destroy();
    await new Promise<void>((r) => {
      server.close(() => r());
      for (const s of sockets) s.destroy();
    });
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    goAway: () => (server.listening ? goAway() : Promise.resolve()),
    close: () => (server.listening ? goAway() : Promise.resolve()),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

/** Streams a JSON-looking body of `bytes`, honouring backpressure; stops when the client hangs up. */
function sendHuge(res: ServerResponse, bytes: number): Promise<void> {
  const chunk = Buffer.from('"filler-filler-filler-filler-filler-filler-filler-filler-filler",'.repeat(1024));
  const head = '{"status":true,"errors":[],"message":"Products found.","data":{"products":[';
  // An infinite size means no content-length: a chunked body that never stops.
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(Number.isFinite(bytes) ? { 'content-length': String(bytes) } : {}),
  });
  res.write(head);
  let sent = head.length;
  return new Promise((resolve) => {
    const pump = () => {
      while (sent < bytes && !res.destroyed) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
      resolve();
    };
    res.on('close', () => resolve());
    pump();
  });
}

/** A loopback port nothing listens on (listened on once, then closed): connections are refused. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
