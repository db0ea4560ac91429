import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, urlsFor } from '../../reference-impl/src/server.js';

export interface RunningReference {
  origin: string;
  baseUrl: string;
  networkApiRoot: string;
  shopApiRoot: string;
  close(): Promise<void>;
}

/** The reference implementation on a free loopback port with a fresh temporary database (self-test). */
export async function startReference(vendor: string): Promise<RunningReference> {
  const dir = mkdtempSync(join(tmpdir(), 'sfc-self-test-'));
  // A throwaway database: a low scrypt cost saves seconds of hashing and protects nothing real.
  const { app } = await buildServer({ db: join(dir, 'reference.db'), vendor, hashCost: 1024 });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const urls = urlsFor(address, vendor);
  return {
    origin: address,
    baseUrl: urls.baseUrl,
    networkApiRoot: urls.networkApiRoot,
    shopApiRoot: urls.shopApiRoot,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
