import { describe, expect, it } from 'vitest';
import { foldPoolChange, POOL_CANDLE_MS } from './pool-candle.js';
import type { PoolChange, PoolState } from './pool-ledger.js';

const state = (reserveA: bigint, reserveB: bigint, lpSupply = 100n): PoolState => ({ reserveA, reserveB, lpSupply });

function change(before: PoolState, after: PoolState, swap: PoolChange['swap'] = null, atMs = POOL_CANDLE_MS + 1): PoolChange {
  return { poolId: 1, block: 1n, logIndex: 0, atMs, kind: swap === null ? 'SYNC' : 'SWAP', before, after, swap };
}

describe('pool candles', () => {
  it('opens at the reserves before its first change, keeps the highest and lowest price, and adds up the swaps', () => {
    const swap = { aIn: 10n, bIn: 0n, aOut: 0n, bOut: 20n };
    let candle = foldPoolChange(undefined, change(state(100n, 200n), state(110n, 180n), swap));
    candle = foldPoolChange(candle, change(state(110n, 180n), state(90n, 220n), { aIn: 0n, bIn: 40n, aOut: 20n, bOut: 0n }));
    expect(candle).toMatchObject({
      startMs: POOL_CANDLE_MS,
      open: { a: 100n, b: 200n },
      // Prices B per A: 2, 1.636..., 2.444...
      high: { a: 90n, b: 220n },
      low: { a: 110n, b: 180n },
      close: { a: 90n, b: 220n },
      aIn: 10n,
      bIn: 40n,
      aOut: 20n,
      bOut: 20n,
      swaps: 2,
    });
  });

  it("takes a new pool's first reserves as its open", () => {
    const candle = foldPoolChange(undefined, change(state(0n, 0n, 0n), state(5n, 10n, 7n)));
    expect(candle).toMatchObject({
      open: { a: 5n, b: 10n },
      high: { a: 5n, b: 10n },
      low: { a: 5n, b: 10n },
      lpSupply: 7n,
      swaps: 0,
    });
  });
});
