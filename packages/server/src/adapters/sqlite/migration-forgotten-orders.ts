import type { Migration } from './migrations.js';

/**
 * Version 11: the block in which the reactor freed an expired order's record (0: it never held
 * one). Orders not forgotten yet stay in a small index by deadline, so the sweep reads only them.
 */
export const FORGOTTEN_ORDERS_MIGRATION: Migration = {
  version: 11,
  name: 'expired orders forgotten by the reactor',
  sql: `
    ALTER TABLE orders ADD COLUMN forgotten_block INTEGER;
    CREATE INDEX orders_unforgotten ON orders (deadline) WHERE forgotten_block IS NULL;
  `,
};
