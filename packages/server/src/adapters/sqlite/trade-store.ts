import type { SettlementFailure } from '../../domain/orders/order-records.js';
import type { NewTrade, TradeRecord } from '../../domain/orders/trade-records.js';
import type { TradePage, TradeStore, TradeWindowStats } from '../../ports/store/ports.js';
import type { CandleRow } from './candle-store.js';
import { inTransaction, type SqlDatabase } from './driver.js';

/** Width of the candles that 24-hour figures are summed from. */
export const CANDLE_MS = 5 * 60 * 1000;

interface TradeRow {
  id: number;
  book_id: number;
  executed_at: number;
  price_ticks: number;
  price: string;
  base_amount: string;
  quote_amount: string;
  direction: 'buy' | 'sell';
  maker_order_id: number | null;
  taker_order_id: number;
  transaction_hash: string | null;
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

/** What a batch of trades adds to one candle. */
interface CandleDelta {
  readonly bookId: number;
  readonly start: number;
  readonly open: number;
  high: number;
  low: number;
  close: number;
  base: bigint;
  quote: bigint;
  count: number;
}

export interface SqliteTradeStore extends TradeStore {
  /** Inserts trades and folds them into the candles inside the caller's transaction; returns their ids. */
  insertWithin(trades: readonly NewTrade[]): number[];
  /** Takes trades whose settlement failed off the tape and rebuilds their candles, inside the caller's transaction. */
  revertWithin(failures: readonly SettlementFailure[]): void;
}

/** The row of `id_floors` that holds the trades' floor. */
const TRADE_ID_FLOOR = 'trades';
/** The highest trade id used or skipped: rows (reverted ones too, they keep their ids) and the floor. */
const HIGHEST_ID = `max(coalesce((SELECT max(id) FROM trades), 0),
  coalesce((SELECT id FROM id_floors WHERE name = '${TRADE_ID_FLOOR}'), 0))`;

/** The prepared statements of the trade store. */
function tradeStatements(db: SqlDatabase) {
  return {
    // The id is given, not left to SQLite (which takes the highest id + 1): past the floor as well.
    insertTrade: db.prepare(
      `INSERT INTO trades (id, book_id, executed_at, price_ticks, price, base_amount, quote_amount, direction,
         maker_order_id, taker_order_id)
       VALUES ((${HIGHEST_ID}) + 1, @bookId, @executedAt, @priceTicks, @price, @baseAmount, @quoteAmount, @direction,
         @makerOrderId, @takerOrderId)`,
    ),
    highestId: db.prepare<{ id: number }>(`SELECT ${HIGHEST_ID} AS id`),
    raiseFloor: db.prepare(
      `INSERT INTO id_floors (name, id) VALUES ('${TRADE_ID_FLOOR}', @id)
       ON CONFLICT (name) DO UPDATE SET id = max(id, excluded.id)`,
    ),
    getCandle: db.prepare<CandleRow>('SELECT * FROM candles_5m WHERE book_id = ? AND start_ms = ?'),
    insertCandle: db.prepare(
      `INSERT INTO candles_5m (book_id, start_ms, open_ticks, high_ticks, low_ticks, close_ticks, base_volume, quote_volume, trade_count)
       VALUES (@bookId, @start, @open, @high, @low, @close, @base, @quote, @count)`,
    ),
    updateCandle: db.prepare(
      `UPDATE candles_5m SET high_ticks = max(high_ticks, @high), low_ticks = min(low_ticks, @low), close_ticks = @close,
         base_volume = @base, quote_volume = @quote, trade_count = trade_count + @count
       WHERE book_id = @bookId AND start_ms = @start`,
    ),
    pageAsc: db.prepare<TradeRow>(
      'SELECT * FROM trades WHERE book_id = ? AND reverted_at IS NULL ORDER BY id ASC LIMIT ? OFFSET ?',
    ),
    pageDesc: db.prepare<TradeRow>(
      'SELECT * FROM trades WHERE book_id = ? AND reverted_at IS NULL ORDER BY id DESC LIMIT ? OFFSET ?',
    ),
    countTrades: db.prepare<{ total: number }>('SELECT count(*) AS total FROM trades WHERE book_id = ? AND reverted_at IS NULL'),
    latestTrade: db.prepare<TradeRow>('SELECT * FROM trades WHERE book_id = ? AND reverted_at IS NULL ORDER BY id DESC LIMIT 1'),
    revert: db.prepare<TradeRow>('UPDATE trades SET reverted_at = ? WHERE id = ? AND reverted_at IS NULL RETURNING *'),
    candleTrades: db.prepare<TradeRow>(
      `SELECT * FROM trades WHERE book_id = ? AND executed_at >= ? AND executed_at < ? AND reverted_at IS NULL
       ORDER BY id`,
    ),
    deleteCandle: db.prepare('DELETE FROM candles_5m WHERE book_id = ? AND start_ms = ?'),
    candlesSince: db.prepare<CandleRow>('SELECT * FROM candles_5m WHERE book_id = ? AND start_ms >= ? ORDER BY start_ms'),
  };
}

type TradeStatements = ReturnType<typeof tradeStatements>;

const candleStart = (executedAt: number): number => executedAt - (executedAt % CANDLE_MS);

/**
 * Folds trades into their candles: one read and one write per candle touched, not per trade. A
 * taker's swap with the book's pool is left out: the pool's own candles count it (from the pair's
 * Swap event), so exchange-wide volume counts it once. It stays on the book's tape.
 */
function foldIntoCandles(statements: TradeStatements, trades: readonly NewTrade[]): void {
  const touched = new Map<string, CandleDelta>();
  for (const trade of trades) {
    if (trade.makerOrderId === null) continue;
    const start = candleStart(trade.executedAt);
    const key = `${trade.bookId}:${start}`;
    const delta = touched.get(key);
    if (delta === undefined) {
      touched.set(key, {
        bookId: trade.bookId,
        start,
        open: trade.priceTicks,
        high: trade.priceTicks,
        low: trade.priceTicks,
        close: trade.priceTicks,
        base: trade.baseAmount,
        quote: trade.quoteAmount,
        count: 1,
      });
    } else {
      delta.high = Math.max(delta.high, trade.priceTicks);
      delta.low = Math.min(delta.low, trade.priceTicks);
      delta.close = trade.priceTicks;
      delta.base += trade.baseAmount;
      delta.quote += trade.quoteAmount;
      delta.count++;
    }
  }
  for (const delta of touched.values()) {
    const candle = statements.getCandle.get(delta.bookId, delta.start);
    const base = (candle === undefined ? 0n : BigInt(candle.base_volume)) + delta.base;
    const quote = (candle === undefined ? 0n : BigInt(candle.quote_volume)) + delta.quote;
    const row = {
      bookId: delta.bookId,
      start: delta.start,
      high: delta.high,
      low: delta.low,
      close: delta.close,
      base: base.toString(),
      quote: quote.toString(),
      count: delta.count,
    };
    if (candle === undefined) statements.insertCandle.run({ ...row, open: delta.open });
    else statements.updateCandle.run(row);
  }
}

/** The trade tape and its 5-minute candles. */
export function sqliteTradeStore(db: SqlDatabase): SqliteTradeStore {
  const statements = tradeStatements(db);
  const insertWithin = (trades: readonly NewTrade[]): number[] => {
    const ids = trades.map((trade) =>
      Number(
        statements.insertTrade.run({
          ...trade,
          baseAmount: trade.baseAmount.toString(),
          quoteAmount: trade.quoteAmount.toString(),
        }).lastInsertRowid,
      ),
    );
    foldIntoCandles(statements, trades);
    return ids;
  };

  /** A candle's extremes cannot be taken back one trade at a time: it is rebuilt from the trades it keeps. */
  const revertWithin = (failures: readonly SettlementFailure[]): void => {
    const candles = new Map<string, { bookId: number; start: number }>();
    for (const { tradeId, time } of failures) {
      const trade = statements.revert.get(time, tradeId);
      if (trade === undefined) continue;
      const start = candleStart(trade.executed_at);
      candles.set(`${trade.book_id}:${start}`, { bookId: trade.book_id, start });
    }
    for (const { bookId, start } of candles.values()) {
      statements.deleteCandle.run(bookId, start);
      foldIntoCandles(statements, statements.candleTrades.all(bookId, start, start + CANDLE_MS).map(toTrade));
    }
  };

  return {
    insertWithin,
    revertWithin,
    async append(trades) {
      if (trades.length > 0) inTransaction(db, () => insertWithin(trades));
    },
    async page(bookId, order, offset, limit): Promise<TradePage> {
      const rows = (order === 'asc' ? statements.pageAsc : statements.pageDesc).all(bookId, limit, offset);
      return { trades: rows.map(toTrade), total: statements.countTrades.get(bookId)?.total ?? 0 };
    },
    async latest(bookId) {
      const row = statements.latestTrade.get(bookId);
      return row === undefined ? undefined : toTrade(row);
    },
    async highestId() {
      return Number(statements.highestId.get()?.id ?? 0);
    },
    async skipIdsThrough(id) {
      if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not a trade id: ${id}`);
      statements.raiseFloor.run({ id });
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
  };
}
