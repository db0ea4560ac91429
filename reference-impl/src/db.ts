import Database from 'better-sqlite3';

/** Opens the embedded database: WAL for concurrent readers, foreign keys on, a busy timeout for writers. */
export function openDatabase(file: string): Database.Database {
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS seeded_modules (name TEXT PRIMARY KEY, seeded_at TEXT NOT NULL)');
  cacheStatements(db);
  return db;
}

/**
 * Handlers call `db.prepare(sql)` where they use it; compiling the same SQL on every request was a
 * tenth of the server's time under load. Statements are reusable (the API is synchronous, and no
 * handler switches a statement into pluck/raw/expand mode), so one per distinct SQL text is kept.
 */
function cacheStatements(db: Database.Database): void {
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  }) as Database.Database['prepare'];
}

export function isSeeded(db: Database.Database, module: string): boolean {
  return db.prepare('SELECT 1 FROM seeded_modules WHERE name = ?').get(module) !== undefined;
}

export function markSeeded(db: Database.Database, module: string): void {
  db.prepare('INSERT INTO seeded_modules (name, seeded_at) VALUES (?, ?)').run(module, new Date().toISOString());
}
