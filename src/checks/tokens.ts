import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CryptoKey, decodeJwt, decodeProtectedHeader, importPKCS8, SignJWT } from 'jose';
import { REPO_ROOT } from '../specs/paths.js';

/**
 * Tokens a target must not accept, derived from a real one it issued. Generic (any interface whose
 * token is a JWT); documents 2 and 3 state RS256 signatures. Each token carries a label for the report.
 */
export interface BadToken {
  label: string;
  token: string;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function partsOf(real: string): { header: Record<string, unknown>; claims: Record<string, unknown>; sig: string } {
  let header: Record<string, unknown> = { alg: 'RS256', typ: 'JWT' };
  let claims: Record<string, unknown> = {};
  try {
    header = decodeProtectedHeader(real) as Record<string, unknown>;
    claims = decodeJwt(real) as Record<string, unknown>;
  } catch {
    // Not a JWT: forge from empty claims; the target must refuse these all the same.
  }
  return { header, claims, sig: real.split('.')[2] ?? '' };
}

/** Tokens that are not JWTs at all, or whose signature bytes were altered. */
export function malformedTokens(real: string): BadToken[] {
  const [h = '', p = '', s = ''] = real.split('.');
  const flipped = s.length > 0 ? `${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}` : 'AA';
  return [
    { label: 'not a JWT', token: 'not-a-jwt' },
    { label: 'two parts only', token: `${h}.${p}` },
    { label: 'altered signature', token: `${h}.${p}.${flipped}` },
  ];
}

/**
 * Payload changed, signature kept: the subject claims moved to another identity, and an expired
 * copy (exp and iat in the past). No valid signature can be made without the target's key, so an
 * "expired" token is this re-signed one: a target that skips signature or expiry checks accepts it.
 */
export function resignedTokens(real: string): BadToken[] {
  const { header, claims, sig } = partsOf(real);
  const shifted: Record<string, unknown> = { ...claims };
  for (const k of ['sub', 'id', 'ID', 'user_id', 'customer_id', 'data']) {
    const v = shifted[k];
    if (typeof v === 'string') shifted[k] = /^\d+$/.test(v) ? String(Number(v) + 1) : `${v}x`;
    else if (typeof v === 'number') shifted[k] = v + 1;
  }
  if (!Object.keys(claims).some((k) => k in shifted && shifted[k] !== claims[k])) shifted.sub = 'sfc-forged';
  const past = Math.floor(Date.UTC(2020, 0, 1) / 1000);
  const expired = { ...claims, iat: past - 3600, nbf: past - 3600, exp: past };
  return [
    { label: 'payload changed, signature kept', token: `${b64(header)}.${b64(shifted)}.${sig}` },
    { label: 'expired (exp in the past), signature kept', token: `${b64(header)}.${b64(expired)}.${sig}` },
  ];
}

/**
 * A key the target never saw: fixtures/tokens/foreign-rs256.pem, committed. Making a 2048-bit pair
 * took 0.1-0.3 CPU-seconds per worker thread of every run (measured), and any key but the target's
 * serves; it signs nothing but the forged tokens.
 */
let foreign: Promise<CryptoKey> | undefined;
function foreignKey(): Promise<CryptoKey> {
  foreign ??= importPKCS8(readFileSync(join(REPO_ROOT, 'fixtures', 'tokens', 'foreign-rs256.pem'), 'utf8'), 'RS256');
  return foreign;
}

/**
 * The real claims signed by someone else: RS256 with a foreign key, `alg: none`, and HS256 with
 * the target's public key as the secret (key confusion) when one is known, else with a guessed
 * secret and with an empty key.
 */
export async function forgedTokens(real: string, publicKeyPem?: string): Promise<BadToken[]> {
  const { header, claims } = partsOf(real);
  const privateKey = await foreignKey();
  const foreign = await new SignJWT(claims).setProtectedHeader({ ...header, alg: 'RS256' }).sign(privateKey);
  const hs = async (secret: string) => {
    // jose refuses an empty HMAC key, so the empty-key token is signed by hand.
    const { createHmac } = await import('node:crypto');
    const head = b64({ ...header, alg: 'HS256' });
    const body = b64(claims);
    const mac = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
    return `${head}.${body}.${mac}`;
  };
  const out: BadToken[] = [
    { label: 'RS256 with a foreign key', token: foreign },
    { label: 'alg none', token: `${b64({ ...header, alg: 'none' })}.${b64(claims)}.` },
  ];
  if (publicKeyPem) out.push({ label: 'HS256 signed with the public key', token: await hs(publicKeyPem) });
  else
    out.push(
      { label: 'HS256 with a guessed secret ("secret")', token: await hs('secret') },
      { label: 'HS256 with an empty key', token: await hs('') },
    );
  return out;
}

/** Every token of the kinds above, in a fixed order (one request each per endpoint). */
export async function hostileTokens(real: string, publicKeyPem?: string): Promise<BadToken[]> {
  return [...malformedTokens(real), ...resignedTokens(real), ...(await forgedTokens(real, publicKeyPem))];
}
