import { getAddress, type Hex } from 'viem';
import type { Logger } from '../../ports/logger.js';
import type { Store } from '../../ports/store/ports.js';
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
    private readonly transactions: OperatorTransactions,
    private readonly indexer: ReactorIndexer,
    private readonly store: Store,
    logger: Logger,
  ) {
    this.loop = new WorkLoop(() => this.relayNext(), logger, 'relaying cancellations');
  }

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
    const { cancellations } = this.store;
    const unsent = await cancellations.unsent(MAX_HASHES);
    if (unsent.length > 0) {
      const swapper = unsent[0]?.swapper as string;
      const mine = unsent.filter((cancellation) => cancellation.swapper === swapper);
      const { hash, receipt } = await this.transactions.send('cancelFor', [
        getAddress(swapper),
        mine.map((cancellation) => cancellation.orderHash as Hex),
      ]);
      await cancellations.markSent(
        mine.map((cancellation) => cancellation.orderId),
        hash,
      );
      await this.indexer.applyReceipt(await receipt);
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
      await this.indexer.applyReceipt(await receipt);
    }
    return floors.length > 0;
  }
}

/** Recorded for a floor of an account without orders: no transaction was needed. */
const NOTHING_SENT = 'none';
