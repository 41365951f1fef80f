import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { getAddress, type Hex, parseEventLogs, type TransactionReceipt } from 'viem';
import type { Logger } from '../../../ports/logger.js';
import type { Store } from '../../../ports/store/ports.js';
import { NOTHING_SENT, type UnsentCancellation, type UnsentFloor } from '../../../ports/store/settlement-ports.js';
import type { ChainContext } from '../chain-context.js';
import type { ReactorIndexer } from '../indexing/reactor-indexer.js';
import type { OperatorTransactions } from '../operator-transactions.js';
import { FailingItems } from './failing-items.js';
import { WorkLoop } from './work-loop.js';

/** Most order hashes in one cancelFor transaction (the API's own limit per cancel request). */
const MAX_HASHES = 500;

/**
 * Takes cancellations asked for through the API to the reactor: the operator cancels the orders
 * by hash (`cancelFor`) and raises raised nonce floors (`cancelAllFor`); the receipt's events go
 * through the indexer, which confirms the cancellations and lets the desk make them final.
 */
export class CancelRelay {
  private readonly loop: WorkLoop;
  private readonly failing = new FailingItems();

  constructor(
    private readonly chain: ChainContext,
    private readonly transactions: OperatorTransactions,
    private readonly indexer: ReactorIndexer,
    private readonly store: Store,
    private readonly logger: Logger,
    /** Brings the store in line with the chain first: after an outage the fills a floor or cancel waits for may be gone. */
    private readonly verify: () => Promise<void> = async () => {},
  ) {
    this.loop = new WorkLoop(() => this.relayNext(), logger, 'relaying cancellations');
  }

  /** Relays in the background, after the reconciliation with the chain. */
  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Sends every swapper's batch of cancellations and every pending nonce floor, each alone: one
   * that fails is reported and waits a while (failing-items.ts), and the others go on. Throws only
   * when nothing could be sent and something failed (the node is out of reach, say), so the loop
   * backs off; false when nothing waits.
   */
  private async relayNext(): Promise<boolean> {
    await this.verify();
    // Real time, as the work loop's waits: a back-off waits on the node, not on the service's clock.
    const now = Date.now();
    const unsent = await this.store.cancellations.unsent(MAX_HASHES, this.failing.waiting('swapper', now));
    const bySwapper = new Map<string, UnsentCancellation[]>();
    for (const cancellation of unsent)
      bySwapper.set(cancellation.swapper, [...(bySwapper.get(cancellation.swapper) ?? []), cancellation]);
    const items = [
      ...[...bySwapper].map(([swapper, mine]) => ({ key: `swapper:${swapper}`, send: () => this.cancelOrders(mine) })),
      ...(await this.store.cancellations.unsentFloors()).map((floor) => ({
        key: `floor:${floor.account}`,
        send: () => this.raiseFloor(floor),
      })),
    ];
    let sent = 0;
    let firstError: unknown;
    for (const { key, send } of items) {
      if (!this.failing.due(key, now)) continue;
      try {
        await send();
        this.failing.succeeded(key);
        sent++;
      } catch (error) {
        const retryInMs = this.failing.failed(key, Date.now());
        this.logger.warn({ err: error, item: key, retryInMs }, 'a cancellation could not be relayed; the others go on');
        firstError ??= error;
      }
    }
    if (sent === 0 && firstError !== undefined) throw firstError;
    return sent > 0;
  }

  /** One swapper's cancellations in one `cancelFor`. */
  private async cancelOrders(mine: readonly UnsentCancellation[]): Promise<void> {
    const { cancellations } = this.store;
    const swapper = (mine[0] as UnsentCancellation).swapper;
    const { hash, receipt } = await this.transactions.send('cancelFor', [
      getAddress(swapper),
      mine.map((cancellation) => cancellation.orderHash as Hex),
    ]);
    const orderIds = mine.map((cancellation) => cancellation.orderId);
    await cancellations.markSent(orderIds, hash);
    const mined = await receipt.catch(async (error: unknown) => {
      await cancellations.markSent(orderIds, null);
      throw error;
    });
    await this.indexer.applyReceipt(mined);
    await this.confirmFromState(mine, mined);
  }

  /** One account's raised nonce floor in one `cancelAllFor`. */
  private async raiseFloor({ account, floor, swapper }: UnsentFloor): Promise<void> {
    const { cancellations } = this.store;
    // Nothing of the account can reach the reactor: there is nothing to send.
    if (swapper === null) {
      await cancellations.markFloorSent(account, floor, NOTHING_SENT);
      return;
    }
    const { hash, receipt } = await this.transactions.send('cancelAllFor', [getAddress(swapper), floor]);
    await cancellations.markFloorSent(account, floor, hash);
    const mined = await receipt.catch(async (error: unknown) => {
      await cancellations.markFloorSent(account, floor, null);
      throw error;
    });
    await this.indexer.applyReceipt(mined);
    // Mined is enough: the reactor's floor only rises, so it is now at least this one.
    await cancellations.markFloorMined(account, floor, mined.blockNumber);
  }

  /**
   * The reactor emits nothing for an order it had cancelled already (a cancellation sent again
   * after a crash, whose first event the chain's history lost): its state says so, and that
   * confirms the cancellation as of this transaction.
   */
  private async confirmFromState(sent: readonly UnsentCancellation[], receipt: TransactionReceipt): Promise<void> {
    const { cancellations } = this.store;
    const emitted = new Set(
      parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: receipt.logs, eventName: 'OrderCancelled' }).map((event) =>
        event.args.orderHash.toLowerCase(),
      ),
    );
    for (const { orderHash, swapper } of sent) {
      if (emitted.has(orderHash.toLowerCase())) continue;
      const cancelled = await this.chain.public.readContract({
        address: this.chain.reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'cancelled',
        args: [getAddress(swapper), orderHash as Hex],
        blockNumber: receipt.blockNumber,
      });
      if (cancelled) await cancellations.confirm(orderHash, receipt.transactionHash, receipt.blockNumber);
    }
  }
}
