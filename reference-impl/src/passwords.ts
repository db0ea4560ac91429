import { randomBytes, scrypt as scryptCb, scryptSync, timingSafeEqual } from 'node:crypto';

/** node's default scrypt cost. Throwaway databases (self-test, tests) may choose a lower one. */
export const DEFAULT_HASH_COST = 16384;
let cost = DEFAULT_HASH_COST;

/** Sets the scrypt cost (a power of two) of new hashes; stored hashes keep the cost they were made with. */
export function setHashCost(n: number): void {
  if (!Number.isInteger(n) || n < 2 || (n & (n - 1)) !== 0 || n > 1 << 20)
    throw new Error(`hash cost must be a power of two from 2 to 1048576, got ${n}`);
  cost = n;
}

function scrypt(pw: string, salt: Buffer, len: number, N: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(pw, salt, len, { N, maxmem: 256 * N * 8 + 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * `scrypt$<salt hex>$<hash hex>` at the default cost, `scrypt$N=<cost>$<salt hex>$<hash hex>`
 * otherwise: node's scrypt, never a reversible or unsalted form.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, cost);
  const costPart = cost === DEFAULT_HASH_COST ? '' : `N=${cost}$`;
  return `scrypt$${costPart}${salt.toString('hex')}$${hash.toString('hex')}`;
}

/** The same hash, computed synchronously: for seeds, which run inside one synchronous transaction. */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: cost, maxmem: 256 * cost * 8 + 1024 * 1024 });
  const costPart = cost === DEFAULT_HASH_COST ? '' : `N=${cost}$`;
  return `scrypt$${costPart}${salt.toString('hex')}$${hash.toString('hex')}`;
}

/**
 * A stored hash that no password matches, at the cost new hashes are made with. A login of an unknown
 * account is verified against it, so it takes as long as a known account's and the time does not
 * tell which accounts exist. (A fixed default-cost stand-in took 16 times a known account's time
 * in a database made at cost 1024: the opposite oracle, and most of a self-test's hashing.)
 */
export function unmatchableHash(): string {
  const costPart = cost === DEFAULT_HASH_COST ? '' : `N=${cost}$`;
  return `scrypt$${costPart}${'0'.repeat(32)}$${'0'.repeat(64)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return false;
  let N = DEFAULT_HASH_COST;
  if (parts.length === 4) {
    const m = /^N=(\d+)$/.exec(parts[1] ?? '');
    if (!m) return false;
    N = Number(m[1]);
    parts.splice(1, 1);
  }
  const [, saltHex, hashHex] = parts;
  if (parts.length !== 3 || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  if (expected.length === 0) return false;
  const actual = await scrypt(password, Buffer.from(saltHex, 'hex'), expected.length, N);
  return timingSafeEqual(expected, actual);
}
