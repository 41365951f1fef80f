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
    expect(pools.failed(4)).toBe(BOOK);
    expect(pools.snapshot(BOOK)).toEqual({ base: 999_950n, quote: 2_000_102n });
    expect(pools.failed(3)).toBeUndefined();
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
