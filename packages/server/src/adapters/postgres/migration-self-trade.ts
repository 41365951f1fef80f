import type { PostgresMigration } from './schema.js';

/** Version 6 (SQLite version 16): each order's self-trade prevention mode, EXPIRE_MAKER for those saved before. */
export const SELF_TRADE_MIGRATION: PostgresMigration = {
  version: 6,
  name: 'self-trade prevention: what matching does when an order meets one of its account (SQLite version 16)',
  sql: `
      ALTER TABLE orders ADD COLUMN self_trade_prevention ctext NOT NULL DEFAULT 'EXPIRE_MAKER'
        CHECK (self_trade_prevention IN ('EXPIRE_MAKER', 'EXPIRE_TAKER', 'EXPIRE_BOTH'));
    `,
};
