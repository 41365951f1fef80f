import { toDisplay, toRaw } from '@dex/sdk';
import type { TickGrid } from './tick-grid.js';

/**
 * Prices of tokens in one common unit (say USD), display decimals keyed by ledger token id. A book
 * without trades starts at the ratio of its two tokens' prices, so every book agrees with the
 * others: SAUCE/WHBAR is SAUCE/USDC over WHBAR/USDC.
 */
export type ReferencePrices = Readonly<Record<string, string>>;

/** Digits kept of a ratio of two reference prices before it is put on the tick grid. */
const RATIO_DIGITS = 18;

/**
 * Where a book's mid starts, in ticks: its last trade price when it has traded, else the ratio of
 * its tokens' reference prices; undefined when neither is known (the bot leaves the book alone).
 */
export function initialMid(grid: TickGrid, references: ReferencePrices): number | undefined {
  const { quotePrice, baseTokenId, quoteTokenId } = grid.book;
  // "0" for a book that never traded.
  const last = grid.ticks(quotePrice);
  if (last > 0) return last;
  const base = references[baseTokenId];
  const quote = references[quoteTokenId];
  if (base === undefined || quote === undefined) return undefined;
  const ticks = grid.ticks(ratio(base, quote));
  return ticks > 0 ? ticks : undefined;
}

/** Fractional digits of a display decimal. */
function decimalsOf(display: string): number {
  const dot = display.indexOf('.');
  return dot < 0 ? 0 : display.length - dot - 1;
}

/** `a / b` of two display decimals, as a display decimal of RATIO_DIGITS digits (rounded down). */
function ratio(a: string, b: string): string {
  const scale = Math.max(decimalsOf(a), decimalsOf(b));
  const numerator = toRaw(a, scale) * 10n ** BigInt(RATIO_DIGITS);
  return toDisplay(numerator / toRaw(b, scale), RATIO_DIGITS);
}
