import type { DepthLevel } from './book-views.js';
import { PriceLevel } from './price-level.js';
import type { Side } from './types.js';

/**
 * The price levels of one side, kept sorted with the best price last: popping the best level is
 * O(1), and inserting a level costs a binary search plus a short move (books rarely hold more
 * than a few thousand prices).
 */
export class BookSide {
  /** Sorted worst to best: ascending prices for bids, descending for asks. */
  readonly levels: PriceLevel[] = [];

  constructor(readonly side: Side) {}

  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** True when `a` is a better price than `b` on this side. */
  better(a: bigint, b: bigint): boolean {
    return this.side === 0 ? a > b : a < b;
  }

  /** The level at a price, created in place when missing. */
  levelAt(price: bigint): PriceLevel {
    const levels = this.levels;
    const last = levels[levels.length - 1];
    if (last !== undefined) {
      if (last.price === price) return last;
      if (this.better(price, last.price)) {
        const level = new PriceLevel(this.side, price);
        levels.push(level);
        return level;
      }
    }
    const index = this.search(price);
    const found = levels[index];
    if (found !== undefined && found.price === price) return found;
    const level = new PriceLevel(this.side, price);
    levels.splice(index, 0, level);
    return level;
  }

  /** The best `maxLevels` levels as [price, total] pairs, best first. */
  top(maxLevels: number): DepthLevel[] {
    const levels = this.levels;
    const out: DepthLevel[] = [];
    for (let index = levels.length - 1; index >= 0 && out.length < maxLevels; index--) {
      const level = levels[index] as PriceLevel;
      out.push([level.price, level.total]);
    }
    return out;
  }

  /** Removes an empty level. */
  drop(level: PriceLevel): void {
    const levels = this.levels;
    if (levels[levels.length - 1] === level) {
      levels.pop();
      return;
    }
    levels.splice(this.search(level.price), 1);
  }

  /** Index of the first level that is not worse than `price` (lower bound in worst-to-best order). */
  private search(price: bigint): number {
    const levels = this.levels;
    let low = 0;
    let high = levels.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.better(price, (levels[middle] as PriceLevel).price)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
