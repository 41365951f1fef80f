import type { Migration } from './migrations.js';

/**
 * Version 17: maker rebates. A negative maker fee is kept as a rebate beside the fee (the fee's own
 * check stays as shipped, and SQLite cannot change a check without rebuilding the table), and the
 * rebate's cap as a fraction of the taker's fee.
 */
export const MAKER_REBATES_MIGRATION: Migration = {
  version: 17,
  name: 'maker rebates: a negative maker fee, capped by a fraction of the taker fee, on books and fee overrides',
  sql: `
      ALTER TABLE books ADD COLUMN maker_rebate_pips INTEGER NOT NULL DEFAULT 0
        CHECK (maker_rebate_pips BETWEEN 0 AND 1000000);
      ALTER TABLE books ADD COLUMN cap_fraction_pips INTEGER NOT NULL DEFAULT 0
        CHECK (cap_fraction_pips BETWEEN 0 AND 1000000);
      ALTER TABLE fee_overrides ADD COLUMN maker_rebate_pips INTEGER NOT NULL DEFAULT 0
        CHECK (maker_rebate_pips BETWEEN 0 AND 1000000);
      ALTER TABLE fee_overrides ADD COLUMN cap_fraction_pips INTEGER NOT NULL DEFAULT 0
        CHECK (cap_fraction_pips BETWEEN 0 AND 1000000);
    `,
};
