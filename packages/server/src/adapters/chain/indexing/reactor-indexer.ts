import { outcomeOf, PartialFillLimitOrderReactor } from '@dex/contracts';
import { getAbiItem, type Hash, type Log, parseEventLogs, type TransactionReceipt } from 'viem';
import type { Clock } from '../../../ports/clock.js';
import type { Logger } from '../../../ports/logger.js';
import { type Metrics, noMetrics } from '../../../ports/metrics.js';
import type { FailedFill, SettledSwap, SettlementDesk } from '../../../ports/settlement-desk.js';
import type { Store } from '../../../ports/store/ports.js';
import type { SettledFill } from '../../../ports/store/settlement-ports.js';
import type { ProofLog } from '../../../ports/store/settlement-proof-ports.js';
import type { ChainContext } from '../chain-context.js';
import { failedFill } from '../fill-failure.js';

/**
 * Most blocks per log query: public RPC relays refuse wide ranges. A query that fails is halved
 * (down to one block) and the range grows back after each answer, since a client also refuses
 * large answers (viem: 10 MB, about a hundred blocks of full settlement batches).
 */
const MAX_BLOCK_RANGE = 2_000n;

/** Reads the pools' reserves at the head again (the AMM indexer), for engines whose snapshot proved stale. */
export interface PoolReserveReader {
  refreshReserves(): Promise<void>;
}

/** Keeps the blocks that hold what the store recorded, to notice when the chain loses them. */
export interface RecordedBlocks {
  remember(number: bigint, hash: Hash): void;
}

/**
 * Follows the reactor's events, the source of truth for fills: a `Filled` event (`PoolFilled` for a
 * swap with a pool) settles its trade (the trade tape and the histories get the transaction hash);
 * a `FillRejected` event undoes its trade on the books. It reads from the block after its stored
 * cursor, so a restart catches up on whatever happened while the service was down, and applying an
 * event twice changes nothing. Blocks whose every transaction was the operator's and applied from
 * its receipt are not read again.
 */
export class ReactorIndexer {
  private readonly cursorName: string;
  private catching: Promise<void> | null = null;
  private readonly operator: string;
  private range = MAX_BLOCK_RANGE;
  /** Transactions applied from their receipts, by block, until the cursor passes the block. */
  private readonly fromReceipts = new Map<bigint, Set<string>>();

  constructor(
    private readonly chain: ChainContext,
    private readonly store: Store,
    private readonly desk: SettlementDesk,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly recorded: RecordedBlocks | null = null,
    private readonly pools: PoolReserveReader | null = null,
    private readonly metrics: Metrics = noMetrics,
  ) {
    this.cursorName = `reactor:${chain.chainId}:${chain.reactor.toLowerCase()}`;
    this.operator = chain.operator.account.address.toLowerCase();
  }

  /** Applies every reactor event from the cursor to the head; concurrent calls share one run. */
  catchUp(): Promise<void> {
    this.catching ??= this.readToHead().finally(() => {
      this.catching = null;
    });
    return this.catching;
  }

  /** Moves the cursor back to `block` when the chain is now shorter than what was indexed, and forgets the events of the lost blocks. */
  async rewindTo(block: bigint): Promise<void> {
    await this.store.settlementProofs.forgetAfter(block);
    const cursor = await this.store.settlements.cursor(this.cursorName);
    if (cursor !== null && cursor > block) await this.store.settlements.setCursor(this.cursorName, block);
  }

  /** Finds and applies the `Filled` and `PoolFilled` events of these trades (the reactor said they were settled). */
  async applySettledFills(tradeIds: readonly number[]): Promise<void> {
    const search = { address: this.chain.reactor, args: { fillId: tradeIds.map(BigInt) }, fromBlock: this.chain.indexFrom };
    const [fills, swaps] = await Promise.all([
      this.chain.public.getLogs({ ...search, event: FILLED }),
      this.chain.public.getLogs({ ...search, event: POOL_FILLED }),
    ]);
    await this.apply(
      [...fills, ...swaps].sort(
        (a, b) => Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n)) || (a.logIndex ?? 0) - (b.logIndex ?? 0),
      ),
    );
  }

  /** Applies the reactor logs of the operator's mined transaction. */
  async applyReceipt(receipt: TransactionReceipt): Promise<void> {
    this.recorded?.remember(receipt.blockNumber, receipt.blockHash);
    await this.apply(receipt.logs);
    const block = receipt.blockNumber;
    const applied = this.fromReceipts.get(block) ?? new Set<string>();
    applied.add(receipt.transactionHash);
    this.fromReceipts.set(block, applied);
  }

  /** Applies reactor logs (a receipt's or a range's) in order. */
  async apply(logs: readonly Log[]): Promise<void> {
    const events = parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: logs as Log[] }).filter(
      (event) => event.address.toLowerCase() === this.chain.reactor.toLowerCase(),
    );
    if (events.length === 0) return;
    for (const { blockNumber, blockHash } of events) this.recorded?.remember(blockNumber, blockHash);
    // Kept before anything is marked settled, so every settled trade's transaction can be looked up.
    await this.store.settlementProofs.record(events.map(proofLogOf));
    const settled: SettledFill[] = [];
    const swaps: SettledSwap[] = [];
    const rejected = new Map<number, ReturnType<typeof outcomeOf>>();
    for (const event of events) {
      if (event.eventName === 'OrderCancelled') {
        // Asked for through the API: confirmed now. Otherwise the swapper cancelled on the reactor.
        const confirmed = await this.store.cancellations.confirm(event.args.orderHash, event.transactionHash, event.blockNumber);
        if (!confirmed) await this.desk.cancelledOnChain(event.args.orderHash, event.transactionHash);
      } else if (event.eventName === 'NonceFloorRaised' && event.args.by.toLowerCase() !== this.operator) {
        for (const account of accountsOf(event.args.swapper)) {
          await this.desk.floorRaisedOnChain(account, event.args.nonceFloor, event.transactionHash);
        }
      }
      if (event.eventName === 'Filled' || event.eventName === 'PoolFilled') {
        settled.push({
          tradeId: Number(event.args.fillId),
          txHash: event.transactionHash,
          blockNumber: event.blockNumber,
          makerFee: event.eventName === 'Filled' ? event.args.makerFee : 0n,
          takerFee: event.args.takerFee,
        });
        if (event.eventName === 'PoolFilled') swaps.push({ tradeId: Number(event.args.fillId), block: event.blockNumber });
      } else if (event.eventName === 'FillRejected') {
        const outcome = outcomeOf(event.args);
        if (outcome.reason !== 'AlreadySettled') rejected.set(Number(event.args.fillId), outcome);
      }
    }
    if (settled.length > 0) {
      const now = this.clock.now();
      for (const trade of await this.store.settlements.markSettled(settled, now))
        this.metrics.settlementLag((now - trade.executedAt) / 1_000);
    }
    if (swaps.length > 0) this.desk.poolSwapsSettled(swaps);
    if (rejected.size > 0) {
      const trades = await this.store.settlements.unsettledTrades([...rejected.keys()]);
      const failures = trades.map((trade) => {
        const outcome = rejected.get(trade.tradeId) ?? { reason: 'TransferReverted', party: 'None' };
        const failure = failedFill(trade, outcome);
        this.logger.warn(
          { tradeId: trade.tradeId, reason: failure.reason, reactor: outcome.reason },
          'the reactor refused a fill',
        );
        this.metrics.fillReverted(failure.reason);
        return failure;
      });
      await this.unwind(failures);
    }
    // A confirmation, or the last fill in flight of a cancelled order, can make a cancellation final.
    await this.desk.finalizeCancels();
  }

  /**
   * Undoes fills the reactor refuses. A refused swap most likely met a pool that moved: the
   * engines first read the pools' reserves again, so that the orders given their quantity back do
   * not trade on the stale snapshot once more.
   */
  async unwind(failures: readonly FailedFill[]): Promise<void> {
    if (failures.length === 0) return;
    if (this.pools !== null && failures.some((failure) => failure.makerOrderId === null)) {
      await this.pools
        .refreshReserves()
        .catch((error: unknown) => this.logger.warn({ err: error }, "reading the pools' reserves again failed"));
    }
    await this.desk.unwindFills(failures);
  }

  private async readToHead(): Promise<void> {
    const { store } = this;
    const head = await this.chain.public.getBlockNumber();
    const start = ((await store.settlements.cursor(this.cursorName)) ?? this.chain.indexFrom - 1n) + 1n;
    const skip = await this.blocksAppliedFromReceipts(start, head);
    let from = start;
    this.metrics.indexerLag(Number(head - start + 1n));
    while (from <= head) {
      if (skip.has(from)) {
        from++;
        continue;
      }
      let to = from + this.range - 1n < head ? from + this.range - 1n : head;
      for (const block of skip) if (block > from && block <= to) to = block - 1n;
      let logs: Log[];
      try {
        logs = await this.chain.public.getLogs({ address: this.chain.reactor, fromBlock: from, toBlock: to });
      } catch (error) {
        if (to === from) throw error;
        this.range = (to - from + 1n) / 2n;
        continue;
      }
      await this.apply(logs);
      await store.settlements.setCursor(this.cursorName, to);
      this.metrics.indexerLag(Number(head - to));
      from = to + 1n;
      this.range = this.range * 2n < MAX_BLOCK_RANGE ? this.range * 2n : MAX_BLOCK_RANGE;
    }
    if (skip.has(head)) await store.settlements.setCursor(this.cursorName, head);
    this.metrics.indexerLag(0);
  }

  /**
   * Blocks in `from`..`to` whose transactions were all applied from their receipts (a block's
   * transaction count tells: another sender's transaction may have reactor events too). Forgets
   * the blocks before `to`, which the cursor is about to pass.
   */
  private async blocksAppliedFromReceipts(from: bigint, to: bigint): Promise<Set<bigint>> {
    const candidates = [...this.fromReceipts].filter(([block]) => block >= from && block <= to);
    for (const block of this.fromReceipts.keys()) if (block <= to) this.fromReceipts.delete(block);
    const counts = await Promise.all(
      candidates.map(([block]) => this.chain.public.getBlockTransactionCount({ blockNumber: block })),
    );
    return new Set(candidates.filter(([, hashes], index) => counts[index] === hashes.size).map(([block]) => block));
  }
}

/**
 * The accounts that may trade as `swapper`: the 0x account itself and, for a long-zero address,
 * the ledger account it encodes.
 */
function proofLogOf(log: Log<bigint, number, false>): ProofLog {
  return {
    txHash: log.transactionHash,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    transactionIndex: log.transactionIndex,
    logIndex: log.logIndex,
    topics: log.topics,
    data: log.data,
  };
}

function accountsOf(swapper: string): string[] {
  const address = swapper.toLowerCase();
  const accounts = [address];
  if (/^0x0{8}/.test(address)) {
    const shard = BigInt(`0x${address.slice(2, 10)}`);
    const realm = BigInt(`0x${address.slice(10, 26)}`);
    const num = BigInt(`0x${address.slice(26)}`);
    accounts.push(`${shard}.${realm}.${num}`);
  }
  return accounts;
}

const FILLED = getAbiItem({ abi: PartialFillLimitOrderReactor.abi, name: 'Filled' });
const POOL_FILLED = getAbiItem({ abi: PartialFillLimitOrderReactor.abi, name: 'PoolFilled' });
