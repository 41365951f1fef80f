import type { CancelReason } from '@dex/core';
import { type EngineShard, ownsBook } from '../../domain/markets/engine-shards.js';
import type { LiveOrder } from '../../domain/orders/live-orders.js';
import type { OrderTurn } from '../../domain/orders/order-turn.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store/ports.js';
import { type DeskBooks, storedLiveOrder } from './desk-books.js';
import type { CommandPosition, DeskSequencer } from './desk-sequencer.js';
import { EVERY_BOOK } from './intake-checks.js';

export interface CancelOutcome {
  readonly accepted: number[];
  readonly skipped: { orderId: number; reason: 'NOT_FOUND' | 'NOT_OPEN' }[];
}

export interface CancellationOptions {
  /**
   * Cancellations asked for through the API wait for the reactor: the order leaves its book at
   * once and becomes CANCELED when the reactor has confirmed it and no fill of it is in flight.
   * Without a settlement chain they are final at once.
   */
  readonly confirmCancels: boolean;
  /** The books this desk writes, when it is one engine among several: it finalizes only their cancellations. */
  readonly shard?: EngineShard;
}

/**
 * The desk's cancellation stage, between the API and the reactor: takes orders off their books at
 * once when asked (one by one or by a raised nonce floor), records the cancellations the chain's
 * relay (adapters/chain/settlement/cancel-relay.ts) sends to the reactor, makes them final once the reactor
 * confirmed them, and ends at once the orders a swapper cancelled on the reactor itself.
 */
export class CancellationRelay {
  constructor(
    private readonly books: DeskBooks,
    private readonly sequencer: DeskSequencer,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly options: CancellationOptions,
  ) {}

  /**
   * Takes the account's orders off their books at once; ids it does not own or that are done are
   * skipped. `position`: see {@link DeskSequencer.run}.
   */
  cancel(
    account: string,
    orderIds: readonly number[],
    reason: CancelReason = 'USER',
    position?: CommandPosition,
  ): Promise<CancelOutcome> {
    return this.sequencer.run(async () => {
      const turn = this.books.turn(this.clock.now());
      const outcome: CancelOutcome = { accepted: [], skipped: [] };
      for (const id of new Set(orderIds)) {
        const order = this.books.live.get(id);
        if (order !== undefined && order.account === account) {
          outcome.accepted.push(id);
          this.requestCancel(turn, order, reason);
        } else {
          const stored =
            order === undefined ? (this.sequencer.pending.order(id) ?? (await this.store.orders.get(id))) : undefined;
          // Another account's order is reported exactly like one that does not exist.
          outcome.skipped.push({ orderId: id, reason: stored?.account === account ? 'NOT_OPEN' : 'NOT_FOUND' });
        }
      }
      this.sequencer.stage(turn);
      return outcome;
    }, position);
  }

  /** Raises the account's nonce floor and cancels its open orders below it. `position`: see {@link DeskSequencer.run}. */
  cancelBelowFloor(
    account: string,
    floor: bigint,
    reason: CancelReason = 'NONCE_FLOOR',
    position?: CommandPosition,
  ): Promise<number[]> {
    return this.sequencer.run(async () => {
      const turn = this.books.turn(this.clock.now());
      turn.raiseNonceFloor(account, floor);
      const canceled: number[] = [];
      for (const order of this.belowFloor(account, floor)) {
        canceled.push(order.id);
        this.requestCancel(turn, order, reason);
      }
      this.sequencer.stage(turn);
      return canceled;
    }, position);
  }

  /**
   * Takes the account's open orders on `books` (null: every book) off their books at once, in one
   * turn, so an order saved meanwhile is either taken too or was not open yet. Returns their ids.
   */
  cancelOpen(
    account: string,
    books: ReadonlySet<number> | null,
    reason: CancelReason,
    position?: CommandPosition,
  ): Promise<number[]> {
    return this.sequencer.run(async () => {
      const turn = this.books.turn(this.clock.now());
      const canceled: number[] = [];
      for (const order of this.books.live.ofAccount(account).sort((a, b) => a.id - b.id)) {
        // Ending one order may end its OCO partner: each is checked again as it is reached.
        if ((books !== null && !books.has(order.bookId)) || this.books.live.get(order.id) === undefined) continue;
        canceled.push(order.id);
        this.requestCancel(turn, order, reason);
      }
      this.sequencer.stage(turn);
      return canceled;
    }, position);
  }

  /**
   * Makes final the cancellations the reactor confirmed whose orders have no fill in flight:
   * CANCELED, with the confirming transaction in the history. Returns how many.
   */
  finalizeCancels(position?: CommandPosition): Promise<number> {
    return this.sequencer.run(async () => {
      await this.sequencer.flush();
      const confirmed = await this.store.cancellations.finalizable();
      if (confirmed.length === 0) return 0;
      const { index, count } = this.options.shard ?? EVERY_BOOK;
      const turn = this.books.turn(this.clock.now());
      let finalized = 0;
      for (const { orderId, reason, txHash } of confirmed) {
        const record = await this.store.orders.get(orderId);
        if (record === undefined || !ownsBook(record.bookId, index, count)) continue;
        turn.finalizeCancel(storedLiveOrder(record), reason, txHash);
        finalized++;
      }
      this.sequencer.stage(turn);
      return finalized;
    }, position);
  }

  /**
   * A swapper cancelled an order on the reactor itself: it leaves its book and is CANCELED at once
   * (a fill still in flight will be refused by the reactor and undone).
   */
  cancelledOnChain(orderHash: string, txHash: string, position?: CommandPosition): Promise<void> {
    return this.sequencer.run(async () => {
      const [record] = await this.store.orders.byHashes([orderHash]);
      const order = record === undefined ? undefined : this.books.live.get(record.id);
      if (order === undefined) return;
      const turn = this.books.turn(this.clock.now());
      this.endOnChain(turn, order, 'USER', txHash);
      this.sequencer.stage(turn);
    }, position);
  }

  /** A swapper raised its nonce floor on the reactor itself: its orders below it end at once. */
  floorRaisedOnChain(account: string, floor: bigint, txHash: string, position?: CommandPosition): Promise<void> {
    return this.sequencer.run(async () => {
      const turn = this.books.turn(this.clock.now());
      turn.raiseNonceFloor(account, floor);
      for (const order of this.belowFloor(account, floor)) this.endOnChain(turn, order, 'NONCE_FLOOR', txHash);
      this.sequencer.stage(turn);
    }, position);
  }

  /**
   * The account's open orders below the floor, oldest first; each is checked again as it is
   * reached, since ending one may end its OCO partner.
   */
  private *belowFloor(account: string, floor: bigint): Generator<LiveOrder> {
    for (const order of this.books.live.ofAccount(account).sort((a, b) => a.id - b.id)) {
      if (order.nonce >= floor || this.books.live.get(order.id) === undefined) continue;
      yield order;
    }
  }

  /** A cancellation asked for through the API: final at once, or once the reactor confirms it. */
  private requestCancel(turn: OrderTurn, order: LiveOrder, reason: CancelReason): void {
    if (this.options.confirmCancels) turn.deferCancel(order, reason);
    this.books.remove(turn, order, reason);
  }

  /** A cancellation the reactor already made: the order leaves its book and ends with the transaction. */
  private endOnChain(turn: OrderTurn, order: LiveOrder, reason: CancelReason, txHash: string): void {
    turn.deferCancel(order, reason);
    this.books.remove(turn, order, reason);
    turn.finalizeCancel(order, reason, txHash);
  }
}
