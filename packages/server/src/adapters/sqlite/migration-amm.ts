import type { Migration } from './migrations.js';

/**
 * Version 8: the AMM read from the chain. Pools, farms and stakes are rebuilt (SQLite cannot drop a
 * reference in place; rows recorded by hand are kept), and the history the indexer keeps is added.
 */
export const AMM_MIGRATION: Migration = {
  version: 8,
  name: 'AMM from the chain: pools with their LP token, history and candles, farm events and program, staking snapshots',
  sql: `
    -- A pair is its own LP token: its name, symbol and decimals live here, not in the token
    -- registry. Its tokens are named by id without a reference to the registry: a pair may hold a
    -- token that is not listed yet (the data API shows the pool once both are).
    CREATE TABLE pools_v8 (
      id INTEGER PRIMARY KEY,
      contract_id TEXT NOT NULL UNIQUE,
      lp_token_id TEXT NOT NULL UNIQUE,
      lp_token_name TEXT NOT NULL,
      lp_token_symbol TEXT NOT NULL,
      lp_token_decimals INTEGER NOT NULL CHECK (lp_token_decimals BETWEEN 0 AND 36),
      token_a_id TEXT NOT NULL,
      token_b_id TEXT NOT NULL,
      lp_token_reserve TEXT NOT NULL,
      token_reserve_a TEXT NOT NULL,
      token_reserve_b TEXT NOT NULL,
      -- The pair's lower-case address and the block that created it; null for a pool recorded by hand.
      address TEXT UNIQUE,
      created_block INTEGER,
      updated_at INTEGER NOT NULL,
      CHECK (token_a_id <> token_b_id)
    ) STRICT;
    INSERT INTO pools_v8 (id, contract_id, lp_token_id, lp_token_name, lp_token_symbol, lp_token_decimals, token_a_id,
        token_b_id, lp_token_reserve, token_reserve_a, token_reserve_b, updated_at)
      SELECT p.id, p.contract_id, p.lp_token_id, t.name, t.symbol, t.decimals, p.token_a_id, p.token_b_id,
        p.lp_token_reserve, p.token_reserve_a, p.token_reserve_b, p.updated_at
      FROM pools p JOIN tokens t ON t.id = p.lp_token_id;

    -- One farm per pool of the farm contract (id: its pool index). pool_id is the exchange's pool
    -- whose pair is the LP token (null for any other token: such a farm is not listed); lp_token is
    -- null for a farm recorded by hand. Emissions are the pool's share of the farm's rates.
    CREATE TABLE farms_v8 (
      id INTEGER PRIMARY KEY,
      pool_id INTEGER,
      lp_token TEXT,
      alloc_point TEXT NOT NULL,
      sauce_emissions TEXT NOT NULL,
      hbar_emissions TEXT NOT NULL,
      total_staked TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    INSERT INTO farms_v8 (id, pool_id, lp_token, alloc_point, sauce_emissions, hbar_emissions, total_staked, updated_at)
      SELECT id, pool_id, NULL, '0', sauce_emissions, hbar_emissions, total_staked, updated_at FROM farms;
    -- From the chain, account_id is the staker's lower-case address.
    CREATE TABLE farm_stakes_v8 (
      farm_id INTEGER NOT NULL REFERENCES farms_v8 (id),
      account_id TEXT NOT NULL,
      staked TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (account_id, farm_id)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO farm_stakes_v8 (farm_id, account_id, staked, updated_at)
      SELECT farm_id, account_id, staked, updated_at FROM farm_stakes;
    DROP TABLE farm_stakes;
    DROP TABLE farms;
    DROP TABLE pools;
    ALTER TABLE pools_v8 RENAME TO pools;
    ALTER TABLE farms_v8 RENAME TO farms;
    ALTER TABLE farm_stakes_v8 RENAME TO farm_stakes;

    -- The farm's rates for all its pools together (one row): SAUCE raw units, native wei per second.
    CREATE TABLE farm_program (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      sauce_per_second TEXT NOT NULL,
      native_per_second TEXT NOT NULL
    ) STRICT;
    -- The farm's events (JSON), applied again from the start after a rewind.
    CREATE TABLE farm_events (
      block_number INTEGER NOT NULL,
      log_index INTEGER NOT NULL,
      event TEXT NOT NULL,
      PRIMARY KEY (block_number, log_index)
    ) STRICT, WITHOUT ROWID;

    -- Every change of a pool: its state after the event, and what a swap moved (A, B in and out).
    CREATE TABLE pool_events (
      block_number INTEGER NOT NULL,
      log_index INTEGER NOT NULL,
      pool_id INTEGER NOT NULL REFERENCES pools (id),
      at_ms INTEGER NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('LP', 'SYNC', 'SWAP')),
      reserve_a TEXT NOT NULL,
      reserve_b TEXT NOT NULL,
      lp_supply TEXT NOT NULL,
      a_in TEXT,
      b_in TEXT,
      a_out TEXT,
      b_out TEXT,
      PRIMARY KEY (block_number, log_index)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX pool_events_by_pool ON pool_events (pool_id, block_number, log_index);

    -- Five minutes of a pool (pool-candle.ts), folded in as its events are recorded; reserves of
    -- the open, highest, lowest and closing price (B per A).
    CREATE TABLE pool_candles_5m (
      pool_id INTEGER NOT NULL REFERENCES pools (id),
      start_ms INTEGER NOT NULL,
      open_a TEXT NOT NULL,
      open_b TEXT NOT NULL,
      high_a TEXT NOT NULL,
      high_b TEXT NOT NULL,
      low_a TEXT NOT NULL,
      low_b TEXT NOT NULL,
      close_a TEXT NOT NULL,
      close_b TEXT NOT NULL,
      lp_supply TEXT NOT NULL,
      a_in TEXT NOT NULL,
      b_in TEXT NOT NULL,
      a_out TEXT NOT NULL,
      b_out TEXT NOT NULL,
      swaps INTEGER NOT NULL,
      PRIMARY KEY (pool_id, start_ms)
    ) STRICT, WITHOUT ROWID;

    -- SAUCE held by the staking contract and xSAUCE in existence, at the end of each block that changed them.
    CREATE TABLE staking_snapshots (
      block_number INTEGER PRIMARY KEY,
      at_ms INTEGER NOT NULL,
      sauce TEXT NOT NULL,
      xsauce TEXT NOT NULL
    ) STRICT;
    CREATE INDEX staking_snapshots_by_time ON staking_snapshots (at_ms);
  `,
};
