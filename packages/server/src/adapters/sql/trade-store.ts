import type { SettlementFailure } from '../../domain/orders/order-records.js';
import type { NewTrade, TradeRecord } from '../../domain/orders/trade-records.js';
import type { TradePage, TradeStore, TradeWindowStats } from '../../ports/store/ports.js';
import { CANDLE_MS, candleDeltas, candleStart } from './candle-deltas.js';
import { CANDLE_FIELDS, type CandleRow, toCandle } from './candle-store.js';
import { columnNames, insertRowsReturningIds, type JsonRow } from './json-rows.js';
import { type JsonColumn, type SqlClient, type SqlDialect, type SqlExecutor, selectList, sql } from './sql-client.js';

interface TradeRow {
  id: number;
  book_id: number;
  executed_at: number;
  /** Decimal text: see `selectList`. */
  price_ticks: string;
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
    priceTicks: BigInt(row.price_ticks),
    price: row.price,
    baseAmount: BigInt(row.base_amount),
    quoteAmount: BigInt(row.quote_amount),
    direction: row.direction,
    makerOrderId: row.maker_order_id,
    takerOrderId: row.taker_order_id,
    transactionHash: row.transaction_hash,
  };
}

export interface SqlTradeStore extends TradeStore {
  /** Inserts trades and folds them into the candles inside the caller's transaction; returns their ids. */
  insertWithin(tx: SqlExecutor, trades: readonly NewTrade[]): Promise<number[]>;
  /** Takes trades whose settlement failed off the tape and rebuilds their candles, inside the caller's transaction. */
  revertWithin(tx: SqlExecutor, failures: readonly SettlementFailure[]): Promise<void>;
}

/** The row of `id_floors` that holds the trades' floor. */
const TRADE_ID_FLOOR = 'trades';
/** The columns a new trade is written with, after `n`, its place among the statement's rows. */
const TRADE_COLUMNS: readonly JsonColumn[] = [
  ['n', 'integer'],
  ['book_id', 'integer'],
  ['executed_at', 'integer'],
  ['price_ticks', 'integer'],
  ['price', 'text'],
  ['base_amount', 'text'],
  ['quote_amount', 'text'],
  ['direction', 'text'],
  ['maker_order_id', 'integer'],
  ['taker_order_id', 'integer'],
];

/** Every column of a trade row, its price exactly. */
const TRADE_FIELDS = selectList(['id', ...TRADE_COLUMNS.slice(1).map(([name]) => name), 'transaction_hash'], ['price_ticks']);

/** The prepared statements of the trade store. */
function tradeStatements(dialect: SqlDialect) {
  /** The highest trade id used or skipped: rows (reverted ones too, they keep their ids) and the floor. */
  const highestId = dialect.greatest(
    'coalesce((SELECT max(id) FROM trades), 0)',
    `coalesce((SELECT id FROM id_floors WHERE name = '${TRADE_ID_FLOOR}'), 0)`,
  );
  return {
    // The id is given, not left to the database (which takes the highest id + 1 or a sequence):
    // past the floor as well. The highest id is read once for the statement, and `n` numbers the
    // rows from 1.
    insertTrades: sql<{ id: number }>(
      `INSERT INTO trades (id, ${columnNames(TRADE_COLUMNS.slice(1))})
       SELECT (${highestId}) + r.n, ${columnNames(TRADE_COLUMNS.slice(1))} FROM ${dialect.jsonRows(TRADE_COLUMNS)} AS r
       RETURNING id`,
    ),
    highestId: sql<{ id: number }>(`SELECT ${highestId} AS id`),
    raiseFloor: sql(
      `INSERT INTO id_floors (name, id) VALUES ('${TRADE_ID_FLOOR}', @id)
       ON CONFLICT (name) DO UPDATE SET id = ${dialect.greatest('id_floors.id', 'excluded.id')}`,
    ),
    getCandle: sql<CandleRow>(`SELECT ${CANDLE_FIELDS} FROM candles_5m WHERE book_id = ? AND start_ms = ?`),
    insertCandle: sql(
      `INSERT INTO candles_5m (book_id, start_ms, open_ticks, high_ticks, low_ticks, close_ticks, base_volume, quote_volume,
         trade_count, routed_base_volume, routed_quote_volume, routed_trade_count)
       VALUES (@bookId, @start, @open, @high, @low, @close, @base, @quote, @count, @routedBase, @routedQuote, @routedCount)`,
    ),
    updateCandle: sql(
      `UPDATE candles_5m SET high_ticks = ${dialect.greatest('high_ticks', '@high')},
         low_ticks = ${dialect.least('low_ticks', '@low')}, close_ticks = @close,
         base_volume = @base, quote_volume = @quote, trade_count = trade_count + @count,
         routed_base_volume = @routedBase, routed_quote_volume = @routedQuote, routed_trade_count = routed_trade_count + @routedCount
       WHERE book_id = @bookId AND start_ms = @start`,
    ),
    pageAsc: sql<TradeRow>(
      `SELECT ${TRADE_FIELDS} FROM trades WHERE book_id = ? AND reverted_at IS NULL ORDER BY id ASC LIMIT ? OFFSET ?`,
    ),
    pageDesc: sql<TradeRow>(
      `SELECT ${TRADE_FIELDS} FROM trades WHERE book_id = ? AND reverted_at IS NULL ORDER BY id DESC LIMIT ? OFFSET ?`,
    ),
    countTrades: sql<{ total: number }>('SELECT count(*) AS total FROM trades WHERE book_id = ? AND reverted_at IS NULL'),
    latestTrade: sql<TradeRow>(
      `SELECT ${TRADE_FIELDS} FROM trades WHERE book_id = ? AND reverted_at IS NULL ORDER BY id DESC LIMIT 1`,
    ),
    revert: sql<TradeRow>(`UPDATE trades SET reverted_at = ? WHERE id = ? AND reverted_at IS NULL RETURNING ${TRADE_FIELDS}`),
    candleTrades: sql<TradeRow>(
      `SELECT ${TRADE_FIELDS} FROM trades WHERE book_id = ? AND executed_at >= ? AND executed_at < ? AND reverted_at IS NULL
       ORDER BY id`,
    ),
    deleteCandle: sql('DELETE FROM candles_5m WHERE book_id = ? AND start_ms = ?'),
    candlesSince: sql<CandleRow>(`SELECT ${CANDLE_FIELDS} FROM candles_5m WHERE book_id = ? AND start_ms >= ? ORDER BY start_ms`),
  };
}

type TradeStatements = ReturnType<typeof tradeStatements>;

/** Folds trades into their candles (candle-deltas.ts): one read and one write per candle touched, not per trade. */
async function foldIntoCandles(tx: SqlExecutor, statements: TradeStatements, trades: readonly NewTrade[]): Promise<void> {
  const deltas = candleDeltas(trades);
  const stored = await Promise.all(deltas.map((delta) => tx.get(statements.getCandle, delta.bookId, delta.start)));
  const writes = deltas.map((delta, index) => {
    const found = stored[index];
    const candle = found === undefined ? undefined : toCandle(found);
    const row = {
      bookId: delta.bookId,
      start: delta.start,
      high: delta.high,
      low: delta.low,
      close: delta.close,
      base: ((candle?.baseVolume ?? 0n) + delta.base).toString(),
      quote: ((candle?.quoteVolume ?? 0n) + delta.quote).toString(),
      count: delta.count,
      routedBase: ((candle?.routedBaseVolume ?? 0n) + delta.routedBase).toString(),
      routedQuote: ((candle?.routedQuoteVolume ?? 0n) + delta.routedQuote).toString(),
      routedCount: delta.routedCount,
    };
    return candle === undefined
      ? tx.run(statements.insertCandle, { ...row, open: delta.open })
      : tx.run(statements.updateCandle, row);
  });
  await Promise.all(writes);
}

/** New trades, as `TRADE_COLUMNS` lists them. */
function tradeRows(trades: readonly NewTrade[]): JsonRow[] {
  return trades.map((trade, index) => [
    index + 1,
    trade.bookId,
    trade.executedAt,
    trade.priceTicks.toString(),
    trade.price,
    trade.baseAmount.toString(),
    trade.quoteAmount.toString(),
    trade.direction,
    trade.makerOrderId,
    trade.takerOrderId,
  ]);
}

/** The trade tape and its 5-minute candles. */
export function sqlTradeStore(db: SqlClient): SqlTradeStore {
  const statements = tradeStatements(db.dialect);
  const insertWithin = async (tx: SqlExecutor, trades: readonly NewTrade[]): Promise<number[]> => {
    const ids = await insertRowsReturningIds(tx, statements.insertTrades, tradeRows(trades));
    await foldIntoCandles(tx, statements, trades);
    return ids;
  };

  /** A candle's extremes cannot be taken back one trade at a time: it is rebuilt from the trades it keeps. */
  const revertWithin = async (tx: SqlExecutor, failures: readonly SettlementFailure[]): Promise<void> => {
    const candles = new Map<string, { bookId: number; start: number }>();
    const reverted = await Promise.all(failures.map(({ tradeId, time }) => tx.get(statements.revert, time, tradeId)));
    for (const trade of reverted) {
      if (trade === undefined) continue;
      const start = candleStart(trade.executed_at);
      candles.set(`${trade.book_id}:${start}`, { bookId: trade.book_id, start });
    }
    for (const { bookId, start } of candles.values()) {
      await tx.run(statements.deleteCandle, bookId, start);
      const kept = await tx.all(statements.candleTrades, bookId, start, start + CANDLE_MS);
      await foldIntoCandles(tx, statements, kept.map(toTrade));
    }
  };

  return {
    insertWithin,
    revertWithin,
    async append(trades) {
      if (trades.length > 0) await db.transaction((tx) => insertWithin(tx, trades));
    },
    async page(bookId, order, offset, limit): Promise<TradePage> {
      const [rows, count] = await Promise.all([
        db.all(order === 'asc' ? statements.pageAsc : statements.pageDesc, bookId, limit, offset),
        db.get(statements.countTrades, bookId),
      ]);
      return { trades: rows.map(toTrade), total: Number(count?.total ?? 0) };
    },
    async latest(bookId) {
      const row = await db.get(statements.latestTrade, bookId);
      return row === undefined ? undefined : toTrade(row);
    },
    async highestId() {
      return Number((await db.get(statements.highestId))?.id ?? 0);
    },
    async skipIdsThrough(id) {
      if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not a trade id: ${id}`);
      await db.run(statements.raiseFloor, { id });
    },
    async windowStats(bookId, since): Promise<TradeWindowStats> {
      const candles = await db.all(statements.candlesSince, bookId, since - (since % CANDLE_MS));
      let highTicks: bigint | null = null;
      let lowTicks: bigint | null = null;
      let baseVolume = 0n;
      let quoteVolume = 0n;
      let tradeCount = 0;
      for (const candle of candles.map(toCandle)) {
        if (highTicks === null || candle.highTicks > highTicks) highTicks = candle.highTicks;
        if (lowTicks === null || candle.lowTicks < lowTicks) lowTicks = candle.lowTicks;
        baseVolume += candle.baseVolume;
        quoteVolume += candle.quoteVolume;
        tradeCount += candle.tradeCount;
      }
      return {
        openTicks: candles[0] === undefined ? null : BigInt(candles[0].open_ticks),
        highTicks,
        lowTicks,
        baseVolume,
        quoteVolume,
        tradeCount,
      };
    },
  };
}
