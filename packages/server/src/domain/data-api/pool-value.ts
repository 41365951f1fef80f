import type { Ratio } from '@dex/core';
import { plus, type TokenRate, times, ZERO } from './native-rates.js';

/** A pool's two tokens. */
export interface PoolTokens {
  readonly tokenAId: string;
  readonly tokenBId: string;
}

/** Raw units swaps moved in and out of a pool. */
export interface SwapSums {
  readonly aIn: bigint;
  readonly bIn: bigint;
  readonly aOut: bigint;
  readonly bOut: bigint;
}

const worth = (rate: TokenRate | undefined, raw: bigint): Ratio | undefined =>
  rate === undefined ? undefined : times(rate.rate, { num: raw, den: 1n });

/**
 * Tinybar held on each side of a pool, A then B. A constant-product pool holds equal value on both
 * sides, so a priced side stands for an unpriced one; with neither priced both count nothing.
 */
export function heldValues(
  pool: PoolTokens,
  rates: ReadonlyMap<string, TokenRate>,
  reserveA: bigint,
  reserveB: bigint,
): [Ratio, Ratio] {
  const a = worth(rates.get(pool.tokenAId), reserveA);
  const b = worth(rates.get(pool.tokenBId), reserveB);
  return [a ?? b ?? ZERO, b ?? a ?? ZERO];
}

/**
 * Tinybar swapped: what was paid in, each token at its rate; when only one token is priced, what
 * moved of it both ways (for the swaps paying the other token in, what they took out stands for
 * what they paid); nothing when neither is.
 */
export function swapValue(pool: PoolTokens, rates: ReadonlyMap<string, TokenRate>, sums: SwapSums): Ratio {
  const a = rates.get(pool.tokenAId);
  const b = rates.get(pool.tokenBId);
  if (a !== undefined && b !== undefined) return plus(worth(a, sums.aIn) as Ratio, worth(b, sums.bIn) as Ratio);
  if (a !== undefined) return worth(a, sums.aIn + sums.aOut) as Ratio;
  if (b !== undefined) return worth(b, sums.bIn + sums.bOut) as Ratio;
  return ZERO;
}
