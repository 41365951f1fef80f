import type { PostgresMigration } from './schema.js';

/**
 * Version 5 (SQLite version 15): a book's candles count every trade of its tape, the swaps with
 * the book's pool too, and sum those apart; the candles of the buckets that hold such swaps are
 * rebuilt from the trades, numeric sums being exact.
 */
export const ROUTED_CANDLES_MIGRATION: PostgresMigration = {
  version: 5,
  name: "book candles count the swaps with the book's pool, apart as well (SQLite version 15)",
  sql: `
      -- Every trade of the tape counts in its book's candles, so the 24-hour figures agree with the
      -- tape; the swaps with the book's pool are summed apart too, for the exchange-wide volumes.
      ALTER TABLE candles_5m
        ADD COLUMN routed_base_volume ctext NOT NULL DEFAULT '0',
        ADD COLUMN routed_quote_volume ctext NOT NULL DEFAULT '0',
        ADD COLUMN routed_trade_count BIGINT NOT NULL DEFAULT 0;
      CREATE TEMPORARY TABLE routed_buckets ON COMMIT DROP AS
        SELECT DISTINCT book_id, executed_at - executed_at % 300000 AS start_ms FROM trades
        WHERE maker_order_id IS NULL AND reverted_at IS NULL;
      DELETE FROM candles_5m AS c USING routed_buckets AS r WHERE c.book_id = r.book_id AND c.start_ms = r.start_ms;
      -- numeric sums are exact; integer-valued numeric prints without a decimal point.
      INSERT INTO candles_5m (book_id, start_ms, open_ticks, high_ticks, low_ticks, close_ticks, base_volume, quote_volume,
          trade_count, routed_base_volume, routed_quote_volume, routed_trade_count)
        SELECT t.book_id, r.start_ms,
          (array_agg(t.price_ticks ORDER BY t.id))[1], max(t.price_ticks), min(t.price_ticks),
          (array_agg(t.price_ticks ORDER BY t.id DESC))[1],
          sum(t.base_amount::numeric)::text, sum(t.quote_amount::numeric)::text, count(*),
          coalesce(sum(t.base_amount::numeric) FILTER (WHERE t.maker_order_id IS NULL), 0)::text,
          coalesce(sum(t.quote_amount::numeric) FILTER (WHERE t.maker_order_id IS NULL), 0)::text,
          count(*) FILTER (WHERE t.maker_order_id IS NULL)
        FROM trades AS t JOIN routed_buckets AS r
          ON t.book_id = r.book_id AND t.executed_at - t.executed_at % 300000 = r.start_ms
        WHERE t.reverted_at IS NULL
        GROUP BY t.book_id, r.start_ms;
    `,
};
