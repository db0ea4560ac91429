import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';

/** Tokens a target must not accept, derived from a real one ("5. Authentication": RS256 JWTs). */
export interface BadToken {
  label: string;
  token: string;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A malformed token and one whose signature was altered (GQL-AUTH-04). */
export function malformedTokens(real: string): BadToken[] {
  const [h = '', p = '', s = ''] = real.split('.');
  const flipped = s.length > 0 ? `${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}` : 'AA';
  return [
    { label: 'not a JWT', token: 'not-a-jwt' },
    { label: 'altered signature', token: `${h}.${p}.${flipped}` },
  ];
}

/** The real token's claims, signed RS256 with a key the target never saw, and unsigned with alg none (GQL-AUTH-05). */
export async function forgedTokens(real: string): Promise<BadToken[]> {
  let claims: Record<string, unknown> = {};
  let header: Record<string, unknown> = {};
  try {
    claims = decodeJwt(real) as Record<string, unknown>;
    header = decodeProtectedHeader(real) as Record<string, unknown>;
  } catch {
    // Not a JWT: forge from empty claims; the target must refuse these all the same.
  }
  const { privateKey } = await generateKeyPair('RS256');
  const other = await new SignJWT(claims).setProtectedHeader({ ...header, alg: 'RS256' }).sign(privateKey);
  const none = `${b64({ ...header, alg: 'none' })}.${b64(claims)}.`;
  return [
    { label: 'RS256 with a foreign key', token: other },
    { label: 'alg none', token: none },
  ];
}
