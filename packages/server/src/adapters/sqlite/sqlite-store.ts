import type { Store } from '../../ports/store/ports.js';
import { sqliteAccountKeyStore } from './account-key-store.js';
import { sqliteAmmStore } from './amm-store.js';
import { sqliteApiKeyStore } from './api-key-store.js';
import { sqliteBookStore } from './book-store.js';
import { sqliteCancelAfterStore } from './cancel-after-store.js';
import { sqliteCancellationStore } from './cancellation-store.js';
import { sqliteCandleStore } from './candle-store.js';
import { type DriverName, inTransaction, openDatabase, type SqlDatabase } from './driver.js';
import { sqliteExpiredOrderStore } from './expired-order-store.js';
import { sqliteFarmStore } from './farm-store.js';
import { sqliteFeeOverrideStore } from './fee-override-store.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { sqliteNonceStore } from './nonce-store.js';
import { sqliteOrderStore } from './order-store.js';
import { sqlitePoolCandleStore } from './pool-candle-store.js';
import { sqlitePoolStore } from './pool-store.js';
import { sqliteSettlementStore } from './settlement-store.js';
import { sqliteStakingStore } from './staking-store.js';
import { sqliteTokenStore } from './token-store.js';
import { sqliteTradeStore } from './trade-store.js';

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
  let open = true;
  const trades = sqliteTradeStore(db);
  const settlements = sqliteSettlementStore(db);
  const cancellations = sqliteCancellationStore(db);
  const orders = sqliteOrderStore(db, trades, settlements, cancellations);
  const nonces = sqliteNonceStore(db);
  const feeOverrides = sqliteFeeOverrideStore(db);
  const accountKeys = sqliteAccountKeyStore(db);
  const apiKeys = sqliteApiKeyStore(db);
  const candles = sqliteCandleStore(db);
  const pools = sqlitePoolStore(db);
  const farms = sqliteFarmStore(db);
  const cancelAfter = sqliteCancelAfterStore(db);

  const statements = {
    dataVersion: db.prepare<{ data_version: number }>('PRAGMA data_version'),
    ping: db.prepare('SELECT 1'),
  };

  return {
    tokens: sqliteTokenStore(db),
    books: sqliteBookStore(db),
    trades,
    settlements,
    cancellations,
    expiredOrders: sqliteExpiredOrderStore(db),
    orders,
    nonces,
    feeOverrides,
    accountKeys,
    apiKeys,
    candles,
    pools,
    farms,
    amm: sqliteAmmStore(db),
    poolCandles: sqlitePoolCandleStore(db),
    staking: sqliteStakingStore(db),
    cancelAfter,
    async changeMarker() {
      return Number(statements.dataVersion.get()?.data_version);
    },
    async ping() {
      statements.ping.get();
    },
    async close() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}
