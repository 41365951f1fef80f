import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, limitOrder, startHarness } from '../test-support/harness.js';

let harness: Harness;

beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

describe('EngineHost', () => {
  it('stores the trades of concurrent submissions in engine order, in raw units', async () => {
    const { engines, store } = harness.services;
    const time = harness.clock.now();
    await engines.submit(1, [limitOrder(SELL, 25_000, 100, time)]);
    const takers = Array.from({ length: 20 }, (_, index) =>
      engines.submit(1, [limitOrder(BUY, 25_000, index + 1, time + index)]),
    );
    await Promise.all(takers);
    const { trades, total } = await store.trades.page(1, 'asc', 0, 100);
    expect(total).toBe(14); // 1 + 2 + ... + 13 = 91, the 14th taker gets the last 9 steps
    expect(trades.map((trade) => trade.executedAt)).toEqual(Array.from({ length: 14 }, (_, index) => time + index));
    expect(trades[0]).toMatchObject({
      price: '0.25',
      priceTicks: 25_000,
      baseAmount: 10_000_000n,
      quoteAmount: 25_000n,
      direction: 'buy',
    });
    expect(trades.reduce((sum, trade) => sum + trade.baseAmount, 0n)).toBe(1_000_000_000n);
  });

  it('returns the events of the submitted commands only', async () => {
    const events = await harness.services.engines.submit(2, [limitOrder(BUY, 100, 10, harness.clock.now())]);
    expect(events.map((event) => event.type)).toEqual(['order', 'depth']);
    expect(await harness.services.engines.submit(2, [])).toEqual([]);
  });

  it('refuses a book it has no engine for', async () => {
    await expect(harness.services.engines.submit(99, [])).rejects.toThrow(/no engine for book 99/);
  });

  it('follows halts and resumptions of the registry', async () => {
    const { store, registry, engines } = harness.services;
    await store.books.update(3, { isHalted: true }, harness.clock.now());
    await registry.load();
    const [rejected] = await engines.submit(3, [limitOrder(BUY, 100, 10, harness.clock.now())]);
    expect(rejected).toMatchObject({ status: 'REJECTED', reason: 'MARKET_HALTED' });
    await store.books.update(3, { isHalted: false }, harness.clock.now());
    await registry.load();
    expect(engines.engine(3)?.isHalted).toBe(false);
  });
});
