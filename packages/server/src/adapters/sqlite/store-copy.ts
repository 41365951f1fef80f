import { closeSync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SqlDatabase } from './driver.js';

/**
 * The table a backup carries beside the store's own: the network it is of and when it was taken.
 * A restore checks it and drops it, so the restored store is the store as it was.
 */
export const ORIGIN_TABLE = 'backup_origin';

let temps = 0;

/**
 * A temp name beside `file`, of the form `<file>.<pid>.<n>.tmp` that the service's start removes
 * from DATA_DIR when the process that wrote it died (a crashed restore).
 */
export function tempBeside(file: string): string {
  temps += 1;
  return `${file}.${process.pid}.${temps}.tmp`;
}

/** Flushes a file, or a folder's entries (best effort where the platform cannot). */
export function flush(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // a folder cannot be flushed on this platform or file system
  } finally {
    closeSync(fd);
  }
}

/** Flushes `file` and the folder that names it, so a rename of it survives a power loss. */
export function flushWithFolder(file: string): void {
  flush(file);
  flush(dirname(file));
}

/** The newest migration applied, or null when the database has no migrations table (no store of this service). */
export function schemaVersionOf(db: SqlDatabase): number | null {
  const table = db
    .prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (table === undefined) return null;
  return Number(
    db.prepare<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations').get()?.version ?? 0,
  );
}

/** Rows per table of the store (the origin table aside). */
export function rowCounts(db: SqlDatabase): Record<string, number> {
  const tables = db
    .prepare<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> ? ORDER BY name",
    )
    .all(ORIGIN_TABLE)
    .map((row) => row.name);
  const rows: Record<string, number> = {};
  for (const table of tables) {
    const quoted = `"${table.replaceAll('"', '""')}"`;
    rows[table] = Number(db.prepare<{ count: number }>(`SELECT COUNT(*) AS count FROM ${quoted}`).get()?.count ?? 0);
  }
  return rows;
}
