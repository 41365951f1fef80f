import { outcomeOf, PartialFillLimitOrderReactor } from '@dex/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { SettlementConfig } from '../config.js';
import type { FeeSchedule } from '../modules/account/fee-schedule.js';
import type { TradingDesk } from '../modules/orders/trading-desk.js';
import type { MarketRegistry } from '../registry/market-registry.js';
import type { Store } from '../store/ports.js';
import type { UnsettledTrade } from '../store/settlement-ports.js';
import type { Clock } from '../util/clock.js';
import { WorkLoop } from '../util/work-loop.js';
import type { ChainContext } from './chain-context.js';
import { failedFill } from './fill-failure.js';
import type { OperatorTransactions } from './operator-transactions.js';
import type { ReactorIndexer } from './reactor-indexer.js';
import { type SettlementBatch, settlementBatch, type TradeFeeRates, withoutFills } from './settlement-batch.js';

export interface SettlerDeps {
  readonly chain: ChainContext;
  readonly transactions: OperatorTransactions;
  readonly indexer: ReactorIndexer;
  readonly store: Store;
  readonly registry: MarketRegistry;
  readonly fees: FeeSchedule;
  readonly desk: TradingDesk;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
  readonly config: SettlementConfig;
}

/**
 * Settles matched trades on the reactor, oldest first, in batches. Each batch is simulated first:
 * fills the reactor would refuse are undone on the books (the order at fault is cancelled with the
 * reason, the other gets its quantity back) and left out; fills the reactor already settled are
 * recorded from their event; the rest go out in one transaction with a fixed gas limit. A batch
 * the simulation refuses as a whole (e.g. over the gas limit) is halved, and grows back after each
 * settled batch. Errors back off and retry; a fill is never settled twice because the reactor
 * refuses a fill id it has seen.
 */
export class Settler {
  private readonly loop: WorkLoop;
  private batchLimit: number;

  constructor(private readonly deps: SettlerDeps) {
    this.batchLimit = deps.config.batchFills;
    this.loop = new WorkLoop(() => this.settleNext(), deps.logger, 'settlement');
  }

  /**
   * Reconciles the store with the chain, then settles in the background: fills recorded in blocks
   * the chain no longer has are queued again, events missed while down are applied, and fills
   * whose transaction left no trace go back in the queue.
   */
  async start(): Promise<void> {
    const { store, chain, indexer, clock, logger } = this.deps;
    const lost = await store.settlements.requeueSettledAfter(chain.headAtStart, clock.now());
    if (lost > 0) logger.warn({ lost, head: chain.headAtStart.toString() }, 'the chain lost settled fills; settling them again');
    await indexer.rewindTo(chain.headAtStart);
    await indexer.catchUp();
    const stranded = await store.settlements.submitted();
    if (stranded.length > 0)
      await store.settlements.markPending(
        stranded.map((trade) => trade.tradeId),
        clock.now(),
      );
    this.loop.start();
  }

  /** Tells the settler new trades are waiting. */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Settles until nothing is pending: for tests and benchmarks that need a quiet queue. */
  async settleAll(): Promise<void> {
    while (await this.settleNext()) {}
  }

  /** Settles one batch; false when nothing was pending. */
  private async settleNext(): Promise<boolean> {
    const { store, transactions, indexer, desk, clock, config } = this.deps;
    const trades = await store.settlements.pending(this.batchLimit);
    if (trades.length === 0) return false;
    const batch = settlementBatch(trades, await this.feeRates(trades));
    const outcomes = await this.simulate(batch);
    if (outcomes === null) return true; // the batch was too large; the next try takes fewer

    const drop = new Set<number>();
    const alreadySettled: number[] = [];
    const failures = [];
    for (const [position, outcome] of outcomes.entries()) {
      if (outcome.reason === 'None') continue;
      drop.add(position);
      const trade = batch.trades[position] as UnsettledTrade;
      if (outcome.reason === 'AlreadySettled') alreadySettled.push(trade.tradeId);
      else failures.push(failedFill(trade, outcome));
    }
    if (alreadySettled.length > 0) await indexer.applySettledFills(alreadySettled);
    if (failures.length > 0) {
      for (const failure of failures)
        this.deps.logger.warn({ tradeId: failure.tradeId, reason: failure.reason }, 'dropping a fill the reactor would refuse');
      await desk.unwindFills(failures);
      await desk.finalizeCancels();
    }
    const sending = withoutFills(batch, drop);
    if (sending.fills.length === 0) return true;

    const ids = sending.trades.map((trade) => trade.tradeId);
    const { hash, receipt } = await transactions.send('settle', [sending.orders, sending.fills], BigInt(config.txGasLimit));
    await store.settlements.markSubmitted(ids, hash, clock.now());
    const mined = await receipt;
    if (mined.status !== 'success') {
      await store.settlements.markPending(ids, clock.now());
      throw new Error(`settlement transaction ${hash} reverted`);
    }
    await indexer.applyReceipt(mined);
    this.batchLimit = Math.min(config.batchFills, this.batchLimit * 2);
    return true;
  }

  /** The fee rates of both sides of each trade, each account and book read once. */
  private async feeRates(trades: readonly UnsettledTrade[]): Promise<(trade: UnsettledTrade) => TradeFeeRates> {
    const { registry, fees } = this.deps;
    const rates = new Map<string, Awaited<ReturnType<FeeSchedule['rates']>>>();
    for (const trade of trades) {
      const market = registry.get(trade.bookId);
      if (market === undefined) throw new Error(`trade ${trade.tradeId} is on unknown book ${trade.bookId}`);
      for (const account of [trade.maker.account, trade.taker.account]) {
        const key = `${account}:${trade.bookId}`;
        if (!rates.has(key)) rates.set(key, await fees.rates(account, market));
      }
    }
    const rateOf = (account: string, bookId: number) =>
      rates.get(`${account}:${bookId}`) as Awaited<ReturnType<FeeSchedule['rates']>>;
    return (trade) => ({
      makerFeePips: rateOf(trade.maker.account, trade.bookId).makerFeePips,
      takerFeePips: rateOf(trade.taker.account, trade.bookId).takerFeePips,
    });
  }

  /**
   * The reactor's outcome for each fill, or null after halving a batch the simulation refused as a
   * whole: a batch over the gas limit fails with whatever the EVM ran out of ("out of gas",
   * "ReentrancySentryOOG", ...), so any failure of a batch of several fills halves it. A single
   * fill that fails as a whole is an error: the loop backs off and tries again.
   */
  private async simulate(batch: SettlementBatch) {
    const { chain, config, logger } = this.deps;
    try {
      const { result } = await chain.public.simulateContract({
        account: chain.operator.account,
        address: chain.reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'settle',
        args: [batch.orders, batch.fills],
        gas: BigInt(config.txGasLimit),
      });
      return result.map(outcomeOf);
    } catch (error) {
      if (batch.fills.length <= 1) throw error;
      this.batchLimit = Math.max(1, Math.floor(batch.fills.length / 2));
      logger.info(
        { fills: batch.fills.length, next: this.batchLimit, cause: shortMessage(error) },
        'the simulation refused a settlement batch; halving it',
      );
      return null;
    }
  }
}

/** The first line of an error's message (viem's carry the whole request after it). */
function shortMessage(error: unknown): string {
  const text = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
  return text.split('\n')[0] ?? text;
}
