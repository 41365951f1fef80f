import { BookPool } from '../amm/book-pool.js';
import type { PoolBound, PoolGrid, PoolReserves } from '../amm/pool-leg.js';
import { MAX_PRICE_TICKS } from '../grid.js';
import { StateHasher } from '../state-hash.js';
import { BookSide } from './book-side.js';
import type { DepthSnapshot, OpenOrder } from './book-views.js';
import type { EventSink, OrderEvent } from './events.js';
import { OrderIndex } from './order-index.js';
import { NONE, OrderSlots } from './order-slots.js';
import type { PriceLevel } from './price-level.js';
import {
  BUY,
  type CancelReason,
  type EngineCommand,
  type OrderStatus,
  type PlaceOrder,
  type RejectReason,
  SELL,
  type Side,
} from './types.js';

const MAX = Number.MAX_SAFE_INTEGER;

export interface MatchingEngineOptions {
  /** Continue the depth update ids of an earlier run (recovery). */
  readonly lastUpdateId?: number;
  readonly halted?: boolean;
  /**
   * The book's grid in raw units, for a book that routes opted-in takers into a liquidity pool;
   * without it the engine never trades with a pool.
   */
  readonly poolGrid?: PoolGrid;
  /** The pool's reserves at the start. */
  readonly pool?: PoolReserves | undefined;
}

/**
 * The order book of one market and its matching rules, in grid units (ticks and size steps).
 *
 * - Price-time priority: better prices first, then the oldest order at a price. Trades happen at
 *   the resting (maker) order's price.
 * - `makerOnly` orders that would cross are rejected with WOULD_TAKE and never touch the book.
 * - `takerOnce` orders take at most one fill. The remainder then rests like any GTC order when it no
 *   longer crosses the book; when it still crosses it is cancelled with TAKER_ONCE, because resting
 *   it would leave a crossed book. IOC remainders are always cancelled.
 * - A halted book rejects new orders with MARKET_HALTED; cancels still work.
 * - A taker that opts in to the pool (see `poolLeg`) swaps with it before each level it reaches
 *   while the pool's marginal price beats the level's (ties go to the book), and past the last
 *   one up to its limit. Each swap moves the pool snapshot; `setPool` replaces it from the chain.
 * - No clock, no randomness: time and order ids come in with each command, and every change comes
 *   out as an event through the sink, in the order it happened.
 */
export class MatchingEngine {
  private readonly bids = new BookSide(BUY);
  private readonly asks = new BookSide(SELL);
  /** Open order id -> slot in `slots`. */
  private readonly orders = new OrderIndex();
  private readonly slots = new OrderSlots();
  private updateId: number;
  private halted: boolean;
  private readonly bookPool: BookPool | undefined;

  constructor(
    private readonly emit: EventSink,
    options: MatchingEngineOptions = {},
  ) {
    this.updateId = options.lastUpdateId ?? 0;
    this.halted = options.halted ?? false;
    this.bookPool = options.poolGrid && new BookPool(options.poolGrid, options.pool);
  }

  /** The pool's reserves as the engine last knew or moved them; undefined without a pool. */
  get pool(): PoolReserves | undefined {
    return this.bookPool?.reserves;
  }

  /** Replaces the pool snapshot from the chain; undefined takes it away (no-op without a pool grid). */
  setPool(reserves: PoolReserves | undefined): void {
    this.bookPool?.set(reserves);
  }

  get lastUpdateId(): number {
    return this.updateId;
  }

  get isHalted(): boolean {
    return this.halted;
  }

  get openOrderCount(): number {
    return this.orders.size;
  }

  /** Applies one command: the form used by journals and replays. Returns false when refused. */
  apply(command: EngineCommand): boolean {
    switch (command.type) {
      case 'place':
        return this.place(command);
      case 'cancel':
        return this.cancel(command.id, command.reason, command.time);
      case 'replenish':
        return this.replenish(command.id, command.quantity, command.time);
      case 'pool':
        this.setPool(command.reserves);
        return true;
      case 'halt':
        this.halted = true;
        return true;
      case 'resume':
        this.halted = false;
        return true;
    }
  }

  halt(): void {
    this.halted = true;
  }

  resume(): void {
    this.halted = false;
  }

  /** Accepts, matches and possibly rests an order. Returns false when it was rejected. */
  place(order: PlaceOrder): boolean {
    const rejection = this.validate(order);
    if (rejection !== null) {
      this.emitOrder(order.id, 'REJECTED', order.side, order.price, 0, 0, rejection, order.time);
      return false;
    }
    const { id, side, price, quantity, time } = order;
    this.emitOrder(id, 'OPEN', side, price, 0, quantity, null, time);

    const remaining = order.makerOnly ? quantity : this.match(order);
    const filled = quantity - remaining;
    if (remaining === 0) {
      this.emitOrder(id, 'FILLED', side, price, filled, 0, null, time);
    } else if (order.timeInForce === 'IOC') {
      this.emitOrder(id, 'CANCELED', side, price, filled, 0, 'IMMEDIATE_OR_CANCEL', time);
    } else if (order.takerOnce && filled > 0 && this.crosses(side, price)) {
      this.emitOrder(id, 'CANCELED', side, price, filled, 0, 'TAKER_ONCE', time);
    } else {
      this.rest(order, remaining, filled);
    }
    return true;
  }

  /**
   * Puts back an order that rested on the book when its state was stored, without matching and
   * without events: recovery replays resting orders oldest first, then continues the update ids
   * with `lastUpdateId`. Throws when the order could not have been resting (it would cross, it is
   * a duplicate, or its quantities are impossible), because that means the stored state is corrupt.
   */
  restore(order: OpenOrder): void {
    const { id, side, price, quantity, remaining } = order;
    const valid =
      Number.isSafeInteger(id) &&
      id >= 0 &&
      !this.orders.has(id) &&
      typeof price === 'bigint' &&
      price >= 1n &&
      price <= MAX_PRICE_TICKS &&
      Number.isSafeInteger(quantity) &&
      Number.isSafeInteger(remaining) &&
      remaining >= 1 &&
      remaining <= quantity &&
      !this.crosses(side, price);
    if (!valid) throw new Error(`order ${id} cannot rest on this book`);
    const level = (side === BUY ? this.bids : this.asks).levelAt(price);
    if (level.total > MAX - remaining) throw new Error(`order ${id} overflows its price level`);
    const slot = this.slots.allocate(id, quantity, remaining, level);
    level.append(this.slots, slot);
    this.orders.add(id, slot);
  }

  /** Takes an open order off the book. Returns false when no such order is open. */
  cancel(id: number, reason: CancelReason, time: number): boolean {
    const slot = this.orders.get(id);
    if (slot === NONE) return false;
    const slots = this.slots;
    const level = slots.level(slot);
    const side = level.side;
    const filled = slots.quantity(slot) - slots.remaining(slot);
    level.remove(slots, slot);
    slots.release(slot);
    this.orders.delete(id);
    if (level.count === 0) (side === BUY ? this.bids : this.asks).drop(level);
    this.emitDepth(side, level.price, level.total, time);
    this.emitOrder(id, 'CANCELED', side, level.price, filled, 0, reason, time);
    return true;
  }

  /**
   * Gives a resting order back quantity it lost to a fill that did not settle, keeping its place
   * in time priority; only a depth event follows. Returns false when the order is not on the book
   * or would end up larger than it was placed (the caller then places the quantity anew).
   */
  replenish(id: number, quantity: number, time: number): boolean {
    const slot = this.orders.get(id);
    if (slot === NONE || !Number.isSafeInteger(quantity) || quantity < 1) return false;
    const slots = this.slots;
    const remaining = slots.remaining(slot) + quantity;
    const level = slots.level(slot);
    if (remaining > slots.quantity(slot) || level.total > MAX - quantity) return false;
    slots.setRemaining(slot, remaining);
    level.total += quantity;
    this.emitDepth(level.side, level.price, level.total, time);
    return true;
  }

  getOrder(id: number): OpenOrder | undefined {
    const slot = this.orders.get(id);
    if (slot === NONE) return undefined;
    const slots = this.slots;
    const level = slots.level(slot);
    return { id, side: level.side, price: level.price, quantity: slots.quantity(slot), remaining: slots.remaining(slot) };
  }

  bestBid(): bigint | undefined {
    return this.bids.best()?.price;
  }

  bestAsk(): bigint | undefined {
    return this.asks.best()?.price;
  }

  /** Visits the levels of one side best first until `visit` returns false. */
  forEachLevel(side: Side, visit: (price: bigint, quantity: number) => boolean): void {
    const levels = (side === BUY ? this.bids : this.asks).levels;
    for (let index = levels.length - 1; index >= 0; index--) {
      const level = levels[index] as PriceLevel;
      if (!visit(level.price, level.total)) return;
    }
  }

  /** The aggregated book, best levels first, at most `maxLevels` per side. */
  depth(maxLevels = MAX): DepthSnapshot {
    return {
      bids: this.bids.top(maxLevels),
      asks: this.asks.top(maxLevels),
      lastUpdateId: this.updateId,
    };
  }

  /** Hash of everything that decides future matching: flags, update id, every order in priority order. */
  stateHash(): string {
    const hasher = new StateHasher().add(this.halted ? 1 : 0).add(this.updateId);
    const pool = this.bookPool?.reserves;
    if (pool !== undefined) hasher.addBig(pool.base).addBig(pool.quote);
    for (const bookSide of [this.bids, this.asks]) {
      const levels = bookSide.levels;
      hasher.add(levels.length);
      for (let index = levels.length - 1; index >= 0; index--) {
        const level = levels[index] as PriceLevel;
        hasher.addWord64(level.price).add(level.count);
        for (let slot = level.head; slot !== NONE; slot = this.slots.next(slot)) {
          hasher.add(this.slots.id(slot)).add(this.slots.quantity(slot)).add(this.slots.remaining(slot));
        }
      }
    }
    return hasher.digest();
  }

  private validate(order: PlaceOrder): RejectReason | null {
    const { id, price, quantity } = order;
    if (!Number.isSafeInteger(id) || id < 0 || (order.makerOnly && order.timeInForce === 'IOC')) return 'INVALID_ORDER';
    if (this.orders.has(id)) return 'DUPLICATE_ID';
    if (this.halted) return 'MARKET_HALTED';
    if (!Number.isSafeInteger(quantity) || quantity < 1) return 'INVALID_QUANTITY';
    const minimumPrice = order.timeInForce === 'IOC' ? 0n : 1n;
    if (typeof price !== 'bigint' || price < minimumPrice || price > MAX_PRICE_TICKS) return 'INVALID_PRICE';
    if (order.makerOnly && this.crosses(order.side, price)) return 'WOULD_TAKE';
    return null;
  }

  /** Whether a price on `side` would trade with the best opposite order. */
  private crosses(side: Side, price: bigint): boolean {
    if (side === BUY) {
      const best = this.asks.best();
      return best !== undefined && best.price <= price;
    }
    const best = this.bids.best();
    return best !== undefined && best.price >= price;
  }

  /** Fills the taker against the pool and the opposite side; returns the taker's remaining quantity. */
  private match(taker: PlaceOrder): number {
    const { side, price: limit } = taker;
    const buying = side === BUY;
    const opposite = buying ? this.asks : this.bids;
    const routed = taker.useAmm === true && !taker.takerOnce && this.bookPool !== undefined;
    let remaining = taker.quantity;
    for (;;) {
      const best = opposite.best();
      const level = best !== undefined && (buying ? best.price <= limit : best.price >= limit) ? best : undefined;
      if (routed) {
        remaining =
          level === undefined ? this.swap(taker, limit, 'limit', remaining) : this.swap(taker, level.price, 'before', remaining);
      }
      if (level === undefined || remaining === 0) return remaining;
      remaining = this.matchLevel(taker, level, remaining);
      if (taker.takerOnce) return remaining;
    }
  }

  /** The taker's swap with the pool up to a price, if the pool beats it; returns what remains. */
  private swap(taker: PlaceOrder, ticks: bigint, bound: PoolBound, remaining: number): number {
    const leg = this.bookPool?.take(taker.side, ticks, bound, remaining);
    if (leg === undefined) return remaining;
    const left = remaining - leg.steps;
    this.emit({
      type: 'pool-fill',
      takerId: taker.id,
      takerSide: taker.side,
      quantity: leg.steps,
      base: leg.base,
      quote: leg.quote,
      reserves: leg.after,
      takerRemaining: left,
      time: taker.time,
    });
    return left;
  }

  /** Fills the taker against one level's makers, oldest first; returns the taker's remaining quantity. */
  private matchLevel(taker: PlaceOrder, level: PriceLevel, remaining: number): number {
    const { id: takerId, side, time } = taker;
    const slots = this.slots;
    const opposite = side === BUY ? this.asks : this.bids;
    let maker = level.head;
    while (maker !== NONE && remaining > 0) {
      const makerId = slots.id(maker);
      const makerLeft = slots.remaining(maker);
      const quantity = Math.min(makerLeft, remaining);
      const makerRemaining = makerLeft - quantity;
      slots.setRemaining(maker, makerRemaining);
      level.total -= quantity;
      remaining -= quantity;
      const next = slots.next(maker);
      this.emit({
        type: 'fill',
        makerId,
        takerId,
        takerSide: side,
        price: level.price,
        quantity,
        makerRemaining,
        takerRemaining: remaining,
        time,
      });
      const makerFilled = slots.quantity(maker) - makerRemaining;
      if (makerRemaining === 0) {
        level.remove(slots, maker);
        slots.release(maker);
        this.orders.delete(makerId);
        this.emitOrder(makerId, 'FILLED', opposite.side, level.price, makerFilled, 0, null, time);
      } else {
        this.emitOrder(makerId, 'PARTIALLY_FILLED', opposite.side, level.price, makerFilled, makerRemaining, null, time);
      }
      maker = next;
      if (taker.takerOnce) break;
    }
    if (level.count === 0) opposite.drop(level);
    this.emitDepth(opposite.side, level.price, level.total, time);
    return remaining;
  }

  private rest(order: PlaceOrder, remaining: number, filled: number): void {
    const { id, side, price, time } = order;
    const level = (side === BUY ? this.bids : this.asks).levelAt(price);
    if (level.total > MAX - remaining) {
      // Only a level that already holds orders can overflow, so the level stays in place.
      this.emitOrder(id, 'CANCELED', side, price, filled, 0, 'LEVEL_FULL', time);
      return;
    }
    const slot = this.slots.allocate(id, order.quantity, remaining, level);
    level.append(this.slots, slot);
    this.orders.add(id, slot);
    this.emitDepth(side, price, level.total, time);
    if (filled > 0) this.emitOrder(id, 'PARTIALLY_FILLED', side, price, filled, remaining, null, time);
  }

  private emitDepth(side: Side, price: bigint, quantity: number, time: number): void {
    this.emit({ type: 'depth', side, price, quantity, updateId: ++this.updateId, time });
  }

  private emitOrder(
    orderId: number,
    status: OrderStatus,
    side: Side,
    price: bigint,
    filled: number,
    remaining: number,
    reason: OrderEvent['reason'],
    time: number,
  ): void {
    this.emit({ type: 'order', orderId, status, side, price, filled, remaining, reason, time });
  }
}
