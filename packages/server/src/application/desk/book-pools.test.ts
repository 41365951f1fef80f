import { BUY, SELL } from '@dex/core';
import { describe, expect, it } from 'vitest';
import { BookPools } from './book-pools.js';

const BOOK = 1;
const reserves = { base: 1_000_000n, quote: 2_000_000n };

/** Pools following book 1, the chain at `reserves` after block 10. */
function following(): BookPools {
  const pools = new BookPools();
  pools.add(BOOK);
  pools.synced(BOOK, reserves, 10n);
  return pools;
}

describe('BookPools', () => {
  it('knows no pool until the chain told its reserves, and none for a book it does not follow', () => {
    const pools = new BookPools();
    pools.add(BOOK);
    expect(pools.snapshot(BOOK)).toBeUndefined();
    expect(pools.synced(2, reserves, 1n)).toBe(false);
    expect(pools.snapshot(2)).toBeUndefined();
  });

  it('replays its own swaps on the chain reserves with the amounts they recorded', () => {
    const pools = following();
    pools.swapped(BOOK, { takerSide: BUY, base: 100n, quote: 203n });
    pools.swapped(BOOK, { takerSide: SELL, base: 40n, quote: 79n });
    expect(pools.snapshot(BOOK)).toEqual({ base: 1_000_000n - 100n + 40n, quote: 2_000_000n + 203n - 79n });
  });

  it('keeps replaying a settled swap until reserves of its block or later arrive', () => {
    const pools = following();
    pools.swapped(BOOK, { takerSide: BUY, base: 100n, quote: 203n });
    pools.stored([{ id: 7, bookId: BOOK, makerOrderId: null }]);
    expect(pools.mined(7, 12n)).toBeUndefined();
    expect(pools.snapshot(BOOK)).toEqual({ base: 999_900n, quote: 2_000_203n });
    // The Sync of block 12 holds the swap: replaying it again would count it twice.
    pools.synced(BOOK, { base: 999_900n, quote: 2_000_203n }, 12n);
    expect(pools.snapshot(BOOK)).toEqual({ base: 999_900n, quote: 2_000_203n });
  });

  it('forgets at once a swap settled in a block the reserves already cover', () => {
    const pools = following();
    pools.swapped(BOOK, { takerSide: BUY, base: 100n, quote: 203n });
    pools.stored([{ id: 7, bookId: BOOK, makerOrderId: null }]);
    pools.synced(BOOK, { base: 999_900n, quote: 2_000_203n }, 15n);
    expect(pools.mined(7, 14n)).toBe(BOOK);
    expect(pools.snapshot(BOOK)).toEqual({ base: 999_900n, quote: 2_000_203n });
  });

  it('gives trade ids to swaps in the order they were stored, skipping trades with a maker', () => {
    const pools = following();
    pools.swapped(BOOK, { takerSide: BUY, base: 100n, quote: 203n });
    pools.swapped(BOOK, { takerSide: BUY, base: 50n, quote: 102n });
    pools.stored([
      { id: 3, bookId: BOOK, makerOrderId: 9 },
      { id: 4, bookId: BOOK, makerOrderId: null },
      { id: 5, bookId: BOOK, makerOrderId: null },
    ]);
    expect(pools.failed(5)).toBe(BOOK);
    expect(pools.snapshot(BOOK)).toEqual({ base: 999_900n, quote: 2_000_203n });
    expect(pools.failed(3)).toBeUndefined();
  });

  it('gives no pool while a swap the other way made after a refused one is unresolved: it was priced on reserves that held it', () => {
    const pools = following();
    pools.swapped(BOOK, { takerSide: BUY, base: 100n, quote: 203n });
    pools.swapped(BOOK, { takerSide: SELL, base: 40n, quote: 79n });
    pools.swapped(BOOK, { takerSide: BUY, base: 50n, quote: 102n });
    pools.stored([4, 5, 6].map((id) => ({ id, bookId: BOOK, makerOrderId: null })));
    expect(pools.failed(5)).toBe(BOOK);
    // Swap 4, made before the refused one, is not in doubt; swap 6, a buy after the refused sell, is.
    expect(pools.snapshot(BOOK)).toBeUndefined();
    expect(pools.mined(6, 11n)).toBeUndefined();
    expect(pools.snapshot(BOOK)).toBeUndefined();
    // The reserves of block 11 hold swaps 4 and 6: nothing is in doubt any more.
    expect(pools.mined(4, 11n)).toBeUndefined();
    pools.synced(BOOK, { base: 999_850n, quote: 2_000_305n }, 11n);
    expect(pools.snapshot(BOOK)).toEqual({ base: 999_850n, quote: 2_000_305n });
  });

  it('keeps the pool when the swaps after a refused one go its way: each finds a better price than it asked', () => {
    const pools = following();
    pools.swapped(BOOK, { takerSide: BUY, base: 100n, quote: 203n });
    pools.swapped(BOOK, { takerSide: BUY, base: 50n, quote: 102n });
    pools.stored([4, 5].map((id) => ({ id, bookId: BOOK, makerOrderId: null })));
    expect(pools.failed(4)).toBe(BOOK);
    expect(pools.snapshot(BOOK)).toEqual({ base: 999_950n, quote: 2_000_102n });
  });

  it('gives the pool back once the doubtful swaps are refused too, or were never stored', () => {
    const pools = following();
    pools.swapped(BOOK, { takerSide: BUY, base: 100n, quote: 203n });
    pools.swapped(BOOK, { takerSide: SELL, base: 40n, quote: 79n });
    pools.stored([{ id: 4, bookId: BOOK, makerOrderId: null }]);
    pools.swapped(BOOK, { takerSide: BUY, base: 50n, quote: 102n });
    pools.stored([{ id: 5, bookId: BOOK, makerOrderId: null }]);
    // The third swap's turn is not stored yet when the first is refused.
    pools.swapped(BOOK, { takerSide: SELL, base: 10n, quote: 19n });
    pools.failed(4);
    expect(pools.snapshot(BOOK)).toBeUndefined();
    pools.failed(5);
    expect(pools.snapshot(BOOK)).toBeUndefined();
    pools.forgetUnstored();
    expect(pools.snapshot(BOOK)).toEqual(reserves);
  });

  it('drops a refused swap, which the chain never had', () => {
    const pools = following();
    pools.restored(BOOK, 8, { takerSide: SELL, base: 10n, quote: 19n });
    expect(pools.snapshot(BOOK)).toEqual({ base: 1_000_010n, quote: 1_999_981n });
    expect(pools.failed(8)).toBe(BOOK);
    expect(pools.snapshot(BOOK)).toEqual(reserves);
  });

  it('takes the reserves of an older block too: the chain lost the blocks after it', () => {
    const pools = following();
    expect(pools.synced(BOOK, { base: 5n, quote: 5n }, 9n)).toBe(true);
    expect(pools.snapshot(BOOK)).toEqual({ base: 5n, quote: 5n });
  });

  it('knows no pool while its own swaps would have emptied a side', () => {
    const pools = following();
    pools.swapped(BOOK, { takerSide: BUY, base: 1_000_000n, quote: 1n });
    expect(pools.snapshot(BOOK)).toBeUndefined();
  });
});
