import type { CancelReason } from '@dex/core';
import { type EngineShard, ownsBook } from '../../domain/markets/engine-shards.js';
import type { LiveOrder } from '../../domain/orders/live-orders.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { OrderTurn } from '../../domain/orders/order-turn.js';
import type { Clock } from '../../ports/clock.js';
import type { Holding } from '../../ports/funds.js';
import type { Logger } from '../../ports/logger.js';
import type { Metrics } from '../../ports/metrics.js';
import type { FailedFill, PairReserves, PoolReservesListener, SettledSwap, SettlementDesk } from '../../ports/settlement-desk.js';
import type { Store } from '../../ports/store/ports.js';
import type { MarketRegistry } from '../markets/market-registry.js';
import { FillGiveBack } from '../settlement/fill-give-back.js';
import { AdmissionChecks, EVERY_BOOK } from './admission-checks.js';
import { type CancellationOptions, Cancellations } from './cancellations.js';
import type { DeskBooks } from './desk-books.js';
import type { DeskEvents } from './desk-events.js';
import type { DeskPools } from './desk-pools.js';
import { type CommandPosition, DeskSequencer } from './desk-sequencer.js';
import { DeskState } from './desk-state.js';
import type { EngineHost } from './engine-host.js';
import type { CancelOutcome, OrderCandidate, OrderDesk } from './order-desk.js';
import { createOrders, recordsInBatchOrder } from './order-placement.js';

export { MAX_OPEN_ORDERS_PER_ACCOUNT } from './admission-checks.js';

export interface DeskOptions extends CancellationOptions {
  /** The desk of one engine among several: only its shard's books, and ids of its own. Default: every book. */
  readonly shard?: EngineShard;
  /** Where the desk reports its commit groups; default: nowhere. */
  readonly metrics?: Metrics;
}

/**
 * The trading desk: the single writer of the books, and the one place where each of its turns
 * reads as its stages. Every turn runs on the sequencer, one at a time, so what a stage checks
 * cannot race; the turn stages its writes, and the sequencer then commits them with the turns
 * queued beside it (one transaction per commit group), publishes the stored group, and only then
 * answers the turn.
 *
 * An order's turn (`accept`): expire what is due, deduplicate by order hash, check the books,
 * nonces and risk, create the orders, match them, stage the writes; then commit and publish.
 * A settlement outcome (`unwindFills`): read the trades still unsettled, record each failure,
 * forget a refused pool swap, give each side back its quantity, stage the writes; then commit and
 * publish. Cancels, expiries and the reactor's confirmations are turns of the same form.
 */
export class TradingDesk implements OrderDesk, SettlementDesk, PoolReservesListener {
  readonly books: DeskBooks;
  readonly pools: DeskPools;
  private readonly cancels: Cancellations;

  private constructor(
    private readonly state: DeskState,
    readonly sequencer: DeskSequencer,
    readonly checks: AdmissionChecks,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly shard: EngineShard,
    options: CancellationOptions,
  ) {
    this.books = state.books;
    this.pools = state.pools;
    this.cancels = new Cancellations(state.books, options);
  }

  /** Loads the books from the stored open orders, oldest first, and starts the engines. */
  static async open(
    registry: MarketRegistry,
    engines: EngineHost,
    store: Store,
    clock: Clock,
    logger: Logger,
    events: DeskEvents,
    options: DeskOptions = { confirmCancels: false },
  ): Promise<TradingDesk> {
    const shard = options.shard ?? EVERY_BOOK;
    const state = await DeskState.load(registry, engines, store, shard);
    const sequencer = new DeskSequencer(store, events, logger, state, undefined, options.metrics);
    const checks = new AdmissionChecks(state.books.live, store, () => sequencer.pending, shard);
    events.subscribe((commit) => state.pools.stored(commit.trades));
    return new TradingDesk(state, sequencer, checks, store, clock, shard, options);
  }

  /** See {@link DeskSequencer.inStepWithStore}: while false, the books must not be read as the truth. */
  get inStepWithStore(): boolean {
    return this.sequencer.inStepWithStore;
  }

  /** The intake's early check, before it verifies signatures: the same rule the turn checks again. */
  assertRoomFor(account: string, adding: number): void {
    this.checks.assertRoomFor(account, adding);
  }

  /**
   * An order's turn: stores and places a batch of verified orders of one account, in batch order,
   * and answers the stored record of each candidate. Throws before anything changes when a nonce
   * is no longer available, the nonce floor moved above one, or the batch would pass the
   * open-order cap or the account's funds. A batch that came through a command log names its
   * `position` (see {@link DeskSequencer.run}).
   */
  accept(
    account: string,
    candidates: readonly OrderCandidate[],
    holdings?: ReadonlyMap<string, Holding>,
    position?: CommandPosition,
  ): Promise<OrderRecord[]> {
    return this.sequencer.run(async () => {
      // 1. Expire: an order past its deadline must not trade, even if the sweep has not reached it yet.
      this.expire();
      // 2. Deduplicate: a save of the same signed order that won the race is answered with its order.
      const saved = await this.checks.saved(candidates.map((candidate) => candidate.fields.orderHash));
      const fresh = candidates.filter((candidate) => !saved.has(candidate.fields.orderHash));
      // 3. Books, nonces and risk.
      this.checks.assertOwnBooks(fresh);
      await this.checks.checkNonces(account, fresh);
      this.checks.assertRoomFor(account, fresh.length);
      if (holdings !== undefined) this.checks.assertCovered(account, fresh, holdings);
      // 4. Create, 5. match, 6. stage the writes.
      const turn = this.turn();
      const created = createOrders(turn, this.state.ids, candidates, fresh);
      for (const { order, candidate } of created) this.books.place(turn, order, candidate.terms);
      const write = this.sequencer.stage(turn);
      for (const { order } of created) this.books.trackIfLive(order);
      return recordsInBatchOrder(candidates, write.newOrders, saved);
    }, position);
  }

  /** Expires every open order whose deadline has passed, in a turn of its own; returns how many. */
  expireDue(): Promise<number> {
    return this.sequencer.run(async () => this.expire());
  }

  /**
   * A settlement outcome: undoes trades the reactor will not settle (see {@link FillGiveBack}).
   * Trades already settled or undone are skipped, so a repeated report changes nothing.
   */
  unwindFills(failures: readonly FailedFill[], position?: CommandPosition): Promise<void> {
    return this.sequencer.run(async () => {
      // Retired orders are read from the store, so it must hold every earlier turn.
      await this.sequencer.flush();
      const unsettled = await this.store.settlements.unsettled(failures.map((failure) => failure.tradeId));
      const turn = this.turn();
      const sides = new FillGiveBack(this.books, this.store, turn);
      for (const failure of failures) {
        if (!unsettled.delete(failure.tradeId)) continue;
        turn.failSettlement({ tradeId: failure.tradeId, reason: failure.reason, time: turn.time });
        // A refused swap never moved the pool: the engine's snapshot forgets it.
        if (failure.makerOrderId === null) this.books.poolSwapFailed(failure.tradeId);
        await sides.giveBack(failure, 'maker');
        await sides.giveBack(failure, 'taker');
      }
      this.sequencer.stage(turn);
    }, position);
  }

  /** Takes the account's orders off their books at once; ids it does not own or that are done are skipped. */
  cancel(
    account: string,
    orderIds: readonly number[],
    reason: CancelReason = 'USER',
    position?: CommandPosition,
  ): Promise<CancelOutcome> {
    return this.sequencer.run(async () => {
      const turn = this.turn();
      const outcome: CancelOutcome = { accepted: [], skipped: [] };
      for (const id of new Set(orderIds)) {
        const order = this.books.live.get(id);
        if (order !== undefined && order.account === account) {
          outcome.accepted.push(id);
          this.cancels.request(turn, order, reason);
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

  /** Raises the account's nonce floor and cancels its open orders below it; returns their ids. */
  cancelBelowFloor(
    account: string,
    floor: bigint,
    reason: CancelReason = 'NONCE_FLOOR',
    position?: CommandPosition,
  ): Promise<number[]> {
    return this.sequencer.run(async () => {
      const turn = this.turn();
      turn.raiseNonceFloor(account, floor);
      const canceled = this.cancelEach(turn, this.cancels.belowFloor(account, floor), reason);
      this.sequencer.stage(turn);
      return canceled;
    }, position);
  }

  /**
   * Takes the account's open orders on `books` (null: every book) off their books in one turn, so
   * an order saved meanwhile is either taken too or was not open yet. Returns their ids.
   */
  cancelOpen(
    account: string,
    books: ReadonlySet<number> | null,
    reason: CancelReason,
    position?: CommandPosition,
  ): Promise<number[]> {
    return this.sequencer.run(async () => {
      const turn = this.turn();
      const canceled = this.cancelEach(turn, this.cancels.onBooks(account, books), reason);
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
      const turn = this.turn();
      let finalized = 0;
      for (const { orderId, reason, txHash } of confirmed) {
        const record = await this.store.orders.get(orderId);
        if (record === undefined || !ownsBook(record.bookId, this.shard.index, this.shard.count)) continue;
        this.cancels.finalize(turn, record, reason, txHash);
        finalized++;
      }
      this.sequencer.stage(turn);
      return finalized;
    }, position);
  }

  /** A swapper cancelled an order on the reactor itself: it leaves its book and is CANCELED at once. */
  cancelledOnChain(orderHash: string, txHash: string, position?: CommandPosition): Promise<void> {
    return this.sequencer.run(async () => {
      const [record] = await this.store.orders.byHashes([orderHash]);
      const order = record === undefined ? undefined : this.books.live.get(record.id);
      if (order === undefined) return;
      const turn = this.turn();
      this.cancels.endOnChain(turn, order, 'USER', txHash);
      this.sequencer.stage(turn);
    }, position);
  }

  /** A swapper raised its nonce floor on the reactor itself: its orders below it end at once. */
  floorRaisedOnChain(account: string, floor: bigint, txHash: string, position?: CommandPosition): Promise<void> {
    return this.sequencer.run(async () => {
      const turn = this.turn();
      turn.raiseNonceFloor(account, floor);
      for (const order of this.cancels.belowFloor(account, floor)) this.cancels.endOnChain(turn, order, 'NONCE_FLOOR', txHash);
      this.sequencer.stage(turn);
    }, position);
  }

  /** Swaps the reactor settled: their pools' snapshots move on. */
  poolSwapsSettled(swaps: readonly SettledSwap[]): void {
    this.pools.settled(swaps);
  }

  /** See {@link DeskPools.synced}. */
  poolReservesSynced(pairs: readonly PairReserves[]): void {
    this.pools.synced(pairs);
  }

  private turn(): OrderTurn {
    return this.books.turn(this.clock.now());
  }

  /** The expire stage: every open order whose deadline has passed, in a turn of its own; returns how many. */
  private expire(): number {
    const now = this.clock.now();
    const due = this.books.due(now);
    if (due.length === 0) return 0;
    const turn = this.books.turn(now);
    for (const order of due) if (this.books.live.get(order.id) !== undefined) this.books.remove(turn, order, 'EXPIRED');
    this.sequencer.stage(turn);
    return due.length;
  }

  /** Asks each order's cancellation in the turn; returns their ids. */
  private cancelEach(turn: OrderTurn, orders: Iterable<LiveOrder>, reason: CancelReason): number[] {
    const canceled: number[] = [];
    for (const order of orders) {
      canceled.push(order.id);
      this.cancels.request(turn, order, reason);
    }
    return canceled;
  }
}
