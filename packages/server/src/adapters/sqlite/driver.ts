/**
 * The few SQLite operations the store needs, so that it runs on Node's built-in `node:sqlite`
 * where that exists (Node >= 22.13) and on better-sqlite3 elsewhere (Node 20). better-sqlite3 12
 * cannot serve Node >= 24.19: its statements abort the process when an idle garbage collection
 * finalises them, and its fixed release (13) does not support Node 20.
 */
import { StoreUnavailableError } from '../../ports/store/ports.js';
import type { ConstraintKind, SqlParameters } from '../sql/sql-client.js';

export type { ConstraintKind, SqlParameters, SqlValue } from '../sql/sql-client.js';

export interface SqlStatement<Row> {
  run(...parameters: SqlParameters): { changes: number; lastInsertRowid: number | bigint };
  get(...parameters: SqlParameters): Row | undefined;
  all(...parameters: SqlParameters): Row[];
}

export interface SqlDatabase {
  /** `node:sqlite` or `better-sqlite3`. */
  readonly driver: string;
  exec(sql: string): void;
  prepare<Row = unknown>(sql: string): SqlStatement<Row>;
  /** The kind of constraint an error reports, or undefined for any other error. */
  constraintOf(error: unknown): ConstraintKind | undefined;
  /**
   * Copies the database to a new file with SQLite's online backup, in one step: one read
   * transaction, so a consistent snapshot however other connections write meanwhile.
   */
  backup(file: string): Promise<void>;
  close(): void;
}

/**
 * Runs `work` inside BEGIN IMMEDIATE ... COMMIT, rolling back when it throws. A full disk may
 * have rolled the transaction back already; the caller hears of the failure, not of the rollback.
 */
export function inTransaction<T>(db: SqlDatabase, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    rollBack(db, error);
    throw error;
  }
}

/** Rolls back after `error`; a rollback that fails because the disk already undid it is not news. */
export function rollBack(db: SqlDatabase, error: unknown): void {
  try {
    db.exec('ROLLBACK');
  } catch (rollback) {
    if (!(error instanceof StoreUnavailableError)) throw rollback;
  }
}

/** SQLite's primary result codes of a disk that cannot take a write: SQLITE_IOERR, SQLITE_FULL. */
const DISK_CODES = new Map([
  [10, 'SQLITE_IOERR'],
  [13, 'SQLITE_FULL'],
]);

/** Whether a driver's error says the disk is full or failing (node:sqlite's `errcode`, better-sqlite3's `code`). */
export function isDiskFailure(error: unknown): boolean {
  const { errcode, code } = (error ?? {}) as { errcode?: unknown; code?: unknown };
  if (typeof errcode === 'number') return DISK_CODES.has(errcode & 0xff);
  return typeof code === 'string' && [...DISK_CODES.values()].some((name) => code.startsWith(name));
}

function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (isDiskFailure(error)) throw new StoreUnavailableError(`the store could not write: ${String(error)}`, { cause: error });
    throw error;
  }
}

/** The same database, its disk failures thrown as the store port's StoreUnavailableError. */
function withDiskFailures(db: SqlDatabase): SqlDatabase {
  return {
    driver: db.driver,
    exec: (sql) => guarded(() => db.exec(sql)),
    prepare: <Row>(sql: string) => {
      const statement = db.prepare<Row>(sql);
      return {
        run: (...parameters) => guarded(() => statement.run(...parameters)),
        get: (...parameters) => guarded(() => statement.get(...parameters)),
        all: (...parameters) => guarded(() => statement.all(...parameters)),
      };
    },
    constraintOf: (error) => db.constraintOf(error),
    backup: (file) => db.backup(file),
    close: () => db.close(),
  };
}

/** Pages per backup step: all of them, so the copy is one step (a write between steps would restart it). */
export const BACKUP_PAGES_PER_STEP = 0x7fffffff;

export type DriverName = 'node:sqlite' | 'better-sqlite3';

/** Opens a database file with the best driver this Node.js offers, or the one asked for. */
export async function openDatabase(file: string, driver?: DriverName): Promise<SqlDatabase> {
  if (driver !== 'better-sqlite3') {
    const { openNodeSqlite } = await import('./node-sqlite-driver.js');
    const db = await openNodeSqlite(file);
    if (db !== undefined) return withDiskFailures(db);
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
  return withDiskFailures(driverModule.openBetterSqlite(file));
}
