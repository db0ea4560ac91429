import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_HASH_COST, hashPassword, setHashCost, unmatchableHash, verifyPassword } from '#src/passwords.js';

describe('password hashes', () => {
  afterEach(() => setHashCost(DEFAULT_HASH_COST));

  it('verifies a hash at the cost it was made with, whatever the current cost', async () => {
    setHashCost(1024);
    const stored = await hashPassword('Pass-1234');
    expect(stored).toMatch(/^scrypt\$N=1024\$/);
    setHashCost(2);
    expect(await verifyPassword('Pass-1234', stored)).toBe(true);
    expect(await verifyPassword('Pass-12345', stored)).toBe(false);
  });

  // The stand-in is what an unknown account's login is verified against: at the current cost it takes
  // as long as a known account's (a fixed default-cost one took 16 times as long at cost 1024).
  it('gives unknown accounts a stand-in at the current cost, which no password matches', async () => {
    setHashCost(1024);
    expect(unmatchableHash()).toMatch(/^scrypt\$N=1024\$0{32}\$0{64}$/);
    expect(await verifyPassword('', unmatchableHash())).toBe(false);
    setHashCost(DEFAULT_HASH_COST);
    expect(unmatchableHash()).toMatch(/^scrypt\$0{32}\$0{64}$/);
  });
});
