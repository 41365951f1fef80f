import type { DepthLevel, DepthSnapshot } from '@dex/sdk';
import { compareDecimals, fractionOf, runningSums, subtractDecimals } from '../decimal.js';

export type LadderSide = 'ask' | 'bid';

/** One price level with the size of it and every better level of its side. */
export interface CumulativeLevel {
  /** The API's price text, untouched. */
  readonly price: string;
  /** The API's size text, untouched. */
  readonly size: string;
  /** This level's size plus those of the better levels, exact. */
  readonly cumulative: string;
}

export interface LadderRow extends CumulativeLevel {
  readonly side: LadderSide;
  /** `cumulative` over the larger of the two sides' totals, in [0, 1]: the bar's width. */
  readonly depthFraction: number;
}

export interface Spread {
  /** Best ask minus best bid, exact. */
  readonly absolute: string;
  /** The API's `spreadPercent`, as given. */
  readonly percent: string | null;
}

export interface Ladder {
  /** Asks from the highest price down, so the best ask sits just above the spread. */
  readonly asks: readonly LadderRow[];
  /** Bids from the best (highest) price down, just below the spread. */
  readonly bids: readonly LadderRow[];
  /** Undefined while either side is empty. */
  readonly spread: Spread | undefined;
}

/** Levels as the API orders them (best first), with sizes summed from the best price outward. */
export function cumulativeLevels(levels: readonly DepthLevel[]): CumulativeLevel[] {
  const sums = runningSums(levels.map(([, size]) => size));
  return levels.map(([price, size], index) => ({ price, size, cumulative: sums[index] ?? size }));
}

/** The total size of a side: the cumulative size of its worst level, "0" when it is empty. */
export function sideTotal(levels: readonly CumulativeLevel[]): string {
  return levels.at(-1)?.cumulative ?? '0';
}

function largerTotal(a: string, b: string): string {
  return compareDecimals(a, b) < 0 ? b : a;
}

export function spreadOf(depth: Pick<DepthSnapshot, 'bids' | 'asks' | 'spreadPercent'>): Spread | undefined {
  const bestBid = depth.bids[0]?.[0];
  const bestAsk = depth.asks[0]?.[0];
  if (bestBid === undefined || bestAsk === undefined) return undefined;
  return { absolute: subtractDecimals(bestAsk, bestBid), percent: depth.spreadPercent };
}

/** The depth snapshot as the ladder shows it: every level, with cumulative sizes and bar widths. */
export function buildLadder(depth: Pick<DepthSnapshot, 'bids' | 'asks' | 'spreadPercent'>): Ladder {
  const asks = cumulativeLevels(depth.asks);
  const bids = cumulativeLevels(depth.bids);
  const scale = largerTotal(sideTotal(asks), sideTotal(bids));
  const row =
    (side: LadderSide) =>
    (level: CumulativeLevel): LadderRow => ({ ...level, side, depthFraction: fractionOf(level.cumulative, scale) });
  return {
    asks: asks.map(row('ask')).reverse(),
    bids: bids.map(row('bid')),
    spread: spreadOf(depth),
  };
}
