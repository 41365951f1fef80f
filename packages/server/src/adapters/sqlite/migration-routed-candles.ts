import { type CandleTrade, candleDeltas } from '../sql/candle-deltas.js';
import type { SqlDatabase } from './driver.js';
import type { Migration } from './migrations.js';

/** The buckets (5 minutes) of every routed swap still on the tape. */
const ROUTED_BUCKETS = `
  SELECT DISTINCT book_id, executed_at - executed_at % 300000 FROM trades
  WHERE maker_order_id IS NULL AND reverted_at IS NULL`;

/**
 * Rebuilds the candles of the buckets that hold routed swaps from their trades. The sums are taken
 * here, exactly: SQLite would sum the text amounts as 64-bit integers, or as floats past them.
 */
function refoldRoutedBuckets(db: SqlDatabase): void {
  const rows = db
    .prepare<{
      book_id: number;
      executed_at: number;
      price_ticks: string;
      base_amount: string;
      quote_amount: string;
      maker_order_id: number | null;
    }>(
      `SELECT book_id, executed_at, CAST(price_ticks AS TEXT) AS price_ticks, base_amount, quote_amount, maker_order_id
       FROM trades WHERE reverted_at IS NULL AND (book_id, executed_at - executed_at % 300000) IN (${ROUTED_BUCKETS})
       ORDER BY id`,
    )
    .all();
  const trades: CandleTrade[] = rows.map((row) => ({
    bookId: Number(row.book_id),
    executedAt: Number(row.executed_at),
    priceTicks: BigInt(row.price_ticks),
    baseAmount: BigInt(row.base_amount),
    quoteAmount: BigInt(row.quote_amount),
    makerOrderId: row.maker_order_id === null ? null : Number(row.maker_order_id),
  }));
  const drop = db.prepare('DELETE FROM candles_5m WHERE book_id = ? AND start_ms = ?');
  const insert = db.prepare(
    `INSERT INTO candles_5m (book_id, start_ms, open_ticks, high_ticks, low_ticks, close_ticks, base_volume, quote_volume,
       trade_count, routed_base_volume, routed_quote_volume, routed_trade_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const delta of candleDeltas(trades)) {
    drop.run(delta.bookId, delta.start);
    insert.run(
      delta.bookId,
      delta.start,
      delta.open,
      delta.high,
      delta.low,
      delta.close,
      delta.base.toString(),
      delta.quote.toString(),
      delta.count,
      delta.routedBase.toString(),
      delta.routedQuote.toString(),
      delta.routedCount,
    );
  }
}

/**
 * Version 15: a book's candles count every trade of its tape, the taker's swaps with the book's
 * pool too, so its 24-hour figures and its tape agree; the routed part is kept apart, for the
 * exchange-wide volumes that count the pools' candles as well.
 */
export const ROUTED_CANDLES_MIGRATION: Migration = {
  version: 15,
  name: "book candles count the swaps with the book's pool, apart as well",
  sql: `
    ALTER TABLE candles_5m ADD COLUMN routed_base_volume TEXT NOT NULL DEFAULT '0';
    ALTER TABLE candles_5m ADD COLUMN routed_quote_volume TEXT NOT NULL DEFAULT '0';
    ALTER TABLE candles_5m ADD COLUMN routed_trade_count INTEGER NOT NULL DEFAULT 0;
  `,
  after: refoldRoutedBuckets,
};
