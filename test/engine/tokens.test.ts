import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { forgedTokens, hostileTokens, malformedTokens, resignedTokens } from '../../src/checks/tokens.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const REAL = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ sub: '7', exp: 4_102_444_800 })}.c2lnbmF0dXJlAA`;

describe('bad tokens (src/checks/tokens.ts)', () => {
  it('malformed tokens are not the real one; the altered signature keeps header and payload', () => {
    const malformed = malformedTokens(REAL);
    expect(malformed.map((t) => t.label)).toEqual(['not a JWT', 'two parts only', 'altered signature']);
    expect(malformed.map((t) => t.token)).not.toContain(REAL);
    expect(malformed[1]?.token.split('.')).toHaveLength(2);
    const altered = malformed[2]?.token.split('.') ?? [];
    expect(altered.slice(0, 2)).toEqual(REAL.split('.').slice(0, 2));
    expect(altered[2]).not.toBe(REAL.split('.')[2]);
  });

  it('re-signed tokens keep the signature and change the subject, or the expiry to the past', () => {
    const [shifted, expired] = resignedTokens(REAL);
    expect(shifted?.token.split('.')[2]).toBe(REAL.split('.')[2]);
    expect(decodeJwt(shifted?.token ?? '').sub).toBe('8');
    expect(decodeJwt(expired?.token ?? '').exp).toBeLessThan(Date.now() / 1000);
  });

  it('forged tokens: a foreign RS256 signature over the same claims, alg none, and HS256 with guessed keys', async () => {
    const forged = await forgedTokens(REAL);
    expect(forged.map((t) => t.label)).toEqual([
      'RS256 with a foreign key',
      'alg none',
      'HS256 with a guessed secret ("secret")',
      'HS256 with an empty key',
    ]);
    expect(decodeProtectedHeader(forged[0]?.token ?? '').alg).toBe('RS256');
    expect(decodeJwt(forged[0]?.token ?? '')).toEqual(decodeJwt(REAL));
    expect(forged[0]?.token).not.toBe(REAL);
    expect(decodeProtectedHeader(forged[1]?.token ?? '').alg).toBe('none');
    expect(forged[1]?.token.endsWith('.')).toBe(true);
    expect(forged.slice(2).map((t) => decodeProtectedHeader(t.token).alg)).toEqual(['HS256', 'HS256']);
    const withKey = await forgedTokens(REAL, '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----\n');
    expect(withKey.map((t) => t.label).at(-1)).toBe('HS256 signed with the public key');
  });

  it('one foreign key per process: two forgeries of the same claims carry the same RS256 signature', async () => {
    // RS256 (PKCS #1 v1.5) is deterministic, so equal tokens mean the same key; a new key per call
    // cost 50-300 ms of CPU each.
    const [a] = await forgedTokens(REAL);
    const [b] = await forgedTokens(REAL);
    expect(a?.token).toBe(b?.token);
    const [c] = await forgedTokens(`${b64({ alg: 'RS256' })}.${b64({ sub: '9' })}.x`);
    expect(c?.token).not.toBe(a?.token);
    // The signature is a real one (2048-bit key: 256 bytes), not a placeholder.
    expect(Buffer.from(a?.token.split('.')[2] ?? '', 'base64url')).toHaveLength(256);
  });

  it('hostileTokens lists every kind once, in a fixed order', async () => {
    const all = await hostileTokens(REAL);
    expect(all.map((t) => t.label)).toEqual([
      ...malformedTokens(REAL).map((t) => t.label),
      ...resignedTokens(REAL).map((t) => t.label),
      ...(await forgedTokens(REAL)).map((t) => t.label),
    ]);
  });
});
