import type { PostgresMigration } from './schema.js';

/** Version 8 (SQLite version 18): the reactor's events of each settlement transaction. */
export const SETTLEMENT_PROOFS_MIGRATION: PostgresMigration = {
  version: 8,
  name: "settlement proofs: the reactor's events of each settlement transaction (SQLite version 18)",
  sql: `
      CREATE TABLE settlement_logs (
        tx_hash TEXT NOT NULL,
        log_index BIGINT NOT NULL CHECK (log_index >= 0),
        block_number BIGINT NOT NULL CHECK (block_number >= 0),
        block_hash TEXT NOT NULL,
        transaction_index BIGINT NOT NULL CHECK (transaction_index >= 0),
        topics TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (tx_hash, log_index)
      );
      CREATE INDEX settlement_logs_by_block ON settlement_logs (block_number);
    `,
};
