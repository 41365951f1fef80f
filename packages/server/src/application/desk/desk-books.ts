import { affordableSteps, BUY, type CancelReason, type MatchingEngine, type OpenOrder, type OrderTerms } from '@dex/core';
import { ExpiryQueue } from '../../domain/orders/expiry-queue.js';
import { type LiveOrder, LiveOrders, liveOrderOf } from '../../domain/orders/live-orders.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import { OrderTurn } from '../../domain/orders/order-turn.js';
import type { Market, MarketRegistry } from '../markets/market-registry.js';
import type { BookRecovery, EngineHost } from './engine-host.js';

/**
 * The desk's books as the stages share them: the live orders (by id and account), their
 * deadlines, and the engine commands a turn runs on them. Every change goes through a turn, so
 * what a command did to an order is what the turn records for the store.
 */
export class DeskBooks {
  readonly live = new LiveOrders();
  private expiries = new ExpiryQueue();

  constructor(
    private readonly registry: MarketRegistry,
    private readonly engines: EngineHost,
  ) {}

  /**
   * Puts the stored open orders back, oldest first, and starts the engines with them; what the
   * books held before (memory ahead of a failed commit) is dropped.
   */
  recover(open: readonly OrderRecord[], lastUpdateIds: ReadonlyMap<number, number>): void {
    this.live.clear();
    this.expiries = new ExpiryQueue();
    const resting = new Map<number, OpenOrder[]>();
    for (const record of open) {
      const order = liveOrderOf(record);
      this.track(order);
      const book = resting.get(record.bookId) ?? [];
      book.push({
        id: record.id,
        side: order.side,
        price: record.priceTicks,
        quantity: record.quantitySteps,
        remaining: record.quantitySteps - record.filledSteps,
        owner: record.account,
      });
      resting.set(record.bookId, book);
    }
    const recovery = new Map<number, BookRecovery>();
    for (const market of this.registry.list()) {
      const id = market.book.id;
      recovery.set(id, { resting: resting.get(id) ?? [], lastUpdateId: lastUpdateIds.get(id) ?? 0 });
    }
    this.engines.start(recovery);
  }

  /** A new turn over these books. */
  turn(time: number): OrderTurn {
    return new OrderTurn(this.live, time);
  }

  /** Watches the deadline of an order that rests (or rests again). */
  track(order: LiveOrder): void {
    this.live.set(order);
    this.expiries.push(order.deadlineMs, order.id);
  }

  /** Watches the deadline of an order a turn just created, if it still rests. */
  trackIfLive(order: LiveOrder): void {
    if (this.live.get(order.id) !== undefined) this.expiries.push(order.deadlineMs, order.id);
  }

  /** Open orders whose deadline has passed, taken off the deadline queue. */
  due(now: number): LiveOrder[] {
    return this.expiries.popDue(now).flatMap((id) => this.live.get(id) ?? []);
  }

  findMarket(bookId: number): Market | undefined {
    return this.registry.get(bookId);
  }

  market(bookId: number): Market {
    const market = this.registry.get(bookId);
    if (market === undefined) throw new Error(`no market ${bookId}`);
    return market;
  }

  /** Places a new order (a market buy's size is what its budget affords now) and runs what it set off. */
  place(turn: OrderTurn, order: LiveOrder, terms: OrderTerms): void {
    // An OCO partner that traded or ended earlier in this batch has already ended this order.
    if (this.live.get(order.id) === undefined) return;
    const market = this.market(order.bookId);
    const engine = this.engines.engine(order.bookId);
    if (engine === undefined) throw new Error(`no market ${order.bookId}`);
    if (terms.kind === 'budget') {
      order.quantitySteps = engine.isHalted ? 0 : this.affordable(engine, market, order, terms.budgetQuote, terms.priceTicks);
      if (order.quantitySteps === 0) {
        turn.finish(order, 'CANCELED', 'IMMEDIATE_OR_CANCEL');
        this.drain(turn);
        return;
      }
    }
    this.execute(turn, market, order, order.quantitySteps, order.type === 'MARKET' ? 'IOC' : 'GTC');
  }

  /** Puts a completed limit order back through matching with the quantity a failed trade gave back. */
  placeAgain(turn: OrderTurn, order: LiveOrder): void {
    this.track(order);
    this.execute(turn, this.market(order.bookId), order, order.quantitySteps - order.filledSteps, 'GTC');
  }

  /**
   * Sends a market order back through matching, immediate-or-cancel, for `steps` a refused swap
   * gave back; a buy takes no more than what is left of its signed budget affords.
   */
  takeAgain(turn: OrderTurn, order: LiveOrder, steps: number): void {
    const market = this.market(order.bookId);
    const engine = this.engines.engine(order.bookId);
    if (engine === undefined) throw new Error(`no market ${order.bookId}`);
    const quantity =
      order.side === BUY
        ? Math.min(steps, this.affordable(engine, market, order, order.inputAmount - order.filledInput, order.priceTicks))
        : steps;
    this.live.set(order);
    if (quantity === 0) {
      turn.finish(order, 'CANCELED', 'IMMEDIATE_OR_CANCEL');
      this.drain(turn);
      return;
    }
    this.execute(turn, market, order, quantity, 'IOC');
  }

  /** Whether a market order may still take: before its deadline, on a trading book. */
  canTakeAgain(order: LiveOrder, now: number): boolean {
    return order.deadlineMs > now && this.engines.engine(order.bookId)?.isHalted === false;
  }

  /** Gives a resting order back quantity in place, keeping its time priority. */
  replenish(turn: OrderTurn, order: LiveOrder, steps: number): void {
    const events = this.engines.execute(order.bookId, [{ type: 'replenish', id: order.id, quantity: steps, time: turn.time }]);
    turn.absorb(this.market(order.bookId), events);
  }

  /** A swap with a book's pool that the reactor refused: the book's engine forgets it. */
  poolSwapFailed(tradeId: number): void {
    const bookId = this.engines.pools.failed(tradeId);
    if (bookId !== undefined) this.engines.refreshPool(bookId);
  }

  /** Whether a completed order could rest again: a limit order before its deadline on a trading book. */
  canTradeAgain(order: LiveOrder, now: number): boolean {
    return order.type === 'LIMIT' && order.deadlineMs > now && this.engines.engine(order.bookId)?.isHalted === false;
  }

  /** Takes one order off its book; an order the engine does not hold (never placed) ends directly. */
  remove(turn: OrderTurn, order: LiveOrder, reason: CancelReason): void {
    const market = this.market(order.bookId);
    const events = this.engines.execute(order.bookId, [{ type: 'cancel', id: order.id, reason, time: turn.time }]);
    if (events.length > 0) turn.absorb(market, events);
    else turn.finish(order, reason === 'EXPIRED' ? 'EXPIRED' : 'CANCELED', reason);
    this.drain(turn);
  }

  private execute(turn: OrderTurn, market: Market, order: LiveOrder, quantity: number, timeInForce: 'IOC' | 'GTC'): void {
    const events = this.engines.execute(order.bookId, [
      {
        type: 'place',
        id: order.id,
        side: order.side,
        price: order.priceTicks,
        quantity,
        timeInForce,
        // Decoded once from the signed order, when the live order was made.
        makerOnly: order.makerOnly,
        takerOnce: order.takerOnce,
        useAmm: order.useAmm,
        // One account's orders never trade with each other (a 0x alias is its ledger account).
        owner: order.account,
        selfTradePrevention: order.selfTradePrevention,
        time: turn.time,
      },
    ]);
    turn.absorb(market, events);
    this.drain(turn);
  }

  /** Whole size steps a quote budget buys up to a price: from the book, and the pool for an order that opted in. */
  private affordable(engine: MatchingEngine, market: Market, order: LiveOrder, budget: bigint, limitTicks: bigint): number {
    const pool = order.useAmm && engine.pool !== undefined ? { reserves: engine.pool, grid: market.grid } : undefined;
    // The levels the order would meet: its account's own orders do not fill it.
    return affordableSteps(engine.levelsFor(order.account, order.selfTradePrevention), market.grid, budget, limitTicks, pool);
  }

  /** Runs the cancels that events asked for (OCO partners), until none is left. */
  private drain(turn: OrderTurn): void {
    for (let next = turn.pending.shift(); next !== undefined; next = turn.pending.shift()) {
      const order = this.live.get(next.id);
      if (order !== undefined) this.remove(turn, order, next.reason);
    }
  }
}
