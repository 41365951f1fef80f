import { outcomeOf, PartialFillLimitOrderReactor } from '@dex/contracts';
import { decodeFunctionResult, type Hash, type TransactionReceipt } from 'viem';
import type { MarketLookup } from '../../../domain/markets/market.js';
import type { Clock } from '../../../ports/clock.js';
import type { FeeRateSource, FeeRates } from '../../../ports/fee-rates.js';
import type { Logger } from '../../../ports/logger.js';
import { type Metrics, noMetrics } from '../../../ports/metrics.js';
import type { SettlementDesk } from '../../../ports/settlement-desk.js';
import type { Store } from '../../../ports/store/ports.js';
import type { UnsettledTrade } from '../../../ports/store/settlement-ports.js';
import type { SettlementConfig } from '../chain-config.js';
import type { ChainContext } from '../chain-context.js';
import { failedFill } from '../fill-failure.js';
import type { ReactorIndexer } from '../indexing/reactor-indexer.js';
import type { OperatorTransactions } from '../operator-transactions.js';
import { BatchSize } from './batch-size.js';
import { GasModel } from './gas-model.js';
import { type EncodedBatch, encodeBatch, settlementBatch, type TradeFeeRates, withoutFills } from './settlement-batch.js';
import { ordersOf } from './trade-orders.js';
import { WorkLoop } from './work-loop.js';

export interface SettlerDeps {
  readonly chain: ChainContext;
  readonly transactions: OperatorTransactions;
  readonly indexer: ReactorIndexer;
  readonly store: Store;
  readonly registry: MarketLookup;
  readonly fees: FeeRateSource;
  readonly desk: SettlementDesk;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly config: SettlementConfig;
  /** Where batches and refused fills are counted; default: nowhere. */
  readonly metrics?: Metrics;
}

/** A settlement transaction sent and not yet applied. */
interface InFlight {
  readonly tradeIds: number[];
  /** Ed25519 orders the batch uses for the first time: their signature checks cost the most gas. */
  readonly newEd25519: number;
  /** Whether the batch was simulated: one that was not may hold fills the reactor settled already. */
  readonly simulated: boolean;
  readonly hash: Hash;
  readonly receipt: Promise<TransactionReceipt>;
}

/** A batch in flight and its receipt. */
interface Mined {
  readonly sent: InFlight;
  readonly receipt: TransactionReceipt;
}

/**
 * Settles matched trades on the reactor, oldest first, in batches, each in one transaction with a
 * fixed gas limit. A simulated batch: fills the reactor would refuse are undone on the books (the
 * order at fault is cancelled with the reason, the other gets its quantity back) and left out;
 * fills the reactor already settled are recorded from their event; the rest go out as the very
 * calldata that was simulated. A batch the simulation refuses as a whole (e.g. over the gas limit)
 * is halved, and grows back after each settled batch. A batch sent without a simulation
 * (`simulate: 'after-failure'`, once a batch was mined) has the reactor refuse those fills itself:
 * the indexer undoes them from their `FillRejected` events, and the ones it settled before are
 * recorded after the receipt. Errors back off and retry, and the next batch is simulated; a fill is
 * never settled twice because the reactor refuses a fill id it has seen.
 *
 * Pipelined: while a batch is being mined, the next is read and encoded, and the receipt of the one
 * before is applied. The next batch is simulated and sent only once the previous one is mined, so
 * that it meets its transfers and fills; the operator's nonce and the fees are read meanwhile.
 */
export class Settler {
  private readonly loop: WorkLoop;
  private readonly batchSize: BatchSize;
  private readonly gas: GasModel;
  private inFlight: InFlight | null = null;
  /** The first batch, and the next after a failure, is simulated whatever the configuration. */
  private simulateNext = true;
  private readonly metrics: Metrics;

  constructor(private readonly deps: SettlerDeps) {
    this.metrics = deps.metrics ?? noMetrics;
    this.batchSize = new BatchSize(deps.config.batchFills);
    this.gas = new GasModel(deps.config.txGasLimit);
    this.loop = new WorkLoop(() => this.settleNext(), deps.logger, 'settlement');
  }

  /**
   * Settles in the background, after the reconciliation with the chain: fills sent in a transaction
   * whose outcome was never applied (the service stopped before) go back in the queue.
   */
  async start(): Promise<void> {
    const { store, clock } = this.deps;
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

  /** Stops the loop, then waits for the transaction in flight and applies it. */
  async stop(): Promise<void> {
    await this.loop.stop();
    const last = this.inFlight;
    this.inFlight = null;
    if (last === null) return;
    try {
      await this.applied({ sent: last, receipt: await this.mined(last) });
    } catch (error) {
      this.deps.logger.warn({ err: error, hash: last.hash }, 'the last settlement transaction was not applied');
    }
  }

  /** Settles until nothing is pending: for tests and benchmarks that need a quiet queue. */
  async settleAll(): Promise<void> {
    while (await this.settleNext()) {}
  }

  /**
   * One turn of the pipeline: reads and encodes the next batch while the one in flight is mined,
   * then simulates the next batch and sends it, then applies the receipt of the one before. False
   * when nothing was pending nor in flight.
   */
  private async settleNext(): Promise<boolean> {
    const previous = this.inFlight;
    this.inFlight = null;
    let mined: Mined | null = null;
    try {
      const next = this.nextBatch(previous !== null);
      // Awaited below; a failure meanwhile must not count as unhandled.
      next.catch(() => {});
      if (previous !== null) mined = { sent: previous, receipt: await this.mined(previous) };
      const batch = await next;
      if (batch === null) return previous !== null;
      this.inFlight = await this.send(batch);
      return true;
    } catch (error) {
      this.simulateNext = true;
      throw error;
    } finally {
      if (mined !== null) await this.applied(mined);
    }
  }

  /**
   * Applies a mined batch's receipt. Fills of a batch sent without a simulation that are still
   * unsettled after it are the ones the reactor refused as settled before: recorded from their events.
   */
  private async applied({ sent, receipt }: Mined): Promise<void> {
    await this.deps.indexer.applyReceipt(receipt);
    if (sent.simulated) return;
    const left = await this.deps.store.settlements.unsettled(sent.tradeIds);
    if (left.size > 0) await this.recordAlreadySettled([...left]);
  }

  /** The oldest pending trades as an encoded `settle` call, or null when none is pending. */
  private async nextBatch(inFlight: boolean): Promise<EncodedBatch | null> {
    const pending = await this.deps.store.settlements.pending(this.batchSize.next(inFlight));
    if (pending.length === 0) return null;
    const trades = pending.slice(0, this.gas.fitting(pending));
    return encodeBatch(settlementBatch(trades, await this.feeRates(trades)));
  }

  /** The receipt of a mined batch; its trades go back in the queue when it reverted or was lost. */
  private async mined(sent: InFlight): Promise<TransactionReceipt> {
    const { store, clock } = this.deps;
    const receipt = await sent.receipt.catch(async (error: unknown) => {
      this.metrics.settlementBatch('lost', sent.tradeIds.length);
      await store.settlements.markPending(sent.tradeIds, clock.now());
      throw error;
    });
    if (receipt.status !== 'success') {
      this.metrics.settlementBatch('reverted', sent.tradeIds.length);
      await store.settlements.markPending(sent.tradeIds, clock.now());
      throw new Error(
        `settlement transaction ${sent.hash} reverted, using ${receipt.gasUsed} gas of ${this.deps.config.txGasLimit}`,
      );
    }
    this.metrics.settlementBatch('mined', sent.tradeIds.length);
    this.simulateNext = false;
    this.batchSize.mined();
    this.gas.mined(sent.tradeIds.length, sent.newEd25519, receipt.gasUsed);
    return receipt;
  }

  /**
   * Simulates the batch and deals with the fills the reactor would not settle: the ones it already
   * settled are recorded from their events, the ones it refuses are undone on the books. What is
   * left to send, or null when nothing is (or when the batch was halved).
   */
  private async simulated(batch: EncodedBatch): Promise<EncodedBatch | null> {
    const { desk, logger } = this.deps;
    const outcomes = await this.simulate(batch);
    if (outcomes === null) return null;
    const drop = new Set<number>();
    const alreadySettled: number[] = [];
    const failures = [];
    for (const [position, outcome] of outcomes.entries()) {
      if (outcome.reason === 'None') continue;
      drop.add(position);
      const trade = batch.trades[position] as UnsettledTrade;
      if (outcome.reason === 'AlreadySettled') alreadySettled.push(trade.tradeId);
      else {
        const failure = failedFill(trade, outcome);
        logger.warn(
          { tradeId: trade.tradeId, reason: failure.reason, reactor: outcome.reason },
          'dropping a fill the reactor would refuse',
        );
        this.metrics.fillReverted(failure.reason);
        failures.push(failure);
      }
    }
    if (alreadySettled.length > 0) await this.recordAlreadySettled(alreadySettled);
    if (failures.length > 0) {
      await this.deps.indexer.unwind(failures);
      await desk.finalizeCancels();
    }
    if (drop.size === 0) return batch;
    const rest = withoutFills(batch, drop);
    return rest.trades.length === 0 ? null : encodeBatch(rest);
  }

  /**
   * Records fills the reactor reports settled from their `Filled` events, searched by fill id.
   * One whose event no block holds (the chain's state outlived its history) is settled by the
   * chain's own account; it is recorded so, with a warning, and never blocks the queue.
   */
  private async recordAlreadySettled(tradeIds: readonly number[]): Promise<void> {
    const { indexer, store, chain, clock, logger } = this.deps;
    await indexer.applySettledFills(tradeIds);
    const missing = [...(await store.settlements.unsettled(tradeIds))];
    if (missing.length === 0) return;
    const head = await chain.public.getBlockNumber();
    for (const tradeId of await store.settlements.markSettledWithoutEvent(missing, head, clock.now()))
      logger.warn(
        { tradeId },
        'the reactor reports a fill settled that no block records; recorded as settled without a transaction',
      );
  }

  /**
   * Sends the batch, or what its simulation leaves when it is simulated; the operator's nonce and
   * the fees are read while the simulation runs. Null when nothing was sent.
   */
  private async send(batch: EncodedBatch): Promise<InFlight | null> {
    const { transactions, store, clock, config } = this.deps;
    const simulated = config.simulate === 'always' || this.simulateNext;
    const simulation = simulated ? this.simulated(batch) : Promise.resolve(batch);
    const sending = transactions.sendCalldata(
      simulation.then((rest) => rest?.calldata ?? null),
      BigInt(config.txGasLimit),
    );
    // Awaited below, after the simulation, whose failure it shares.
    sending.catch(() => {});
    const rest = await simulation;
    const sent = await sending;
    if (rest === null || sent === null) return null;
    // Awaited by the next turn; a failure meanwhile must not count as unhandled.
    sent.receipt.catch(() => {});
    const tradeIds = rest.trades.map((trade) => trade.tradeId);
    const newEd25519 = this.gas.sent(rest.trades);
    await store.settlements.markSubmitted(tradeIds, sent.hash, clock.now());
    return { tradeIds, newEd25519, simulated, ...sent };
  }

  /** The fee rates of both sides of each trade, each account and book read once. */
  private async feeRates(trades: readonly UnsettledTrade[]): Promise<(trade: UnsettledTrade) => TradeFeeRates> {
    const { registry, fees } = this.deps;
    const rates = new Map<string, FeeRates>();
    for (const trade of trades) {
      const market = registry.get(trade.bookId);
      if (market === undefined) throw new Error(`trade ${trade.tradeId} is on unknown book ${trade.bookId}`);
      for (const { account } of ordersOf(trade)) {
        const key = `${account}:${trade.bookId}`;
        if (!rates.has(key)) rates.set(key, await fees.rates(account, market));
      }
    }
    const rateOf = (account: string, bookId: number) => rates.get(`${account}:${bookId}`) as FeeRates;
    return (trade) => {
      const { takerFeePips } = rateOf(trade.taker.account, trade.bookId);
      // A pool fill has no maker fee to pay nor rebate to take.
      if (trade.maker === null) return { takerFeePips, makerFeePips: 0, capFractionPips: 0 };
      const { makerFeePips, capFractionPips } = rateOf(trade.maker.account, trade.bookId);
      return { takerFeePips, makerFeePips, capFractionPips };
    };
  }

  /**
   * The reactor's outcome for each fill, or null after halving a batch the simulation refused as a
   * whole: a batch over the gas limit fails with whatever the EVM ran out of ("out of gas",
   * "ReentrancySentryOOG", ...), so any failure of a batch of several fills halves it. A single
   * fill that fails as a whole is an error: the loop backs off and tries again.
   */
  private async simulate(batch: EncodedBatch) {
    const { chain, config, logger } = this.deps;
    try {
      const { data } = await chain.public.call({
        account: chain.operator.account.address,
        to: chain.reactor,
        data: batch.calldata,
        gas: BigInt(config.txGasLimit),
      });
      if (data === undefined) throw new Error('the settlement simulation returned no data');
      const outcomes = decodeFunctionResult({ abi: PartialFillLimitOrderReactor.abi, functionName: 'settle', data });
      return outcomes.map(outcomeOf);
    } catch (error) {
      if (batch.trades.length <= 1) throw error;
      this.batchSize.refused(batch.trades.length);
      this.metrics.settlementBatch('halved', batch.trades.length);
      logger.info(
        { fills: batch.trades.length, next: this.batchSize.next(false), cause: shortMessage(error) },
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
