import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOOK_WITH_TRADE_7 } from '../../test-support/store-rows.js';
import { useTempStores } from '../../test-support/temp-stores.js';
import { testToken } from '../../test-support/tokens.js';
import { openDatabase, type SqlDatabase } from './driver.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { migrate, openSqliteStore } from './sqlite-store.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

const { open, dir, file } = useTempStores();

/** The first column of every row of a query. */
function column(db: SqlDatabase, sql: string): unknown[] {
  return db
    .prepare<Record<string, unknown>>(sql)
    .all()
    .map((row) => Object.values(row)[0]);
}

const token = testToken;

describe('migrations', () => {
  it('applies every migration once and records it in schema_migrations', async () => {
    const store = await open();
    await store.close();
    const db = await openDatabase(file());
    try {
      const rows = db.prepare('SELECT version, name FROM schema_migrations').all();
      expect(rows).toEqual([
        { version: 1, name: 'tokens, books, trades and 5-minute candles' },
        { version: 2, name: 'account keys, orders, order history, nonces and fee overrides' },
        { version: 3, name: 'data API: token listing fields, API keys and their monthly usage, pools and farms' },
        { version: 4, name: 'settlement of trades on the reactor and the indexer cursor' },
        { version: 5, name: 'dead-man switches of POST /cancel/after' },
        { version: 6, name: 'blocks of confirmed cancellations and raised floors, to send again what the chain lost' },
        { version: 7, name: 'fills the reactor refused: a FILL_REVERTED history event, and trades taken off the tape' },
        {
          version: 8,
          name: 'AMM from the chain: pools with their LP token, history and candles, farm events and program, staking snapshots',
        },
        { version: 9, name: 'pool fills: trades and settlements without a maker order, and the AMM opt-in of orders' },
        { version: 10, name: 'id floors: trade ids the chain used already (fill ids settled past a restored backup)' },
        { version: 11, name: 'expired orders forgotten by the reactor' },
        { version: 12, name: 'command positions: the last command of its log each shard of books applied' },
        { version: 13, name: "the book each nonce was built for: only that book's engine may take it" },
        { version: 14, name: "each order event's place among its order's events" },
        { version: 15, name: "book candles count the swaps with the book's pool, apart as well" },
        { version: 16, name: 'self-trade prevention: what matching does when an order meets one of its account' },
        {
          version: 17,
          name: 'maker rebates: a negative maker fee, capped by a fraction of the taker fee, on books and fee overrides',
        },
        { version: 18, name: "settlement proofs: the reactor's events of each settlement transaction" },
        { version: 19, name: 'terms acceptances: who accepted which version of the web terms and risk notice, and when' },
      ]);
      const tables = column(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
      expect(tables).toEqual([
        'account_keys',
        'api_key_usage',
        'api_keys',
        'book_state',
        'books',
        'cancel_after_switches',
        'candles_5m',
        'chain_cursors',
        'command_positions',
        'farm_events',
        'farm_program',
        'farm_stakes',
        'farms',
        'fee_overrides',
        'id_floors',
        'nonce_floor_relays',
        'order_cancellations',
        'order_events',
        'order_nonces',
        'orders',
        'pool_candles_5m',
        'pool_events',
        'pools',
        'schema_migrations',
        'settlement_logs',
        'settlements',
        'staking_snapshots',
        'terms_acceptances',
        'tokens',
        'trades',
        'trading_accounts',
      ]);
    } finally {
      db.close();
    }
  });

  it('re-applies nothing when the same file is opened again, and keeps the data', async () => {
    const first = await open();
    await first.tokens.insert(token(1), NOW);
    await first.close();
    const before = await openDatabase(file());
    const recorded = before.prepare('SELECT * FROM schema_migrations').all();
    before.close();

    const second = await open();
    expect((await second.tokens.list()).map((row) => row.id)).toEqual(['0.0.1']);
    await second.close();
    const after = await openDatabase(file());
    expect(after.prepare('SELECT * FROM schema_migrations').all()).toEqual(recorded);
    after.close();
  });

  it('keeps every history event, its id and its indexes when version 7 rebuilds the table', async () => {
    const db = await openDatabase(join(dir(), 'raw.sqlite'));
    try {
      migrate(db, MIGRATIONS.slice(0, 6));
      // History rows alone, without the orders and trades they name.
      db.exec('PRAGMA foreign_keys = OFF');
      const insert = db.prepare(
        'INSERT INTO order_events (id, order_id, account, type, timestamp, tx_hash, reason, trade_id, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      insert.run(3, 1, '0.0.7', 'CREATED', 10, null, null, null, null);
      insert.run(9, 1, '0.0.7', 'FILLED', 11, '0xab', null, 4, 'maker');
      const before = db.prepare('SELECT * FROM order_events ORDER BY id').all();
      expect(migrate(db, MIGRATIONS.slice(0, 7))).toEqual([7]);
      expect(db.prepare('SELECT * FROM order_events ORDER BY id').all()).toEqual(before);
      expect(
        column(db, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'order_events' ORDER BY name"),
      ).toEqual(['order_events_by_account', 'order_events_by_order', 'order_events_by_trade']);
      insert.run(10, 1, '0.0.7', 'FILL_REVERTED', 12, null, 'NONCE_FLOOR', 4, 'maker');
      expect(() => insert.run(11, 1, '0.0.7', 'UNDONE', 13, null, null, null, null)).toThrow(/CHECK/);
    } finally {
      db.close();
    }
  });

  it("numbers each order's events from 1, in id order, when version 14 adds their sequence", async () => {
    const db = await openDatabase(join(dir(), 'raw.sqlite'));
    try {
      migrate(db, MIGRATIONS.slice(0, 13));
      db.exec('PRAGMA foreign_keys = OFF');
      const insert = db.prepare(
        'INSERT INTO order_events (id, order_id, account, type, timestamp, tx_hash, reason, trade_id, role) VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, NULL)',
      );
      for (const [id, orderId, type] of [
        [3, 1, 'CREATED'],
        [4, 2, 'CREATED'],
        [9, 1, 'PARTIAL_FILL'],
        [12, 2, 'CANCELED'],
        [13, 1, 'FILLED'],
      ] as const) {
        insert.run(id, orderId, '0.0.7', type, 10);
      }
      expect(migrate(db, MIGRATIONS.slice(0, 14))).toEqual([14]);
      expect(db.prepare('SELECT id, order_id, sequence FROM order_events ORDER BY id').all()).toEqual([
        { id: 3, order_id: 1, sequence: 1 },
        { id: 4, order_id: 2, sequence: 1 },
        { id: 9, order_id: 1, sequence: 2 },
        { id: 12, order_id: 2, sequence: 2 },
        { id: 13, order_id: 1, sequence: 3 },
      ]);
    } finally {
      db.close();
    }
  });

  it('keeps the pools, farms and stakes recorded by hand when version 8 rebuilds them, the LP token named in the pool', async () => {
    const db = await openDatabase(join(dir(), 'raw.sqlite'));
    try {
      migrate(db, MIGRATIONS.slice(0, 7));
      const addToken = db.prepare(
        `INSERT INTO tokens (id, evm_address, symbol, name, decimals, due_diligence_complete, is_fee_on_transfer, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 1, 0, 1, 1)`,
      );
      addToken.run('0.0.1', '0x01', 'A', 'Token A', 8);
      addToken.run('0.0.2', '0x02', 'B', 'Token B', 6);
      addToken.run('0.0.9', '0x09', 'LP', 'A/B liquidity', 8);
      db.exec(`INSERT INTO pools VALUES (1, '0.0.3', '0.0.9', '0.0.1', '0.0.2', '5', '6', '7', 10);
        INSERT INTO farms VALUES (4, 1, '11', '12', '13', 20);
        INSERT INTO farm_stakes VALUES (4, '0.0.5', '3', 30);`);
      expect(migrate(db, MIGRATIONS.slice(0, 8))).toEqual([8]);
      expect(db.prepare('SELECT * FROM pools').all()).toEqual([
        {
          id: 1,
          contract_id: '0.0.3',
          lp_token_id: '0.0.9',
          lp_token_name: 'A/B liquidity',
          lp_token_symbol: 'LP',
          lp_token_decimals: 8,
          token_a_id: '0.0.1',
          token_b_id: '0.0.2',
          lp_token_reserve: '5',
          token_reserve_a: '6',
          token_reserve_b: '7',
          address: null,
          created_block: null,
          updated_at: 10,
        },
      ]);
      expect(db.prepare('SELECT id, pool_id, lp_token, total_staked FROM farms').all()).toEqual([
        { id: 4, pool_id: 1, lp_token: null, total_staked: '13' },
      ]);
      expect(db.prepare('SELECT * FROM farm_stakes').all()).toEqual([
        { farm_id: 4, account_id: '0.0.5', staked: '3', updated_at: 30 },
      ]);
    } finally {
      db.close();
    }
  });

  it('keeps every trade and settlement with its id when version 9 lets a trade have no maker', async () => {
    const db = await openDatabase(join(dir(), 'raw.sqlite'));
    try {
      db.exec('PRAGMA foreign_keys = ON');
      migrate(db, MIGRATIONS.slice(0, 8));
      db.exec(BOOK_WITH_TRADE_7);
      db.exec(
        "INSERT INTO settlements (trade_id, maker_order_id, taker_order_id, status, updated_at) VALUES (7, 3, 4, 'pending', 5)",
      );
      expect(migrate(db, MIGRATIONS.slice(0, 9))).toEqual([9]);
      expect(db.prepare('SELECT id, maker_order_id, taker_order_id, reverted_at FROM trades').all()).toEqual([
        { id: 7, maker_order_id: 3, taker_order_id: 4, reverted_at: null },
      ]);
      expect(db.prepare('SELECT trade_id, maker_order_id, status FROM settlements').all()).toEqual([
        { trade_id: 7, maker_order_id: 3, status: 'pending' },
      ]);
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      db.exec(`INSERT INTO trades (book_id, executed_at, price_ticks, price, base_amount, quote_amount, direction, maker_order_id, taker_order_id)
        VALUES (1, 6, 100, '1', '10', '20', 'sell', NULL, 4)`);
      expect(column(db, 'SELECT id FROM trades WHERE maker_order_id IS NULL')).toEqual([8]);
    } finally {
      db.close();
    }
  });

  it('refuses a table rebuild that leaves a reference dangling, and keeps foreign keys enforced', async () => {
    const db = await openDatabase(join(dir(), 'raw.sqlite'));
    try {
      db.exec('PRAGMA foreign_keys = ON');
      const parent: Migration = {
        version: 1,
        name: 'parent and child',
        sql: `CREATE TABLE p (id INTEGER PRIMARY KEY) STRICT; CREATE TABLE c (p_id INTEGER REFERENCES p (id)) STRICT;
          INSERT INTO p VALUES (1); INSERT INTO c VALUES (1);`,
      };
      const broken: Migration = {
        version: 2,
        name: 'rebuild that loses a row',
        rebuildsReferencedTable: true,
        sql: 'CREATE TABLE p2 (id INTEGER PRIMARY KEY) STRICT; DROP TABLE p; ALTER TABLE p2 RENAME TO p;',
      };
      migrate(db, [parent]);
      expect(() => migrate(db, [parent, broken])).toThrow(/migration 2 would break a foreign key/);
      expect(column(db, 'SELECT version FROM schema_migrations')).toEqual([1]);
      expect(db.prepare<{ foreign_keys: number }>('PRAGMA foreign_keys').get()?.foreign_keys).toBe(1);
    } finally {
      db.close();
    }
  });

  it('returns the versions it applied, and none the second time', async () => {
    const db = await openDatabase(join(dir(), 'raw.sqlite'));
    try {
      const migrations: Migration[] = [
        { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER) STRICT' },
        { version: 2, name: 'b', sql: 'CREATE TABLE b (y INTEGER) STRICT' },
      ];
      expect(migrate(db, migrations.slice(0, 1))).toEqual([1]);
      expect(migrate(db, migrations)).toEqual([2]);
      expect(migrate(db, migrations)).toEqual([]);
      expect(column(db, 'SELECT version FROM schema_migrations ORDER BY version')).toEqual([1, 2]);
    } finally {
      db.close();
    }
  });

  it('rolls back a migration that fails part-way and records nothing for it', async () => {
    const db = await openDatabase(join(dir(), 'raw.sqlite'));
    try {
      const broken: Migration = {
        version: 1,
        name: 'broken',
        sql: 'CREATE TABLE a (x INTEGER); INSERT INTO missing VALUES (1);',
      };
      expect(() => migrate(db, [broken])).toThrow();
      expect(column(db, "SELECT count(*) FROM sqlite_master WHERE name = 'a'")).toEqual([0]);
      expect(column(db, 'SELECT count(*) FROM schema_migrations')).toEqual([0]);
    } finally {
      db.close();
    }
  });

  it('refuses a database whose schema version is newer than the build', async () => {
    await (await open()).close();
    const db = await openDatabase(file());
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', 0)").run();
    db.close();
    await expect(openSqliteStore(file())).rejects.toThrow(/newer than this build/);
    const raw = await openDatabase(file());
    try {
      expect(() => migrate(raw, [{ version: 1, name: 'one', sql: 'SELECT 1' }])).toThrow(/version 99.*newer.*\(1\)/);
    } finally {
      raw.close();
    }
  });

  it('keeps the file in WAL mode', async () => {
    const store = await open();
    await store.tokens.insert(token(1), NOW);
    expect(existsSync(`${file()}-wal`)).toBe(true);
    const db = await openDatabase(file());
    try {
      expect(column(db, 'PRAGMA journal_mode')).toEqual(['wal']);
    } finally {
      db.close();
    }
  });
});
