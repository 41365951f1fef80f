// What the matching engine shows of its book: depth snapshots and open orders.
import type { Side } from './types.js';

/** One price level of a depth snapshot: [price in ticks, quantity in size steps]. */
export type DepthLevel = [price: number, quantity: number];

export interface DepthSnapshot {
  readonly bids: DepthLevel[];
  readonly asks: DepthLevel[];
  /** Update id of the last depth event reflected in this snapshot. */
  readonly lastUpdateId: number;
}

export interface OpenOrder {
  readonly id: number;
  readonly side: Side;
  readonly price: number;
  readonly quantity: number;
  readonly remaining: number;
}
