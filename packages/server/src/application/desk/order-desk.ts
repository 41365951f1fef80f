import type { CancelReason, OrderTerms } from '@dex/core';
import type { SignedFacts } from '../../domain/orders/live-orders.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { NewOrderFields } from '../../domain/orders/order-turn.js';
import type { Holding } from '../../ports/funds.js';

/**
 * A verified order on its way to its book: what the intake hands the desk (and a gateway logs for
 * an engine). The desk gives it its id, its time and its OCO partner's id.
 */
export interface OrderCandidate {
  /** Position of the order in the request, for error messages. */
  readonly index: number;
  readonly fields: Omit<NewOrderFields, 'id' | 'createdAt' | 'ocoOrderId'>;
  readonly signed: SignedFacts;
  readonly terms: OrderTerms;
  /** Batch index of its OCO partner, or null. */
  readonly ocoWith: number | null;
}

export interface CancelOutcome {
  readonly accepted: number[];
  readonly skipped: { orderId: number; reason: 'NOT_FOUND' | 'NOT_OPEN' }[];
}

/**
 * What the intake, the order routes and the streams ask of the books' single writer: the trading
 * desk in this process (ROLE=all), or the engines of the books' shards behind their command logs
 * (ROLE=gateway). Every call is answered after the writer stored its effect.
 */
export interface OrderDesk {
  /** Stores and places a batch of verified orders of one account; the stored record of each candidate, in order. */
  accept(account: string, candidates: readonly OrderCandidate[], holdings?: ReadonlyMap<string, Holding>): Promise<OrderRecord[]>;
  /** Takes the account's orders off their books; ids it does not own or that are done are skipped. */
  cancel(account: string, orderIds: readonly number[], reason?: CancelReason): Promise<CancelOutcome>;
  /** Raises the account's nonce floor and cancels its open orders below it; returns their ids. */
  cancelBelowFloor(account: string, floor: bigint, reason?: CancelReason): Promise<number[]>;
  /** Cancels the account's open orders on `books` (null: every book); returns their ids. */
  cancelOpen(account: string, books: ReadonlySet<number> | null, reason: CancelReason): Promise<number[]>;
  /**
   * Throws OPEN_ORDER_LIMIT when `adding` more orders would take the account past the cap, as far
   * as this process knows; the writer checks again inside its turn.
   */
  assertRoomFor(account: string, adding: number): void;
}
