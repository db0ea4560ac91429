import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '#src/main.js';

// A user's mistake on the command line ends with exit 2 and one line that says what to fix, never a stack.
describe('sfc-reference options', () => {
  afterEach(() => vi.restoreAllMocks());

  async function run(args: string[]): Promise<{ code: number; err: string }> {
    let err = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
    const code = await main(args);
    return { code, err };
  }

  it('refuses a fault id that is not in the catalog', async () => {
    const r = await run(['--fault', 'RR-NO-SUCH-FAULT', '--db', ':memory:', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('sfc-reference: unknown fault "RR-NO-SUCH-FAULT"; the ids are those of fixtures/faults/catalog.json\n');
  });

  it('refuses a database path that is a directory, or a file that is no SQLite database, in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sfc-ref-opts-'));
    const notDb = join(dir, 'notes.db');
    writeFileSync(notDb, 'not a database\n');
    for (const [db, why] of [
      [dir, 'unable to open database file'],
      [notDb, 'file is not a database'],
    ] as const) {
      const r = await run(['--db', db, '--port', '0', '--hash-cost', '2']);
      expect(r.code, db).toBe(2);
      expect(r.err, db).toContain(`sfc-reference: cannot open the database "${db}"`);
      expect(r.err, db).toContain(why);
      expect(r.err.trim().split('\n'), db).toHaveLength(1);
    }
  });

  it.each([
    [['--port', '70000'], '--port must be a whole number from 0 to 65535'],
    [['--vendor', 'Bad-Vendor'], '--vendor must be lower-case letters and digits'],
    [['--hash-cost', '1000'], '--hash-cost must be a power of two'],
    [['--prot', '8080'], "Unknown option '--prot'"],
  ])('refuses %j', async (args, message) => {
    const r = await run([...args, '--db', ':memory:']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });
});
