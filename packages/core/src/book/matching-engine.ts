import { BookPool } from '../amm/book-pool.js';
import type { PoolBound, PoolGrid, PoolReserves } from '../amm/pool-leg.js';
import { MAX_PRICE_TICKS } from '../grid.js';
import type { LevelSource } from '../quote.js';
import { StateHasher } from '../state-hash.js';
import type { DepthSnapshot, OpenOrder } from './book-views.js';
import type { EventSink, OrderEvent } from './events.js';
import { NONE } from './order-slots.js';
import type { PriceLevel } from './price-level.js';
import { RestingOrders } from './resting-orders.js';
import {
  BUY,
  type CancelReason,
  type EngineCommand,
  type OrderStatus,
  type PlaceOrder,
  type RejectReason,
  SELL,
  type SelfTradePrevention,
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
 * - Self-trade prevention: an order never trades with a resting order of its own owner; the
 *   incoming order's mode (`SelfTradePrevention`, default EXPIRE_MAKER) cancels the resting order
 *   (SELF_TRADE) and matching goes on, or cancels the incoming order's remainder, or both.
 * - A halted book rejects new orders with MARKET_HALTED; cancels still work.
 * - A taker that opts in to the pool (see `poolLeg`) swaps with it before each level it reaches
 *   while the pool's marginal price beats the level's (ties go to the book), and past the last
 *   one up to its limit. Each swap moves the pool snapshot; `setPool` replaces it from the chain.
 * - No clock, no randomness: time and order ids come in with each command, and every change comes
 *   out as an event through the sink, in the order it happened.
 */
export class MatchingEngine {
  private readonly book = new RestingOrders();
  private updateId: number;
  private halted: boolean;
  private readonly bookPool: BookPool | undefined;
  /** Set while matching when self-trade prevention cancelled the incoming order's remainder. */
  private takerExpired = false;

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
    return this.book.size;
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

    this.takerExpired = false;
    const remaining = order.makerOnly ? quantity : this.match(order);
    const filled = quantity - remaining;
    if (remaining === 0) {
      this.emitOrder(id, 'FILLED', side, price, filled, 0, null, time);
    } else if (this.takerExpired) {
      this.emitOrder(id, 'CANCELED', side, price, filled, 0, 'SELF_TRADE', time);
    } else if (order.timeInForce === 'IOC') {
      this.emitOrder(id, 'CANCELED', side, price, filled, 0, 'IMMEDIATE_OR_CANCEL', time);
    } else if (order.takerOnce && filled > 0 && this.book.crosses(side, price)) {
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
    const { id, side, price, quantity, remaining, owner } = order;
    const valid =
      Number.isSafeInteger(id) &&
      id >= 0 &&
      !this.book.has(id) &&
      typeof price === 'bigint' &&
      price >= 1n &&
      price <= MAX_PRICE_TICKS &&
      Number.isSafeInteger(quantity) &&
      Number.isSafeInteger(remaining) &&
      remaining >= 1 &&
      remaining <= quantity &&
      !this.book.crosses(side, price);
    if (!valid) throw new Error(`order ${id} cannot rest on this book`);
    const level = this.book.side(side).levelAt(price);
    if (level.total > MAX - remaining) throw new Error(`order ${id} overflows its price level`);
    this.book.add(id, quantity, remaining, level, owner);
  }

  /** Takes an open order off the book. Returns false when no such order is open. */
  cancel(id: number, reason: CancelReason, time: number): boolean {
    const slot = this.book.slotOf(id);
    if (slot === NONE) return false;
    const { slots } = this.book;
    const level = slots.level(slot);
    const side = level.side;
    const filled = slots.quantity(slot) - slots.remaining(slot);
    this.book.remove(slot);
    if (level.count === 0) this.book.side(side).drop(level);
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
    const slot = this.book.slotOf(id);
    if (slot === NONE || !Number.isSafeInteger(quantity) || quantity < 1) return false;
    const { slots } = this.book;
    const remaining = slots.remaining(slot) + quantity;
    const level = slots.level(slot);
    if (remaining > slots.quantity(slot) || level.total > MAX - quantity) return false;
    slots.setRemaining(slot, remaining);
    level.total += quantity;
    this.emitDepth(level.side, level.price, level.total, time);
    return true;
  }

  getOrder(id: number): OpenOrder | undefined {
    return this.book.get(id);
  }

  bestBid(): bigint | undefined {
    return this.book.bids.best()?.price;
  }

  bestAsk(): bigint | undefined {
    return this.book.asks.best()?.price;
  }

  /** Visits the levels of one side best first until `visit` returns false. */
  forEachLevel(side: Side, visit: (price: bigint, quantity: number) => boolean): void {
    this.book.forEachLevel(side, visit);
  }

  /** The levels an incoming order of `owner` would meet (RestingOrders.levelsFor): what a market buy's budget affords is walked on them. */
  levelsFor(owner: string | undefined, mode: SelfTradePrevention = 'EXPIRE_MAKER'): LevelSource {
    return this.book.levelsFor(owner, mode);
  }

  /** The aggregated book, best levels first, at most `maxLevels` per side. */
  depth(maxLevels = MAX): DepthSnapshot {
    return this.book.depth(maxLevels, this.updateId);
  }

  /** Hash of everything that decides future matching: flags, update id, pool, every order in priority order with its owner. */
  stateHash(): string {
    const hasher = new StateHasher().add(this.halted ? 1 : 0).add(this.updateId);
    const pool = this.bookPool?.reserves;
    if (pool !== undefined) hasher.addBig(pool.base).addBig(pool.quote);
    this.book.hashInto(hasher);
    return hasher.digest();
  }

  private validate(order: PlaceOrder): RejectReason | null {
    const { id, price, quantity } = order;
    if (!Number.isSafeInteger(id) || id < 0 || (order.makerOnly && order.timeInForce === 'IOC')) return 'INVALID_ORDER';
    if (this.book.has(id)) return 'DUPLICATE_ID';
    if (this.halted) return 'MARKET_HALTED';
    if (!Number.isSafeInteger(quantity) || quantity < 1) return 'INVALID_QUANTITY';
    const minimumPrice = order.timeInForce === 'IOC' ? 0n : 1n;
    if (typeof price !== 'bigint' || price < minimumPrice || price > MAX_PRICE_TICKS) return 'INVALID_PRICE';
    if (order.makerOnly && this.book.crosses(order.side, price)) return 'WOULD_TAKE';
    return null;
  }

  /** Fills the taker against the pool and the opposite side; returns the taker's remaining quantity. */
  private match(taker: PlaceOrder): number {
    const { side, price: limit } = taker;
    const buying = side === BUY;
    const opposite = this.book.side(buying ? SELL : BUY);
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
      const before = remaining;
      remaining = this.matchLevel(taker, level, remaining);
      // A level whose orders were all the taker's own gave it no fill: a takerOnce order goes on.
      if (this.takerExpired || (taker.takerOnce && remaining < before)) return remaining;
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

  /**
   * Fills the taker against one level's makers, oldest first; returns the taker's remaining
   * quantity. A maker of the taker's own owner is never filled: self-trade prevention cancels it,
   * or stops the taker (`takerExpired`), as the taker's mode says.
   */
  private matchLevel(taker: PlaceOrder, level: PriceLevel, remaining: number): number {
    const { id: takerId, side, time, owner } = taker;
    const { slots } = this.book;
    const opposite = this.book.side(side === BUY ? SELL : BUY);
    const guarded = this.book.holds(owner);
    const mode = taker.selfTradePrevention ?? 'EXPIRE_MAKER';
    const before = level.total;
    let maker = level.head;
    while (maker !== NONE && remaining > 0) {
      const next = slots.next(maker);
      if (guarded && slots.owner(maker) === owner) {
        if (mode !== 'EXPIRE_TAKER') this.expireMaker(maker, level, time);
        if (mode !== 'EXPIRE_MAKER') {
          this.takerExpired = true;
          break;
        }
        maker = next;
        continue;
      }
      const makerId = slots.id(maker);
      const makerLeft = slots.remaining(maker);
      const quantity = Math.min(makerLeft, remaining);
      const makerRemaining = makerLeft - quantity;
      slots.setRemaining(maker, makerRemaining);
      level.total -= quantity;
      remaining -= quantity;
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
        this.book.remove(maker);
        this.emitOrder(makerId, 'FILLED', opposite.side, level.price, makerFilled, 0, null, time);
      } else {
        this.emitOrder(makerId, 'PARTIALLY_FILLED', opposite.side, level.price, makerFilled, makerRemaining, null, time);
      }
      maker = next;
      if (taker.takerOnce) break;
    }
    if (level.count === 0) opposite.drop(level);
    if (level.total !== before || level.count === 0) this.emitDepth(opposite.side, level.price, level.total, time);
    return remaining;
  }

  /** Cancels a resting order that its owner's incoming order met (SELF_TRADE); the caller emits the level's depth. */
  private expireMaker(slot: number, level: PriceLevel, time: number): void {
    const { slots } = this.book;
    const id = slots.id(slot);
    const filled = slots.quantity(slot) - slots.remaining(slot);
    this.book.remove(slot);
    this.emitOrder(id, 'CANCELED', level.side, level.price, filled, 0, 'SELF_TRADE', time);
  }

  private rest(order: PlaceOrder, remaining: number, filled: number): void {
    const { id, side, price, time } = order;
    const level = this.book.side(side).levelAt(price);
    if (level.total > MAX - remaining) {
      // Only a level that already holds orders can overflow, so the level stays in place.
      this.emitOrder(id, 'CANCELED', side, price, filled, 0, 'LEVEL_FULL', time);
      return;
    }
    this.book.add(id, order.quantity, remaining, level, order.owner);
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
