/**
 * Versioned schema changes, applied in order, each in its own transaction. Never edit a migration
 * that has shipped; add the next version instead.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tokens, books, trades and 5-minute candles',
    sql: `
      CREATE TABLE tokens (
        id TEXT PRIMARY KEY,
        evm_address TEXT NOT NULL UNIQUE,
        symbol TEXT NOT NULL,
        name TEXT NOT NULL,
        decimals INTEGER NOT NULL CHECK (decimals BETWEEN 0 AND 36),
        icon TEXT,
        description TEXT,
        website TEXT,
        due_diligence_complete INTEGER NOT NULL CHECK (due_diligence_complete IN (0, 1)),
        is_fee_on_transfer INTEGER NOT NULL CHECK (is_fee_on_transfer IN (0, 1)),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE books (
        id INTEGER PRIMARY KEY,
        base_token_id TEXT NOT NULL REFERENCES tokens (id),
        quote_token_id TEXT NOT NULL REFERENCES tokens (id),
        status TEXT NOT NULL CHECK (status IN ('OPEN', 'CLOSED')),
        is_amm_enabled INTEGER NOT NULL CHECK (is_amm_enabled IN (0, 1)),
        is_halted INTEGER NOT NULL CHECK (is_halted IN (0, 1)),
        tick_step TEXT NOT NULL,
        size_step TEXT NOT NULL,
        lot_size TEXT NOT NULL,
        min_notional TEXT NOT NULL,
        taker_fee_pips INTEGER NOT NULL CHECK (taker_fee_pips BETWEEN 0 AND 1000000),
        maker_fee_pips INTEGER NOT NULL CHECK (maker_fee_pips BETWEEN 0 AND 1000000),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (base_token_id, quote_token_id),
        CHECK (base_token_id <> quote_token_id)
      ) STRICT;

      CREATE TABLE trades (
        id INTEGER PRIMARY KEY,
        book_id INTEGER NOT NULL REFERENCES books (id),
        executed_at INTEGER NOT NULL,
        price_ticks INTEGER NOT NULL,
        price TEXT NOT NULL,
        base_amount TEXT NOT NULL,
        quote_amount TEXT NOT NULL,
        direction TEXT NOT NULL CHECK (direction IN ('buy', 'sell')),
        maker_order_id INTEGER NOT NULL,
        taker_order_id INTEGER NOT NULL,
        transaction_hash TEXT
      ) STRICT;
      CREATE INDEX trades_by_book ON trades (book_id, id);

      CREATE TABLE candles_5m (
        book_id INTEGER NOT NULL REFERENCES books (id),
        start_ms INTEGER NOT NULL,
        open_ticks INTEGER NOT NULL,
        high_ticks INTEGER NOT NULL,
        low_ticks INTEGER NOT NULL,
        close_ticks INTEGER NOT NULL,
        base_volume TEXT NOT NULL,
        quote_volume TEXT NOT NULL,
        trade_count INTEGER NOT NULL,
        PRIMARY KEY (book_id, start_ms)
      ) STRICT, WITHOUT ROWID;
    `,
  },
];
