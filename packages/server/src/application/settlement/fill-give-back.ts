import { BUY, type CancelReason } from '@dex/core';
import { type LiveOrder, liveOrderOf } from '../../domain/orders/live-orders.js';
import type { OrderTurn } from '../../domain/orders/order-turn.js';
import type { FailedFill } from '../../ports/settlement-desk.js';
import type { Store } from '../../ports/store/ports.js';
import type { Market } from '../markets/market-registry.js';

/** How a market order ends by matching alone: filled, or the rest cancelled as immediate-or-cancel. */
const MATCHED_OUT = new Set<string | null>([null, 'IMMEDIATE_OR_CANCEL']);

/** What the give-back reads and does on the desk's books (the desk's `DeskBooks`). */
export interface SettlingBooks {
  readonly live: { get(id: number): LiveOrder | undefined };
  findMarket(bookId: number): Market | undefined;
  canTradeAgain(order: LiveOrder, now: number): boolean;
  canTakeAgain(order: LiveOrder, now: number): boolean;
  remove(turn: OrderTurn, order: LiveOrder, reason: CancelReason): void;
  replenish(turn: OrderTurn, order: LiveOrder, steps: number): void;
  placeAgain(turn: OrderTurn, order: LiveOrder): void;
  takeAgain(turn: OrderTurn, order: LiveOrder, steps: number): void;
}

/**
 * The give-back stage of a settlement outcome: one side of a trade the reactor will not settle
 * gets its quantity back, with a FILL_REVERTED event in its history, and it is decided whether it
 * trades on. The order at fault is cancelled with the reason; the other trades on: in place when
 * it still rests, placed anew when the trade had completed it and it can still trade (a limit
 * order before its deadline), taking again at once when it is a market order whose swap a moved
 * pool refused; else it keeps its end state with the smaller fill. An order a cancel/all voided
 * after it completed never rests again: the floor answered to its owner holds.
 */
export class FillGiveBack {
  /** Orders off the books as this turn left them: the store holds them as of the turn before. */
  private readonly retired = new Map<number, LiveOrder>();

  constructor(
    private readonly books: SettlingBooks,
    private readonly store: Store,
    private readonly turn: OrderTurn,
  ) {}

  async giveBack(failure: FailedFill, role: 'maker' | 'taker'): Promise<void> {
    const { books, turn } = this;
    const id = role === 'maker' ? failure.makerOrderId : failure.takerOrderId;
    if (id === null) return; // the pool's side of a swap
    const live = books.live.get(id);
    const record = live === undefined && !this.retired.has(id) ? await this.store.orders.get(id) : undefined;
    const order = live ?? this.retired.get(id) ?? (record === undefined ? undefined : liveOrderOf(record));
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
    if (books.live.get(id) === undefined) this.retired.set(id, order);
    else this.retired.delete(id);
  }
}
