import type postgres from 'postgres';
import type { Store } from '../../ports/store/ports.js';
import { sqlStore } from '../sql/sql-store.js';
import { postgresClient } from './postgres-client.js';
import { POSTGRES_MIGRATIONS, type PostgresMigration } from './schema.js';

/** The advisory lock that lets one process at a time migrate a database ("dexm" in ASCII). */
const MIGRATION_LOCK = 0x6465786d;

/**
 * Applies the migrations this database has not seen yet; returns the versions applied. Processes
 * that start together take turns (an advisory lock), so each version is applied once.
 */
export async function migratePostgres(
  sql: postgres.Sql,
  migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS,
  now = Date.now(),
): Promise<number[]> {
  return sql.begin(async (tx) => {
    await tx.unsafe('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Made before version 1 defines ctext: `name` stays plain text, read and written by this runner
    // alone and never compared (the one such column; the schema parity test lists it).
    await tx.unsafe(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
    );
    const applied = new Set(
      (await tx.unsafe<{ version: number }[]>('SELECT version FROM schema_migrations')).map((row) => Number(row.version)),
    );
    const newest = Math.max(0, ...applied);
    const known = Math.max(0, ...migrations.map((migration) => migration.version));
    if (newest > known) throw new Error(`the database schema (version ${newest}) is newer than this build (${known})`);
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx.unsafe('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        now,
      ]);
      done.push(migration.version);
    }
    return done;
  });
}

export interface PostgresStoreOptions {
  /** postgres://user@host:port/database */
  readonly url: string;
  readonly maxConnections?: number;
  readonly applicationName?: string;
}

/** The store on a PostgreSQL database, migrated to this build's schema when opened. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const client = postgresClient(options);
  try {
    await migratePostgres(client.sql);
  } catch (error) {
    await client.close();
    throw error;
  }
  return sqlStore(client);
}
