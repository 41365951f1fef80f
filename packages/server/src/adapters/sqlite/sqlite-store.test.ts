import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NewBook } from '../../domain/markets/market-records.js';
import type { NewTrade } from '../../domain/orders/trade-records.js';
import { type Store, StoreConflictError } from '../../ports/store/ports.js';
import { BOOK_WITH_TRADE_7 } from '../../test-support/store-rows.js';
import { useTempStores } from '../../test-support/temp-stores.js';
import { testToken } from '../../test-support/tokens.js';
import { openDatabase, type SqlDatabase } from './driver.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { migrate, openSqliteStore } from './sqlite-store.js';
import { CANDLE_MS } from './trade-store.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
/** The start of a 5-minute candle, for trades placed relative to bucket edges. */
const BUCKET = NOW - (NOW % CANDLE_MS);

const { open, dir, file } = useTempStores();

/** The first column of every row of a query. */
function column(db: SqlDatabase, sql: string): unknown[] {
  return db
    .prepare<Record<string, unknown>>(sql)
    .all()
    .map((row) => Object.values(row)[0]);
}

const token = testToken;

function book(base: string, quote: string, overrides: Partial<NewBook> = {}): NewBook {
  return {
    baseTokenId: base,
    quoteTokenId: quote,
    isAmmEnabled: false,
    tickStep: '0.001',
    sizeStep: '0.1',
    lotSize: '1',
    minNotional: '1',
    takerFeePips: 1_000,
    makerFeePips: 0,
    ...overrides,
  };
}

function trade(bookId: number, executedAt: number, priceTicks: number, baseAmount: bigint, quoteAmount: bigint): NewTrade {
  return {
    bookId,
    executedAt,
    priceTicks,
    price: String(priceTicks),
    baseAmount,
    quoteAmount,
    direction: priceTicks % 2 === 0 ? 'buy' : 'sell',
    makerOrderId: priceTicks,
    takerOrderId: priceTicks + 1,
  };
}

/** A store with tokens 0.0.1 and 0.0.2 and the book 0.0.1/0.0.2; returns the store and book id. */
async function storeWithBook(): Promise<{ store: Store; bookId: number }> {
  const store = await open();
  await store.tokens.insert(token(1), NOW);
  await store.tokens.insert(token(2), NOW);
  const created = await store.books.insert(book('0.0.1', '0.0.2'), NOW);
  return { store, bookId: created.id };
}

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
        'settlements',
        'staking_snapshots',
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

describe('tokens', () => {
  it('inserts and lists tokens with every field', async () => {
    const store = await open();
    const inserted = await store.tokens.insert(
      token(7, { icon: 'https://x/icon.png', description: 'seven', website: 'https://x', dueDiligenceComplete: true }),
      NOW,
    );
    expect(inserted).toEqual({
      id: '0.0.7',
      evmAddress: '0x0000000000000000000000000000000000000007',
      symbol: 'T7',
      name: 'Token 7',
      decimals: 6,
      icon: 'https://x/icon.png',
      description: 'seven',
      website: 'https://x',
      dueDiligenceComplete: true,
      isFeeOnTransfer: false,
      sentinelReport: null,
      twitterHandle: null,
      circulatingSupply: null,
      isKnown: false,
      isDefault: false,
      createdAt: NOW,
      updatedAt: NOW,
    });
    await store.tokens.insert(token(3, { isFeeOnTransfer: true }), NOW + 1);
    expect(await store.tokens.list()).toEqual([
      inserted,
      { ...token(3, { isFeeOnTransfer: true }), createdAt: NOW + 1, updatedAt: NOW + 1 },
    ]);
  });

  it('changes only the listing fields an update names, clearing a text field given null', async () => {
    const store = await open();
    await store.tokens.insert(token(7, { icon: 'https://x/icon.png', website: 'https://x', circulatingSupply: 10n ** 30n }), NOW);
    const updated = await store.tokens.update(
      '0.0.7',
      { icon: null, twitterHandle: 'seven', isKnown: true, circulatingSupply: 5n },
      NOW + 1,
    );
    expect(updated).toEqual({
      ...token(7, { website: 'https://x', twitterHandle: 'seven', isKnown: true, circulatingSupply: 5n }),
      createdAt: NOW,
      updatedAt: NOW + 1,
    });
    expect(await store.tokens.update('0.0.8', { isKnown: true }, NOW)).toBeUndefined();
  });

  it('lists tokens in creation order', async () => {
    const store = await open();
    await store.tokens.insert(token(9), NOW + 2);
    await store.tokens.insert(token(8), NOW + 1);
    await store.tokens.insert(token(10), NOW + 1);
    expect((await store.tokens.list()).map((row) => row.id)).toEqual(['0.0.10', '0.0.8', '0.0.9']);
  });

  it('refuses a duplicate id with a StoreConflictError', async () => {
    const store = await open();
    await store.tokens.insert(token(1), NOW);
    const duplicate = store.tokens.insert(token(1, { evmAddress: `0x${'9'.repeat(40)}` }), NOW);
    await expect(duplicate).rejects.toBeInstanceOf(StoreConflictError);
    await expect(duplicate).rejects.toThrow(/0\.0\.1/);
    expect(await store.tokens.list()).toHaveLength(1);
  });

  it('refuses a duplicate EVM address with a StoreConflictError', async () => {
    const store = await open();
    await store.tokens.insert(token(1), NOW);
    await expect(store.tokens.insert(token(2, { evmAddress: token(1).evmAddress }), NOW)).rejects.toBeInstanceOf(
      StoreConflictError,
    );
    expect((await store.tokens.list()).map((row) => row.id)).toEqual(['0.0.1']);
  });
});

describe('books', () => {
  it('inserts an open, unhalted book and lists it', async () => {
    const { store, bookId } = await storeWithBook();
    const expected = {
      id: bookId,
      ...book('0.0.1', '0.0.2'),
      status: 'OPEN',
      isHalted: false,
      createdAt: NOW,
      updatedAt: NOW,
    };
    expect(await store.books.list()).toEqual([expected]);
  });

  it('keeps isAmmEnabled', async () => {
    const { store } = await storeWithBook();
    const amm = await store.books.insert(book('0.0.2', '0.0.1', { isAmmEnabled: true }), NOW);
    expect(amm.isAmmEnabled).toBe(true);
  });

  it('refuses a book on an unknown token (foreign key) with a StoreConflictError', async () => {
    const store = await open();
    await store.tokens.insert(token(1), NOW);
    await expect(store.books.insert(book('0.0.1', '0.0.404'), NOW)).rejects.toBeInstanceOf(StoreConflictError);
    await expect(store.books.insert(book('0.0.404', '0.0.1'), NOW)).rejects.toBeInstanceOf(StoreConflictError);
    expect(await store.books.list()).toEqual([]);
  });

  it('refuses a second book on the same base/quote pair', async () => {
    const { store } = await storeWithBook();
    await expect(store.books.insert(book('0.0.1', '0.0.2', { tickStep: '1' }), NOW)).rejects.toBeInstanceOf(StoreConflictError);
    expect(await store.books.list()).toHaveLength(1);
  });

  it('allows the reversed pair as its own book', async () => {
    const { store, bookId } = await storeWithBook();
    const reversed = await store.books.insert(book('0.0.2', '0.0.1'), NOW);
    expect(reversed.id).not.toBe(bookId);
  });

  it('refuses a book of a token against itself', async () => {
    const { store } = await storeWithBook();
    await expect(store.books.insert(book('0.0.1', '0.0.1'), NOW)).rejects.toBeInstanceOf(StoreConflictError);
  });

  it('updates status and halt, returning the new record', async () => {
    const { store, bookId } = await storeWithBook();
    const halted = await store.books.update(bookId, { isHalted: true }, NOW + 5);
    expect(halted).toMatchObject({ id: bookId, status: 'OPEN', isHalted: true, createdAt: NOW, updatedAt: NOW + 5 });
    const closed = await store.books.update(bookId, { status: 'CLOSED' }, NOW + 6);
    expect(closed).toMatchObject({ status: 'CLOSED', isHalted: true, updatedAt: NOW + 6 });
    const both = await store.books.update(bookId, { status: 'OPEN', isHalted: false }, NOW + 7);
    expect(both).toMatchObject({ status: 'OPEN', isHalted: false, updatedAt: NOW + 7 });
    expect(await store.books.list()).toEqual([both]);
  });

  it('returns undefined when updating an unknown book', async () => {
    const { store } = await storeWithBook();
    expect(await store.books.update(999, { status: 'CLOSED' }, NOW)).toBeUndefined();
    expect((await store.books.list())[0]?.status).toBe('OPEN');
  });
});

describe('trades', () => {
  it('appends trades and pages them in both orders with an exact total', async () => {
    const { store, bookId } = await storeWithBook();
    await store.trades.append([1, 2, 3, 4, 5].map((n) => trade(bookId, NOW + n, 100 + n, BigInt(n), BigInt(n * 100))));
    const asc = await store.trades.page(bookId, 'asc', 1, 2);
    expect(asc.total).toBe(5);
    expect(asc.trades.map((row) => row.priceTicks)).toEqual([102, 103]);
    const desc = await store.trades.page(bookId, 'desc', 0, 3);
    expect(desc.total).toBe(5);
    expect(desc.trades.map((row) => row.priceTicks)).toEqual([105, 104, 103]);
    const past = await store.trades.page(bookId, 'asc', 5, 10);
    expect(past).toEqual({ trades: [], total: 5 });
  });

  it('reads back every field of a trade, with amounts as bigint', async () => {
    const { store, bookId } = await storeWithBook();
    const big = 10n ** 30n + 7n;
    const input = trade(bookId, NOW, 42, big, big * 3n);
    await store.trades.append([input]);
    const { trades } = await store.trades.page(bookId, 'asc', 0, 1);
    expect(trades).toEqual([{ ...input, id: expect.any(Number), transactionHash: null }]);
  });

  it("keeps a taker's swap with the pool on the tape and out of the book's candles, which the pool's count it in", async () => {
    const { store, bookId } = await storeWithBook();
    await store.trades.append([trade(bookId, NOW, 42, 5n, 7n), { ...trade(bookId, NOW, 43, 100n, 300n), makerOrderId: null }]);
    const { trades } = await store.trades.page(bookId, 'asc', 0, 10);
    expect(trades.map((row) => row.makerOrderId)).toEqual([expect.any(Number), null]);
    const [candle] = await store.candles.range(bookId, NOW - 300_000, NOW + 300_000);
    expect(candle).toMatchObject({ baseVolume: 5n, quoteVolume: 7n, tradeCount: 1 });
  });

  it('pages like slicing the appended list, for any offset and limit', async () => {
    const { store, bookId } = await storeWithBook();
    const all = Array.from({ length: 23 }, (_, n) => trade(bookId, NOW + n, n + 1, BigInt(n), BigInt(n)));
    await store.trades.append(all);
    const ticks = all.map((row) => row.priceTicks);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), async (offset, limit) => {
        const asc = await store.trades.page(bookId, 'asc', offset, limit);
        expect(asc.total).toBe(23);
        expect(asc.trades.map((row) => row.priceTicks)).toEqual(ticks.slice(offset, offset + limit));
        const desc = await store.trades.page(bookId, 'desc', offset, limit);
        expect(desc.trades.map((row) => row.priceTicks)).toEqual([...ticks].reverse().slice(offset, offset + limit));
      }),
    );
  });

  it('keeps books apart', async () => {
    const { store, bookId } = await storeWithBook();
    const other = (await store.books.insert(book('0.0.2', '0.0.1'), NOW)).id;
    await store.trades.append([trade(bookId, NOW, 1, 1n, 1n), trade(other, NOW, 2, 2n, 2n), trade(bookId, NOW, 3, 3n, 3n)]);
    expect((await store.trades.page(other, 'asc', 0, 10)).trades.map((row) => row.priceTicks)).toEqual([2]);
    expect((await store.trades.page(bookId, 'asc', 0, 10)).total).toBe(2);
    expect(await store.trades.windowStats(other, 0)).toMatchObject({ tradeCount: 1, baseVolume: 2n });
  });

  it('appends nothing for an empty list', async () => {
    const { store, bookId } = await storeWithBook();
    await store.trades.append([]);
    expect(await store.trades.page(bookId, 'desc', 0, 10)).toEqual({ trades: [], total: 0 });
  });

  it('appends all or nothing', async () => {
    const { store, bookId } = await storeWithBook();
    await expect(store.trades.append([trade(bookId, NOW, 1, 1n, 1n), trade(999, NOW, 2, 2n, 2n)])).rejects.toThrow();
    expect((await store.trades.page(bookId, 'asc', 0, 10)).total).toBe(0);
    expect(await store.trades.windowStats(bookId, 0)).toMatchObject({ tradeCount: 0, baseVolume: 0n });
  });

  it('returns the latest trade, or undefined for a book without trades', async () => {
    const { store, bookId } = await storeWithBook();
    expect(await store.trades.latest(bookId)).toBeUndefined();
    await store.trades.append([trade(bookId, NOW, 10, 1n, 1n), trade(bookId, NOW, 11, 1n, 1n)]);
    await store.trades.append([trade(bookId, NOW + 1, 12, 1n, 1n)]);
    expect((await store.trades.latest(bookId))?.priceTicks).toBe(12);
  });

  describe('windowStats', () => {
    it('is empty for a book without trades', async () => {
      const { store, bookId } = await storeWithBook();
      expect(await store.trades.windowStats(bookId, 0)).toEqual({
        openTicks: null,
        highTicks: null,
        lowTicks: null,
        baseVolume: 0n,
        quoteVolume: 0n,
        tradeCount: 0,
      });
    });

    it('sums volumes exactly as bigint far above 2^53', async () => {
      const { store, bookId } = await storeWithBook();
      const a = 10n ** 30n + 1n;
      const b = 999_999_999_999_999_999_999_999_999_999n;
      const c = 2n ** 100n + 3n;
      await store.trades.append([
        trade(bookId, BUCKET + 1_000, 5, a, b),
        trade(bookId, BUCKET + 2_000, 6, b, c),
        trade(bookId, BUCKET + CANDLE_MS + 1, 7, c, a),
      ]);
      const stats = await store.trades.windowStats(bookId, 0);
      expect(stats.baseVolume).toBe(a + b + c);
      expect(stats.quoteVolume).toBe(b + c + a);
      expect(stats.tradeCount).toBe(3);
    });

    it('takes open, high and low across 5-minute candles', async () => {
      const { store, bookId } = await storeWithBook();
      await store.trades.append([
        trade(bookId, BUCKET + 10, 100, 1n, 1n),
        trade(bookId, BUCKET + 20, 140, 1n, 1n),
        trade(bookId, BUCKET + CANDLE_MS + 5, 90, 1n, 1n),
        trade(bookId, BUCKET + 2 * CANDLE_MS, 120, 1n, 1n),
        trade(bookId, BUCKET + 4 * CANDLE_MS - 1, 95, 1n, 1n),
      ]);
      expect(await store.trades.windowStats(bookId, BUCKET)).toEqual({
        openTicks: 100,
        highTicks: 140,
        lowTicks: 90,
        baseVolume: 5n,
        quoteVolume: 5n,
        tradeCount: 5,
      });
      expect(await store.trades.windowStats(bookId, BUCKET + CANDLE_MS)).toMatchObject({
        openTicks: 90,
        highTicks: 120,
        lowTicks: 90,
        tradeCount: 3,
      });
    });

    it('rounds a window start in the middle of a bucket down to the bucket', async () => {
      const { store, bookId } = await storeWithBook();
      await store.trades.append([
        trade(bookId, BUCKET - 1, 50, 7n, 7n),
        trade(bookId, BUCKET + 1_000, 100, 1n, 10n),
        trade(bookId, BUCKET + 200_000, 110, 2n, 20n),
        trade(bookId, BUCKET + CANDLE_MS, 105, 4n, 40n),
      ]);
      // The window starts after the first two trades of the bucket, but the whole bucket counts.
      expect(await store.trades.windowStats(bookId, BUCKET + 250_000)).toEqual({
        openTicks: 100,
        highTicks: 110,
        lowTicks: 100,
        baseVolume: 7n,
        quoteVolume: 70n,
        tradeCount: 3,
      });
      expect(await store.trades.windowStats(bookId, BUCKET + CANDLE_MS - 1)).toMatchObject({ tradeCount: 3 });
      expect(await store.trades.windowStats(bookId, BUCKET + CANDLE_MS)).toMatchObject({ tradeCount: 1, openTicks: 105 });
      expect(await store.trades.windowStats(bookId, BUCKET + 2 * CANDLE_MS)).toMatchObject({ tradeCount: 0, openTicks: null });
    });

    it('equals a direct computation over random trades, for any window start', async () => {
      const store = await open();
      let nextToken = 1;
      const amount = fc.bigInt({ min: 0n, max: 10n ** 36n });
      const tradeSpec = fc.record({
        at: fc.integer({ min: 0, max: 24 * 60 * 60 * 1000 }),
        ticks: fc.integer({ min: 1, max: 2 ** 40 }),
        base: amount,
        quote: amount,
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(tradeSpec, { maxLength: 40 }),
          fc.integer({ min: 0, max: 25 * 60 * 60 * 1000 }),
          async (specs, sinceOffset) => {
            await store.tokens.insert(token(nextToken), NOW);
            await store.tokens.insert(token(nextToken + 1), NOW);
            const { id } = await store.books.insert(book(`0.0.${nextToken}`, `0.0.${nextToken + 1}`), NOW);
            nextToken += 2;
            const trades = [...specs]
              .sort((x, y) => x.at - y.at)
              .map((spec) => trade(id, BUCKET + spec.at, spec.ticks, spec.base, spec.quote));
            await store.trades.append(trades);

            const direct = (list: readonly NewTrade[]) => ({
              openTicks: list[0]?.priceTicks ?? null,
              highTicks: list.length === 0 ? null : Math.max(...list.map((row) => row.priceTicks)),
              lowTicks: list.length === 0 ? null : Math.min(...list.map((row) => row.priceTicks)),
              baseVolume: list.reduce((sum, row) => sum + row.baseAmount, 0n),
              quoteVolume: list.reduce((sum, row) => sum + row.quoteAmount, 0n),
              tradeCount: list.length,
            });
            expect(await store.trades.windowStats(id, 0)).toEqual(direct(trades));

            const since = BUCKET + sinceOffset;
            const windowStart = since - (since % CANDLE_MS);
            expect(await store.trades.windowStats(id, since)).toEqual(
              direct(trades.filter((row) => row.executedAt >= windowStart)),
            );
          },
        ),
        { numRuns: 60 },
      );
    });
  });
});

describe('changeMarker', () => {
  it('changes after another connection to the same file commits', async () => {
    const first = await open();
    const second = await open();
    const before = await first.changeMarker();
    await second.tokens.insert(token(1), NOW);
    const after = await first.changeMarker();
    expect(after).not.toBe(before);
    expect((await first.tokens.list()).map((row) => row.id)).toEqual(['0.0.1']);
    await second.tokens.insert(token(2), NOW);
    expect(await first.changeMarker()).not.toBe(after);
  });

  it('stays the same while nobody else writes', async () => {
    const first = await open();
    await open();
    const before = await first.changeMarker();
    await first.tokens.list();
    expect(await first.changeMarker()).toBe(before);
  });
});

describe('lifecycle', () => {
  it('answers ping while open and refuses after close, which may be called twice', async () => {
    const store = await open();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toThrow();
    await store.close();
  });
});
