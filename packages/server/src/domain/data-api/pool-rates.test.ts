import { describe, expect, it } from 'vitest';
import { TINYBAR_PER_COIN } from './native-rates.js';
import { tokenRates } from './pool-rates.js';

const NATIVE = { id: '0.0.1', decimals: 8 };
const pool = (poolId: number, tokenAId: string, tokenBId: string, reserveA: bigint, reserveB: bigint) => ({
  poolId,
  tokenAId,
  tokenBId,
  reserveA,
  reserveB,
});

describe('token rates through pools', () => {
  it('prices a token no book reaches at the reserves of its pool with a priced token, through chains of pools', () => {
    const rates = tokenRates([], NATIVE, [
      pool(1, '0.0.1', '0.0.2', 1_000n * TINYBAR_PER_COIN, 250n),
      pool(2, '0.0.2', '0.0.3', 5n, 20n),
    ]);
    // 0.0.2: 1,000 HBAR for 250 raw units (4 HBAR each); 0.0.3: 5 units of 0.0.2 for 20 (1 HBAR each).
    expect(rates.get('0.0.2')).toEqual({ rate: { num: 400_000_000n, den: 1n }, via: null, hops: 1 });
    expect(rates.get('0.0.3')).toEqual({ rate: { num: 100_000_000n, den: 1n }, via: null, hops: 2 });
  });

  it('takes the deepest pool, the lower id on a tie, and leaves empty pools and unreachable tokens out', () => {
    const shallow = pool(1, '0.0.1', '0.0.2', 10n, 10n);
    const deep = pool(2, '0.0.2', '0.0.1', 30n, 300n);
    const twin = pool(3, '0.0.2', '0.0.1', 30n, 300n);
    const empty = pool(4, '0.0.1', '0.0.4', 0n, 7n);
    const island = pool(5, '0.0.5', '0.0.6', 1n, 1n);
    const rates = tokenRates([], NATIVE, [shallow, twin, deep, empty, island]);
    expect(rates.get('0.0.2')?.rate).toEqual({ num: 10n, den: 1n });
    expect([...rates.keys()].sort()).toEqual(['0.0.0', '0.0.1', '0.0.2']);
  });
});
