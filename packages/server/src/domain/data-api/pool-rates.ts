import { type Ratio, ratio } from '@dex/core';
import { type BookPrice, nativeRates, spreadThroughBooks, type TokenRate, times } from './native-rates.js';

/** A pool's tokens and reserves at one moment (token A is the pair's token0). */
export interface PoolHoldings {
  readonly poolId: number;
  readonly tokenAId: string;
  readonly tokenBId: string;
  readonly reserveA: bigint;
  readonly reserveB: bigint;
}

/** Whether x > y, exactly. */
const greater = (x: Ratio, y: Ratio): boolean => x.num * y.den > y.num * x.den;

/**
 * The next token to price through a pool: of the pools (with both reserves) between a priced and an
 * unpriced token, the deepest, that is the one whose priced side is worth the most tinybar (the
 * lower pool id on a tie). A constant-product pool holds equal value on both sides, so the unpriced
 * token is worth the priced side's value over its own reserve.
 */
export function deepestPoolLink(
  rates: ReadonlyMap<string, TokenRate>,
  pools: readonly PoolHoldings[],
): { token: string; rate: TokenRate } | undefined {
  let best: { token: string; rate: TokenRate; depth: Ratio; poolId: number } | undefined;
  for (const pool of pools) {
    if (pool.reserveA <= 0n || pool.reserveB <= 0n) continue;
    const a = rates.get(pool.tokenAId);
    const b = rates.get(pool.tokenBId);
    if ((a === undefined) === (b === undefined)) continue;
    const [known, held, token, reserve] =
      a !== undefined
        ? [a, pool.reserveA, pool.tokenBId, pool.reserveB]
        : [b as TokenRate, pool.reserveB, pool.tokenAId, pool.reserveA];
    const depth = times(known.rate, { num: held, den: 1n });
    if (
      best !== undefined &&
      !greater(depth, best.depth) &&
      !(depth.num * best.depth.den === best.depth.num * depth.den && pool.poolId < best.poolId)
    ) {
      continue;
    }
    best = {
      token,
      depth,
      poolId: pool.poolId,
      rate: { rate: times(depth, ratio(1n, reserve)), via: null, hops: known.hops + 1 },
    };
  }
  return best === undefined ? undefined : { token: best.token, rate: best.rate };
}

/**
 * Every token's rate: through the books (native-rates.ts), then each token the books cannot reach
 * through the deepest pool that links it to a priced token, the books spreading from it again.
 */
export function tokenRates(
  books: readonly BookPrice[],
  native: { id: string; decimals: number },
  pools: readonly PoolHoldings[],
): Map<string, TokenRate> {
  const rates = nativeRates(books, native);
  for (let link = deepestPoolLink(rates, pools); link !== undefined; link = deepestPoolLink(rates, pools)) {
    rates.set(link.token, link.rate);
    spreadThroughBooks(rates, books, link.token);
  }
  return rates;
}
