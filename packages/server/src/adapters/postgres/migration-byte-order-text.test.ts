import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../test-support/store-engines.js';
import { migratePostgres } from './postgres-store.js';
import { POSTGRES_MIGRATIONS } from './schema.js';

/**
 * A store written at version 9, in a database whose locale orders text as people read it: two
 * events of a settlement, and three acceptances of one millisecond whose versions a locale and
 * the bytes order apart.
 */
const BEFORE = [
  `INSERT INTO settlement_logs (tx_hash, log_index, block_number, block_hash, transaction_index, topics, data) VALUES
   ('0xab', 0, 7, '0xb7', 0, '["0x01"]', '0x'), ('0xab', 1, 7, '0xb7', 0, '["0x02","0x03"]', '0xff')`,
  `INSERT INTO terms_acceptances (account, document, version, text_sha256, accepted_at, client_address) VALUES
   ('0.0.5001', 'terms-of-service', 'v2', 'aa', 1000, '203.0.113.0'),
   ('0.0.5001', 'terms-of-service', 'V3', 'bb', 1000, NULL),
   ('0.0.5001', 'risk-notice', 'r1', 'cc', 1000, '203.0.113.0')`,
];

/** The store's own order of acceptances (terms-acceptance-store.ts). */
const VERSIONS = 'SELECT version FROM terms_acceptances ORDER BY accepted_at, account, document, version';
const ROWS = {
  settlement_logs: 'SELECT * FROM settlement_logs ORDER BY tx_hash, log_index',
  terms_acceptances: 'SELECT * FROM terms_acceptances ORDER BY text_sha256',
};

/** The collation of each text column of each index on the two tables, as `index.column collation`. */
const INDEX_COLLATIONS = `
  SELECT i.relname || '.' || a.attname || ' ' || co.collname AS entry
  FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
    JOIN unnest(x.indkey::int2[], x.indcollation::oid[]) AS k(attnum, coll) ON k.coll <> 0
    JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
    JOIN pg_collation co ON co.oid = k.coll
  WHERE x.indrelid IN ('settlement_logs'::regclass, 'terms_acceptances'::regclass)
  ORDER BY entry`;

const KEY_COLUMNS = [
  'settlement_logs_pkey.tx_hash',
  'terms_acceptances_pkey.account',
  'terms_acceptances_pkey.document',
  'terms_acceptances_pkey.text_sha256',
  'terms_acceptances_pkey.version',
];

const plain = (rows: readonly Record<string, unknown>[]) => rows.map((row) => ({ ...row }));

describe.skipIf(!POSTGRES_AVAILABLE)('the migration to byte-order text of settlement proofs and terms acceptances', () => {
  const database = usePostgresDatabase('each', 'byte_order_text', { icuLocale: 'en-US' });

  it('keeps every row, rebuilds the keys in byte order, and breaks ties of one millisecond as SQLite (version 10)', async () => {
    const sql = postgres(database.url(), { max: 1, onnotice: () => {} });
    try {
      await migratePostgres(sql, POSTGRES_MIGRATIONS.slice(0, 9));
      for (const statement of BEFORE) await sql.unsafe(statement);
      const before = {
        logs: plain(await sql.unsafe(ROWS.settlement_logs)),
        terms: plain(await sql.unsafe(ROWS.terms_acceptances)),
      };
      expect((await sql.unsafe(VERSIONS)).map((row) => row.version)).toEqual(['r1', 'v2', 'V3']);

      expect(await migratePostgres(sql, POSTGRES_MIGRATIONS.slice(0, 10))).toEqual([10]);

      expect(plain(await sql.unsafe(ROWS.settlement_logs))).toEqual(before.logs);
      expect(plain(await sql.unsafe(ROWS.terms_acceptances))).toEqual(before.terms);
      expect((await sql.unsafe(VERSIONS)).map((row) => row.version)).toEqual(['r1', 'V3', 'v2']);
      expect((await sql.unsafe(INDEX_COLLATIONS)).map((row) => row.entry)).toEqual(KEY_COLUMNS.map((column) => `${column} C`));
      const again = await sql.unsafe(
        `INSERT INTO terms_acceptances (account, document, version, text_sha256, accepted_at) VALUES ('0.0.5001', 'terms-of-service', 'V3', 'bb', 2000)
         ON CONFLICT (account, document, version, text_sha256) DO NOTHING`,
      );
      expect(again.count).toBe(0);
    } finally {
      await sql.end();
    }
  });
});
