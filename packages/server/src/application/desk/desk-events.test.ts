import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../adapters/sqlite/driver.js';
import { storeFile } from '../../composition/store-choice.js';
import type { OrderEventRecord } from '../../domain/orders/order-records.js';
import { type Harness, startHarness, Trader } from '../../test-support/harness.js';
import type { DeskCommit } from './desk-events.js';

let harness: Harness;
let commits: DeskCommit[];

beforeEach(async () => {
  harness = await startHarness();
  commits = [];
  harness.services.deskEvents.subscribe((commit) => commits.push(commit));
});
afterEach(async () => {
  await harness.close();
});

describe('the desk publication seam', () => {
  it('publishes each commit group once it is stored, in commit order, with consecutive depth updates', async () => {
    const traders = [await Trader.secp256k1(harness), await Trader.ed25519(harness), await Trader.ed25519(harness)];
    // What the store holds at the moment of publication (the SQLite reads run inside the listener).
    const storedAtPublication: Promise<OrderEventRecord[]>[] = [];
    harness.services.deskEvents.subscribe((commit) => {
      for (const event of commit.orderEvents) storedAtPublication.push(harness.services.store.orders.history(event.orderId));
    });

    await Promise.all(
      traders.map(async (trader, index) => {
        for (let round = 0; round < 4; round++) {
          const side = (index + round) % 2 === 0 ? BUY : SELL;
          await trader.place([
            trader.limitRequest(1, side, side === BUY ? 24_990 : 25_010, 10),
            trader.limitRequest(1, side === BUY ? SELL : BUY, side === BUY ? 24_990 : 25_010, 5),
          ]);
        }
      }),
    );

    const events = commits.flatMap((commit) => commit.orderEvents);
    const ids = events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const stored = await Promise.all(storedAtPublication);
    events.forEach((event, index) => {
      expect(stored[index]?.map((record) => record.id)).toContain(event.id);
    });

    const changes = commits.flatMap((commit) => commit.depth).filter((change) => change.bookId === 1);
    expect(changes[0]?.firstUpdateId).toBe(1);
    expect(changes.slice(1).map((change) => change.firstUpdateId)).toEqual(
      changes.slice(0, -1).map((change) => change.finalUpdateId + 1),
    );
    expect(changes.at(-1)?.finalUpdateId).toBe(harness.services.engines.engine(1)?.lastUpdateId);

    const trades = commits.flatMap((commit) => commit.trades);
    const tape = await harness.app.inject({ method: 'GET', url: '/trades/1?limit=100&sort=asc' });
    expect(trades).toHaveLength((tape.json() as { total: number }).total);
    const tradeIds = new Set(trades.map((trade) => trade.id));
    for (const event of events) if (event.fill !== null) expect(tradeIds.has(event.fill.tradeId)).toBe(true);
  });

  it('publishes nothing for a commit group the store refused', async () => {
    const maker = await Trader.secp256k1(harness);
    const taker = await Trader.ed25519(harness);
    await maker.limit(1, SELL, 25_000, 10);
    const published = commits.length;
    expect(published).toBeGreaterThan(0);

    // Another connection to the same file makes every trade insert fail, as a full disk would.
    const db = await openDatabase(storeFile(harness.config));
    db.exec("CREATE TRIGGER refuse_trades BEFORE INSERT ON trades BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    db.close();
    const reply = await taker.save(await taker.build([taker.limitRequest(1, BUY, 25_000, 10)]));
    expect([reply.status, reply.body]).toEqual([503, expect.objectContaining({ code: 'TRADING_UNAVAILABLE' })]);
    expect(commits).toHaveLength(published);
  });

  it('logs a listener that throws, and trading and the other listeners go on', async () => {
    harness.services.deskEvents.subscribe(() => {
      throw new Error('listener bug');
    });
    const trader = await Trader.secp256k1(harness);
    expect((await trader.limit(1, BUY, 24_000, 10)).status).toBe('ACTIVE');
    expect((await trader.limit(1, BUY, 24_000, 10)).status).toBe('ACTIVE');
    expect(commits).toHaveLength(2);
    expect(harness.logs()).toContain('a desk event listener failed');
  });
});
