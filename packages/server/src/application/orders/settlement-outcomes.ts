import { BUY } from '@dex/core';
import type { LiveOrder } from '../../domain/orders/live-orders.js';
import type { OrderTurn } from '../../domain/orders/order-turn.js';
import type { Clock } from '../../ports/clock.js';
import type { FailedFill } from '../../ports/settlement-desk.js';
import type { Store } from '../../ports/store/ports.js';
import { type DeskBooks, storedLiveOrder } from './desk-books.js';
import type { CommandPosition, DeskSequencer } from './desk-sequencer.js';

/** How a market order ends by matching alone: filled, or the rest cancelled as immediate-or-cancel. */
const MATCHED_OUT = new Set<string | null>([null, 'IMMEDIATE_OR_CANCEL']);

/**
 * The desk's settlement-outcome stage: undoes trades the reactor will not settle. Both orders (or
 * the taker alone, for a swap with the pool, which the pool's snapshot then forgets; a market
 * order whose swap was refused takes that quantity again at once) get
 * the quantity back; the order at fault is cancelled with the reason; the other trades on: in
 * place when it still rests, placed anew when the trade had completed it and it can still trade (a
 * limit order before its deadline), else it keeps its end state with the smaller fill. Trades
 * already settled or undone are skipped, so a repeated report changes nothing.
 */
export class SettlementOutcomes {
  constructor(
    private readonly books: DeskBooks,
    private readonly sequencer: DeskSequencer,
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Undoes the failed trades; `position`: see {@link DeskSequencer.run}. */
  unwindFills(failures: readonly FailedFill[], position?: CommandPosition): Promise<void> {
    return this.sequencer.run(async () => {
      // Retired orders are read from the store, so it must hold every earlier turn.
      await this.sequencer.flush();
      const unsettled = await this.store.settlements.unsettled(failures.map((failure) => failure.tradeId));
      const turn = this.books.turn(this.clock.now());
      // Orders off the books as this turn left them: the store holds them as of the turn before.
      const retired = new Map<number, LiveOrder>();
      for (const failure of failures) {
        if (!unsettled.delete(failure.tradeId)) continue;
        turn.failSettlement({ tradeId: failure.tradeId, reason: failure.reason, time: turn.time });
        // A refused swap never moved the pool: the engine's snapshot forgets it.
        if (failure.makerOrderId === null) this.books.poolSwapFailed(failure.tradeId);
        await this.giveBack(turn, failure, 'maker', retired);
        await this.giveBack(turn, failure, 'taker', retired);
      }
      this.sequencer.stage(turn);
    }, position);
  }

  /**
   * Gives one side of a failed trade its quantity back, with a FILL_REVERTED event in its history,
   * and decides whether it trades on. An order a cancel/all voided after it completed never rests
   * again: the floor answered to its owner holds.
   */
  private async giveBack(
    turn: OrderTurn,
    failure: FailedFill,
    role: 'maker' | 'taker',
    retired: Map<number, LiveOrder>,
  ): Promise<void> {
    const { books } = this;
    const id = role === 'maker' ? failure.makerOrderId : failure.takerOrderId;
    if (id === null) return; // the pool's side of a swap
    const live = books.live.get(id);
    const record = live === undefined && !retired.has(id) ? await this.store.orders.get(id) : undefined;
    const order = live ?? retired.get(id) ?? (record === undefined ? undefined : storedLiveOrder(record));
    const market = books.findMarket(failure.bookId);
    if (market === undefined || order === undefined) return;
    const { tradeId, price, baseAmount, quoteAmount } = failure;
    const steps = Number(baseAmount / market.grid.sizeStepRaw);
    order.filledSteps -= steps;
    order.filledInput -= order.side === BUY ? quoteAmount : baseAmount;
    order.filledOutput -= order.side === BUY ? baseAmount : quoteAmount;
    const atFault = failure.culprit === role;
    const completed = order.status === 'FILLED';
    // An order that ended otherwise (cancelled, expired) keeps its status with the smaller fill.
    if (live !== undefined || completed) order.status = order.filledSteps === 0 ? 'OPEN' : 'PARTIALLY_FILLED';
    turn.revertFill(order, { tradeId, price, baseAmount, quoteAmount, role }, failure.reason);
    // A market order whose swap a moved pool refused takes that quantity again, immediately.
    const retake = failure.makerOrderId === null && !atFault && order.type === 'MARKET' && MATCHED_OUT.has(order.reason);
    const belowFloor = (completed || retake) && order.nonce < (await this.store.nonces.floor(order.account));
    if (live !== undefined || (completed && !atFault && !belowFloor && books.canTradeAgain(order, turn.time))) {
      if (atFault) books.remove(turn, order, failure.reason);
      else if (live !== undefined) books.replenish(turn, order, steps);
      else books.placeAgain(turn, order);
    } else if (retake && !belowFloor && books.canTakeAgain(order, turn.time)) {
      order.status = order.filledSteps === 0 ? 'OPEN' : 'PARTIALLY_FILLED';
      books.takeAgain(turn, order, steps);
    } else if (completed) {
      turn.finish(
        order,
        failure.reason === 'EXPIRED' && atFault ? 'EXPIRED' : 'CANCELED',
        atFault ? failure.reason : belowFloor ? 'NONCE_FLOOR' : 'SETTLEMENT_FAILED',
      );
    }
    if (books.live.get(id) === undefined) retired.set(id, order);
    else retired.delete(id);
  }
}
