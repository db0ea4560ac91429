import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetClient } from '../../src/http/client.js';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('x'.repeat(200_000));
      return;
    }
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, url: req.url, type: req.headers['content-type'] ?? null, body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('target client', () => {
  it('records every exchange with status, headers, body and duration', async () => {
    const client = new TargetClient({ timeoutMs: 2000 });
    const ex = await client.send({
      method: 'POST',
      url: `${origin}/a`,
      query: { 'coupons[]': ['A', 'B'], page: 1 },
      json: { x: 1 },
    });
    expect(ex.response?.status).toBe(200);
    const echo = JSON.parse(ex.response?.body ?? '{}');
    expect(echo.url).toBe('/a?coupons[]=A&coupons[]=B&page=1');
    expect(echo.body).toBe('{"x":1}');
    expect(echo.type).toBe('application/json');
    expect(client.exchanges).toHaveLength(1);
    expect(ex.durationMs).toBeGreaterThanOrEqual(0);
    await client.close();
  });
  it('sends multipart form fields', async () => {
    const client = new TargetClient({ timeoutMs: 2000 });
    const ex = await client.send({ method: 'POST', url: `${origin}/f`, form: { 'cart_data[k1]': 2 } });
    const echo = JSON.parse(ex.response?.body ?? '{}');
    expect(echo.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(echo.body).toContain('name="cart_data[k1]"');
    expect(ex.request.form).toEqual({ 'cart_data[k1]': '2' });
    await client.close();
  });
  it('turns a hang into a timeout in the exchange, not an exception', async () => {
    const client = new TargetClient({ timeoutMs: 300 });
    const ex = await client.send({ method: 'GET', url: `${origin}/hang` });
    expect(ex.response).toBeUndefined();
    expect(ex.error).toBe('timed out after 300 ms');
    await client.close();
  });
  it('turns a refused connection into evidence', async () => {
    const client = new TargetClient({ timeoutMs: 1000 });
    const ex = await client.send({ method: 'GET', url: 'http://127.0.0.1:9/' });
    expect(ex.error).toBe('connection refused');
    await client.close();
  });
  it('cuts a body at the cap and says so', async () => {
    const client = new TargetClient({ timeoutMs: 2000, maxBodyBytes: 1000 });
    const ex = await client.send({ method: 'GET', url: `${origin}/big` });
    expect(ex.response?.body).toHaveLength(1000);
    expect(ex.response?.truncated).toBe(true);
    await client.close();
  });
});
