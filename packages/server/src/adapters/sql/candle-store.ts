import type { Candle, CandleStore } from '../../ports/store/candle-ports.js';
import { type SqlClient, sql } from './sql-client.js';

/** A row of `candles_5m` (migration 1). */
export interface CandleRow {
  book_id: number;
  start_ms: number;
  open_ticks: number;
  high_ticks: number;
  low_ticks: number;
  close_ticks: number;
  base_volume: string;
  quote_volume: string;
  trade_count: number;
}

function toCandle(row: CandleRow): Candle {
  return {
    bookId: Number(row.book_id),
    startMs: Number(row.start_ms),
    openTicks: Number(row.open_ticks),
    highTicks: Number(row.high_ticks),
    lowTicks: Number(row.low_ticks),
    closeTicks: Number(row.close_ticks),
    baseVolume: BigInt(row.base_volume),
    quoteVolume: BigInt(row.quote_volume),
    tradeCount: Number(row.trade_count),
  };
}

const statements = {
  range: sql<CandleRow>('SELECT * FROM candles_5m WHERE book_id = ? AND start_ms >= ? AND start_ms < ? ORDER BY start_ms'),
  lastBefore: sql<CandleRow>('SELECT * FROM candles_5m WHERE book_id = ? AND start_ms < ? ORDER BY start_ms DESC LIMIT 1'),
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
