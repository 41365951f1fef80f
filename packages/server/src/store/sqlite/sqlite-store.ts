import {
  type BookRecord,
  type BookStatus,
  type NewBook,
  type NewToken,
  type NewTrade,
  type Store,
  StoreConflictError,
  type TokenRecord,
  type TradePage,
  type TradeRecord,
  type TradeWindowStats,
} from '../ports.js';
import { type DriverName, inTransaction, openDatabase, type SqlDatabase } from './driver.js';
import { MIGRATIONS, type Migration } from './migrations.js';

/** Width of the candles that 24-hour figures are summed from. */
export const CANDLE_MS = 5 * 60 * 1000;

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

interface TradeRow {
  id: number;
  book_id: number;
  executed_at: number;
  price_ticks: number;
  price: string;
  base_amount: string;
  quote_amount: string;
  direction: 'buy' | 'sell';
  maker_order_id: number;
  taker_order_id: number;
  transaction_hash: string | null;
}

interface CandleRow {
  open_ticks: number;
  high_ticks: number;
  low_ticks: number;
  close_ticks: number;
  base_volume: string;
  quote_volume: string;
  trade_count: number;
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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
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

function toTrade(row: TradeRow): TradeRecord {
  return {
    id: row.id,
    bookId: row.book_id,
    executedAt: row.executed_at,
    priceTicks: row.price_ticks,
    price: row.price,
    baseAmount: BigInt(row.base_amount),
    quoteAmount: BigInt(row.quote_amount),
    direction: row.direction,
    makerOrderId: row.maker_order_id,
    takerOrderId: row.taker_order_id,
    transactionHash: row.transaction_hash,
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

  const statements = {
    listTokens: db.prepare<TokenRow>('SELECT * FROM tokens ORDER BY created_at, id'),
    getToken: db.prepare<TokenRow>('SELECT * FROM tokens WHERE id = ?'),
    insertToken: db.prepare(
      `INSERT INTO tokens (id, evm_address, symbol, name, decimals, icon, description, website,
         due_diligence_complete, is_fee_on_transfer, created_at, updated_at)
       VALUES (@id, @evmAddress, @symbol, @name, @decimals, @icon, @description, @website,
         @dueDiligenceComplete, @isFeeOnTransfer, @now, @now)`,
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
    insertTrade: db.prepare(
      `INSERT INTO trades (book_id, executed_at, price_ticks, price, base_amount, quote_amount, direction,
         maker_order_id, taker_order_id)
       VALUES (@bookId, @executedAt, @priceTicks, @price, @baseAmount, @quoteAmount, @direction, @makerOrderId, @takerOrderId)`,
    ),
    getCandle: db.prepare<CandleRow>('SELECT * FROM candles_5m WHERE book_id = ? AND start_ms = ?'),
    insertCandle: db.prepare(
      `INSERT INTO candles_5m (book_id, start_ms, open_ticks, high_ticks, low_ticks, close_ticks, base_volume, quote_volume, trade_count)
       VALUES (@bookId, @start, @ticks, @ticks, @ticks, @ticks, @base, @quote, 1)`,
    ),
    updateCandle: db.prepare(
      `UPDATE candles_5m SET high_ticks = max(high_ticks, @ticks), low_ticks = min(low_ticks, @ticks), close_ticks = @ticks,
         base_volume = @base, quote_volume = @quote, trade_count = trade_count + 1
       WHERE book_id = @bookId AND start_ms = @start`,
    ),
    pageAsc: db.prepare<TradeRow>('SELECT * FROM trades WHERE book_id = ? ORDER BY id ASC LIMIT ? OFFSET ?'),
    pageDesc: db.prepare<TradeRow>('SELECT * FROM trades WHERE book_id = ? ORDER BY id DESC LIMIT ? OFFSET ?'),
    countTrades: db.prepare<{ total: number }>('SELECT count(*) AS total FROM trades WHERE book_id = ?'),
    latestTrade: db.prepare<TradeRow>('SELECT * FROM trades WHERE book_id = ? ORDER BY id DESC LIMIT 1'),
    dataVersion: db.prepare<{ data_version: number }>('PRAGMA data_version'),
    ping: db.prepare('SELECT 1'),
    candlesSince: db.prepare<CandleRow>('SELECT * FROM candles_5m WHERE book_id = ? AND start_ms >= ? ORDER BY start_ms'),
  };

  const appendTrades = (trades: readonly NewTrade[]) => {
    for (const trade of trades) {
      statements.insertTrade.run({
        ...trade,
        baseAmount: trade.baseAmount.toString(),
        quoteAmount: trade.quoteAmount.toString(),
      });
      const start = trade.executedAt - (trade.executedAt % CANDLE_MS);
      const candle = statements.getCandle.get(trade.bookId, start);
      const key = { bookId: trade.bookId, start, ticks: trade.priceTicks };
      if (candle === undefined) {
        statements.insertCandle.run({ ...key, base: trade.baseAmount.toString(), quote: trade.quoteAmount.toString() });
      } else {
        statements.updateCandle.run({
          ...key,
          base: (BigInt(candle.base_volume) + trade.baseAmount).toString(),
          quote: (BigInt(candle.quote_volume) + trade.quoteAmount).toString(),
        });
      }
    }
  };

  return {
    tokens: {
      async list() {
        return statements.listTokens.all().map(toToken);
      },
      async insert(token: NewToken, now: number) {
        try {
          statements.insertToken.run({
            ...token,
            dueDiligenceComplete: token.dueDiligenceComplete ? 1 : 0,
            isFeeOnTransfer: token.isFeeOnTransfer ? 1 : 0,
            now,
          });
        } catch (error) {
          conflict(db, error, {
            duplicate: `a token with id ${token.id} or address ${token.evmAddress} already exists`,
            reference: `token ${token.id} refers to something unknown`,
            rule: `token ${token.id} breaks a rule of the store (decimals 0 to 36)`,
          });
        }
        return toToken(statements.getToken.get(token.id) as TokenRow);
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
    trades: {
      async append(trades) {
        if (trades.length > 0) inTransaction(db, () => appendTrades(trades));
      },
      async page(bookId, order, offset, limit): Promise<TradePage> {
        const rows = (order === 'asc' ? statements.pageAsc : statements.pageDesc).all(bookId, limit, offset);
        return { trades: rows.map(toTrade), total: statements.countTrades.get(bookId)?.total ?? 0 };
      },
      async latest(bookId) {
        const row = statements.latestTrade.get(bookId);
        return row === undefined ? undefined : toTrade(row);
      },
      async windowStats(bookId, since): Promise<TradeWindowStats> {
        const candles = statements.candlesSince.all(bookId, since - (since % CANDLE_MS));
        let highTicks: number | null = null;
        let lowTicks: number | null = null;
        let baseVolume = 0n;
        let quoteVolume = 0n;
        let tradeCount = 0;
        for (const candle of candles) {
          highTicks = highTicks === null ? candle.high_ticks : Math.max(highTicks, candle.high_ticks);
          lowTicks = lowTicks === null ? candle.low_ticks : Math.min(lowTicks, candle.low_ticks);
          baseVolume += BigInt(candle.base_volume);
          quoteVolume += BigInt(candle.quote_volume);
          tradeCount += candle.trade_count;
        }
        return { openTicks: candles[0]?.open_ticks ?? null, highTicks, lowTicks, baseVolume, quoteVolume, tradeCount };
      },
    },
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
