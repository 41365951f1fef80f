import type { OrderFacts } from './live-orders.js';
import type { OrderEventRecord, OrderState } from './order-records.js';
import type { NewTrade } from './trade-records.js';

/** A price level as `[price in ticks, total resting size in size steps]`; size 0 means the level is gone. */
export type LevelSize = readonly [price: bigint, size: number];

/**
 * What a commit group changed on one book's depth: the updates `firstUpdateId..finalUpdateId`
 * (consecutive, continuing the book's previous change) folded into the last size of every level
 * they touched.
 */
export interface BookDepthChange {
  readonly bookId: number;
  readonly firstUpdateId: number;
  readonly finalUpdateId: number;
  /** Server time (unix ms) of the earliest engine turn folded in. */
  readonly time: number;
  /** Best first: bids by falling price, asks by rising price. */
  readonly bids: readonly LevelSize[];
  readonly asks: readonly LevelSize[];
}

/** A stored history event of an order, with its owner and where the order stands after it. */
export interface CommittedOrderEvent extends OrderEventRecord {
  readonly account: string;
  readonly bookId: number;
  /** The order's filled size after this event, in size steps. */
  readonly filledSteps: number;
  /** The order's status after this event. */
  readonly status: OrderState;
  /** The order's signed terms (its size as of the end of the commit group). */
  readonly order: OrderFacts;
}

export interface CommittedTrade extends NewTrade {
  readonly id: number;
}

/** Everything one commit group stored, in commit order. */
export interface DeskCommit {
  readonly depth: readonly BookDepthChange[];
  readonly orderEvents: readonly CommittedOrderEvent[];
  readonly trades: readonly CommittedTrade[];
}

export type DeskListener = (commit: DeskCommit) => void;
