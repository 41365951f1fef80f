import type { PostgresMigration } from './schema.js';

/** Version 7 (SQLite version 17): maker rebates, kept as SQLite keeps them so one store layer reads both. */
export const MAKER_REBATES_MIGRATION: PostgresMigration = {
  version: 7,
  name: 'maker rebates: a negative maker fee, capped by a fraction of the taker fee (SQLite version 17)',
  sql: `
      ALTER TABLE books ADD COLUMN maker_rebate_pips BIGINT NOT NULL DEFAULT 0
        CHECK (maker_rebate_pips BETWEEN 0 AND 1000000);
      ALTER TABLE books ADD COLUMN cap_fraction_pips BIGINT NOT NULL DEFAULT 0
        CHECK (cap_fraction_pips BETWEEN 0 AND 1000000);
      ALTER TABLE fee_overrides ADD COLUMN maker_rebate_pips BIGINT NOT NULL DEFAULT 0
        CHECK (maker_rebate_pips BETWEEN 0 AND 1000000);
      ALTER TABLE fee_overrides ADD COLUMN cap_fraction_pips BIGINT NOT NULL DEFAULT 0
        CHECK (cap_fraction_pips BETWEEN 0 AND 1000000);
    `,
};
