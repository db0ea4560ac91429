import Database from 'better-sqlite3';

/** Opens the embedded database: WAL for concurrent readers, foreign keys on, a busy timeout for writers. */
export function openDatabase(file: string): Database.Database {
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS seeded_modules (name TEXT PRIMARY KEY, seeded_at TEXT NOT NULL)');
  return db;
}

export function isSeeded(db: Database.Database, module: string): boolean {
  return db.prepare('SELECT 1 FROM seeded_modules WHERE name = ?').get(module) !== undefined;
}

export function markSeeded(db: Database.Database, module: string): void {
  db.prepare('INSERT INTO seeded_modules (name, seeded_at) VALUES (?, ?)').run(module, new Date().toISOString());
}
