/**
 * The few SQLite operations the store needs, so that it runs on Node's built-in `node:sqlite`
 * where that exists (Node >= 22.13) and on better-sqlite3 elsewhere (Node 20). better-sqlite3 12
 * cannot serve Node >= 24.19: its statements abort the process when an idle garbage collection
 * finalises them, and its fixed release (13) does not support Node 20.
 */

export type SqlValue = string | number | bigint | null;
export type SqlParameters = readonly SqlValue[] | [Readonly<Record<string, SqlValue>>];

export interface SqlStatement<Row> {
  run(...parameters: SqlParameters): { changes: number; lastInsertRowid: number | bigint };
  get(...parameters: SqlParameters): Row | undefined;
  all(...parameters: SqlParameters): Row[];
}

/** Which kind of rule a failed write broke, independent of the driver's error shape. */
export type ConstraintKind = 'unique' | 'foreign-key' | 'other';

export interface SqlDatabase {
  /** `node:sqlite` or `better-sqlite3`. */
  readonly driver: string;
  exec(sql: string): void;
  prepare<Row = unknown>(sql: string): SqlStatement<Row>;
  /** The kind of constraint an error reports, or undefined for any other error. */
  constraintOf(error: unknown): ConstraintKind | undefined;
  close(): void;
}

/** Runs `work` inside BEGIN IMMEDIATE ... COMMIT, rolling back when it throws. */
export function inTransaction<T>(db: SqlDatabase, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

export type DriverName = 'node:sqlite' | 'better-sqlite3';

/** Opens a database file with the best driver this Node.js offers, or the one asked for. */
export async function openDatabase(file: string, driver?: DriverName): Promise<SqlDatabase> {
  if (driver !== 'better-sqlite3') {
    const { openNodeSqlite } = await import('./node-sqlite-driver.js');
    const db = await openNodeSqlite(file);
    if (db !== undefined) return db;
    if (driver === 'node:sqlite') throw new Error('node:sqlite is not available in this Node.js');
  }
  let driverModule: typeof import('./better-sqlite3-driver.js');
  try {
    driverModule = await import('./better-sqlite3-driver.js');
  } catch (cause) {
    throw new Error(
      `no SQLite driver: Node.js ${process.versions.node} has no node:sqlite (it needs 22.13 or later) and better-sqlite3 could not be loaded (it is compiled at install time and needs a C++ toolchain)`,
      { cause },
    );
  }
  return driverModule.openBetterSqlite(file);
}
