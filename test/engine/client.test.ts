import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetClient } from '../../src/http/client.js';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-sfc-echo': 'yes' });
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

// A hang, a refused connection and a body past the cap are covered, more strictly, against the
// hostile server in test/hostile/engine.test.ts.
describe('target client', () => {
  it('records every exchange with status, headers, body and duration', async () => {
    const client = new TargetClient({ timeoutMs: 2000 });
    const ex = await client.send({
      method: 'POST',
      url: `${origin}/a`,
      query: { 'coupons[]': ['A', 'B'], page: 1 },
      headers: { 'x-sfc-probe': 'p1' },
      json: { x: 1 },
    });
    expect(ex.response?.status).toBe(200);
    const echo = JSON.parse(ex.response?.body ?? '{}');
    expect(echo.url).toBe('/a?coupons[]=A&coupons[]=B&page=1');
    expect(echo.body).toBe('{"x":1}');
    expect(echo.type).toBe('application/json');
    expect(ex.request).toMatchObject({ method: 'POST', url: `${origin}/a?coupons[]=A&coupons[]=B&page=1`, body: '{"x":1}' });
    expect(ex.request.headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json',
      'x-sfc-probe': 'p1',
    });
    expect(ex.response?.headers).toMatchObject({ 'content-type': 'application/json', 'x-sfc-echo': 'yes' });
    expect(client.exchanges).toEqual([ex]);
    expect(Number.isFinite(ex.durationMs)).toBe(true);
    expect(ex.durationMs).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(ex.startedAt))).toBe(false);
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
});
