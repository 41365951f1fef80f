// What the matching engine shows of its book: depth snapshots and open orders.
import type { Side } from './types.js';

/** One price level of a depth snapshot: [price in ticks, quantity in size steps]. */
export type DepthLevel = [price: bigint, quantity: number];

export interface DepthSnapshot {
  readonly bids: DepthLevel[];
  readonly asks: DepthLevel[];
  /** Update id of the last depth event reflected in this snapshot. */
  readonly lastUpdateId: number;
}

export interface OpenOrder {
  readonly id: number;
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: number;
  readonly remaining: number;
  /** Its owner, for self-trade prevention; none: never checked. */
  readonly owner?: string;
}

/** Compares `[price, size]` levels best first for a side: bids by falling price, asks by rising price. */
export function bestPriceFirst(side: Side): (a: readonly [bigint, number], b: readonly [bigint, number]) => number {
  return ([a], [b]) => (a === b ? 0 : a < b === (side === 0) ? 1 : -1);
}
