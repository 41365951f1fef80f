import { limitOrderRequest, snapPrice } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { initialMid } from './initial-mid.js';
import { TEST_REFERENCE_PRICES } from './test-support/bot-server.js';
import { SEED_BOOKS } from './test-support/seed-books.js';
import { TickGrid } from './tick-grid.js';

describe('tick grid', () => {
  it('writes tick counts and size steps as display amounts on the grid', () => {
    const grid = new TickGrid(SEED_BOOKS.whbarUsdc);
    expect(grid.price(25_000)).toBe('0.25');
    expect(grid.price(24_999)).toBe('0.24999');
    expect(grid.size(37)).toBe('3.7');
    expect(grid.ticks('0.25')).toBe(25_000);
    // Below a tick is rounded down.
    expect(grid.ticks('0.250009')).toBe(25_000);
    expect(snapPrice(SEED_BOOKS.whbarUsdc, grid.price(12_345))).toBe(grid.price(12_345));
  });

  it('knows the smallest order of a price: the lot size, or the minimum notional when that is larger', () => {
    // WHBAR/USDC at 0.25: 0.1 USDC needs 0.4 WHBAR (4 steps), above the lot of 0.1.
    expect(new TickGrid(SEED_BOOKS.whbarUsdc).minSteps(25_000)).toBe(4);
    // SAUCE/USDC at 0.05: 1 USDC needs 20 SAUCE; SAUCE/WHBAR at 0.2: 5 SAUCE, below the lot of 10.
    expect(new TickGrid(SEED_BOOKS.sauceUsdc).minSteps(5_000)).toBe(20);
    expect(new TickGrid(SEED_BOOKS.sauceWhbar).minSteps(2_000)).toBe(10);
    // Not a step less: the SDK refuses an order one step smaller.
    for (const [book, ticks] of [
      [SEED_BOOKS.whbarUsdc, 24_999],
      [SEED_BOOKS.sauceUsdc, 4_999],
      [SEED_BOOKS.sauceWhbar, 2_001],
    ] as const) {
      const grid = new TickGrid(book);
      const steps = grid.minSteps(ticks);
      const order = (size: number) => () =>
        limitOrderRequest(book, { side: 'sell', price: grid.price(ticks), size: grid.size(size) });
      expect(order(steps)).not.toThrow();
      expect(order(steps - 1)).toThrow();
    }
  });
});

describe('starting mids', () => {
  it('agree across books: each is the ratio of its tokens’ reference prices', () => {
    const mid = (book: (typeof SEED_BOOKS)[keyof typeof SEED_BOOKS]) =>
      new TickGrid(book).price(initialMid(new TickGrid(book), TEST_REFERENCE_PRICES) ?? 0);
    expect(mid(SEED_BOOKS.whbarUsdc)).toBe('0.25');
    expect(mid(SEED_BOOKS.sauceUsdc)).toBe('0.05');
    expect(mid(SEED_BOOKS.sauceWhbar)).toBe('0.2');
  });

  it('start from the last trade price of a book that has traded', () => {
    const grid = new TickGrid({ ...SEED_BOOKS.sauceWhbar, quotePrice: '0.2137' });
    expect(initialMid(grid, TEST_REFERENCE_PRICES)).toBe(2_137);
  });

  it('are unknown for a book without trades whose tokens have no reference price', () => {
    expect(initialMid(new TickGrid(SEED_BOOKS.sauceWhbar), { '0.0.1003': '0.05' })).toBeUndefined();
  });
});
