import { describe, expect, it, vi } from 'vitest';
import { resolveSettings, UsageError } from '../../src/config/load.js';

const base = { flags: {}, env: {}, dotenv: {} };

describe('settings: flag over environment over .env', () => {
  it('takes the flag when all three are set', () => {
    const s = resolveSettings(
      {
        flags: { 'base-url': 'http://flag:1' },
        env: { SFC_BASE_URL: 'http://env:1' },
        dotenv: { SFC_BASE_URL: 'http://dotenv:1' },
      },
      'run',
    );
    expect(s.baseUrl).toBe('http://flag:1');
  });
  it('takes the environment over .env', () => {
    const s = resolveSettings(
      { flags: {}, env: { SFC_BASE_URL: 'http://env:1' }, dotenv: { SFC_BASE_URL: 'http://dotenv:1' } },
      'run',
    );
    expect(s.baseUrl).toBe('http://env:1');
  });
  it('falls back to .env, then to the defaults', () => {
    const s = resolveSettings({ flags: {}, env: {}, dotenv: { SFC_SHOP_API_ROOT: 'http://dotenv:1/wp-json/svc/v1/' } }, 'run');
    expect(s.shopApiRoot).toBe('http://dotenv:1/wp-json/svc/v1');
    expect(s.interfaces).toEqual(['rest-v1-shop']);
    expect(s.vendor).toBe('svc');
    expect(s.runs).toBe(20);
    expect(s.timeoutMs).toBe(10_000);
  });
  it('selects every interface whose URL is set', () => {
    const s = resolveSettings({ ...base, flags: { 'base-url': 'http://a:1', 'network-api-root': 'http://a:1/n' } }, 'run');
    expect(s.interfaces).toEqual(['rest-route', 'rest-v1-network', 'graphql']);
  });
  it('keeps target data from the environment and .env', () => {
    const s = resolveSettings(
      { flags: { 'base-url': 'http://a:1' }, env: { SFC_GQL_COUPON: 'X1' }, dotenv: { SFC_SHOP_COUPON: 'Y2' } },
      'run',
    );
    expect(s.data).toMatchObject({ SFC_GQL_COUPON: 'X1', SFC_SHOP_COUPON: 'Y2' });
  });
  it('gives the same seed when asked, a random one otherwise', () => {
    expect(resolveSettings({ ...base, flags: { 'base-url': 'http://a:1', seed: '42' } }, 'run').seed).toBe(42);
    const seedFrom = (random: number) => {
      const spy = vi.spyOn(Math, 'random').mockReturnValue(random);
      try {
        const seed = resolveSettings({ ...base, flags: { 'base-url': 'http://a:1' } }, 'run').seed;
        expect(spy).toHaveBeenCalled();
        return seed;
      } finally {
        spy.mockRestore();
      }
    };
    // The whole range 0 .. 2^31-1 (a seed fast-check and --seed accept), drawn from Math.random.
    expect(seedFrom(0)).toBe(0);
    expect(seedFrom(0.25)).toBe(2 ** 29);
    expect(seedFrom(1 - 2 ** -53)).toBe(2 ** 31 - 1);
  });
});

describe('settings: validation before anything is sent', () => {
  const bad: [string, Record<string, string>, RegExp][] = [
    ['a malformed URL', { 'base-url': 'not-a-url' }, /--base-url is not a URL/],
    ['a non-http URL', { 'base-url': 'ftp://x' }, /http or https/],
    ['an unknown interface', { 'base-url': 'http://a:1', interfaces: 'rest-route,soap' }, /unknown interface "soap"/],
    ['a negative --runs', { 'base-url': 'http://a:1', runs: '-1' }, /--runs must be a whole number/],
    ['zero --runs', { 'base-url': 'http://a:1', runs: '0' }, /--runs must be at least 1/],
    ['a text --timeout', { 'base-url': 'http://a:1', timeout: 'soon' }, /--timeout must be a whole number/],
    ['a bad vendor', { 'base-url': 'http://a:1', vendor: 'Bad Vendor' }, /vendor must be lower-case/],
    ['an interface without its URL', { 'base-url': 'http://a:1', interfaces: 'rest-v1-shop' }, /needs --shop-api-root/],
  ];
  for (const [what, flags, message] of bad) {
    it(`refuses ${what} with one line saying what to fix`, () => {
      const run = () => resolveSettings({ ...base, flags }, 'run');
      expect(run).toThrow(UsageError);
      expect(run).toThrow(message);
    });
  }
  it('reads SFC_GQL_COUPON_OFF and SFC_SHOP_COUPON_OFF as an amount or a share, and refuses any other form naming the key', () => {
    for (const key of ['SFC_GQL_COUPON_OFF', 'SFC_SHOP_COUPON_OFF']) {
      const withOff = (v: string) =>
        resolveSettings({ flags: { 'base-url': 'http://a:1' }, env: { [key]: v }, dotenv: {} }, 'run');
      for (const ok of ['10', '10.00', '12.5%', '100%', '', ' 7.25 ']) expect(withOff(ok).data[key]).toBe(ok);
      for (const bad of ['ten', '-5', '10 %', '101%', '1e3', '10.123456']) {
        expect(() => withOff(bad)).toThrow(UsageError);
        expect(() => withOff(bad)).toThrow(new RegExp(`${key} must be an amount such as 10.00, or a share`));
      }
    }
  });
  it('reads the coupon lists and SFC_GQL_OPTION_PRODUCT in their forms, and refuses any other naming the key', () => {
    const withData = (key: string, v: string) =>
      resolveSettings({ flags: { 'base-url': 'http://a:1' }, env: { [key]: v }, dotenv: {} }, 'run').data[key];
    for (const key of ['SFC_SHOP_UNUSABLE_COUPONS', 'SFC_GQL_UNUSABLE_COUPONS']) {
      for (const ok of ['EXPIRED5', 'A,B', 'A , B,C', '']) expect(withData(key, ok)).toBe(ok);
      for (const bad of ['A,,B', 'A,', ',A', 'A B'])
        expect(() => withData(key, bad)).toThrow(new RegExp(`${key} must be coupon codes separated by commas`));
    }
    for (const ok of ['30:226=16', '30:226=16,227=Gift wrap', '']) expect(withData('SFC_GQL_OPTION_PRODUCT', ok)).toBe(ok);
    for (const bad of ['30', '30:226', '30:226=', ':226=16', '30:226=16,', '30:226=16,227', '30:2 26=16', '30:226=a=b'])
      expect(() => withData('SFC_GQL_OPTION_PRODUCT', bad)).toThrow(
        /SFC_GQL_OPTION_PRODUCT must be <product_id>:<option_id>=<value>/,
      );
  });
  it('refuses a run with no target', () => {
    expect(() => resolveSettings(base, 'run')).toThrow(/no target/);
  });
  it('names the environment variable when the value came from there', () => {
    expect(() => resolveSettings({ ...base, env: { SFC_BASE_URL: 'nope' } }, 'run')).toThrow(/SFC_BASE_URL is not a URL/);
  });
});

describe('settings: rate cap and run bound', () => {
  it('reads --rate-limit and --max-duration, and refuses zero', () => {
    const s = resolveSettings(
      { flags: { 'base-url': 'http://a:1', 'rate-limit': '5', 'max-duration': '60' }, env: {}, dotenv: {} },
      'run',
    );
    expect(s.rateLimit).toBe(5);
    expect(s.maxDurationS).toBe(60);
    expect(() => resolveSettings({ flags: { 'base-url': 'http://a:1', 'rate-limit': '0' }, env: {}, dotenv: {} }, 'run')).toThrow(
      /--rate-limit must be at least 1/,
    );
    expect(resolveSettings({ flags: { 'base-url': 'http://a:1' }, env: {}, dotenv: {} }, 'run').maxDurationS).toBe(1800);
  });

  it('reads --concurrency (default 16) from a flag or SFC_CONCURRENCY, and refuses 0, 65 and words', () => {
    const at = (flags: Record<string, string>, env: Record<string, string> = {}) =>
      resolveSettings({ flags: { 'base-url': 'http://a:1', ...flags }, env, dotenv: {} }, 'run').concurrency;
    expect(at({})).toBe(16);
    expect(at({ concurrency: '1' })).toBe(1);
    expect(at({}, { SFC_CONCURRENCY: '64' })).toBe(64);
    expect(() => at({ concurrency: '0' })).toThrow(/--concurrency must be at least 1, got "0"/);
    expect(() => at({ concurrency: '65' })).toThrow(/--concurrency must be at most 64, got "65"/);
    expect(() => at({}, { SFC_CONCURRENCY: 'many' })).toThrow(/SFC_CONCURRENCY must be a whole number/);
  });
});

describe('run names', async () => {
  const { RunNames } = await import('../../src/provisioning/names.js');
  it('tell this run from others, and this area from other areas of the run', () => {
    const a = new RunNames('abc123', 'rest-v1-network/registration');
    const b = new RunNames('abc123', 'rest-v1-network/model-network');
    const mine = a.username();
    expect(a.isOwn(mine)).toBe(true);
    expect(b.isOwn(mine)).toBe(false);
    expect(b.isFromRun(mine)).toBe(true);
    expect(a.isFromRun('netroot')).toBe(false);
    expect(a.isOwn(a.email())).toBe(true);
    expect(/^[A-Za-z0-9]+$/.test(mine)).toBe(true);
  });
  it('give every area of every interface a tag of its own (two areas with one tag would make the same names)', async () => {
    const { areaTag } = await import('../../src/provisioning/names.js');
    const { loadAreas } = await import('../../src/specs/areas.js');
    // What a run executes (the catalog test pins that every area module is found).
    const scopes = (await loadAreas()).map((a) => `${a.interface}/${a.name}`);
    expect(scopes.length).toBeGreaterThanOrEqual(45); // one per area module
    const byTag = new Map<string, string[]>();
    for (const s of new Set(scopes)) byTag.set(areaTag(s), [...(byTag.get(areaTag(s)) ?? []), s]);
    expect([...byTag.values()].filter((list) => list.length > 1)).toEqual([]);
  });
});
