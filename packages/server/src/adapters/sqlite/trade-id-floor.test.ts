import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewTrade } from '../../domain/orders/trade-records.js';
import type { Store } from '../../ports/store/ports.js';
import { BOOK_WITH_TRADE_7 } from '../../test-support/store-rows.js';
import { useTempStores } from '../../test-support/temp-stores.js';
import { testToken } from '../../test-support/tokens.js';
import { openDatabase } from './driver.js';
import { MIGRATIONS } from './migrations.js';
import { migrate } from './sqlite-store.js';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);

const { open, dir, file } = useTempStores();

function trade(bookId: number, price: number): NewTrade {
  const priceTicks = BigInt(price);
  return {
    bookId,
    executedAt: NOW,
    priceTicks,
    price: String(priceTicks),
    baseAmount: 1n,
    quoteAmount: 1n,
    direction: 'buy',
    makerOrderId: 1,
    takerOrderId: 2,
  };
}

async function storeWithBook(): Promise<{ store: Store; bookId: number }> {
  const store = await open();
  await store.tokens.insert(testToken(1), NOW);
  await store.tokens.insert(testToken(2), NOW);
  const book = await store.books.insert(
    {
      baseTokenId: '0.0.1',
      quoteTokenId: '0.0.2',
      isAmmEnabled: false,
      tickStep: '0.001',
      sizeStep: '0.1',
      lotSize: '1',
      minNotional: '1',
      takerFeePips: 0,
      makerFeePips: 0,
      capFractionPips: 0,
    },
    NOW,
  );
  return { store, bookId: book.id };
}

const ids = async (store: Store, bookId: number): Promise<number[]> =>
  (await store.trades.page(bookId, 'asc', 0, 100)).trades.map((row) => row.id);

describe('the trade id floor', () => {
  it('hands out ids after the floor, in order, and keeps it across a reopen', async () => {
    const { store, bookId } = await storeWithBook();
    expect(await store.trades.highestId()).toBe(0);
    await store.trades.append([trade(bookId, 1), trade(bookId, 2)]);
    expect(await store.trades.highestId()).toBe(2);

    await store.trades.skipIdsThrough(700);
    expect(await store.trades.highestId()).toBe(700);
    await store.trades.append([trade(bookId, 3), trade(bookId, 4)]);
    expect(await ids(store, bookId)).toEqual([1, 2, 701, 702]);
    await store.close();

    const reopened = await open();
    expect(await reopened.trades.highestId()).toBe(702);
    await reopened.trades.append([trade(bookId, 5)]);
    expect(await ids(reopened, bookId)).toEqual([1, 2, 701, 702, 703]);
  });

  it('is a floor only: one at or below the ids used, or below an earlier floor, changes nothing', async () => {
    const { store, bookId } = await storeWithBook();
    await store.trades.append([trade(bookId, 1), trade(bookId, 2), trade(bookId, 3)]);
    await store.trades.skipIdsThrough(2);
    await store.trades.append([trade(bookId, 4)]);
    await store.trades.skipIdsThrough(50);
    await store.trades.skipIdsThrough(10);
    await store.trades.append([trade(bookId, 5)]);
    expect(await ids(store, bookId)).toEqual([1, 2, 3, 4, 51]);
  });

  it('never gives the id of a reverted trade (off the tape, its fill refused) again', async () => {
    const { store, bookId } = await storeWithBook();
    await store.trades.append([trade(bookId, 1), trade(bookId, 2)]);
    const other = await openDatabase(file());
    try {
      other.prepare('UPDATE trades SET reverted_at = ? WHERE id = 2').run(NOW);
    } finally {
      other.close();
    }
    expect(await store.trades.highestId()).toBe(2);
    await store.trades.append([trade(bookId, 3)]);
    expect(await ids(store, bookId)).toEqual([1, 3]);
  });

  it('refuses what is not a trade id', async () => {
    const { store } = await storeWithBook();
    await expect(store.trades.skipIdsThrough(-1)).rejects.toThrow(RangeError);
    await expect(store.trades.skipIdsThrough(1.5)).rejects.toThrow(RangeError);
  });
});

describe('migration 10', () => {
  it('adds an empty id_floors table to a store of version 9 and keeps its trades and their ids', async () => {
    const db = await openDatabase(join(dir(), 'raw.sqlite'));
    try {
      db.exec('PRAGMA foreign_keys = ON');
      migrate(db, MIGRATIONS.slice(0, 9));
      db.exec(BOOK_WITH_TRADE_7);
      expect(migrate(db, MIGRATIONS.slice(0, 10))).toEqual([10]);
      expect(db.prepare('SELECT id FROM trades').all()).toEqual([{ id: 7 }]);
      expect(db.prepare('SELECT * FROM id_floors').all()).toEqual([]);
      expect(() => db.prepare("INSERT INTO id_floors (name, id) VALUES ('trades', -1)").run()).toThrow(/CHECK/);
    } finally {
      db.close();
    }
  });
});
