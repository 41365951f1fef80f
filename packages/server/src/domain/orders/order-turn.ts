import {
  BUY,
  type DepthEvent,
  type EngineEvent,
  type FillEvent,
  fillQuoteAmount,
  type OrderEvent,
  type OrderExecution,
  type PoolFillEvent,
} from '@dex/core';
import type { Market } from '../markets/market.js';
import type { LiveOrder, LiveOrders, OrderFacts } from './live-orders.js';
import type {
  CancellationRequest,
  FillDetail,
  FillRole,
  NewOrderEvent,
  OrderProgress,
  OrderRecord,
  OrderState,
  SettlementFailure,
  TurnWrite,
} from './order-records.js';
import type { NewTrade } from './trade-records.js';

/** Static fields of an order accepted in this turn; its progress lives in the LiveOrder. */
export type NewOrderFields = Omit<OrderRecord, keyof OrderProgress | 'quantitySteps'>;

/** A follow-up the turn must run once the current engine command is done (engines are not re-entrant). */
export interface PendingCancel {
  readonly id: number;
  readonly reason: 'OCO';
}

/** A history event of the turn, with what its owner's stream shows besides. */
export interface TurnOrderEvent extends NewOrderEvent {
  readonly bookId: number;
  /** The order's filled size after the event, in size steps. */
  readonly filledSteps: number;
  /** The order's status after the event. */
  readonly status: OrderState;
  readonly order: OrderFacts;
}

/** What the desk publishes about a turn once it is stored: its history events and depth updates, in order. */
export interface TurnPublication {
  readonly orderEvents: readonly TurnOrderEvent[];
  readonly depthUpdates: readonly { readonly bookId: number; readonly event: DepthEvent }[];
}

const TERMINAL = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED']);

/** An order's signed amounts and what it has paid and received, settled or not. */
function executionOf(order: LiveOrder): OrderExecution {
  return {
    inputAmount: order.inputAmount,
    outputAmount: order.outputAmount,
    paid: order.filledInput,
    received: order.filledOutput,
  };
}

function progressOf(order: LiveOrder): OrderProgress {
  return {
    status: order.status,
    reason: order.reason,
    filledSteps: order.filledSteps,
    filledInput: order.filledInput,
    filledOutput: order.filledOutput,
    updatedAt: order.updatedAt,
  };
}

/**
 * Everything one engine turn changes, collected while the engines run and written by the store in
 * one transaction: new orders, progress of existing ones, trades, history and update ids. It also
 * keeps the live-order index in step with the engine's events.
 */
export class OrderTurn {
  private readonly fresh = new Map<number, NewOrderFields>();
  private readonly touched = new Map<number, LiveOrder>();
  private readonly trades: NewTrade[] = [];
  private readonly events: TurnOrderEvent[] = [];
  private readonly depthUpdates: { bookId: number; event: DepthEvent }[] = [];
  private readonly lastUpdateIds = new Map<number, number>();
  private readonly nonceFloors = new Map<string, bigint>();
  private readonly settlementFailures: SettlementFailure[] = [];
  /** Orders whose cancellation waits for the reactor, with the reason it will end with. */
  private readonly deferred = new Map<number, string>();
  private readonly cancellations: CancellationRequest[] = [];
  private readonly finalizedCancellations: { orderId: number; time: number }[] = [];
  readonly pending: PendingCancel[] = [];

  constructor(
    private readonly live: LiveOrders,
    readonly time: number,
  ) {}

  /** Records a newly accepted order (CREATED) and starts tracking it. */
  create(fields: NewOrderFields, order: LiveOrder): void {
    this.fresh.set(fields.id, fields);
    this.live.set(order);
    this.touch(order);
    this.history(order, 'CREATED', null);
  }

  /** Ends an order that never reached the engine, or that the engine no longer holds. */
  finish(order: LiveOrder, status: 'CANCELED' | 'EXPIRED' | 'REJECTED', reason: string): void {
    order.status = status;
    order.reason = reason;
    this.touch(order);
    this.history(order, status, reason);
    this.retire(order);
  }

  /** Records a change the desk made to an order outside the engine's events. */
  update(order: LiveOrder): void {
    this.touch(order);
  }

  /** Records that a trade will never settle. */
  failSettlement(failure: SettlementFailure): void {
    this.settlementFailures.push(failure);
  }

  /** Records that one of an order's fills was undone; the caller has given the quantity back. */
  revertFill(order: LiveOrder, fill: FillDetail, reason: string): void {
    this.touch(order);
    this.history(order, 'FILL_REVERTED', reason, undefined, fill);
  }

  /**
   * Marks an order whose cancellation the reactor must confirm: when the engine takes it off the
   * book, it stops trading and is recorded as a requested cancellation, keeping its status.
   */
  deferCancel(order: LiveOrder, reason: string): void {
    this.deferred.set(order.id, reason);
  }

  /** Ends an order whose cancellation the reactor confirmed (`order` is no longer live). */
  finalizeCancel(order: LiveOrder, reason: string, txHash: string): void {
    order.status = 'CANCELED';
    order.reason = reason;
    this.touch(order);
    this.history(order, 'CANCELED', reason, txHash);
    this.finalizedCancellations.push({ orderId: order.id, time: this.time });
  }

  raiseNonceFloor(account: string, floor: bigint): void {
    this.nonceFloors.set(account, floor);
  }

  /** Folds the events of one engine command on one market into the turn. */
  absorb(market: Market, events: readonly EngineEvent[]): void {
    for (const event of events) {
      if (event.type === 'fill') this.fill(market, event);
      else if (event.type === 'order') this.status(event);
      else if (event.type === 'pool-fill') this.poolFill(market, event);
      else {
        this.lastUpdateIds.set(market.book.id, event.updateId);
        this.depthUpdates.push({ bookId: market.book.id, event });
      }
    }
  }

  /** The store write for this turn. */
  write(): TurnWrite {
    const newOrders: OrderRecord[] = [];
    const progress = new Map<number, OrderProgress>();
    for (const [id, order] of this.touched) {
      const fields = this.fresh.get(id);
      if (fields !== undefined) newOrders.push({ ...fields, quantitySteps: order.quantitySteps, ...progressOf(order) });
      progress.set(id, progressOf(order));
    }
    return {
      newOrders,
      progress,
      trades: this.trades,
      events: this.events,
      lastUpdateIds: this.lastUpdateIds,
      nonceFloors: this.nonceFloors,
      settlementFailures: this.settlementFailures,
      cancellations: this.cancellations,
      finalizedCancellations: this.finalizedCancellations,
    };
  }

  publication(): TurnPublication {
    return { orderEvents: this.events, depthUpdates: this.depthUpdates };
  }

  /** A trade between two orders: its quote amount as `fill-amounts.ts` rounds it on a fine grid. */
  private fill(market: Market, event: FillEvent): void {
    const { grid } = market;
    const maker = this.tracked(event.makerId);
    const taker = this.tracked(event.takerId);
    const base = grid.baseAmount(event.quantity);
    const trade = { priceTicks: event.price, steps: event.quantity, makerSide: maker.side };
    const quote = fillQuoteAmount(grid, trade, executionOf(maker), executionOf(taker));
    const tradeIndex = this.trade(market, event, event.price, base, quote, event.makerId);
    const amounts = { steps: event.quantity, base, quote };
    this.fillOne(event.makerId, event.makerRemaining, 'maker', tradeIndex, amounts);
    this.fillOne(event.takerId, event.takerRemaining, 'taker', tradeIndex, amounts);
  }

  /**
   * A taker's swap with the book's pool: a trade without a maker order, at the swap's average
   * price rounded onto the grid within the taker's limit (up for a buyer, down for a seller); the
   * amounts are the swap's exact ones.
   */
  private poolFill(market: Market, event: PoolFillEvent): void {
    const { base, quote } = event;
    const ticks = market.grid.ticksAtRate(quote, base, event.takerSide === BUY ? 'up' : 'down');
    const tradeIndex = this.trade(market, event, ticks, base, quote, null);
    this.fillOne(event.takerId, event.takerRemaining, 'taker', tradeIndex, { steps: event.quantity, base, quote });
  }

  /** Records a trade of the turn; returns its index among the turn's trades. */
  private trade(
    market: Market,
    event: FillEvent | PoolFillEvent,
    priceTicks: bigint,
    baseAmount: bigint,
    quoteAmount: bigint,
    makerOrderId: number | null,
  ): number {
    const trade = {
      bookId: market.book.id,
      executedAt: event.time,
      priceTicks,
      price: market.grid.formatPrice(priceTicks),
      baseAmount,
      quoteAmount,
      direction: event.takerSide === BUY ? 'buy' : 'sell',
      makerOrderId,
      takerOrderId: event.takerId,
    } as const;
    return this.trades.push(trade) - 1;
  }

  private fillOne(
    id: number,
    remaining: number,
    role: FillRole,
    tradeIndex: number,
    amounts: { readonly steps: number; readonly base: bigint; readonly quote: bigint },
  ): void {
    const order = this.tracked(id);
    const { base, quote } = amounts;
    order.filledSteps += amounts.steps;
    order.filledInput += order.side === BUY ? quote : base;
    order.filledOutput += order.side === BUY ? base : quote;
    const complete = order.filledSteps >= order.quantitySteps;
    order.status = complete ? 'FILLED' : 'PARTIALLY_FILLED';
    this.touch(order);
    this.events.push({
      orderId: id,
      account: order.account,
      bookId: order.bookId,
      filledSteps: order.filledSteps,
      status: order.status,
      order,
      type: complete ? 'FILLED' : 'PARTIAL_FILL',
      timestamp: this.time,
      reason: null,
      fill: { tradeIndex, role },
    });
    // One side of an OCO pair trading cancels the other.
    this.cancelSibling(order);
    if (complete) this.retire(order);
    // An engine order smaller than the rest of its order (a market order taking again what a
    // refused swap gave back, no more than its budget affords) ends it as immediate-or-cancel.
    else if (remaining === 0) this.finish(order, 'CANCELED', 'IMMEDIATE_OR_CANCEL');
  }

  private tracked(id: number): LiveOrder {
    const order = this.live.get(id);
    if (order === undefined) throw new Error(`fill of order ${id}, which the desk does not track`);
    return order;
  }

  private status(event: OrderEvent): void {
    const order = this.live.get(event.orderId);
    if (order === undefined) return; // already retired by its last fill
    const deferred = this.deferred.get(order.id);
    if (event.status === 'CANCELED' && deferred !== undefined) {
      this.live.delete(order.id);
      this.cancellations.push({ orderId: order.id, reason: deferred, time: this.time });
      this.cancelSibling(order);
    } else if (event.status === 'CANCELED') {
      const expired = event.reason === 'EXPIRED';
      this.finish(order, expired ? 'EXPIRED' : 'CANCELED', event.reason ?? 'USER');
    } else if (event.status === 'REJECTED') {
      this.finish(order, 'REJECTED', event.reason ?? 'INVALID_ORDER');
    }
  }

  private retire(order: LiveOrder): void {
    if (!TERMINAL.has(order.status)) return;
    this.live.delete(order.id);
    this.cancelSibling(order);
  }

  private cancelSibling(order: LiveOrder): void {
    // An order that ended because of its partner must not end the partner in turn.
    if (order.ocoOrderId === null || order.reason === 'OCO') return;
    const sibling = this.live.get(order.ocoOrderId);
    if (sibling !== undefined && !this.pending.some((cancel) => cancel.id === sibling.id)) {
      this.pending.push({ id: sibling.id, reason: 'OCO' });
    }
  }

  private touch(order: LiveOrder): void {
    order.updatedAt = this.time;
    this.touched.set(order.id, order);
  }

  private history(
    order: LiveOrder,
    type: NewOrderEvent['type'],
    reason: string | null,
    txHash?: string,
    fill: FillDetail | null = null,
  ): void {
    this.events.push({
      orderId: order.id,
      account: order.account,
      bookId: order.bookId,
      filledSteps: order.filledSteps,
      status: order.status,
      order,
      type,
      timestamp: this.time,
      reason,
      fill,
      ...(txHash === undefined ? {} : { txHash }),
    });
  }
}
