import { BUY, SELL, type Side } from '../book/types.js';
import type { LevelSource } from '../quote.js';
import { type PoolGrid, type PoolLeg, type PoolReserves, poolLeg } from './pool-leg.js';

/** A book's liquidity pool as routing sees it: its reserves and the book's grid in raw units. */
export interface RoutedPool {
  readonly reserves: PoolReserves;
  readonly grid: PoolGrid;
}

/**
 * What a taker could trade next: a book level, or a swap with the pool of at most `leg.steps`
 * steps starting from `reserves` (a smaller swap is priced anew with `swapOf`).
 */
export type LiquiditySegment =
  | { readonly source: 'book'; readonly price: bigint; readonly quantity: number }
  | { readonly source: 'pool'; readonly leg: PoolLeg; readonly reserves: PoolReserves };

/**
 * Offers a taker the liquidity it would meet, in the matching engine's order: before each level
 * within the limit, the pool while its marginal price beats that level's; after the last one, the
 * pool up to the limit. `take` answers how many steps it took; the walk ends at the first segment
 * not taken in full. Quotes and market-buy sizing walk this way, so they agree with the engine.
 */
export function walkLiquidity(
  book: LevelSource,
  pool: RoutedPool | undefined,
  takerSide: Side,
  limitTicks: bigint,
  take: (segment: LiquiditySegment) => number,
): void {
  const buying = takerSide === BUY;
  let reserves = pool?.reserves;
  const swapUpTo = (ticks: bigint, bound: 'before' | 'limit'): boolean => {
    if (pool === undefined || reserves === undefined) return true;
    const leg = poolLeg(reserves, pool.grid, takerSide, ticks, bound, Number.MAX_SAFE_INTEGER);
    if (leg === undefined) return true;
    if (take({ source: 'pool', leg, reserves }) < leg.steps) return false;
    reserves = leg.after;
    return true;
  };
  let stopped = false;
  book.forEachLevel(buying ? SELL : BUY, (price, quantity) => {
    if (buying ? price > limitTicks : price < limitTicks) return false;
    stopped = !swapUpTo(price, 'before') || take({ source: 'book', price, quantity }) < quantity;
    return !stopped;
  });
  if (!stopped) swapUpTo(limitTicks, 'limit');
}
