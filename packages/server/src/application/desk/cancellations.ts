import type { CancelReason } from '@dex/core';
import { type LiveOrder, liveOrderOf } from '../../domain/orders/live-orders.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { OrderTurn } from '../../domain/orders/order-turn.js';
import type { DeskBooks } from './desk-books.js';

export interface CancellationOptions {
  /**
   * Cancellations asked for through the API wait for the reactor: the order leaves its book at
   * once and becomes CANCELED when the reactor has confirmed it and no fill of it is in flight.
   * Without a settlement chain they are final at once.
   */
  readonly confirmCancels: boolean;
}

/**
 * The cancel stages of the desk's turns, between the API and the reactor: orders leave their books
 * at once when asked; the chain's relay (adapters/chain/settlement/cancel-relay.ts) sends the requests to the
 * reactor, and they become final once it confirmed them; what a swapper cancelled on the reactor
 * itself ends at once.
 */
export class Cancellations {
  constructor(
    private readonly books: DeskBooks,
    private readonly options: CancellationOptions,
  ) {}

  /** A cancellation asked for through the API: final at once, or once the reactor confirms it. */
  request(turn: OrderTurn, order: LiveOrder, reason: CancelReason): void {
    if (this.options.confirmCancels) turn.deferCancel(order, reason);
    this.books.remove(turn, order, reason);
  }

  /** A cancellation the reactor already made: the order leaves its book and ends with the transaction. */
  endOnChain(turn: OrderTurn, order: LiveOrder, reason: CancelReason, txHash: string): void {
    turn.deferCancel(order, reason);
    this.books.remove(turn, order, reason);
    turn.finalizeCancel(order, reason, txHash);
  }

  /** Makes final a cancellation the reactor confirmed: the stored order ends with the transaction. */
  finalize(turn: OrderTurn, record: OrderRecord, reason: string, txHash: string): void {
    turn.finalizeCancel(liveOrderOf(record), reason, txHash);
  }

  /** The account's open orders below the floor, oldest first. */
  belowFloor(account: string, floor: bigint): Generator<LiveOrder> {
    return this.openOf(account, (order) => order.nonce < floor);
  }

  /** The account's open orders on `books` (null: every book), oldest first. */
  onBooks(account: string, books: ReadonlySet<number> | null): Generator<LiveOrder> {
    return this.openOf(account, (order) => books === null || books.has(order.bookId));
  }

  /** Each is checked again as it is reached: ending one order may end its OCO partner. */
  private *openOf(account: string, wanted: (order: LiveOrder) => boolean): Generator<LiveOrder> {
    for (const order of this.books.live.ofAccount(account).sort((a, b) => a.id - b.id)) {
      if (wanted(order) && this.books.live.get(order.id) !== undefined) yield order;
    }
  }
}
