import type { Migration } from './migrations.js';

/**
 * Version 18: the reactor's events of each settlement transaction, kept so that a trade's
 * transaction can be looked up after the node has forgotten its receipt.
 */
export const SETTLEMENT_PROOFS_MIGRATION: Migration = {
  version: 18,
  name: "settlement proofs: the reactor's events of each settlement transaction",
  sql: `
      CREATE TABLE settlement_logs (
        tx_hash TEXT NOT NULL,
        log_index INTEGER NOT NULL CHECK (log_index >= 0),
        block_number INTEGER NOT NULL CHECK (block_number >= 0),
        block_hash TEXT NOT NULL,
        transaction_index INTEGER NOT NULL CHECK (transaction_index >= 0),
        topics TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (tx_hash, log_index)
      ) STRICT;
      CREATE INDEX settlement_logs_by_block ON settlement_logs (block_number);
    `,
};
