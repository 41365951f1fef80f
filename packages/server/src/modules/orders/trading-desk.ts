import { affordableSteps, BUY, type CancelReason, type OpenOrder, type OrderTerms, SELL } from '@dex/core';
import type { FastifyBaseLogger } from 'fastify';
import type { BookRecovery, EngineHost } from '../../engine/engine-host.js';
import { AppError } from '../../errors.js';
import type { MarketRegistry } from '../../registry/market-registry.js';
import type { OrderRecord } from '../../store/order-ports.js';
import type { Store } from '../../store/ports.js';
import type { Clock } from '../../util/clock.js';
import { ExpiryQueue } from './expiry-queue.js';
import { type LiveOrder, LiveOrders, liveOrderOf } from './live-orders.js';
import { type NewOrderFields, OrderTurn } from './order-turn.js';

/** Most open orders one wallet may have (spec 8.2). */
export const MAX_OPEN_ORDERS_PER_ACCOUNT = 5_000;

/** A verified order ready for the book; the desk assigns its id. */
export interface OrderCandidate {
  readonly fields: Omit<NewOrderFields, 'id' | 'createdAt' | 'ocoOrderId'>;
  readonly terms: OrderTerms;
  readonly makerOnly: boolean;
  readonly takerOnce: boolean;
  /** Batch index of its OCO partner, or null. */
  readonly ocoWith: number | null;
}

export interface CancelOutcome {
  readonly accepted: number[];
  readonly skipped: { orderId: number; reason: 'NOT_FOUND' | 'NOT_OPEN' }[];
}

/**
 * The single writer of orders: accepts verified orders onto the books, cancels and expires them,
 * and stores each engine turn in one transaction before anyone hears about it. Turns run one at a
 * time, so the checks made inside a turn (nonce unused, open-order cap, nonce floor) cannot race.
 * If a turn cannot be stored, memory is ahead of the store; the desk then refuses all further work
 * and a restart recovers from the store.
 */
export class TradingDesk {
  private readonly live = new LiveOrders();
  private readonly expiries = new ExpiryQueue();
  private nextId: number;
  private tail: Promise<unknown> = Promise.resolve();
  private broken = false;

  private constructor(
    private readonly registry: MarketRegistry,
    private readonly engines: EngineHost,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: FastifyBaseLogger,
    lastId: number,
  ) {
    this.nextId = lastId + 1;
  }

  /** Rebuilds every book from the stored open orders, oldest first, and starts the engines. */
  static async open(
    registry: MarketRegistry,
    engines: EngineHost,
    store: Store,
    clock: Clock,
    logger: FastifyBaseLogger,
  ): Promise<TradingDesk> {
    const desk = new TradingDesk(registry, engines, store, clock, logger, await store.orders.maxOrderId());
    const updateIds = await store.orders.lastUpdateIds();
    const resting = new Map<number, OpenOrder[]>();
    for (const record of await store.orders.openOrders()) {
      const side = record.side === 'buy' ? BUY : SELL;
      const order = liveOrderOf(record, side);
      desk.live.set(order);
      desk.expiries.push(order.deadlineMs, order.id);
      const book = resting.get(record.bookId) ?? [];
      book.push({
        id: record.id,
        side,
        price: record.priceTicks,
        quantity: record.quantitySteps,
        remaining: record.quantitySteps - record.filledSteps,
      });
      resting.set(record.bookId, book);
    }
    const recovery = new Map<number, BookRecovery>();
    for (const market of registry.list()) {
      const id = market.book.id;
      recovery.set(id, { resting: resting.get(id) ?? [], lastUpdateId: updateIds.get(id) ?? 0 });
    }
    engines.start(recovery);
    return desk;
  }

  openOrderCount(account: string): number {
    return this.live.countOf(account);
  }

  /**
   * Stores and places a batch of verified orders of one account, in batch order. Returns the
   * stored record of each candidate. Throws before anything changes when a nonce is no longer
   * available, the nonce floor moved above one, or the batch would pass the open-order cap.
   */
  accept(account: string, candidates: readonly OrderCandidate[]): Promise<OrderRecord[]> {
    return this.serial(async () => {
      const floor = await this.store.nonces.floor(account);
      const unused = await this.store.nonces.unused(
        account,
        candidates.map((candidate) => candidate.fields.nonce),
      );
      candidates.forEach((candidate, index) => {
        if (candidate.fields.nonce < floor) throw AppError.atItem(index, 'items', 'NONCE_BELOW_FLOOR');
        if (!unused.has(candidate.fields.nonce)) throw AppError.atItem(index, 'items', 'NONCE_NOT_ISSUED');
      });
      if (this.live.countOf(account) + candidates.length > MAX_OPEN_ORDERS_PER_ACCOUNT) {
        throw new AppError(
          'OPEN_ORDER_LIMIT',
          `An account may have at most ${MAX_OPEN_ORDERS_PER_ACCOUNT} open orders; this account has ${this.live.countOf(account)}`,
        );
      }

      const turn = new OrderTurn(this.live, this.clock.now());
      const ids = candidates.map(() => this.nextId++);
      const placed: LiveOrder[] = candidates.map((candidate, index) => {
        const id = ids[index] as number;
        const ocoOrderId = candidate.ocoWith === null ? null : (ids[candidate.ocoWith] ?? null);
        const fields: NewOrderFields = { ...candidate.fields, id, createdAt: turn.time, ocoOrderId };
        const order: LiveOrder = {
          id,
          account,
          bookId: fields.bookId,
          type: fields.type,
          side: candidate.terms.side,
          priceTicks: fields.priceTicks,
          quantitySteps: candidate.terms.kind === 'sized' ? candidate.terms.quantitySteps : 0,
          nonce: fields.nonce,
          deadlineMs: fields.deadline * 1000,
          ocoOrderId,
          status: 'OPEN',
          reason: null,
          filledSteps: 0,
          filledInput: 0n,
          filledOutput: 0n,
          updatedAt: turn.time,
        };
        turn.create(fields, order);
        return order;
      });
      candidates.forEach((candidate, index) => {
        this.place(turn, placed[index] as LiveOrder, candidate);
      });
      await this.commit(turn);
      for (const order of placed) if (this.live.get(order.id) !== undefined) this.expiries.push(order.deadlineMs, order.id);
      const records = await Promise.all(ids.map((id) => this.store.orders.get(id)));
      return records.map((record, index) => {
        if (record === undefined) throw new Error(`order ${ids[index]} vanished after its commit`);
        return record;
      });
    });
  }

  /** Takes the account's orders off their books at once; ids it does not own or that are done are skipped. */
  cancel(account: string, orderIds: readonly number[]): Promise<CancelOutcome> {
    return this.serial(async () => {
      const turn = new OrderTurn(this.live, this.clock.now());
      const outcome: CancelOutcome = { accepted: [], skipped: [] };
      for (const id of new Set(orderIds)) {
        const order = this.live.get(id);
        if (order !== undefined && order.account === account) {
          outcome.accepted.push(id);
          this.remove(turn, order, 'USER');
        } else {
          const stored = order === undefined ? await this.store.orders.get(id) : undefined;
          // Another account's order is reported exactly like one that does not exist.
          outcome.skipped.push({ orderId: id, reason: stored?.account === account ? 'NOT_OPEN' : 'NOT_FOUND' });
        }
      }
      await this.commit(turn);
      return outcome;
    });
  }

  /** Raises the account's nonce floor and cancels its open orders below it. */
  cancelBelowFloor(account: string, floor: bigint): Promise<number[]> {
    return this.serial(async () => {
      const turn = new OrderTurn(this.live, this.clock.now());
      turn.raiseNonceFloor(account, floor);
      const canceled: number[] = [];
      for (const order of this.live.ofAccount(account).sort((a, b) => a.id - b.id)) {
        if (order.nonce >= floor || this.live.get(order.id) === undefined) continue;
        canceled.push(order.id);
        this.remove(turn, order, 'NONCE_FLOOR');
      }
      await this.commit(turn);
      return canceled;
    });
  }

  /** Expires every open order whose deadline has passed; returns how many. */
  expireDue(): Promise<number> {
    return this.serial(async () => {
      const now = this.clock.now();
      const due = this.expiries.popDue(now).flatMap((id) => this.live.get(id) ?? []);
      if (due.length === 0) return 0;
      const turn = new OrderTurn(this.live, now);
      for (const order of due) if (this.live.get(order.id) !== undefined) this.remove(turn, order, 'EXPIRED');
      await this.commit(turn);
      return due.length;
    });
  }

  /** Runs turns one after another; a failed turn does not block the ones after it. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(() => {
      if (this.broken) throw new AppError('TRADING_UNAVAILABLE');
      return work();
    });
    this.tail = run.catch(() => {});
    return run;
  }

  private async commit(turn: OrderTurn): Promise<void> {
    try {
      await this.store.orders.commitTurn(turn.write());
    } catch (error) {
      this.broken = true;
      this.logger.fatal({ err: error }, 'an engine turn could not be stored; trading is suspended until a restart');
      throw new AppError('TRADING_UNAVAILABLE', undefined, { cause: error });
    }
  }

  private place(turn: OrderTurn, order: LiveOrder, candidate: OrderCandidate): void {
    // An OCO partner that traded or ended earlier in this batch has already ended this order.
    if (this.live.get(order.id) === undefined) return;
    const market = this.registry.get(order.bookId);
    const engine = this.engines.engine(order.bookId);
    if (market === undefined || engine === undefined) throw new Error(`no market ${order.bookId}`);
    const { terms } = candidate;
    if (terms.kind === 'budget') {
      order.quantitySteps = engine.isHalted ? 0 : affordableSteps(engine, market.grid, terms.budgetQuote, terms.priceTicks);
      if (order.quantitySteps === 0) {
        turn.finish(order, 'CANCELED', 'IMMEDIATE_OR_CANCEL');
        this.drain(turn);
        return;
      }
    }
    const events = this.engines.execute(order.bookId, [
      {
        type: 'place',
        id: order.id,
        side: order.side,
        price: order.priceTicks,
        quantity: order.quantitySteps,
        timeInForce: order.type === 'MARKET' ? 'IOC' : 'GTC',
        makerOnly: candidate.makerOnly,
        takerOnce: candidate.takerOnce,
        time: turn.time,
      },
    ]);
    turn.absorb(market, events);
    this.drain(turn);
  }

  /** Takes one order off its book; an order the engine does not hold (never placed) ends directly. */
  private remove(turn: OrderTurn, order: LiveOrder, reason: CancelReason): void {
    const market = this.registry.get(order.bookId);
    if (market === undefined) throw new Error(`no market ${order.bookId}`);
    const events = this.engines.execute(order.bookId, [{ type: 'cancel', id: order.id, reason, time: turn.time }]);
    if (events.length > 0) turn.absorb(market, events);
    else turn.finish(order, reason === 'EXPIRED' ? 'EXPIRED' : 'CANCELED', reason);
    this.drain(turn);
  }

  /** Runs the cancels that events asked for (OCO partners), until none is left. */
  private drain(turn: OrderTurn): void {
    for (let next = turn.pending.shift(); next !== undefined; next = turn.pending.shift()) {
      const order = this.live.get(next.id);
      if (order !== undefined) this.remove(turn, order, next.reason);
    }
  }
}
