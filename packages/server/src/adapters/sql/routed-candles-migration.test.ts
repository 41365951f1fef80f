import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../test-support/store-engines.js';
import { migratePostgres } from '../postgres/postgres-store.js';
import { POSTGRES_MIGRATIONS } from '../postgres/schema.js';
import { openDatabase } from '../sqlite/driver.js';
import { MIGRATIONS } from '../sqlite/migrations.js';
import { migrate } from '../sqlite/sqlite-store.js';

/**
 * A store written before book candles counted routed swaps: two buckets hold swaps with the pool
 * (one of them reverted, one past 2^64 raw units), one only a book trade; the candles count the
 * book trades alone, as that version folded them.
 */
const BEFORE = [
  `INSERT INTO tokens (id, evm_address, symbol, name, decimals, due_diligence_complete, is_fee_on_transfer, created_at, updated_at)
   VALUES ('0.0.1', '0x01', 'A', 'A', 18, 1, 0, 1, 1), ('0.0.2', '0x02', 'B', 'B', 6, 1, 0, 1, 1)`,
  `INSERT INTO books (id, base_token_id, quote_token_id, status, is_amm_enabled, is_halted, tick_step, size_step, lot_size,
     min_notional, taker_fee_pips, maker_fee_pips, created_at, updated_at)
   VALUES (1, '0.0.1', '0.0.2', 'OPEN', 1, 0, '0.01', '1', '1', '1', 0, 0, 1, 1)`,
  `INSERT INTO trades (id, book_id, executed_at, price_ticks, price, base_amount, quote_amount, direction, maker_order_id,
     taker_order_id, transaction_hash, reverted_at) VALUES
   (1, 1, 1000, 100, '1', '5', '500', 'buy', 7, 8, NULL, NULL),
   (2, 1, 2000, 90, '0.9', '2', '180', 'sell', NULL, 9, NULL, NULL),
   (3, 1, 3000, 50, '0.5', '4', '200', 'sell', NULL, 10, NULL, 4000),
   (4, 1, 300010, 120, '1.2', '18446744073709551616', '55340232221128654848', 'buy', NULL, 11, NULL, NULL),
   (5, 1, 600005, 110, '1.1', '3', '330', 'buy', 12, 13, NULL, NULL)`,
  `INSERT INTO candles_5m (book_id, start_ms, open_ticks, high_ticks, low_ticks, close_ticks, base_volume, quote_volume, trade_count)
   VALUES (1, 0, 100, 100, 100, 100, '5', '500', 1), (1, 600000, 110, 110, 110, 110, '3', '330', 1)`,
];

const CANDLES = `SELECT start_ms, open_ticks, high_ticks, low_ticks, close_ticks, base_volume, quote_volume, trade_count,
  routed_base_volume, routed_quote_volume, routed_trade_count FROM candles_5m ORDER BY start_ms`;

/** Every candle after the migration: the reverted swap left out, the big one summed exactly. */
const AFTER = [
  ['0', '100', '100', '90', '90', '7', '680', '2', '2', '180', '1'],
  [
    '300000',
    '120',
    '120',
    '120',
    '120',
    '18446744073709551616',
    '55340232221128654848',
    '1',
    '18446744073709551616',
    '55340232221128654848',
    '1',
  ],
  ['600000', '110', '110', '110', '110', '3', '330', '1', '0', '0', '0'],
];

const asText = (rows: readonly Record<string, unknown>[]) => rows.map((row) => Object.values(row).map(String));

describe('the migration that counts routed swaps in book candles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'routed-candles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rebuilds the SQLite candles of the buckets with routed swaps from the tape (version 15)', async () => {
    const db = await openDatabase(join(dir, 'store.sqlite'));
    try {
      migrate(db, MIGRATIONS.slice(0, 14));
      for (const statement of BEFORE) db.exec(statement);
      expect(migrate(db, MIGRATIONS.slice(0, 15))).toEqual([15]);
      expect(asText(db.prepare<Record<string, unknown>>(CANDLES).all())).toEqual(AFTER);
    } finally {
      db.close();
    }
  });

  describe.skipIf(!POSTGRES_AVAILABLE)('on PostgreSQL', () => {
    const database = usePostgresDatabase('each', 'routed_candles');
    it('rebuilds them alike (version 5)', async () => {
      const sql = postgres(database.url(), { max: 1, onnotice: () => {} });
      try {
        await migratePostgres(sql, POSTGRES_MIGRATIONS.slice(0, 4));
        for (const statement of BEFORE) await sql.unsafe(statement);
        expect(await migratePostgres(sql, POSTGRES_MIGRATIONS.slice(0, 5))).toEqual([5]);
        expect(asText(await sql.unsafe(CANDLES))).toEqual(AFTER);
      } finally {
        await sql.end();
      }
    });
  });
});
