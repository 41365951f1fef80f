import { limitOrderRequest, type OrderRequest, type OrderSide } from '@dex/sdk';
import type { Prng } from './prng.js';
import type { TickGrid } from './tick-grid.js';

/** One price of the ladder: `level` 0 is the best bid or ask. */
export interface Level {
  readonly side: OrderSide;
  readonly level: number;
  readonly ticks: number;
}

export interface QuoterOptions {
  /** Price levels on each side. */
  readonly levels: number;
  /** Distance from the best bid to the best ask, in basis points of the mid (at least two ticks). */
  readonly spreadBps: number;
  /** Distance between two levels of a side, in basis points of the mid (at least one tick). */
  readonly levelGapBps: number;
  /** Level 0's size in multiples of the book's smallest order; deeper levels grow by one such size each. */
  readonly sizeMultiple: number;
  /** How long a quote may rest, in seconds (its signed deadline). */
  readonly quoteLifetimeSeconds: number;
}

/**
 * The maker's ladder for one book. The half spread and the level gap are fixed in ticks when the
 * book is first quoted, and every level sits on a multiple of the gap: a mid that moves less than a
 * gap leaves most levels where they are, so a refresh replaces few orders.
 */
export class Quoter {
  private readonly halfSpread: number;
  private readonly gap: number;

  constructor(
    readonly grid: TickGrid,
    startMid: number,
    private readonly options: QuoterOptions,
    private readonly prng: Prng,
  ) {
    this.halfSpread = Math.max(1, Math.ceil((startMid * options.spreadBps) / 20_000));
    this.gap = Math.max(1, Math.round((startMid * options.levelGapBps) / 10_000));
  }

  /** The bid and ask levels around `mid` (ticks), best first; bids that would reach zero are left out. */
  ladder(mid: number): Level[] {
    const bestBid = Math.floor((mid - this.halfSpread) / this.gap) * this.gap;
    const bestAsk = Math.ceil((mid + this.halfSpread) / this.gap) * this.gap;
    const levels: Level[] = [];
    for (let level = 0; level < this.options.levels; level++) {
      const bid = bestBid - level * this.gap;
      if (bid > 0) levels.push({ side: 'buy', level, ticks: bid });
      levels.push({ side: 'sell', level, ticks: bestAsk + level * this.gap });
    }
    return levels;
  }

  /**
   * Size steps of a new order at `level`: (level + 1) times the multiple of the smallest order, give
   * or take a quarter of it, and never below the smallest order.
   */
  steps(level: Level): number {
    const least = this.grid.minSteps(level.ticks);
    const base = least * this.options.sizeMultiple;
    const jitter = Math.floor(base / 4);
    return Math.max(least, (level.level + 1) * base + this.prng.int(-jitter, jitter));
  }

  /** The maker-only limit order of a level: it rests or is refused, it never takes. */
  order(level: Level, steps: number, nowSeconds: number): OrderRequest {
    return limitOrderRequest(this.grid.book, {
      side: level.side,
      price: this.grid.price(level.ticks),
      size: this.grid.size(steps),
      deadline: nowSeconds + this.options.quoteLifetimeSeconds,
      makerOnly: true,
    });
  }
}
