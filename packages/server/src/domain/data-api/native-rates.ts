import { type MarketGrid, type Ratio, ratio } from '@dex/core';
import { NATIVE_COIN_ID } from '../markets/market.js';

/** Tinybar in one coin of the native currency. */
export const TINYBAR_PER_COIN = 100_000_000n;

export function times(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.num, a.den * b.den);
}

export function inverse(a: Ratio): Ratio {
  return { num: a.den, den: a.num };
}

/** A whole number of `value` units, rounded down. */
export function floorOf(value: Ratio): bigint {
  return value.num / value.den;
}

/** A ratio as a float, for display figures only (USD amounts, percentages); 17 significant digits. */
export function toNumber(value: Ratio): number {
  if (value.num === 0n) return 0;
  const scale = Math.max(0, 17 - (value.num.toString().length - value.den.toString().length));
  return Number(`${(value.num * 10n ** BigInt(scale)) / value.den}e-${scale}`);
}

/** A book at one moment: its tokens, its grid and the tick price of its last trade by then (null: none). */
export interface BookPrice {
  readonly bookId: number;
  readonly baseId: string;
  readonly quoteId: string;
  readonly grid: MarketGrid;
  readonly ticks: bigint | null;
}

/** Raw quote units per raw base unit at a tick price. */
export function bookRate(grid: MarketGrid, ticks: bigint): Ratio {
  return ratio(ticks * grid.stepValue.num, grid.sizeStepRaw * grid.stepValue.den);
}

/** A token's value in tinybar per raw unit, and the book it was priced through. */
export interface TokenRate {
  readonly rate: Ratio;
  /** The book that links it to a token nearer the native one; null for the native token and a token priced through a pool. */
  readonly via: number | null;
  /** Books and pools between it and the native token. */
  readonly hops: number;
}

/** The tinybar rate of `token` given the rate of the other token of `book` (which must have traded). */
export function rateThrough(book: BookPrice, ticks: bigint, token: string, other: Ratio): Ratio {
  const rate = bookRate(book.grid, ticks);
  return token === book.baseId ? times(other, rate) : times(other, inverse(rate));
}

/**
 * Prices every token that trades, directly or through other tokens, against the native token:
 * breadth first from the native token over the books that have traded, so each token takes the
 * path of fewest books (the lower book id on a tie) and the price of its last trade. The native
 * token is worth exactly one coin; every rate is an exact ratio. pool-rates.ts adds the tokens
 * only pools reach.
 */
export function nativeRates(books: readonly BookPrice[], native: { id: string; decimals: number }): Map<string, TokenRate> {
  const rates = new Map<string, TokenRate>([
    // The native coin itself (tinybar, 8 decimals) is worth what its wrapped token is.
    [NATIVE_COIN_ID, { rate: ratio(1n, 1n), via: null, hops: 0 }],
    [native.id, { rate: ratio(TINYBAR_PER_COIN, 10n ** BigInt(native.decimals)), via: null, hops: 0 }],
  ]);
  spreadThroughBooks(rates, books, native.id);
  return rates;
}

/** Prices, breadth first from `start`, every token the books that traded reach and that has no rate yet. */
export function spreadThroughBooks(rates: Map<string, TokenRate>, books: readonly BookPrice[], start: string): void {
  const traded = [...books].filter((book) => book.ticks !== null).sort((a, b) => a.bookId - b.bookId);
  const queue = [start];
  for (let index = 0; index < queue.length; index++) {
    const token = queue[index] as string;
    const from = rates.get(token) as TokenRate;
    for (const book of traded) {
      const other = book.baseId === token ? book.quoteId : book.quoteId === token ? book.baseId : undefined;
      if (other === undefined || rates.has(other)) continue;
      rates.set(other, {
        rate: rateThrough(book, book.ticks as bigint, other, from.rate),
        via: book.bookId,
        hops: from.hops + 1,
      });
      queue.push(other);
    }
  }
}

export function plus(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.den + b.num * a.den, a.den * b.den);
}

export const ZERO: Ratio = { num: 0n, den: 1n };
