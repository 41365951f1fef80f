import { BUY, type Side } from '../book/types.js';
import {
  NO_POOL_PRICES,
  type PoolBound,
  type PoolGrid,
  type PoolLeg,
  type PoolReserves,
  poolLeg,
  poolPriceBounds,
} from './pool-leg.js';

/**
 * A matching engine's snapshot of its book's pool: the reserves as the engine last knew or moved
 * them, and the price bounds that let most takers skip the closed form.
 */
export class BookPool {
  private current: PoolReserves | undefined;
  private bounds = NO_POOL_PRICES;

  constructor(
    readonly grid: PoolGrid,
    reserves: PoolReserves | undefined,
  ) {
    this.set(reserves);
  }

  get reserves(): PoolReserves | undefined {
    return this.current;
  }

  /** Replaces the snapshot; undefined takes the pool away. */
  set(reserves: PoolReserves | undefined): void {
    this.current = reserves;
    if (reserves !== undefined) this.bounds = poolPriceBounds(reserves, this.grid);
  }

  /** A taker's swap up to a price, moving the snapshot by it; undefined when the pool cannot beat the price. */
  take(side: Side, ticks: bigint, bound: PoolBound, maxSteps: number): PoolLeg | undefined {
    const reserves = this.current;
    if (reserves === undefined || (side === BUY ? ticks < this.bounds.buyFrom : ticks > this.bounds.sellTo)) return undefined;
    const leg = poolLeg(reserves, this.grid, side, ticks, bound, maxSteps);
    if (leg !== undefined) this.set(leg.after);
    return leg;
  }
}
