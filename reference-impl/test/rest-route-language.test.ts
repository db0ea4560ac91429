import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { label, languageOf, length } from '#src/rest-route/core.js';

// The labels and language settings are read once per database (they are seeded and never written): the
// cached answers must be the ones the queries gave, page labels over the common ones.

function database() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE rr_setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  db.exec('CREATE TABLE rr_label (page TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL)');
  const setting = db.prepare('INSERT INTO rr_setting (key, value) VALUES (?, ?)');
  setting.run('language.code', 'en-gb');
  setting.run('store.name', 'Not a language setting');
  const add = db.prepare('INSERT INTO rr_label (page, key, value) VALUES (?, ?, ?)');
  add.run('*', 'text_yes', 'Yes');
  add.run('*', 'error_postcode', 'Postcode (common)');
  add.run('account/address', 'error_postcode', 'Postcode must be between 2 and 10 characters!');
  return db;
}

describe('rest-route labels and language object', () => {
  it('prefers the page label, falls back to the common one, then to the key', () => {
    const db = database();
    expect(label(db, 'error_postcode', 'account/address')).toBe('Postcode must be between 2 and 10 characters!');
    expect(label(db, 'error_postcode')).toBe('Postcode (common)');
    expect(label(db, 'text_yes', 'account/address')).toBe('Yes');
    expect(label(db, 'error_unknown', 'account/address')).toBe('error_unknown');
  });

  it("builds a route's object from the settings, the common labels and its longest seeded page", () => {
    const db = database();
    expect(languageOf(db, 'account/address/add')).toEqual({
      code: 'en-gb',
      text_yes: 'Yes',
      error_postcode: 'Postcode must be between 2 and 10 characters!',
    });
    expect(languageOf(db, 'product/listing')).toEqual({
      code: 'en-gb',
      text_yes: 'Yes',
      error_postcode: 'Postcode (common)',
    });
  });

  it('answers a fresh object each time, so a change to one response does not reach the next', () => {
    const db = database();
    const first = languageOf(db, 'account/address');
    first.code = 'fr-fr';
    expect(languageOf(db, 'account/address').code).toBe('en-gb');
  });

  it('counts characters as code points', () => {
    expect(length('abc')).toBe(3);
    expect(length('Zoë')).toBe(3);
    expect(length('a😀b')).toBe(3);
  });
});
