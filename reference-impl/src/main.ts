import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FAULTS } from './faults/index.js';
import { OPTIONS_HELP } from './options-help.js';
import { buildServer, defaultDbFile, urlsFor } from './server.js';

const HELP = `sfc-reference: the reference implementation of the four storefront interfaces

Usage: sfc-reference [options]

${OPTIONS_HELP}`;

export async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        db: { type: 'string' },
        vendor: { type: 'string' },
        fault: { type: 'string' },
        'hash-cost': { type: 'string' },
        'single-session': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`sfc-reference: ${(e as Error).message}\nRun with --help for the options.\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const port = values.port === undefined ? 8080 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`sfc-reference: --port must be a whole number from 0 to 65535, got "${values.port}"\n`);
    return 2;
  }
  const vendor = (values.vendor as string | undefined) ?? 'svc';
  if (!/^[a-z][a-z0-9]{0,31}$/.test(vendor)) {
    process.stderr.write(`sfc-reference: --vendor must be lower-case letters and digits, got "${vendor}"\n`);
    return 2;
  }
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const db = values.db === ':memory:' ? ':memory:' : resolve((values.db as string | undefined) ?? defaultDbFile());
  if (db !== ':memory:') mkdirSync(dirname(db), { recursive: true });
  const hashCostRaw = values['hash-cost'] as string | undefined;
  const hashCost = hashCostRaw === undefined ? undefined : Number(hashCostRaw);
  if (
    hashCost !== undefined &&
    (!Number.isInteger(hashCost) || hashCost < 2 || (hashCost & (hashCost - 1)) !== 0 || hashCost > 1 << 20)
  ) {
    process.stderr.write(`sfc-reference: --hash-cost must be a power of two from 2 to 1048576, got "${hashCostRaw}"\n`);
    return 2;
  }
  const fault = (values.fault as string | undefined) ?? null;
  if (fault !== null && !FAULTS.has(fault)) {
    process.stderr.write(`sfc-reference: unknown fault "${fault}"; the ids are those of fixtures/faults/catalog.json\n`);
    return 2;
  }
  let app: Awaited<ReturnType<typeof buildServer>>['app'];
  try {
    ({ app } = await buildServer({
      db,
      vendor,
      fault,
      ...(hashCost ? { hashCost } : {}),
      singleSession: values['single-session'] === true,
    }));
  } catch (e) {
    // A file that is no SQLite database, a directory, a key file beside it that is not ours: the
    // user's to fix, said in one line. Anything else is a bug of the reference, and keeps its stack.
    if (!isStoreError(e)) throw e;
    process.stderr.write(
      `sfc-reference: cannot open the database "${db}" (or its key file ${db}.keys.json): ${(e as Error).message}; give a writable SQLite file (a new name creates one) or :memory:\n`,
    );
    return 2;
  }
  let address: string;
  try {
    address = await app.listen({ port, host });
  } catch (e) {
    process.stderr.write(`sfc-reference: cannot listen on ${host}:${port}: ${(e as Error).message}\n`);
    return 3;
  }
  const origin = address.replace('[::1]', '127.0.0.1');
  const urls = urlsFor(origin, vendor);
  process.stdout.write(
    [
      `storefront reference implementation listening (database: ${db})`,
      `  base_url (documents 1 and 3): ${urls.baseUrl}`,
      `  route-based REST:             ${urls.restRoute}`,
      `  GraphQL:                      ${urls.graphql}`,
      `  network-plan api_root:        ${urls.networkApiRoot}`,
      `  shop api_root:                ${urls.shopApiRoot}`,
      '',
    ].join('\n'),
  );
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1; // keeps running
}

function isStoreError(e: unknown): boolean {
  const err = e as { name?: string; code?: string } | null;
  return err?.name === 'SqliteError' || err?.name === 'SyntaxError' || /^E[A-Z]+$/.test(err?.code ?? '');
}
