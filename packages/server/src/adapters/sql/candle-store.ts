import type { Candle, CandleStore } from '../../ports/store/candle-ports.js';
import { type SqlClient, selectList, sql } from './sql-client.js';

/** A row of `candles_5m` (migrations 1 and 15), its prices as decimal text (see `selectList`). */
export interface CandleRow {
  book_id: number;
  start_ms: number;
  open_ticks: string;
  high_ticks: string;
  low_ticks: string;
  close_ticks: string;
  base_volume: string;
  quote_volume: string;
  trade_count: number;
  routed_base_volume: string;
  routed_quote_volume: string;
  routed_trade_count: number;
}

/** Every column of a candle row, its prices exactly. */
export const CANDLE_FIELDS = selectList(
  [
    'book_id',
    'start_ms',
    'open_ticks',
    'high_ticks',
    'low_ticks',
    'close_ticks',
    'base_volume',
    'quote_volume',
    'trade_count',
    'routed_base_volume',
    'routed_quote_volume',
    'routed_trade_count',
  ],
  ['open_ticks', 'high_ticks', 'low_ticks', 'close_ticks'],
);

export function toCandle(row: CandleRow): Candle {
  return {
    bookId: Number(row.book_id),
    startMs: Number(row.start_ms),
    openTicks: BigInt(row.open_ticks),
    highTicks: BigInt(row.high_ticks),
    lowTicks: BigInt(row.low_ticks),
    closeTicks: BigInt(row.close_ticks),
    baseVolume: BigInt(row.base_volume),
    quoteVolume: BigInt(row.quote_volume),
    tradeCount: Number(row.trade_count),
    routedBaseVolume: BigInt(row.routed_base_volume),
    routedQuoteVolume: BigInt(row.routed_quote_volume),
    routedTradeCount: Number(row.routed_trade_count),
  };
}

const statements = {
  range: sql<CandleRow>(
    `SELECT ${CANDLE_FIELDS} FROM candles_5m WHERE book_id = ? AND start_ms >= ? AND start_ms < ? ORDER BY start_ms`,
  ),
  lastBefore: sql<CandleRow>(
    `SELECT ${CANDLE_FIELDS} FROM candles_5m WHERE book_id = ? AND start_ms < ? ORDER BY start_ms DESC LIMIT 1`,
  ),
};

/** Reads `candles_5m`, which the trade store keeps in step with the trades. */
export function sqlCandleStore(db: SqlClient): CandleStore {
  return {
    async range(bookId, fromMs, toMs) {
      return (await db.all(statements.range, bookId, fromMs, toMs)).map(toCandle);
    },
    async lastBefore(bookId, atMs) {
      const row = await db.get(statements.lastBefore, bookId, atMs);
      return row === undefined ? undefined : toCandle(row);
    },
  };
}
