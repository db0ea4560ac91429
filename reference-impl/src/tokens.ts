import { randomUUID } from 'node:crypto';
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

/** Verified tokens remembered (exact text and audience), most recent last; a client reuses its token. */
const VERIFIED_MAX = 1024;

/**
 * Keys live beside the database (`<db>.keys.json`), so a restart keeps every issued token valid.
 * `singleSession`: the other reading of a lifetime the documents leave not shown, the one the real shop
 * plugin takes (a new login ends the account's older tokens): each token an account is issued (login or
 * register) ends the ones issued to it before, per interface. Off by default: tokens live out their day.
 */
export async function loadTokenService(keyFile: string | null, { singleSession = false } = {}): Promise<TokenService> {
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
  // RS256 signature checks were about 8 % of the reference's CPU under the suite. A token verified once is
  // remembered with its payload; any other text (a changed byte, another algorithm) is a different key,
  // and expiry is checked again on every use.
  const verified = new Map<string, { sub: string; exp?: number; [claim: string]: unknown }>();
  /** singleSession: the one live token of each `<audience> <subject>`. */
  const latest = new Map<string, string>();
  const current = (token: string, audience: Audience, sub: string) =>
    !singleSession || latest.get(`${audience} ${sub}`) === token;
  return {
    publicKeyPem,
    async sign(subject, audience, claims = {}) {
      // Two tokens signed in one second are otherwise the same text, and a second login would not end the first.
      const token = await new SignJWT(singleSession ? { ...claims, sid: randomUUID() } : claims)
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setSubject(subject)
        .setAudience(audience)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(LIFETIME)
        .sign(privateKey);
      if (singleSession) latest.set(`${audience} ${subject}`, token);
      return token;
    },
    async verify(token, audience) {
      const key = `${audience} ${token}`;
      const known = verified.get(key);
      if (known) {
        verified.delete(key);
        if (known.exp !== undefined && known.exp <= Date.now() / 1000) return null;
        if (!current(token, audience, known.sub)) return null;
        verified.set(key, known);
        return { ...known };
      }
      try {
        const { payload } = await jwtVerify(token, publicKey, { algorithms: ['RS256'], audience, issuer: ISSUER });
        if (typeof payload.sub !== 'string' || !current(token, audience, payload.sub)) return null;
        const result = payload as { sub: string; exp?: number };
        verified.set(key, result);
        if (verified.size > VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
        return { ...result };
      } catch {
        return null;
      }
    },
  };
}
