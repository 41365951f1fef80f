import { affordableSteps, BUY, type CancelReason, type OpenOrder, type OrderTerms, SELL } from '@dex/core';
import { AppError } from '../../domain/errors.js';
import { ExpiryQueue } from '../../domain/orders/expiry-queue.js';
import { type LiveOrder, LiveOrders, liveOrderOf } from '../../domain/orders/live-orders.js';
import { type NewOrderFields, OrderTurn } from '../../domain/orders/order-turn.js';
import { PendingWrites } from '../../domain/orders/pending-writes.js';
import type { Clock } from '../../ports/clock.js';
import type { Holding } from '../../ports/funds.js';
import type { Logger } from '../../ports/logger.js';
import type { FailedFill, SettlementDesk } from '../../ports/settlement-desk.js';
import type { OrderRecord, TurnWrite } from '../../ports/store/order-ports.js';
import type { Store } from '../../ports/store/ports.js';
import type { BookRecovery, EngineHost } from '../engine/engine-host.js';
import type { Market, MarketRegistry } from '../markets/market-registry.js';
import type { DeskEvents } from './desk-events.js';

export type { FailedFill } from '../../ports/settlement-desk.js';

/** Most open orders one wallet may have (spec 8.2). */
export const MAX_OPEN_ORDERS_PER_ACCOUNT = 5_000;
/** New orders after which a commit group is stored even while more turns wait. */
const MAX_GROUP_ORDERS = 2_000;

/** A verified order ready for the book; the desk assigns its id. */
export interface OrderCandidate {
  /** Position of the order in the request, for error messages. */
  readonly index: number;
  readonly fields: Omit<NewOrderFields, 'id' | 'createdAt' | 'ocoOrderId'>;
  readonly terms: OrderTerms;
  readonly makerOnly: boolean;
  readonly takerOnce: boolean;
  /** The signed order's swapper, lower-case. */
  readonly swapper: string;
  /** The signed input: lower-case token address and raw amount. */
  readonly input: { readonly token: string; readonly amount: bigint };
  /** Batch index of its OCO partner, or null. */
  readonly ocoWith: number | null;
}

export interface DeskOptions {
  /**
   * Cancellations asked for through the API wait for the reactor: the order leaves its book at
   * once and becomes CANCELED when the reactor has confirmed it and no fill of it is in flight.
   * Without a settlement chain they are final at once.
   */
  readonly confirmCancels: boolean;
}

export interface CancelOutcome {
  readonly accepted: number[];
  readonly skipped: { orderId: number; reason: 'NOT_FOUND' | 'NOT_OPEN' }[];
}

/**
 * The single writer of orders: accepts verified orders onto the books, cancels and expires them,
 * and stores what each engine turn changed before anyone hears about it (turns that queue up
 * together share one transaction). Turns run one at a time, so the checks made inside a turn
 * (order already saved, nonce unused, open-order cap, nonce floor) cannot race. If a commit fails,
 * memory is ahead of the store; the desk then refuses all further work and a restart recovers
 * from the store. What a stored commit group changed is published on `events` before its
 * requests are answered.
 */
export class TradingDesk implements SettlementDesk {
  private readonly live = new LiveOrders();
  private readonly expiries = new ExpiryQueue();
  private nextId: number;
  private tail: Promise<unknown> = Promise.resolve();
  private pending = new PendingWrites();
  private flushScheduled = false;
  private broken = false;

  private constructor(
    private readonly registry: MarketRegistry,
    private readonly engines: EngineHost,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly events: DeskEvents,
    private readonly options: DeskOptions,
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
    logger: Logger,
    events: DeskEvents,
    options: DeskOptions = { confirmCancels: false },
  ): Promise<TradingDesk> {
    const desk = new TradingDesk(registry, engines, store, clock, logger, events, options, await store.orders.maxOrderId());
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

  /** Ids of the account's open orders on `books` (null: every book). */
  openOrderIds(account: string, books: ReadonlySet<number> | null): number[] {
    return this.live
      .ofAccount(account)
      .filter((order) => books === null || books.has(order.bookId))
      .map((order) => order.id);
  }

  /** Throws OPEN_ORDER_LIMIT when `adding` more orders would take the account past the cap. */
  assertRoomFor(account: string, adding: number): void {
    const open = this.live.countOf(account);
    if (open + adding > MAX_OPEN_ORDERS_PER_ACCOUNT) {
      throw new AppError(
        'OPEN_ORDER_LIMIT',
        `An account may have at most ${MAX_OPEN_ORDERS_PER_ACCOUNT} open orders; it has ${open} and the batch adds ${adding}`,
      );
    }
  }

  /**
   * Stores and places a batch of verified orders of one account, in batch order. Returns the
   * stored record of each candidate. Throws before anything changes when a nonce is no longer
   * available, the nonce floor moved above one, or the batch would pass the open-order cap.
   */
  accept(
    account: string,
    candidates: readonly OrderCandidate[],
    holdings?: ReadonlyMap<string, Holding>,
  ): Promise<OrderRecord[]> {
    return this.serial(async () => {
      // An order past its deadline must not trade, even if the sweep has not reached it yet.
      this.expireDueNow();
      // A concurrent save of the same signed order may have won the race: answer its order.
      const saved = await this.savedByHash(candidates.map((candidate) => candidate.fields.orderHash));
      const fresh = candidates.filter((candidate) => !saved.has(candidate.fields.orderHash));
      await this.checkNonces(account, fresh);
      this.assertRoomFor(account, fresh.length);
      if (holdings !== undefined) this.assertCovered(account, fresh, holdings);

      const turn = new OrderTurn(this.live, this.clock.now());
      const ids = new Map(fresh.map((candidate) => [candidate, this.nextId++]));
      const placed = fresh.map((candidate) => {
        const id = ids.get(candidate) as number;
        const partner = candidate.ocoWith === null ? undefined : candidates[candidate.ocoWith];
        const ocoOrderId = partner === undefined ? null : (ids.get(partner) ?? null);
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
          swapper: candidate.swapper,
          makerOnly: candidate.makerOnly,
          takerOnce: candidate.takerOnce,
          inputToken: candidate.input.token,
          inputAmount: candidate.input.amount,
          ocoOrderId,
          status: 'OPEN',
          reason: null,
          filledSteps: 0,
          filledInput: 0n,
          filledOutput: 0n,
          updatedAt: turn.time,
        };
        turn.create(fields, order);
        return { order, candidate };
      });
      for (const { order, candidate } of placed) this.place(turn, order, candidate);
      const write = this.stage(turn);
      for (const { order } of placed) if (this.live.get(order.id) !== undefined) this.expiries.push(order.deadlineMs, order.id);
      const created = new Map(write.newOrders.map((record) => [record.orderHash, record]));
      return candidates.map((candidate) => {
        const record = created.get(candidate.fields.orderHash) ?? saved.get(candidate.fields.orderHash);
        if (record === undefined) throw new Error(`no order for hash ${candidate.fields.orderHash}`);
        return record;
      });
    });
  }

  /** Takes the account's orders off their books at once; ids it does not own or that are done are skipped. */
  cancel(account: string, orderIds: readonly number[], reason: CancelReason = 'USER'): Promise<CancelOutcome> {
    return this.serial(async () => {
      const turn = new OrderTurn(this.live, this.clock.now());
      const outcome: CancelOutcome = { accepted: [], skipped: [] };
      for (const id of new Set(orderIds)) {
        const order = this.live.get(id);
        if (order !== undefined && order.account === account) {
          outcome.accepted.push(id);
          this.requestCancel(turn, order, reason);
        } else {
          const stored = order === undefined ? (this.pending.order(id) ?? (await this.store.orders.get(id))) : undefined;
          // Another account's order is reported exactly like one that does not exist.
          outcome.skipped.push({ orderId: id, reason: stored?.account === account ? 'NOT_OPEN' : 'NOT_FOUND' });
        }
      }
      this.stage(turn);
      return outcome;
    });
  }

  /** Raises the account's nonce floor and cancels its open orders below it. */
  cancelBelowFloor(account: string, floor: bigint, reason: CancelReason = 'NONCE_FLOOR'): Promise<number[]> {
    return this.serial(async () => {
      const turn = new OrderTurn(this.live, this.clock.now());
      turn.raiseNonceFloor(account, floor);
      const canceled: number[] = [];
      for (const order of this.live.ofAccount(account).sort((a, b) => a.id - b.id)) {
        if (order.nonce >= floor || this.live.get(order.id) === undefined) continue;
        canceled.push(order.id);
        this.requestCancel(turn, order, reason);
      }
      this.stage(turn);
      return canceled;
    });
  }

  /**
   * Undoes trades the reactor will not settle. Both orders get the quantity back; the order at
   * fault is cancelled with the reason; the other trades on: in place when it still rests, placed
   * anew when the trade had completed it and it can still trade (a limit order before its
   * deadline), else it keeps its end state with the smaller fill. Trades already settled or
   * undone are skipped, so a repeated report changes nothing.
   */
  unwindFills(failures: readonly FailedFill[]): Promise<void> {
    return this.serial(async () => {
      // Retired orders are read from the store, so it must hold every earlier turn.
      await this.flush();
      const unsettled = await this.store.settlements.unsettled(failures.map((failure) => failure.tradeId));
      const turn = new OrderTurn(this.live, this.clock.now());
      for (const failure of failures) {
        if (!unsettled.delete(failure.tradeId)) continue;
        turn.failSettlement({ tradeId: failure.tradeId, reason: failure.reason, time: turn.time });
        await this.giveBack(turn, failure, 'maker');
        await this.giveBack(turn, failure, 'taker');
      }
      this.stage(turn);
    });
  }

  /**
   * Makes final the cancellations the reactor confirmed whose orders have no fill in flight:
   * CANCELED, with the confirming transaction in the history. Returns how many.
   */
  finalizeCancels(): Promise<number> {
    return this.serial(async () => {
      await this.flush();
      const confirmed = await this.store.cancellations.finalizable();
      if (confirmed.length === 0) return 0;
      const turn = new OrderTurn(this.live, this.clock.now());
      for (const { orderId, reason, txHash } of confirmed) {
        const record = await this.store.orders.get(orderId);
        if (record !== undefined) turn.finalizeCancel(liveOrderOf(record, record.side === 'buy' ? BUY : SELL), reason, txHash);
      }
      this.stage(turn);
      return confirmed.length;
    });
  }

  /**
   * A swapper cancelled an order on the reactor itself: it leaves its book and is CANCELED at once
   * (a fill still in flight will be refused by the reactor and undone).
   */
  cancelledOnChain(orderHash: string, txHash: string): Promise<void> {
    return this.serial(async () => {
      const [record] = await this.store.orders.byHashes([orderHash]);
      const order = record === undefined ? undefined : this.live.get(record.id);
      if (order === undefined) return;
      const turn = new OrderTurn(this.live, this.clock.now());
      turn.deferCancel(order, 'USER');
      this.remove(turn, order, 'USER');
      turn.finalizeCancel(order, 'USER', txHash);
      this.stage(turn);
    });
  }

  /** A swapper raised its nonce floor on the reactor itself: its orders below it end at once. */
  floorRaisedOnChain(account: string, floor: bigint, txHash: string): Promise<void> {
    return this.serial(async () => {
      const turn = new OrderTurn(this.live, this.clock.now());
      turn.raiseNonceFloor(account, floor);
      for (const order of this.live.ofAccount(account).sort((a, b) => a.id - b.id)) {
        if (order.nonce >= floor || this.live.get(order.id) === undefined) continue;
        turn.deferCancel(order, 'NONCE_FLOOR');
        this.remove(turn, order, 'NONCE_FLOOR');
        turn.finalizeCancel(order, 'NONCE_FLOOR', txHash);
      }
      this.stage(turn);
    });
  }

  /** Expires every open order whose deadline has passed; returns how many. */
  expireDue(): Promise<number> {
    return this.serial(async () => this.expireDueNow());
  }

  private expireDueNow(): number {
    const now = this.clock.now();
    const due = this.expiries.popDue(now).flatMap((id) => this.live.get(id) ?? []);
    if (due.length === 0) return 0;
    const turn = new OrderTurn(this.live, now);
    for (const order of due) if (this.live.get(order.id) !== undefined) this.remove(turn, order, 'EXPIRED');
    this.stage(turn);
    return due.length;
  }

  /** Orders saved already, by hash: stored ones and those of the commit group. */
  private async savedByHash(hashes: readonly string[]): Promise<Map<string, OrderRecord>> {
    const saved = new Map((await this.store.orders.byHashes(hashes)).map((record) => [record.orderHash, record]));
    for (const hash of hashes) {
      const pending = this.pending.orderByHash(hash);
      if (pending !== undefined) saved.set(hash, pending);
    }
    return saved;
  }

  /**
   * The reservation of a risk engine: the account's balance and reactor allowance of each token
   * must cover what all its open orders may still spend plus what the new ones may spend.
   */
  private assertCovered(account: string, fresh: readonly OrderCandidate[], holdings: ReadonlyMap<string, Holding>): void {
    const needed = new Map<string, bigint>();
    const add = (token: string, amount: bigint) => needed.set(token, (needed.get(token) ?? 0n) + amount);
    for (const candidate of fresh) add(candidate.input.token, candidate.input.amount);
    for (const order of this.live.ofAccount(account)) {
      if (needed.has(order.inputToken)) add(order.inputToken, order.inputAmount - order.filledInput);
    }
    for (const [token, amount] of needed) {
      const holding = holdings.get(token) ?? { balance: 0n, allowance: 0n };
      if (holding.balance < amount || holding.allowance < amount) {
        throw new AppError(
          'INSUFFICIENT_FUNDS',
          `Open orders of this account would spend ${amount} of token ${token}; its balance is ${holding.balance} and the reactor may move ${holding.allowance}`,
        );
      }
    }
  }

  /** Each nonce was issued to the account by /orders/build, is not used, is above the floor, and appears once. */
  private async checkNonces(account: string, candidates: readonly OrderCandidate[]): Promise<void> {
    const nonces = candidates.map((candidate) => candidate.fields.nonce);
    const stored = await this.store.nonces.floor(account);
    const floor = stored > this.pending.floor(account) ? stored : this.pending.floor(account);
    const unused = nonces.length === 0 ? new Set<bigint>() : await this.store.nonces.unused(account, nonces);
    const seen = new Set<bigint>();
    for (const { index, fields } of candidates) {
      const { nonce } = fields;
      if (nonce < floor) throw AppError.atItem(index, 'items', 'NONCE_BELOW_FLOOR');
      if (!unused.has(nonce) || seen.has(nonce) || this.pending.isNonceUsed(account, nonce)) {
        throw AppError.atItem(index, 'items', 'NONCE_NOT_ISSUED');
      }
      seen.add(nonce);
    }
  }

  /**
   * Runs turns one after another; a failed turn does not block the ones after it. A turn's answer
   * waits until its commit group is stored. The group is stored once the event loop has had a
   * turn of its own (so requests arriving together under load join it), or at once when it has
   * grown large.
   */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const ran = this.tail.then(async () => {
      if (this.broken) throw new AppError('TRADING_UNAVAILABLE');
      const group = this.pending;
      let value: T;
      try {
        value = await work();
      } finally {
        if (this.pending.size >= MAX_GROUP_ORDERS) await this.flush();
        else this.scheduleFlush();
      }
      return { value, group };
    });
    this.tail = ran.catch(() => {});
    return ran.then(async ({ value, group }) => {
      await group.stored;
      return value;
    });
  }

  /** Adds a turn's changes to the commit group. */
  private stage(turn: OrderTurn): TurnWrite {
    const write = turn.write();
    this.pending.add(write, turn.publication());
    return write;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.tail = this.tail.then(() => this.flush());
    });
  }

  /** Stores the commit group in one transaction, publishes what it changed, and opens the next one. */
  private async flush(): Promise<void> {
    const group = this.pending;
    this.pending = new PendingWrites();
    if (group.writes.length === 0) {
      group.resolve();
      return;
    }
    try {
      const ids = await this.store.orders.commitTurns(group.writes);
      this.events.publish(() => group.committed(ids));
      group.resolve();
    } catch (error) {
      this.broken = true;
      this.logger.fatal({ err: error }, 'engine turns could not be stored; trading is suspended until a restart');
      group.reject(new AppError('TRADING_UNAVAILABLE', undefined, { cause: error }));
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

  private async giveBack(turn: OrderTurn, failure: FailedFill, role: 'maker' | 'taker'): Promise<void> {
    const id = role === 'maker' ? failure.makerOrderId : failure.takerOrderId;
    const market = this.registry.get(failure.bookId);
    const live = this.live.get(id);
    const record = live === undefined ? await this.store.orders.get(id) : undefined;
    const order = live ?? (record === undefined ? undefined : liveOrderOf(record, record.side === 'buy' ? BUY : SELL));
    if (market === undefined || order === undefined) return;
    const steps = Number(failure.baseAmount / market.grid.sizeStepRaw);
    order.filledSteps -= steps;
    order.filledInput -= order.side === BUY ? failure.quoteAmount : failure.baseAmount;
    order.filledOutput -= order.side === BUY ? failure.baseAmount : failure.quoteAmount;
    const atFault = failure.culprit === role;
    const completed = order.status === 'FILLED';
    if (live !== undefined || (completed && !atFault && this.canTradeAgain(order, turn.time))) {
      order.status = order.filledSteps === 0 ? 'OPEN' : 'PARTIALLY_FILLED';
      turn.update(order);
      if (atFault) this.remove(turn, order, failure.reason);
      else if (live !== undefined)
        turn.absorb(market, this.engines.execute(order.bookId, [{ type: 'replenish', id, quantity: steps, time: turn.time }]));
      else this.placeAgain(turn, market, order, record);
    } else if (completed) {
      turn.finish(
        order,
        failure.reason === 'EXPIRED' && atFault ? 'EXPIRED' : 'CANCELED',
        atFault ? failure.reason : 'SETTLEMENT_FAILED',
      );
    } else {
      turn.update(order);
    }
  }

  private canTradeAgain(order: LiveOrder, now: number): boolean {
    return order.type === 'LIMIT' && order.deadlineMs > now && this.engines.engine(order.bookId)?.isHalted === false;
  }

  /** Puts a completed limit order back through matching with the quantity a failed trade gave back. */
  private placeAgain(turn: OrderTurn, market: Market, order: LiveOrder, record: OrderRecord | undefined): void {
    const signed = record === undefined ? {} : (JSON.parse(record.signedOrder) as { makerOnly?: boolean; takerOnce?: boolean });
    this.live.set(order);
    this.expiries.push(order.deadlineMs, order.id);
    const events = this.engines.execute(order.bookId, [
      {
        type: 'place',
        id: order.id,
        side: order.side,
        price: order.priceTicks,
        quantity: order.quantitySteps - order.filledSteps,
        timeInForce: 'GTC',
        makerOnly: signed.makerOnly === true,
        takerOnce: signed.takerOnce === true,
        time: turn.time,
      },
    ]);
    turn.absorb(market, events);
    this.drain(turn);
  }

  /** A cancellation asked for through the API: final at once, or once the reactor confirms it. */
  private requestCancel(turn: OrderTurn, order: LiveOrder, reason: CancelReason): void {
    if (this.options.confirmCancels) turn.deferCancel(order, reason);
    this.remove(turn, order, reason);
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
