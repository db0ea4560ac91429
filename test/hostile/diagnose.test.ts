import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/http/exchange.js';
import { diagnose } from '../../src/run/diagnose.js';
import type { CheckResult } from '../../src/run/results.js';

// The dropped-header diagnosis on hand-made evidence: it must name the header when every guarded
// call was refused, and stay silent when a token got through or only open endpoints were called.

const ROOT = 'https://shop.example.test/wp-json/acme/v1';
const MISSING = { status: false, errors: [], message: 'Token is missing: send the token in the acme_token header.' };

function ex(method: string, path: string, token: boolean, status: number, body: unknown): Exchange & { curl: string } {
  return {
    request: { method, url: `${ROOT}${path}`, headers: token ? { acme_token: '«redacted»' } : {} },
    response: { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    durationMs: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    curl: 'curl',
  };
}

function check(requirement: string, ...exchanges: (Exchange & { curl: string })[]): CheckResult {
  return {
    requirement,
    level: 'MUST',
    interface: 'rest-v1-shop',
    area: 'cart',
    title: requirement,
    source: { document: '2', section: 'B. Shop variant' },
    startedAt: '2026-01-01T00:00:00.000Z',
    outcome: 'failed',
    evidence: { exchanges },
    choices: {},
    notes: [],
    requests: exchanges.length,
    retries: 0,
    durationMs: 1,
  };
}

const listing = (token: boolean) => ex('GET', '/products?page=1', token, 200, { status: true, errors: [], message: 'ok' });

describe('diagnose: a dropped <vendor>_token header', () => {
  it('names the header, the proxy setting and what the target said when every guarded call was refused', () => {
    const checks = [
      check('SHOP-PROD-01', listing(false)),
      check('SHOP-PROD-17', listing(true)), // an open endpoint answers with or without the token
      check('SHOP-CART-01', ex('POST', '/cart/add-item', true, 401, MISSING)),
      check('SHOP-CART-12', ex('GET', '/cart/count', true, 401, MISSING)),
      check('SHOP-ORD-03', ex('GET', '/orders', true, 401, MISSING)),
    ];
    const [d, ...rest] = diagnose(checks, 'acme');
    expect(rest).toEqual([]);
    expect(d).toMatch(/^rest-v1-shop: every one of the 3 requests that carried the acme_token header/);
    expect(d).toContain('underscores_in_headers');
    expect(d).toContain(MISSING.message);
  });

  it('stays silent when one guarded call with the token succeeded', () => {
    const checks = [
      check('SHOP-CART-01', ex('POST', '/cart/add-item', true, 200, { status: true, errors: [], message: 'added' })),
      check('SHOP-SEC-01', ex('GET', '/cart/count', true, 401, MISSING)),
      check('SHOP-SEC-02', ex('GET', '/orders', true, 401, MISSING)),
      check('SHOP-SEC-02', ex('GET', '/cart', true, 401, MISSING)),
    ];
    expect(diagnose(checks, 'acme')).toEqual([]);
  });

  it('stays silent with too little evidence, and for another vendor segment', () => {
    expect(diagnose([check('SHOP-CART-12', ex('GET', '/cart/count', true, 401, MISSING))], 'acme')).toEqual([]);
    const refused = ['/cart', '/cart/count', '/orders'].map((p) => check('SHOP-CART-04', ex('GET', p, true, 401, MISSING)));
    expect(diagnose(refused, 'acme')).toHaveLength(1);
    expect(diagnose(refused, 'letscms')).toEqual([]);
  });
});
