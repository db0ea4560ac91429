// Load benchmark of the reference implementation: requests per second and latency percentiles of
// one read and one write endpoint at a fixed concurrency, on loopback only, bounded in count and
// time. Usage: npm run bench:reference [-- --concurrency 16 --seconds 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from '#src/server.js';

const { values } = parseArgs({ options: { concurrency: { type: 'string' }, seconds: { type: 'string' } } });
const CONCURRENCY = Number(values.concurrency ?? 16);
const SECONDS = Number(values.seconds ?? 5);
const MAX_REQUESTS = 200_000;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

function send(port: number, agent: Agent, call: Call): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, agent, method: call.method, path: call.path, headers: call.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(call.body);
  });
}

async function load(port: number, name: string, call: () => Call) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < end && latencies.length < MAX_REQUESTS) {
      const t = performance.now();
      const res = await send(port, agent, call());
      latencies.push(performance.now() - t);
      if (res.status >= 500 || !res.body.includes('"status":true')) errors++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const ms = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    Number((latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0).toFixed(2));
  return {
    endpoint: name,
    concurrency: CONCURRENCY,
    requests: latencies.length,
    errors,
    rps: Math.round((latencies.length / ms) * 1000),
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    max: pct(100),
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sfc-ref-load-'));
  const { app } = await buildServer({ db: join(dir, 'load.db'), hashCost: 1024 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const agent = new Agent({ keepAlive: true });
  const shop = '/shop/wp-json/svc/v1';
  const reg = await send(port, agent, {
    method: 'POST',
    path: `${shop}/auth/register`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'loaduser1',
      first_name: 'Load',
      last_name: 'User',
      password: 'Load-pass-2024',
      email: 'load@example.test',
    }),
  });
  const token = (JSON.parse(reg.body) as Record<string, unknown>).svc_token as string;
  const list = JSON.parse((await send(port, agent, { method: 'GET', path: `${shop}/products?page=1` })).body) as {
    data: { products: { id: number; stock_status?: string }[] };
  };
  const productId = list.data.products[0]?.id ?? 1;
  const auth = { 'content-type': 'application/json', svc_token: token };
  await send(port, agent, {
    method: 'POST',
    path: `${shop}/cart/add-item`,
    headers: auth,
    body: JSON.stringify({ product_id: productId, quantity: 1 }),
  });
  const cart = JSON.parse((await send(port, agent, { method: 'GET', path: `${shop}/cart`, headers: auth })).body) as {
    data: { cart_items: { key: string }[] };
  };
  const key = cart.data.cart_items[0]?.key ?? '';
  agent.destroy();
  let n = 0;
  const results = [
    await load(port, `GET ${shop}/products?page=1 (read)`, () => ({ method: 'GET', path: `${shop}/products?page=1` })),
    // A write that stays valid however long it runs: the line's quantity cycles through 1..5.
    await load(port, `POST ${shop}/cart/update-quantities (write)`, () => ({
      method: 'POST',
      path: `${shop}/cart/update-quantities`,
      headers: auth,
      body: JSON.stringify({ cart_data: { [key]: (n++ % 5) + 1 } }),
    })),
  ];
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  for (const r of results)
    process.stdout.write(
      `${r.endpoint}\n  ${r.requests} requests, ${r.errors} not status true, ${r.rps} req/s at concurrency ${r.concurrency}; latency ms p50 ${r.p50}, p90 ${r.p90}, p99 ${r.p99}, max ${r.max}\n`,
    );
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((e) => {
  process.stderr.write(`load: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
