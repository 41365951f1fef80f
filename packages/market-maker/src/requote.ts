import type { OrderSide } from '@dex/sdk';
import type { Level } from './quoter.js';

/** A resting order of the maker, as the bot remembers it. */
export interface Quote {
  readonly id: number;
  readonly side: OrderSide;
  readonly ticks: number;
  /** Unix ms. */
  readonly placedAt: number;
  /** Something of it traded: it no longer has its level's size. */
  partial: boolean;
}

export interface RequotePlan {
  /** Quotes that stay: fresh, untouched, and on a level of the new ladder. */
  readonly keep: Quote[];
  /** Quotes to cancel once the new ones are placed. */
  readonly cancel: Quote[];
  /** Levels to place now. */
  readonly place: Level[];
}

/**
 * What a refresh changes. A quote is stale when its price left the ladder, part of it traded, or
 * it was placed before `staleBefore`. The new levels are placed before the stale quotes are
 * cancelled (the book is never empty), so a level that would cross one of the maker's own resting
 * quotes waits for the next refresh: the exchange has no self-trade prevention.
 */
export function planRequote(current: readonly Quote[], target: readonly Level[], staleBefore: number): RequotePlan {
  const keep: Quote[] = [];
  const place: Level[] = [];
  const available = current.filter((quote) => !quote.partial && quote.placedAt >= staleBefore);
  for (const level of target) {
    const index = available.findIndex((quote) => quote.side === level.side && quote.ticks === level.ticks);
    if (index >= 0) keep.push(...available.splice(index, 1));
    else place.push(level);
  }
  const kept = new Set(keep);
  const lowestAsk = Math.min(...current.filter((quote) => quote.side === 'sell').map((quote) => quote.ticks));
  const highestBid = Math.max(...current.filter((quote) => quote.side === 'buy').map((quote) => quote.ticks));
  return {
    keep,
    cancel: current.filter((quote) => !kept.has(quote)),
    place: place.filter((level) => (level.side === 'buy' ? level.ticks < lowestAsk : level.ticks > highestBid)),
  };
}
