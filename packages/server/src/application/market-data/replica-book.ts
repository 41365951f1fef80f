import { BUY, bestPriceFirst, type DepthLevel, type DepthSnapshot, type PoolReserves, SELL, type Side } from '@dex/core';
import type { BookDepthChange } from '../../domain/orders/desk-commit.js';
import type { BookView } from './book-views.js';

/** What applying a depth change did: applied it, found it already in the replica, or found changes missing before it. */
export type ChangeOutcome = 'applied' | 'old' | 'gap';

/** Levels best first: bids by falling price, asks by rising price. */
function sorted(levels: ReadonlyMap<bigint, number>, side: Side): DepthLevel[] {
  return [...levels].map(([price, size]): DepthLevel => [price, size]).sort(bestPriceFirst(side));
}

/**
 * A gateway's copy of one book's depth and pool, kept from the engine's snapshot and the depth
 * changes of its commits, as a client keeps the book from `GET /depth` and the diffs of
 * `/ws/depth`. Sizes in a change are final, so a change that overlaps what the replica holds
 * applies as well; one that starts past the next update id is a gap.
 */
export class ReplicaBook implements BookView {
  private readonly levels = { bids: new Map<bigint, number>(), asks: new Map<bigint, number>() };
  private best: { bids: DepthLevel[]; asks: DepthLevel[] } | null = null;
  private updateId = 0;
  pool: PoolReserves | undefined;

  constructor(private readonly halted: () => boolean) {}

  get isHalted(): boolean {
    return this.halted();
  }

  get lastUpdateId(): number {
    return this.updateId;
  }

  /** Replaces everything with the engine's snapshot. */
  load(depth: DepthSnapshot, pool: PoolReserves | undefined): void {
    this.levels.bids = new Map(depth.bids.map(([price, size]) => [price, size]));
    this.levels.asks = new Map(depth.asks.map(([price, size]) => [price, size]));
    this.updateId = depth.lastUpdateId;
    this.pool = pool;
    this.best = null;
  }

  apply(change: BookDepthChange): ChangeOutcome {
    if (change.finalUpdateId <= this.updateId) return 'old';
    if (change.firstUpdateId > this.updateId + 1) return 'gap';
    for (const [side, levels] of [
      ['bids', change.bids],
      ['asks', change.asks],
    ] as const) {
      for (const [price, size] of levels) {
        if (size === 0) this.levels[side].delete(price);
        else this.levels[side].set(price, size);
      }
    }
    this.updateId = change.finalUpdateId;
    this.best = null;
    return 'applied';
  }

  depth(): DepthSnapshot {
    const best = this.sortedLevels();
    return {
      bids: best.bids.map(([price, size]) => [price, size]),
      asks: best.asks.map(([price, size]) => [price, size]),
      lastUpdateId: this.updateId,
    };
  }

  forEachLevel(side: Side, visit: (price: bigint, quantity: number) => boolean): void {
    const best = this.sortedLevels();
    for (const [price, size] of side === BUY ? best.bids : best.asks) if (!visit(price, size)) return;
  }

  private sortedLevels(): { bids: DepthLevel[]; asks: DepthLevel[] } {
    this.best ??= { bids: sorted(this.levels.bids, BUY), asks: sorted(this.levels.asks, SELL) };
    return this.best;
  }
}
