import type { SqlDatabase } from './driver.js';
import { AMM_MIGRATION } from './migration-amm.js';
import { FORGOTTEN_ORDERS_MIGRATION } from './migration-forgotten-orders.js';
import { MAKER_REBATES_MIGRATION } from './migration-maker-rebates.js';
import { POOL_FILLS_MIGRATION } from './migration-pool-fills.js';
import { ROUTED_CANDLES_MIGRATION } from './migration-routed-candles.js';
import { SELF_TRADE_MIGRATION } from './migration-self-trade.js';
import { SETTLEMENT_PROOFS_MIGRATION } from './migration-settlement-proofs.js';
import { TERMS_ACCEPTANCES_MIGRATION } from './migration-terms-acceptances.js';

/**
 * Versioned schema changes, applied in order, each in its own transaction. Never edit a migration
 * that has shipped; add the next version instead.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /**
   * Rebuilds a table that others reference: foreign keys are off while it runs (SQLite's own
   * procedure for a table rebuild) and checked in full before it commits.
   */
  readonly rebuildsReferencedTable?: true;
  /** Work past SQL's reach (exact sums of decimal text), in the migration's transaction after its SQL. */
  readonly after?: (db: SqlDatabase) => void;
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
  {
    version: 2,
    name: 'account keys, orders, order history, nonces and fee overrides',
    sql: `
      CREATE TABLE account_keys (
        account_id TEXT PRIMARY KEY,
        account_num INTEGER NOT NULL UNIQUE,
        key_type TEXT NOT NULL CHECK (key_type IN ('ED25519', 'ECDSA_SECP256K1')),
        public_key TEXT NOT NULL,
        evm_address TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL
      ) STRICT;

      -- Per trading account: the last nonce handed out and the floor below which nothing is valid.
      CREATE TABLE trading_accounts (
        account TEXT PRIMARY KEY,
        last_nonce TEXT NOT NULL,
        nonce_floor TEXT NOT NULL
      ) STRICT;

      -- Nonces issued by /orders/build, until the deadline of the order they were issued for; a
      -- nonce is used when an order of the account carries it (orders_by_nonce keeps that unique).
      CREATE TABLE order_nonces (
        account TEXT NOT NULL,
        nonce TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (account, nonce)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX order_nonces_by_expiry ON order_nonces (expires_at);

      CREATE TABLE orders (
        id INTEGER PRIMARY KEY,
        order_hash TEXT NOT NULL UNIQUE,
        account TEXT NOT NULL,
        book_id INTEGER NOT NULL REFERENCES books (id),
        type TEXT NOT NULL CHECK (type IN ('LIMIT', 'MARKET')),
        side TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
        price_ticks INTEGER NOT NULL,
        quantity_steps INTEGER NOT NULL,
        filled_steps INTEGER NOT NULL,
        filled_input TEXT NOT NULL,
        filled_output TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'REJECTED')),
        reason TEXT,
        nonce TEXT NOT NULL,
        deadline INTEGER NOT NULL,
        oco_order_id INTEGER,
        signed_order TEXT NOT NULL,
        signature TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX orders_by_account ON orders (account, id);
      CREATE UNIQUE INDEX orders_by_nonce ON orders (account, nonce);
      CREATE INDEX orders_open ON orders (book_id, id) WHERE status IN ('OPEN', 'PARTIALLY_FILLED');

      CREATE TABLE order_events (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders (id),
        account TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('CREATED', 'PARTIAL_FILL', 'FILLED', 'CANCELED', 'EXPIRED', 'REJECTED')),
        timestamp INTEGER NOT NULL,
        tx_hash TEXT,
        reason TEXT,
        trade_id INTEGER REFERENCES trades (id),
        role TEXT CHECK (role IN ('maker', 'taker'))
      ) STRICT;
      CREATE INDEX order_events_by_order ON order_events (order_id, id);
      CREATE INDEX order_events_by_account ON order_events (account, id);

      CREATE TABLE fee_overrides (
        account TEXT NOT NULL,
        book_id INTEGER NOT NULL REFERENCES books (id),
        taker_fee_pips INTEGER NOT NULL CHECK (taker_fee_pips BETWEEN 0 AND 1000000),
        maker_fee_pips INTEGER NOT NULL CHECK (maker_fee_pips BETWEEN 0 AND 1000000),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (account, book_id)
      ) STRICT, WITHOUT ROWID;

      -- Depth update id of each book as of its last stored engine turn, so a restart continues it.
      CREATE TABLE book_state (
        book_id INTEGER PRIMARY KEY REFERENCES books (id),
        last_update_id INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: 'data API: token listing fields, API keys and their monthly usage, pools and farms',
    sql: `
      ALTER TABLE tokens ADD COLUMN sentinel_report TEXT;
      ALTER TABLE tokens ADD COLUMN twitter_handle TEXT;
      -- Raw units in circulation, recorded by the operator (the protocol token's feeds /stats).
      ALTER TABLE tokens ADD COLUMN circulating_supply TEXT;
      -- Curated lists of the data API (/tokens/known, /tokens/default).
      ALTER TABLE tokens ADD COLUMN is_known INTEGER NOT NULL DEFAULT 0 CHECK (is_known IN (0, 1));
      ALTER TABLE tokens ADD COLUMN is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1));

      -- Only the SHA-256 of a key is kept; the key itself is shown once, when it is issued.
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        key_hash TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        monthly_quota INTEGER NOT NULL CHECK (monthly_quota > 0),
        overage_allowed INTEGER NOT NULL CHECK (overage_allowed IN (0, 1)),
        environment TEXT NOT NULL CHECK (environment IN ('devnet', 'testnet', 'mainnet')),
        status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'SUSPENDED', 'REVOKED')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      -- Requests served per key and UTC month (month_start: unix ms), over-quota ones included.
      CREATE TABLE api_key_usage (
        key_id INTEGER NOT NULL REFERENCES api_keys (id),
        month_start INTEGER NOT NULL,
        requests INTEGER NOT NULL CHECK (requests >= 0),
        PRIMARY KEY (key_id, month_start)
      ) STRICT, WITHOUT ROWID;

      -- Constant-product pools and their liquidity-mining farms (filled by the AMM issue).
      CREATE TABLE pools (
        id INTEGER PRIMARY KEY,
        contract_id TEXT NOT NULL UNIQUE,
        lp_token_id TEXT NOT NULL UNIQUE REFERENCES tokens (id),
        token_a_id TEXT NOT NULL REFERENCES tokens (id),
        token_b_id TEXT NOT NULL REFERENCES tokens (id),
        lp_token_reserve TEXT NOT NULL,
        token_reserve_a TEXT NOT NULL,
        token_reserve_b TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        CHECK (token_a_id <> token_b_id)
      ) STRICT;

      CREATE TABLE farms (
        id INTEGER PRIMARY KEY,
        pool_id INTEGER NOT NULL REFERENCES pools (id),
        sauce_emissions TEXT NOT NULL,
        hbar_emissions TEXT NOT NULL,
        total_staked TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE farm_stakes (
        farm_id INTEGER NOT NULL REFERENCES farms (id),
        account_id TEXT NOT NULL,
        staked TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, farm_id)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'settlement of trades on the reactor and the indexer cursor',
    sql: `
      -- One row per trade matched while settlement exists: pending until sent, submitted with the
      -- hash of the transaction that carries it, then settled (from the reactor's Filled event) or
      -- failed (dropped before or by the reactor, with the reason).
      CREATE TABLE settlements (
        trade_id INTEGER PRIMARY KEY REFERENCES trades (id),
        maker_order_id INTEGER NOT NULL,
        taker_order_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'submitted', 'settled', 'failed')),
        tx_hash TEXT,
        block_number INTEGER,
        maker_fee TEXT,
        taker_fee TEXT,
        reason TEXT,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX settlements_unsettled ON settlements (status, trade_id) WHERE status IN ('pending', 'submitted');
      -- Orders with a fill in flight: a cancellation is final only once they have none.
      CREATE INDEX settlements_unsettled_maker ON settlements (maker_order_id) WHERE status IN ('pending', 'submitted');
      CREATE INDEX settlements_unsettled_taker ON settlements (taker_order_id) WHERE status IN ('pending', 'submitted');
      -- Cancellations asked for through the API, until the reactor confirms them: the order is off
      -- its book at once, and CANCELED once the reactor emitted OrderCancelled for it and no fill
      -- of it is in flight.
      CREATE TABLE order_cancellations (
        order_id INTEGER PRIMARY KEY REFERENCES orders (id),
        reason TEXT NOT NULL,
        requested_at INTEGER NOT NULL,
        -- The operator's cancelFor transaction, once sent.
        tx_hash TEXT,
        -- The transaction whose OrderCancelled event confirmed it (whoever sent it).
        confirmed_tx_hash TEXT,
        finalized_at INTEGER
      ) STRICT;
      CREATE INDEX order_cancellations_open ON order_cancellations (order_id) WHERE finalized_at IS NULL;
      -- Nonce floors raised through the API, until the operator has raised them on the reactor too.
      CREATE TABLE nonce_floor_relays (
        account TEXT PRIMARY KEY,
        floor TEXT NOT NULL,
        tx_hash TEXT
      ) STRICT;
      CREATE INDEX order_events_by_trade ON order_events (trade_id) WHERE trade_id IS NOT NULL;
      -- Last block whose reactor events are applied, per chain and reactor.
      CREATE TABLE chain_cursors (
        name TEXT PRIMARY KEY,
        block_number INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 5,
    name: 'dead-man switches of POST /cancel/after',
    sql: `
      -- At most one per account: at trigger_at (unix ms) its open orders are cancelled.
      CREATE TABLE cancel_after_switches (
        account TEXT PRIMARY KEY,
        trigger_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 6,
    name: 'blocks of confirmed cancellations and raised floors, to send again what the chain lost',
    sql: `
      -- The block of the OrderCancelled event (or of the relay transaction whose state showed it).
      ALTER TABLE order_cancellations ADD COLUMN confirmed_block INTEGER;
      -- When the chain was found to have lost a cancellation already final here: sent again.
      ALTER TABLE order_cancellations ADD COLUMN lost_at INTEGER;
      -- The block of the operator's cancelAllFor transaction.
      ALTER TABLE nonce_floor_relays ADD COLUMN mined_block INTEGER;
    `,
  },
  {
    version: 7,
    name: 'fills the reactor refused: a FILL_REVERTED history event, and trades taken off the tape',
    sql: `
      -- SQLite cannot change a CHECK constraint in place: the table is rebuilt with its ids.
      CREATE TABLE order_events_v7 (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders (id),
        account TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('CREATED', 'PARTIAL_FILL', 'FILLED', 'FILL_REVERTED', 'CANCELED', 'EXPIRED', 'REJECTED')),
        timestamp INTEGER NOT NULL,
        tx_hash TEXT,
        reason TEXT,
        trade_id INTEGER REFERENCES trades (id),
        role TEXT CHECK (role IN ('maker', 'taker'))
      ) STRICT;
      INSERT INTO order_events_v7 (id, order_id, account, type, timestamp, tx_hash, reason, trade_id, role)
        SELECT id, order_id, account, type, timestamp, tx_hash, reason, trade_id, role FROM order_events;
      DROP TABLE order_events;
      ALTER TABLE order_events_v7 RENAME TO order_events;
      CREATE INDEX order_events_by_order ON order_events (order_id, id);
      CREATE INDEX order_events_by_account ON order_events (account, id);
      CREATE INDEX order_events_by_trade ON order_events (trade_id) WHERE trade_id IS NOT NULL;
      -- A trade whose settlement failed is undone: off the tape and out of its candle from then on.
      ALTER TABLE trades ADD COLUMN reverted_at INTEGER;
      -- The trades of one candle, to rebuild it without a reverted one.
      CREATE INDEX trades_by_time ON trades (book_id, executed_at);
    `,
  },
  AMM_MIGRATION,
  POOL_FILLS_MIGRATION,
  {
    version: 10,
    name: 'id floors: trade ids the chain used already (fill ids settled past a restored backup)',
    sql: `
      -- Ids at or below a floor are never handed out: a trade takes max(highest id, floor) + 1.
      CREATE TABLE id_floors (
        name TEXT PRIMARY KEY,
        id INTEGER NOT NULL CHECK (id >= 0)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  FORGOTTEN_ORDERS_MIGRATION,
  {
    version: 12,
    name: 'command positions: the last command of its log each shard of books applied',
    sql: `
      CREATE TABLE command_positions (
        shard INTEGER PRIMARY KEY CHECK (shard >= 0),
        seq INTEGER NOT NULL CHECK (seq >= 0)
      ) STRICT;
    `,
  },
  {
    version: 13,
    name: "the book each nonce was built for: only that book's engine may take it",
    sql: `
      ALTER TABLE order_nonces ADD COLUMN book_id INTEGER;
    `,
  },
  {
    version: 14,
    name: "each order event's place among its order's events",
    sql: `
      -- Counts the events of one order from 1 (CREATED is 1), as the live user stream's \`sequence\`.
      ALTER TABLE order_events ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0;
      UPDATE order_events SET sequence = (
        SELECT count(*) FROM order_events AS earlier
        WHERE earlier.order_id = order_events.order_id AND earlier.id <= order_events.id
      );
    `,
  },
  ROUTED_CANDLES_MIGRATION,
  SELF_TRADE_MIGRATION,
  MAKER_REBATES_MIGRATION,
  SETTLEMENT_PROOFS_MIGRATION,
  TERMS_ACCEPTANCES_MIGRATION,
];
