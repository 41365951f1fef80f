import {
  type BookRecord,
  type BookStatus,
  type NewBook,
  type NewToken,
  type Store,
  StoreConflictError,
  type TokenListingChange,
  type TokenRecord,
} from '../ports.js';
import { sqliteAccountKeyStore } from './account-key-store.js';
import { sqliteApiKeyStore } from './api-key-store.js';
import { sqliteCancellationStore } from './cancellation-store.js';
import { sqliteCandleStore } from './candle-store.js';
import { type DriverName, inTransaction, openDatabase, type SqlDatabase } from './driver.js';
import { sqliteFarmStore } from './farm-store.js';
import { sqliteFeeOverrideStore } from './fee-override-store.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { sqliteNonceStore } from './nonce-store.js';
import { sqliteOrderStore } from './order-store.js';
import { sqlitePoolStore } from './pool-store.js';
import { sqliteSettlementStore } from './settlement-store.js';
import { sqliteTradeStore } from './trade-store.js';

interface TokenRow {
  id: string;
  evm_address: string;
  symbol: string;
  name: string;
  decimals: number;
  icon: string | null;
  description: string | null;
  website: string | null;
  due_diligence_complete: number;
  is_fee_on_transfer: number;
  sentinel_report: string | null;
  twitter_handle: string | null;
  circulating_supply: string | null;
  is_known: number;
  is_default: number;
  created_at: number;
  updated_at: number;
}

interface BookRow {
  id: number;
  base_token_id: string;
  quote_token_id: string;
  status: BookStatus;
  is_amm_enabled: number;
  is_halted: number;
  tick_step: string;
  size_step: string;
  lot_size: string;
  min_notional: string;
  taker_fee_pips: number;
  maker_fee_pips: number;
  created_at: number;
  updated_at: number;
}

function toToken(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    evmAddress: row.evm_address,
    symbol: row.symbol,
    name: row.name,
    decimals: row.decimals,
    icon: row.icon,
    description: row.description,
    website: row.website,
    dueDiligenceComplete: row.due_diligence_complete === 1,
    isFeeOnTransfer: row.is_fee_on_transfer === 1,
    sentinelReport: row.sentinel_report,
    twitterHandle: row.twitter_handle,
    circulatingSupply: row.circulating_supply === null ? null : BigInt(row.circulating_supply),
    isKnown: row.is_known === 1,
    isDefault: row.is_default === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A flag as the store keeps it, or null to leave it alone in an update. */
function bit(value: boolean | undefined): number | null {
  return value === undefined ? null : value ? 1 : 0;
}

/** Token fields as statement parameters: flags as 0/1, amounts as text; absent ones null. */
function tokenParameters(token: TokenListingChange) {
  return {
    dueDiligenceComplete: bit(token.dueDiligenceComplete),
    isFeeOnTransfer: bit(token.isFeeOnTransfer),
    isKnown: bit(token.isKnown),
    isDefault: bit(token.isDefault),
    circulatingSupply:
      token.circulatingSupply === undefined || token.circulatingSupply === null ? null : token.circulatingSupply.toString(),
  };
}

function toBook(row: BookRow): BookRecord {
  return {
    id: row.id,
    baseTokenId: row.base_token_id,
    quoteTokenId: row.quote_token_id,
    status: row.status,
    isAmmEnabled: row.is_amm_enabled === 1,
    isHalted: row.is_halted === 1,
    tickStep: row.tick_step,
    sizeStep: row.size_step,
    lotSize: row.lot_size,
    minNotional: row.min_notional,
    takerFeePips: row.taker_fee_pips,
    makerFeePips: row.maker_fee_pips,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Maps SQLite constraint failures to a conflict that says which kind of rule was broken. */
function conflict(db: SqlDatabase, error: unknown, messages: { duplicate: string; reference: string; rule: string }): never {
  const kind = db.constraintOf(error);
  if (kind === undefined) throw error;
  const message = kind === 'unique' ? messages.duplicate : kind === 'foreign-key' ? messages.reference : messages.rule;
  throw new StoreConflictError(message, { cause: error });
}

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
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    inTransaction(db, () => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        now,
      );
    });
    done.push(migration.version);
  }
  return done;
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

  const statements = {
    listTokens: db.prepare<TokenRow>('SELECT * FROM tokens ORDER BY created_at, id'),
    getToken: db.prepare<TokenRow>('SELECT * FROM tokens WHERE id = ?'),
    insertToken: db.prepare(
      `INSERT INTO tokens (id, evm_address, symbol, name, decimals, icon, description, website,
         due_diligence_complete, is_fee_on_transfer, sentinel_report, twitter_handle, circulating_supply, is_known, is_default,
         created_at, updated_at)
       VALUES (@id, @evmAddress, @symbol, @name, @decimals, @icon, @description, @website,
         @dueDiligenceComplete, @isFeeOnTransfer, @sentinelReport, @twitterHandle, @circulatingSupply, @isKnown, @isDefault,
         @now, @now)`,
    ),
    // A text field is changed only when it is named (@set...); null then clears it.
    updateToken: db.prepare(
      `UPDATE tokens SET
         icon = CASE WHEN @setIcon THEN @icon ELSE icon END,
         description = CASE WHEN @setDescription THEN @description ELSE description END,
         website = CASE WHEN @setWebsite THEN @website ELSE website END,
         sentinel_report = CASE WHEN @setSentinelReport THEN @sentinelReport ELSE sentinel_report END,
         twitter_handle = CASE WHEN @setTwitterHandle THEN @twitterHandle ELSE twitter_handle END,
         circulating_supply = CASE WHEN @setCirculatingSupply THEN @circulatingSupply ELSE circulating_supply END,
         due_diligence_complete = coalesce(@dueDiligenceComplete, due_diligence_complete),
         is_fee_on_transfer = coalesce(@isFeeOnTransfer, is_fee_on_transfer),
         is_known = coalesce(@isKnown, is_known),
         is_default = coalesce(@isDefault, is_default),
         updated_at = @now
       WHERE id = @id`,
    ),
    listBooks: db.prepare<BookRow>('SELECT * FROM books ORDER BY id'),
    getBook: db.prepare<BookRow>('SELECT * FROM books WHERE id = ?'),
    insertBook: db.prepare(
      `INSERT INTO books (base_token_id, quote_token_id, status, is_amm_enabled, is_halted, tick_step, size_step,
         lot_size, min_notional, taker_fee_pips, maker_fee_pips, created_at, updated_at)
       VALUES (@baseTokenId, @quoteTokenId, 'OPEN', @isAmmEnabled, 0, @tickStep, @sizeStep,
         @lotSize, @minNotional, @takerFeePips, @makerFeePips, @now, @now)`,
    ),
    updateBook: db.prepare(
      `UPDATE books SET status = coalesce(@status, status), is_halted = coalesce(@isHalted, is_halted), updated_at = @now
       WHERE id = @id`,
    ),
    dataVersion: db.prepare<{ data_version: number }>('PRAGMA data_version'),
    ping: db.prepare('SELECT 1'),
  };

  return {
    tokens: {
      async list() {
        return statements.listTokens.all().map(toToken);
      },
      async insert(token: NewToken, now: number) {
        try {
          statements.insertToken.run({ ...token, ...tokenParameters(token), now });
        } catch (error) {
          conflict(db, error, {
            duplicate: `a token with id ${token.id} or address ${token.evmAddress} already exists`,
            reference: `token ${token.id} refers to something unknown`,
            rule: `token ${token.id} breaks a rule of the store (decimals 0 to 36)`,
          });
        }
        return toToken(statements.getToken.get(token.id) as TokenRow);
      },
      async update(id, change, now) {
        const named = (field: keyof TokenListingChange) => (change[field] === undefined ? 0 : 1);
        const result = statements.updateToken.run({
          id,
          now,
          icon: change.icon ?? null,
          description: change.description ?? null,
          website: change.website ?? null,
          sentinelReport: change.sentinelReport ?? null,
          twitterHandle: change.twitterHandle ?? null,
          setIcon: named('icon'),
          setDescription: named('description'),
          setWebsite: named('website'),
          setSentinelReport: named('sentinelReport'),
          setTwitterHandle: named('twitterHandle'),
          setCirculatingSupply: named('circulatingSupply'),
          ...tokenParameters(change),
        });
        if (result.changes === 0) return undefined;
        return toToken(statements.getToken.get(id) as TokenRow);
      },
    },
    books: {
      async list() {
        return statements.listBooks.all().map(toBook);
      },
      async insert(book: NewBook, now: number) {
        let id: number;
        try {
          const result = statements.insertBook.run({ ...book, isAmmEnabled: book.isAmmEnabled ? 1 : 0, now });
          id = Number(result.lastInsertRowid);
        } catch (error) {
          conflict(db, error, {
            duplicate: `a book for ${book.baseTokenId}/${book.quoteTokenId} already exists`,
            reference: `book ${book.baseTokenId}/${book.quoteTokenId} names an unknown token`,
            rule: `book ${book.baseTokenId}/${book.quoteTokenId} breaks a rule of the store (two different tokens, fees 0 to 1000000 pips)`,
          });
        }
        return toBook(statements.getBook.get(id) as BookRow);
      },
      async update(id, change, now) {
        const isHalted = change.isHalted === undefined ? null : change.isHalted ? 1 : 0;
        const result = statements.updateBook.run({ id, status: change.status ?? null, isHalted, now });
        if (result.changes === 0) return undefined;
        return toBook(statements.getBook.get(id) as BookRow);
      },
    },
    trades,
    settlements,
    cancellations,
    orders,
    nonces,
    feeOverrides,
    accountKeys,
    apiKeys,
    candles,
    pools,
    farms,
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
