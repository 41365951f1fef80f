import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../test-support/temp-data-dir.js';
import { inTransaction, openDatabase, type SqlDatabase } from './driver.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** node:sqlite needs no flag from Node 22.13 on. */
const hasNodeSqlite = major > 22 || (major === 22 && minor >= 13);

let data: ReturnType<typeof tempDataDir>;
let db: SqlDatabase;

beforeEach(async () => {
  data = tempDataDir();
  db = await openDatabase(join(data.dir, 'driver.sqlite'));
  db.exec(`
    PRAGMA foreign_keys = ON;
    CREATE TABLE parent (id INTEGER PRIMARY KEY) STRICT;
    CREATE TABLE child (id INTEGER PRIMARY KEY, name TEXT UNIQUE, size INTEGER CHECK (size < 10), parent INTEGER REFERENCES parent (id)) STRICT;
  `);
});
afterEach(() => {
  db.close();
  data.remove();
});

/** The error a statement throws, or undefined. */
function failureOf(run: () => unknown): unknown {
  try {
    run();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('SQLite driver', () => {
  it(`uses ${hasNodeSqlite ? "Node's built-in node:sqlite" : 'better-sqlite3'} on Node ${process.versions.node}`, () => {
    expect(db.driver).toBe(hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3');
  });

  it('binds named and positional parameters and reads rows back', () => {
    const insert = db.prepare('INSERT INTO child (name, size, parent) VALUES (@name, @size, @parent)');
    expect(insert.run({ name: 'a', size: 1, parent: null }).changes).toBe(1);
    expect(db.prepare<{ name: string; size: number }>('SELECT name, size FROM child WHERE id = ?').get(1)).toEqual({
      name: 'a',
      size: 1,
    });
    expect(db.prepare('SELECT * FROM child WHERE id = ?').get(99)).toBeUndefined();
  });

  it('tells unique, foreign-key and other constraint failures apart, and ignores other errors', () => {
    const insert = db.prepare('INSERT INTO child (name, size, parent) VALUES (@name, @size, @parent)');
    insert.run({ name: 'a', size: 1, parent: null });
    expect(db.constraintOf(failureOf(() => insert.run({ name: 'a', size: 1, parent: null })))).toBe('unique');
    expect(db.constraintOf(failureOf(() => insert.run({ name: 'b', size: 1, parent: 7 })))).toBe('foreign-key');
    expect(db.constraintOf(failureOf(() => insert.run({ name: 'c', size: 50, parent: null })))).toBe('other');
    expect(db.constraintOf(failureOf(() => db.exec('SELECT * FROM nowhere')))).toBeUndefined();
    expect(db.constraintOf(new Error('plain'))).toBeUndefined();
  });

  it('commits a transaction, and rolls back everything when its work throws', () => {
    const insert = db.prepare('INSERT INTO parent (id) VALUES (?)');
    inTransaction(db, () => insert.run(1));
    expect(() =>
      inTransaction(db, () => {
        insert.run(2);
        insert.run(1);
      }),
    ).toThrow();
    expect(
      db
        .prepare<{ id: number }>('SELECT id FROM parent')
        .all()
        .map((row) => row.id),
    ).toEqual([1]);
  });

  it.skipIf(hasNodeSqlite)('refuses node:sqlite by name where this Node.js has none', async () => {
    await expect(openDatabase(join(data.dir, 'other.sqlite'), 'node:sqlite')).rejects.toThrow(/node:sqlite is not available/);
  });
});

describe('SQLite driver backup', () => {
  it(`copies a WAL database online with ${hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3'}: what is committed, not a writer's open transaction`, async () => {
    db.prepare('PRAGMA journal_mode = WAL').get();
    const insert = db.prepare('INSERT INTO child (name, size) VALUES (?, ?)');
    for (let index = 0; index < 500; index++) insert.run(`committed ${index}`, 1);
    const writer = await openDatabase(join(data.dir, 'driver.sqlite'));
    try {
      writer.exec("BEGIN IMMEDIATE; INSERT INTO child (name, size) VALUES ('open', 2)");
      const copy = join(data.dir, 'copy.sqlite');
      await db.backup(copy);
      writer.exec('COMMIT');
      const copied = await openDatabase(copy);
      try {
        expect(copied.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
        expect(copied.prepare('SELECT COUNT(*) AS count, MAX(size) AS size FROM child').get()).toEqual({ count: 500, size: 1 });
      } finally {
        copied.close();
      }
    } finally {
      writer.close();
    }
  });
});
