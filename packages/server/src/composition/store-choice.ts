import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { advisoryLeases } from '../adapters/postgres/advisory-leases.js';
import { openPostgresStore } from '../adapters/postgres/postgres-store.js';
import { openSqliteStore } from '../adapters/sqlite/sqlite-store.js';
import type { Lease } from '../ports/leases.js';
import type { Store } from '../ports/store/ports.js';
import { StoreFileRefusal } from '../ports/store-files.js';
import type { Config } from './config.js';

/** The SQLite store of a network: `<DATA_DIR>/<NETWORK>.sqlite`. */
export function storeFile(config: Pick<Config, 'dataDir' | 'network'>): string {
  return join(config.dataDir, `${config.network}.sqlite`);
}

/**
 * Refuses a SQLite store file that does not exist unless `create`: an operator command run with a
 * mistyped DATA_DIR or NETWORK would otherwise make a new, empty store and work on that.
 */
export function checkStoreFileExists(config: Pick<Config, 'dataDir' | 'network' | 'databaseUrl'>, create: boolean): void {
  const file = storeFile(config);
  if (create || config.databaseUrl !== null || existsSync(file)) return;
  throw new StoreFileRefusal(
    `no store at ${file} (DATA_DIR ${config.dataDir}, NETWORK ${config.network}): check them, or pass --create to make a new, empty store`,
  );
}

/** The store the configuration names: the PostgreSQL database at DATABASE_URL, else the SQLite file in DATA_DIR. */
export function openConfiguredStore(config: Pick<Config, 'dataDir' | 'network' | 'databaseUrl'>, role: string): Promise<Store> {
  if (config.databaseUrl === null) return openSqliteStore(storeFile(config));
  return openPostgresStore({ url: config.databaseUrl, applicationName: `dex-exchange ${role}` });
}

/**
 * The lease of the one process that writes a PostgreSQL store whole (ROLE=all): a second such
 * process on the same DATABASE_URL would split the books. Null for SQLite, whose file is the
 * process's own.
 */
async function takeWriterLease(config: Pick<Config, 'databaseUrl'>): Promise<Lease | null> {
  if (config.databaseUrl === null) return null;
  const lease = await advisoryLeases({ url: config.databaseUrl, applicationName: 'dex-exchange writer' }).tryAcquire(
    'store-writer',
  );
  if (lease === undefined) {
    throw new Error('another process already writes the store at DATABASE_URL: one process serves a store whole');
  }
  return lease;
}

/** The configured store and, on PostgreSQL, this process's writer lease: taken first, released again if the store does not open. */
export async function openWrittenStore(
  config: Pick<Config, 'dataDir' | 'network' | 'databaseUrl'>,
): Promise<{ store: Store; lease: Lease | null }> {
  const lease = await takeWriterLease(config);
  try {
    return { store: await openConfiguredStore(config, 'all'), lease };
  } catch (error) {
    await lease?.release();
    throw error;
  }
}
