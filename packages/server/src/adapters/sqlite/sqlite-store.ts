import type { Store } from '../../ports/store/ports.js';
import { sqlStore } from '../sql/sql-store.js';
import { type DriverName, inTransaction, openDatabase, type SqlDatabase } from './driver.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { sqliteClient } from './sqlite-client.js';

/** Applies the migrations that this database has not seen yet; returns the versions applied. */
export function migrate(db: SqlDatabase, migrations: readonly Migration[] = MIGRATIONS, now = Date.now()): number[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT',
  );
  const applied = new Set(
    db
      .prepare<{ version: number }>('SELECT version FROM schema_migrations')
      .all()
      .map((row) => Number(row.version)),
  );
  const newest = Math.max(0, ...applied);
  const known = Math.max(0, ...migrations.map((migration) => migration.version));
  if (newest > known) throw new Error(`the database schema (version ${newest}) is newer than this build (${known})`);
  const done: number[] = [];
  const enforced = Number(db.prepare<{ foreign_keys: number }>('PRAGMA foreign_keys').get()?.foreign_keys ?? 0) === 1;
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    // Only outside a transaction does this pragma take effect.
    if (migration.rebuildsReferencedTable && enforced) db.exec('PRAGMA foreign_keys = OFF');
    try {
      applyMigration(db, migration, now);
    } finally {
      if (migration.rebuildsReferencedTable && enforced) db.exec('PRAGMA foreign_keys = ON');
    }
    done.push(migration.version);
  }
  return done;
}

function applyMigration(db: SqlDatabase, migration: Migration, now: number): void {
  inTransaction(db, () => {
    db.exec(migration.sql);
    migration.after?.(db);
    if (migration.rebuildsReferencedTable && db.prepare('PRAGMA foreign_key_check').all().length > 0) {
      throw new Error(`migration ${migration.version} would break a foreign key`);
    }
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      migration.version,
      migration.name,
      now,
    );
  });
}

/**
 * The embedded store: one SQLite file in WAL mode. Commits are synchronous to disk
 * (synchronous=FULL) because an answer that says "saved" must survive a power cut.
 */
export async function openSqliteStore(file: string, driver?: DriverName): Promise<Store> {
  const db = await openDatabase(file, driver);
  try {
    db.prepare('PRAGMA journal_mode = WAL').get();
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA busy_timeout = 5000');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return sqlStore(sqliteClient(db));
}
