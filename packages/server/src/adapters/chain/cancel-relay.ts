import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { getAddress, type Hex, parseEventLogs, type TransactionReceipt } from 'viem';
import type { Logger } from '../../ports/logger.js';
import type { Store } from '../../ports/store/ports.js';
import { NOTHING_SENT, type UnsentCancellation } from '../../ports/store/settlement-ports.js';
import type { ChainContext } from './chain-context.js';
import type { OperatorTransactions } from './operator-transactions.js';
import type { ReactorIndexer } from './reactor-indexer.js';
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

  constructor(
    private readonly chain: ChainContext,
    private readonly transactions: OperatorTransactions,
    private readonly indexer: ReactorIndexer,
    private readonly store: Store,
    logger: Logger,
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

  /** Sends one batch of cancellations, or the pending nonce floors; false when nothing waits. */
  private async relayNext(): Promise<boolean> {
    await this.verify();
    const { cancellations } = this.store;
    const unsent = await cancellations.unsent(MAX_HASHES);
    if (unsent.length > 0) {
      const swapper = unsent[0]?.swapper as string;
      const mine = unsent.filter((cancellation) => cancellation.swapper === swapper);
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
      return true;
    }
    const floors = await cancellations.unsentFloors();
    for (const { account, floor, swapper } of floors) {
      if (swapper === null) {
        await cancellations.markFloorSent(account, floor, NOTHING_SENT);
        continue;
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
    return floors.length > 0;
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
