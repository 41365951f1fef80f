import type { PostgresMigration } from './schema.js';

/**
 * Version 10 (no SQLite version: SQLite compares all text byte by byte already): the text of
 * versions 8 and 9 is `ctext`, as every other table's, so the tie-break of acceptances of one
 * millisecond and any comparison on these columns agree with SQLite whatever the database's locale.
 * The rows keep their bytes (text to ctext needs no rewrite); the keys and indexes on the columns
 * are rebuilt in the "C" collation by PostgreSQL itself.
 */
export const BYTE_ORDER_TEXT_MIGRATION: PostgresMigration = {
  version: 10,
  name: 'settlement proofs and terms acceptances compare text byte by byte, as the other tables and SQLite do',
  sql: `
      ALTER TABLE settlement_logs
        ALTER COLUMN tx_hash TYPE ctext,
        ALTER COLUMN block_hash TYPE ctext,
        ALTER COLUMN topics TYPE ctext,
        ALTER COLUMN data TYPE ctext;
      ALTER TABLE terms_acceptances
        ALTER COLUMN account TYPE ctext,
        ALTER COLUMN document TYPE ctext,
        ALTER COLUMN version TYPE ctext,
        ALTER COLUMN text_sha256 TYPE ctext,
        ALTER COLUMN client_address TYPE ctext;
    `,
};
