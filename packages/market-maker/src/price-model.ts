import type { Prng } from './prng.js';

export interface PriceWalkOptions {
  /** Largest move of one step, in basis points of the mid (at least one tick). */
  readonly stepBps: number;
  /** How far the mid may wander from where it started, in basis points of the start. */
  readonly bandBps: number;
}

interface Walk {
  mid: number;
  readonly low: number;
  readonly high: number;
  readonly maxStep: number;
}

/**
 * A mid price per book that moves as a bounded random walk in whole ticks: each step adds a
 * uniform move of up to `stepBps` of the starting mid, and a move past the band is reflected back
 * into it. Integers throughout, so every mid is on the grid.
 */
export class PriceModel {
  private readonly walks = new Map<number, Walk>();

  constructor(
    private readonly prng: Prng,
    private readonly options: PriceWalkOptions,
  ) {}

  /** Starts (or restarts) a book's walk at `ticks`. */
  add(bookId: number, ticks: number): void {
    const band = Math.floor((ticks * this.options.bandBps) / 10_000);
    this.walks.set(bookId, {
      mid: ticks,
      low: Math.max(1, ticks - band),
      high: ticks + band,
      maxStep: Math.max(1, Math.floor((ticks * this.options.stepBps) / 10_000)),
    });
  }

  has(bookId: number): boolean {
    return this.walks.has(bookId);
  }

  /** The book's mid in ticks; throws for a book that was never added. */
  mid(bookId: number): number {
    return this.walkOf(bookId).mid;
  }

  /** Moves the book's mid one step and returns it. */
  step(bookId: number): number {
    const walk = this.walkOf(bookId);
    let next = walk.mid + this.prng.int(-walk.maxStep, walk.maxStep);
    if (next > walk.high) next = walk.high - (next - walk.high);
    if (next < walk.low) next = walk.low + (walk.low - next);
    walk.mid = Math.min(walk.high, Math.max(walk.low, next));
    return walk.mid;
  }

  /** Every book's mid in ticks. */
  mids(): Map<number, number> {
    return new Map([...this.walks].map(([bookId, walk]) => [bookId, walk.mid]));
  }

  private walkOf(bookId: number): Walk {
    const walk = this.walks.get(bookId);
    if (walk === undefined) throw new Error(`no mid for book ${bookId}`);
    return walk;
  }
}
