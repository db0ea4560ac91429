import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTokenService } from '#src/tokens.js';

describe('token service', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('verifies a token again from memory with the same outcome, per audience', async () => {
    const tokens = await loadTokenService(null);
    const token = await tokens.sign('42', 'shop', { role: 'customer' });
    const first = await tokens.verify(token, 'shop');
    expect(first).toMatchObject({ sub: '42', aud: 'shop', role: 'customer' });
    expect(await tokens.verify(token, 'shop')).toEqual(first);
    expect(await tokens.verify(token, 'network')).toBeNull();
    if (first) first.sub = 'changed by a caller';
    expect((await tokens.verify(token, 'shop'))?.sub).toBe('42');
  });

  it('refuses a changed token after the original was remembered', async () => {
    const tokens = await loadTokenService(null);
    const token = await tokens.sign('42', 'graphql');
    expect(await tokens.verify(token, 'graphql')).not.toBeNull();
    const [h, p, s] = token.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: '1' })).toString('base64url')}.${s}`;
    expect(await tokens.verify(forged, 'graphql')).toBeNull();
    expect(await tokens.verify(`${token}x`, 'graphql')).toBeNull();
  });

  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T00:00:00Z'), toFake: ['Date'] });
    const tokens = await loadTokenService(null);
    const token = await tokens.sign('42', 'rest-route');
    expect(await tokens.verify(token, 'rest-route')).not.toBeNull();
    vi.setSystemTime(new Date('2026-11-23T00:00:01Z'));
    expect(await tokens.verify(token, 'rest-route')).toBeNull();
  });

  it('keeps every token of an account valid unless singleSession is on', async () => {
    const tokens = await loadTokenService(null);
    const first = await tokens.sign('42', 'shop');
    await tokens.sign('42', 'shop');
    expect(await tokens.verify(first, 'shop')).not.toBeNull();
  });

  it('with singleSession, a newer token of an account ends its older ones on that interface only', async () => {
    const tokens = await loadTokenService(null, { singleSession: true });
    const first = await tokens.sign('42', 'network');
    const other = await tokens.sign('43', 'network');
    const elsewhere = await tokens.sign('42', 'shop');
    // Remembered as verified before the second login: the memory must not outlive the session.
    expect(await tokens.verify(first, 'network')).toMatchObject({ sub: '42' });
    // Signed in the same second with the same claims, and still a different token.
    const second = await tokens.sign('42', 'network');
    expect(second).not.toBe(first);
    expect(await tokens.verify(first, 'network')).toBeNull();
    expect(await tokens.verify(second, 'network')).toMatchObject({ sub: '42' });
    expect(await tokens.verify(other, 'network')).toMatchObject({ sub: '43' });
    expect(await tokens.verify(elsewhere, 'shop')).toMatchObject({ sub: '42' });
  });
});
