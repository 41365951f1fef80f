import type { CancelReason } from '@dex/core';
import { type EngineShard, ownsBook } from '../../domain/markets/engine-shards.js';
import { OrderIds } from '../../domain/orders/order-ids.js';
import type { OrderRecord } from '../../domain/orders/order-records.js';
import type { Clock } from '../../ports/clock.js';
import type { Holding } from '../../ports/funds.js';
import type { Logger } from '../../ports/logger.js';
import type { Metrics } from '../../ports/metrics.js';
import type { FailedFill, PairReserves, PoolReservesListener, SettledSwap, SettlementDesk } from '../../ports/settlement-desk.js';
import type { Store } from '../../ports/store/ports.js';
import type { EngineHost } from '../engine/engine-host.js';
import type { MarketRegistry } from '../markets/market-registry.js';
import { type CancellationOptions, CancellationRelay, type CancelOutcome } from './cancellation-relay.js';
import { DeskBooks } from './desk-books.js';
import type { DeskEvents } from './desk-events.js';
import { DeskPools } from './desk-pools.js';
import { type CommandPosition, DeskSequencer } from './desk-sequencer.js';
import { EVERY_BOOK, IntakeChecks } from './intake-checks.js';
import { OrderAcceptance, type OrderCandidate } from './order-acceptance.js';
import type { OrderDesk } from './order-desk.js';
import { SettlementOutcomes } from './settlement-outcomes.js';

export type { FailedFill } from '../../ports/settlement-desk.js';
export type { CancelOutcome } from './cancellation-relay.js';
export { MAX_OPEN_ORDERS_PER_ACCOUNT } from './intake-checks.js';
export type { OrderCandidate } from './order-acceptance.js';

/** `shard` (of CancellationOptions): the desk of one engine among several, with only its shard's books and ids of its own. */
export interface DeskOptions extends CancellationOptions {
  /** Where the desk reports its commit groups; default: nowhere. */
  readonly metrics?: Metrics;
}

/** The stored open orders of the shard's books. */
async function openOrdersOf(store: Store, shard: EngineShard): Promise<OrderRecord[]> {
  const open = await store.orders.openOrders();
  return shard.count === 1 ? open : open.filter((order) => ownsBook(order.bookId, shard.index, shard.count));
}

/**
 * The single writer of orders, as a pipeline of named stages over shared books (`DeskBooks`):
 * acceptance with its intake checks (risk, nonces), the serial sequencer that runs one turn at a
 * time and stores turns in commit groups, settlement outcomes (undoing fills the reactor refused)
 * and the cancellation relay. This facade wires them and is what the edges and the settlement
 * adapters (through the `SettlementDesk` port) talk to.
 */
export class TradingDesk implements OrderDesk, SettlementDesk, PoolReservesListener {
  private constructor(
    private readonly books: DeskBooks,
    private readonly checks: IntakeChecks,
    private readonly acceptance: OrderAcceptance,
    private readonly sequencer: DeskSequencer,
    private readonly cancellations: CancellationRelay,
    private readonly outcomes: SettlementOutcomes,
    private readonly pools: DeskPools,
    private readonly shard: EngineShard,
  ) {}

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
    const shard = options.shard ?? EVERY_BOOK;
    const lastId = await store.orders.maxOrderId();
    const books = new DeskBooks(registry, engines);
    // The desk exists before a failed commit can ask for a rebuild.
    const sequencer = new DeskSequencer(
      store,
      events,
      logger,
      (): Promise<void> => desk.rebuild(store),
      undefined,
      options.metrics,
    );
    const checks = new IntakeChecks(books.live, store, () => sequencer.pending, shard);
    const desk: TradingDesk = new TradingDesk(
      books,
      checks,
      new OrderAcceptance(books, checks, sequencer, clock, new OrderIds(lastId, shard.index, shard.count)),
      sequencer,
      new CancellationRelay(books, sequencer, store, clock, options),
      new SettlementOutcomes(books, sequencer, store, clock),
      new DeskPools(registry, engines),
      shard,
    );
    const updateIds = await store.orders.lastUpdateIds();
    books.recover(await openOrdersOf(store, shard), updateIds);
    desk.pools.restore(await store.settlements.unsettledSwaps());
    events.subscribe((commit) => desk.pools.stored(commit.trades));
    return desk;
  }

  /**
   * After a failed commit: the books, the next order id and the pool snapshots as the store holds
   * them (what was answered), dropping what the failed turns did in memory.
   */
  private async rebuild(store: Store): Promise<void> {
    const [lastId, updateIds, open] = await Promise.all([
      store.orders.maxOrderId(),
      store.orders.lastUpdateIds(),
      openOrdersOf(store, this.shard),
    ]);
    this.pools.forgetUnstored();
    this.books.recover(open, updateIds);
    this.acceptance.continueAfter(lastId);
  }

  /** See {@link DeskSequencer.inStepWithStore}: while false, the books must not be read as the truth. */
  get inStepWithStore(): boolean {
    return this.sequencer.inStepWithStore;
  }

  openOrderCount(account: string): number {
    return this.books.live.countOf(account);
  }

  /** Throws OPEN_ORDER_LIMIT when `adding` more orders would take the account past the cap. */
  assertRoomFor(account: string, adding: number): void {
    this.checks.assertRoomFor(account, adding);
  }

  /** See {@link OrderAcceptance.accept}. */
  accept(
    account: string,
    candidates: readonly OrderCandidate[],
    holdings?: ReadonlyMap<string, Holding>,
    position?: CommandPosition,
  ): Promise<OrderRecord[]> {
    return this.acceptance.accept(account, candidates, holdings, position);
  }

  /** See {@link CancellationRelay.cancel}. */
  cancel(
    account: string,
    orderIds: readonly number[],
    reason: CancelReason = 'USER',
    position?: CommandPosition,
  ): Promise<CancelOutcome> {
    return this.cancellations.cancel(account, orderIds, reason, position);
  }

  /** See {@link CancellationRelay.cancelBelowFloor}. */
  cancelBelowFloor(
    account: string,
    floor: bigint,
    reason: CancelReason = 'NONCE_FLOOR',
    position?: CommandPosition,
  ): Promise<number[]> {
    return this.cancellations.cancelBelowFloor(account, floor, reason, position);
  }

  /** See {@link CancellationRelay.cancelOpen}. */
  cancelOpen(
    account: string,
    books: ReadonlySet<number> | null,
    reason: CancelReason,
    position?: CommandPosition,
  ): Promise<number[]> {
    return this.cancellations.cancelOpen(account, books, reason, position);
  }

  /** See {@link SettlementOutcomes.unwindFills}. */
  unwindFills(failures: readonly FailedFill[], position?: CommandPosition): Promise<void> {
    return this.outcomes.unwindFills(failures, position);
  }

  finalizeCancels(position?: CommandPosition): Promise<number> {
    return this.cancellations.finalizeCancels(position);
  }

  cancelledOnChain(orderHash: string, txHash: string, position?: CommandPosition): Promise<void> {
    return this.cancellations.cancelledOnChain(orderHash, txHash, position);
  }

  floorRaisedOnChain(account: string, floor: bigint, txHash: string, position?: CommandPosition): Promise<void> {
    return this.cancellations.floorRaisedOnChain(account, floor, txHash, position);
  }

  poolSwapsSettled(swaps: readonly SettledSwap[]): void {
    this.pools.settled(swaps);
  }

  /** See {@link DeskPools.synced}. */
  poolReservesSynced(pairs: readonly PairReserves[]): void {
    this.pools.synced(pairs);
  }

  /** Expires every open order whose deadline has passed; returns how many. */
  expireDue(): Promise<number> {
    return this.sequencer.run(async () => this.acceptance.expireDueNow());
  }
}
