import type { Migration } from './migrations.js';

/**
 * Version 9: takers routed into a book's pool. A swap with the pool is a trade without a maker
 * order, so `trades` and `settlements` are rebuilt with a nullable maker (SQLite cannot drop NOT
 * NULL in place), keeping every id; orders record whether they opted in.
 */
export const POOL_FILLS_MIGRATION: Migration = {
  version: 9,
  name: 'pool fills: trades and settlements without a maker order, and the AMM opt-in of orders',
  // order_events and settlements reference trades.
  rebuildsReferencedTable: true,
  sql: `
    CREATE TABLE trades_v9 (
      id INTEGER PRIMARY KEY,
      book_id INTEGER NOT NULL REFERENCES books (id),
      executed_at INTEGER NOT NULL,
      price_ticks INTEGER NOT NULL,
      price TEXT NOT NULL,
      base_amount TEXT NOT NULL,
      quote_amount TEXT NOT NULL,
      direction TEXT NOT NULL CHECK (direction IN ('buy', 'sell')),
      -- Null: the taker swapped with the book's pool.
      maker_order_id INTEGER,
      taker_order_id INTEGER NOT NULL,
      transaction_hash TEXT,
      reverted_at INTEGER
    ) STRICT;
    INSERT INTO trades_v9 (id, book_id, executed_at, price_ticks, price, base_amount, quote_amount, direction,
        maker_order_id, taker_order_id, transaction_hash, reverted_at)
      SELECT id, book_id, executed_at, price_ticks, price, base_amount, quote_amount, direction,
        maker_order_id, taker_order_id, transaction_hash, reverted_at FROM trades;
    CREATE TABLE settlements_v9 (
      trade_id INTEGER PRIMARY KEY REFERENCES trades (id),
      maker_order_id INTEGER,
      taker_order_id INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'submitted', 'settled', 'failed')),
      tx_hash TEXT,
      block_number INTEGER,
      maker_fee TEXT,
      taker_fee TEXT,
      reason TEXT,
      updated_at INTEGER NOT NULL
    ) STRICT;
    INSERT INTO settlements_v9 SELECT trade_id, maker_order_id, taker_order_id, status, tx_hash, block_number,
      maker_fee, taker_fee, reason, updated_at FROM settlements;
    DROP TABLE settlements;
    DROP TABLE trades;
    ALTER TABLE trades_v9 RENAME TO trades;
    ALTER TABLE settlements_v9 RENAME TO settlements;
    CREATE INDEX trades_by_book ON trades (book_id, id);
    CREATE INDEX trades_by_time ON trades (book_id, executed_at);
    CREATE INDEX settlements_unsettled ON settlements (status, trade_id) WHERE status IN ('pending', 'submitted');
    CREATE INDEX settlements_unsettled_maker ON settlements (maker_order_id) WHERE status IN ('pending', 'submitted');
    CREATE INDEX settlements_unsettled_taker ON settlements (taker_order_id) WHERE status IN ('pending', 'submitted');
    -- 1: the order may take part of its quantity from the book's pool.
    ALTER TABLE orders ADD COLUMN use_amm INTEGER NOT NULL DEFAULT 0 CHECK (use_amm IN (0, 1));
  `,
};
