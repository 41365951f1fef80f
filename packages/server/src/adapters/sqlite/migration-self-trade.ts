import type { Migration } from './migrations.js';

/** Version 16: each order's self-trade prevention mode, EXPIRE_MAKER for those saved before. */
export const SELF_TRADE_MIGRATION: Migration = {
  version: 16,
  name: 'self-trade prevention: what matching does when an order meets one of its account',
  sql: `
      ALTER TABLE orders ADD COLUMN self_trade_prevention TEXT NOT NULL DEFAULT 'EXPIRE_MAKER'
        CHECK (self_trade_prevention IN ('EXPIRE_MAKER', 'EXPIRE_TAKER', 'EXPIRE_BOTH'));
    `,
};
