import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type CryptoKey, exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, importSPKI, jwtVerify, SignJWT } from 'jose';

export type Audience = 'rest-route' | 'network' | 'shop' | 'graphql';

export interface TokenService {
  /** An RS256 JWT for `subject`, scoped to one interface; `claims` are added to the payload. */
  sign(subject: string, audience: Audience, claims?: Record<string, unknown>): Promise<string>;
  /** The payload when signature, algorithm (RS256 only), audience and expiry hold; otherwise null. */
  verify(token: string, audience: Audience): Promise<{ sub: string; [claim: string]: unknown } | null>;
  /** PEM of the public key, for clients that want to check signatures. */
  publicKeyPem: string;
}

const ISSUER = 'storefront-reference';
/** The documents leave token lifetime "not shown"; a day is long enough for any client run. */
const LIFETIME = '24h';

/** Keys live beside the database (`<db>.keys.json`), so a restart keeps every issued token valid. */
export async function loadTokenService(keyFile: string | null): Promise<TokenService> {
  let privateKey: CryptoKey;
  let publicKey: CryptoKey;
  let publicKeyPem: string;
  if (keyFile && existsSync(keyFile)) {
    const saved = JSON.parse(readFileSync(keyFile, 'utf8')) as { privateKey: string; publicKey: string };
    privateKey = await importPKCS8(saved.privateKey, 'RS256');
    publicKey = await importSPKI(saved.publicKey, 'RS256');
    publicKeyPem = saved.publicKey;
  } else {
    const pair = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    privateKey = pair.privateKey;
    publicKey = pair.publicKey;
    publicKeyPem = await exportSPKI(publicKey);
    if (keyFile) {
      mkdirSync(dirname(keyFile), { recursive: true });
      writeFileSync(keyFile, JSON.stringify({ privateKey: await exportPKCS8(privateKey), publicKey: publicKeyPem }), {
        mode: 0o600,
      });
    }
  }
  return {
    publicKeyPem,
    async sign(subject, audience, claims = {}) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setSubject(subject)
        .setAudience(audience)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(LIFETIME)
        .sign(privateKey);
    },
    async verify(token, audience) {
      try {
        const { payload } = await jwtVerify(token, publicKey, { algorithms: ['RS256'], audience, issuer: ISSUER });
        return typeof payload.sub === 'string' ? (payload as { sub: string }) : null;
      } catch {
        return null;
      }
    },
  };
}
