import { chmodSync, copyFileSync, existsSync, linkSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Clock } from '../../ports/clock.js';
import { StoreFileRefusal, type StoreFiles, type StoreSnapshot } from '../../ports/store-files.js';
import { openDatabase, type SqlDatabase } from './driver.js';
import { MIGRATIONS } from './migrations.js';
import { flushWithFolder, ORIGIN_TABLE, rowCounts, schemaVersionOf, tempBeside } from './store-copy.js';

export interface StoreFilesSetting {
  /** The store: `<DATA_DIR>/<NETWORK>.sqlite`. */
  readonly file: string;
  readonly network: string;
  readonly clock: Clock;
  /** Closes the caller's own connection to the store before a restore checks that nobody has it open. */
  readonly releaseStore?: () => Promise<void>;
}

/** The files SQLite keeps beside a store in WAL mode. */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

/** Backups and restores of the SQLite store with SQLite's online backup. */
export function sqliteStoreFiles(setting: StoreFilesSetting): StoreFiles {
  return {
    backup: (to, options) => backup(setting, resolve(to), options.force),
    restore: (from) => restore(setting, resolve(from)),
  };
}

async function withDatabase<T>(file: string, work: (db: SqlDatabase) => T | Promise<T>): Promise<T> {
  const db = await openDatabase(file);
  try {
    return await work(db);
  } finally {
    db.close();
  }
}

async function backup(setting: StoreFilesSetting, to: string, force: boolean): Promise<StoreSnapshot> {
  const store = resolve(setting.file);
  if (SIDE_FILES.some((suffix) => to === store || to === `${store}${suffix}`)) {
    throw new StoreFileRefusal(`${to} is the store itself: write the backup elsewhere`);
  }
  if (!existsSync(store)) throw new StoreFileRefusal(`there is no store at ${store} to back up`);
  if (!force && existsSync(to)) throw new StoreFileRefusal(`${to} exists: pass --force to replace it`);
  if (!existsSync(resolve(to, '..'))) throw new StoreFileRefusal(`the folder of ${to} does not exist`);
  const temp = tempBeside(to);
  try {
    // Its own connection, so a copy taken by the running service's CLI neighbour waits for no one.
    await withDatabase(store, async (db) => {
      db.exec('PRAGMA busy_timeout = 5000');
      await db.backup(temp);
    });
    chmodSync(temp, 0o600);
    const snapshot = await withDatabase(temp, (db) => {
      // One self-contained file: no -wal beside it to lose on the way.
      db.prepare('PRAGMA journal_mode = DELETE').get();
      const schemaVersion = schemaVersionOf(db) ?? 0;
      const takenAt = setting.clock.now();
      db.exec(
        `CREATE TABLE ${ORIGIN_TABLE} (network TEXT NOT NULL, taken_at INTEGER NOT NULL, schema_version INTEGER NOT NULL) STRICT`,
      );
      db.prepare(`INSERT INTO ${ORIGIN_TABLE} (network, taken_at, schema_version) VALUES (?, ?, ?)`).run(
        setting.network,
        takenAt,
        schemaVersion,
      );
      return { file: to, network: setting.network, schemaVersion, takenAt, rows: rowCounts(db) };
    });
    flushWithFolder(temp);
    if (force) renameSync(temp, to);
    else place(temp, to);
    flushWithFolder(to);
    return { ...snapshot, bytes: statSync(to).size };
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Gives `temp` the name `to` unless something took that name meanwhile. */
function place(temp: string, to: string): void {
  try {
    linkSync(temp, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new StoreFileRefusal(`${to} exists: pass --force to replace it`);
    throw error;
  }
}

/** Checks the copy in `temp` is a backup of this network's store, takes its origin out, and returns its summary. */
async function checkedCopy(setting: StoreFilesSetting, from: string, temp: string): Promise<StoreSnapshot> {
  let db: SqlDatabase;
  try {
    db = await openDatabase(temp);
    db.prepare('PRAGMA schema_version').get();
  } catch {
    throw new StoreFileRefusal(`${from} is not a SQLite database`);
  }
  try {
    const integrity = db.prepare<{ integrity_check: string }>('PRAGMA integrity_check').all();
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') {
      throw new StoreFileRefusal(`${from} fails SQLite's integrity check: ${integrity[0]?.integrity_check ?? 'no answer'}`);
    }
    const schemaVersion = schemaVersionOf(db);
    if (schemaVersion === null)
      throw new StoreFileRefusal(`${from} is not a store of this service: it has no schema_migrations table`);
    const known = Math.max(...MIGRATIONS.map((migration) => migration.version));
    if (schemaVersion > known) {
      throw new StoreFileRefusal(
        `${from} has schema version ${schemaVersion}, newer than this build's ${known}: restore it with a newer build`,
      );
    }
    const origin = originOf(db, from);
    if (origin.network !== setting.network) {
      throw new StoreFileRefusal(
        `${from} is a backup of the ${origin.network} store; this is the ${setting.network} store (NETWORK)`,
      );
    }
    db.prepare('PRAGMA journal_mode = DELETE').get();
    db.exec(`DROP TABLE ${ORIGIN_TABLE}`);
    return { file: setting.file, bytes: 0, network: origin.network, schemaVersion, takenAt: origin.takenAt, rows: rowCounts(db) };
  } finally {
    db.close();
  }
}

function originOf(db: SqlDatabase, from: string): { network: string; takenAt: number } {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").get(ORIGIN_TABLE);
  const row =
    table === undefined
      ? undefined
      : db.prepare<{ network: string; taken_at: number }>(`SELECT network, taken_at FROM ${ORIGIN_TABLE}`).get();
  if (row === undefined)
    throw new StoreFileRefusal(`${from} is no backup made by \`backup\`: it does not say which network it is of`);
  return { network: row.network, takenAt: Number(row.taken_at) };
}

/**
 * Refuses while any connection has the store open: the service keeps one open as long as it runs,
 * and in WAL mode even an idle one holds a shared lock that an exclusive lock cannot get past.
 */
async function assertUnused(file: string): Promise<void> {
  if (!existsSync(file)) return;
  await withDatabase(file, (db) => {
    db.exec('PRAGMA busy_timeout = 0');
    try {
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      db.exec('COMMIT');
    } catch {
      throw new StoreFileRefusal(
        `the store ${file} is open by another process: stop the service (and any operator command) first`,
      );
    }
  });
}

async function restore(setting: StoreFilesSetting, from: string): Promise<StoreSnapshot> {
  const store = resolve(setting.file);
  if (from === store) throw new StoreFileRefusal(`${from} is the store itself`);
  if (!existsSync(from) || !statSync(from).isFile()) throw new StoreFileRefusal(`${from} does not exist or is no file`);
  const temp = tempBeside(store);
  try {
    copyFileSync(from, temp);
    chmodSync(temp, 0o600);
    const snapshot = await checkedCopy(setting, from, temp);
    flushWithFolder(temp);
    await setting.releaseStore?.();
    await assertUnused(store);
    // The old store's WAL and index would be read as the new store's: they go first.
    for (const suffix of SIDE_FILES) rmSync(`${store}${suffix}`, { force: true });
    renameSync(temp, store);
    flushWithFolder(store);
    return { ...snapshot, bytes: statSync(store).size };
  } finally {
    rmSync(temp, { force: true });
  }
}
