import { BUY, type Side } from '../book/types.js';
import type { Ratio } from '../rational.js';
import { amountIn, amountOut, smallestRootAbove } from './constant-product.js';

/** A constant-product pool's reserves in raw units of the book's base and quote tokens. */
export interface PoolReserves {
  readonly base: bigint;
  readonly quote: bigint;
}

/** The two numbers of a market grid the pool's prices are measured in (MarketGrid has both). */
export interface PoolGrid {
  /** Base raw units in one size step. */
  readonly sizeStepRaw: bigint;
  /** Quote raw units of one size step at a price of one tick (a fraction on a fine grid). */
  readonly stepValue: Ratio;
}

/** One swap of a taker with the pool: whole size steps of base against the pair's exact quote amount. */
export interface PoolLeg {
  readonly steps: number;
  /** Base raw units: steps times the size step. */
  readonly base: bigint;
  /** Quote raw units the taker pays (buying) or receives (selling), by the pair's own formula. */
  readonly quote: bigint;
  /** The reserves after the swap. */
  readonly after: PoolReserves;
}

/**
 * Where the pool stops: `before` a book level at that price (the pool's marginal price must stay
 * strictly better, so ties go to the book), or at the taker's `limit` (marginal price may reach it).
 */
export type PoolBound = 'before' | 'limit';

const KEPT = 997n;
const SCALE = 1000n;

/**
 * The pool's prices at its current reserves, in whole ticks: a buyer limited below `buyFrom`, or a
 * seller limited above `sellTo`, cannot trade with it. A cheap exact test that spares the matching
 * loop the closed form for the many takers the pool cannot serve.
 */
export interface PoolPriceBounds {
  readonly buyFrom: bigint;
  readonly sellTo: bigint;
}

/** Bounds of a pool that trades with no one. */
export const NO_POOL_PRICES: PoolPriceBounds = { buyFrom: 1n << 256n, sellTo: -1n };

export function poolPriceBounds(pool: PoolReserves, grid: PoolGrid): PoolPriceBounds {
  if (pool.base <= 0n || pool.quote <= 0n) return NO_POOL_PRICES;
  // The marginal price of the first raw unit: 1000·Q / (997·B) to buy, 997·Q / (1000·B) to sell,
  // in ticks of `stepValue.num / stepValue.den` quote raw units per size step.
  const { num, den } = grid.stepValue;
  const buyNum = SCALE * pool.quote * grid.sizeStepRaw * den;
  const buyDen = KEPT * pool.base * num;
  const buyFrom = (buyNum + buyDen - 1n) / buyDen;
  const sellTo = (KEPT * pool.quote * grid.sizeStepRaw * den) / (SCALE * pool.base * num);
  return { buyFrom, sellTo };
}

/**
 * The taker's swap with the pool up to a price, in closed form: the largest whole number of size
 * steps (at most `maxSteps`) after which the pool's marginal price is still better than `ticks`.
 * The marginal price is the derivative of the pair's fee-inclusive formula, so the leg's average
 * price is strictly better than its last marginal one and never crosses `ticks`.
 */
export function poolLeg(
  pool: PoolReserves,
  grid: PoolGrid,
  takerSide: Side,
  ticks: bigint,
  bound: PoolBound,
  maxSteps: number,
): PoolLeg | undefined {
  if (maxSteps < 1 || pool.base <= 0n || pool.quote <= 0n) return undefined;
  // The price in quote raw units per size step is price / den: den scales the other side instead.
  const { den } = grid.stepValue;
  const price = ticks * grid.stepValue.num;
  const step = grid.sizeStepRaw;
  const limitSteps = BigInt(maxSteps);
  const inclusive = bound === 'limit';

  let steps = limitSteps;
  if (takerSide === BUY) {
    // Buying b raw base costs 1000·Q·b / (997·(B − b)); its marginal price per size step stays
    // below p while 1000·Q·B·step < 997·p·(B − b)². The closed form finds the smallest B − b.
    if (price === 0n) return undefined;
    const remainder = smallestRootAbove(SCALE * pool.quote * pool.base * step * den, KEPT * price, inclusive);
    const most = pool.base - remainder;
    steps = most > 0n ? min(most / step, limitSteps) : 0n;
  } else if (price > 0n) {
    // Selling b raw base returns 997·Q·b / (1000·B + 997·b); its marginal proceeds per size step
    // stay above p while 997000·Q·B·step > p·(1000·B + 997·b)². At a price of zero any amount sells.
    const beyond = smallestRootAbove(KEPT * SCALE * pool.quote * pool.base * step * den, price, !inclusive);
    const most = (beyond - 1n - SCALE * pool.base) / KEPT;
    steps = most > 0n ? min(most / step, limitSteps) : 0n;
  }
  return swapOf(pool, grid, takerSide, Number(steps));
}

/**
 * A swap of exactly `steps` size steps with the pool, priced by the pair's formula; undefined when
 * it cannot happen (no steps, the pool's whole base reserve, or proceeds that round to nothing).
 */
export function swapOf(pool: PoolReserves, grid: PoolGrid, takerSide: Side, steps: number): PoolLeg | undefined {
  if (steps < 1) return undefined;
  const base = BigInt(steps) * grid.sizeStepRaw;
  if (takerSide === BUY) {
    const quote = amountIn(base, pool.quote, pool.base);
    if (quote === undefined) return undefined;
    return { steps, base, quote, after: reservesAfter(pool, takerSide, base, quote) };
  }
  const quote = amountOut(base, pool.base, pool.quote);
  if (quote === 0n) return undefined;
  return { steps, base, quote, after: reservesAfter(pool, takerSide, base, quote) };
}

/**
 * The reserves after a taker's swap of `base` against `quote`: a buyer takes base out and pays
 * quote in, a seller the other way round.
 */
export function reservesAfter(pool: PoolReserves, takerSide: Side, base: bigint, quote: bigint): PoolReserves {
  return takerSide === BUY
    ? { base: pool.base - base, quote: pool.quote + quote }
    : { base: pool.base + base, quote: pool.quote - quote };
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
