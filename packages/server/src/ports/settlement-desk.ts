import type { CancelReason } from '@dex/core';

/** A trade the reactor will not settle, and whose order (if either) is at fault. */
export interface FailedFill {
  readonly tradeId: number;
  readonly bookId: number;
  readonly makerOrderId: number;
  readonly takerOrderId: number;
  /** Display price, quote per base. */
  readonly price: string;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
  readonly culprit: 'maker' | 'taker' | null;
  /** Why the order at fault is cancelled, and what the failed settlement records. */
  readonly reason: CancelReason;
}

/**
 * What the settler and the indexer tell the trading desk about the reactor's verdicts. The desk
 * implements it; the chain adapters know nothing else of the desk.
 */
export interface SettlementDesk {
  /** Undoes trades the reactor will not settle; repeated reports change nothing. */
  unwindFills(failures: readonly FailedFill[]): Promise<void>;
  /** Makes final the confirmed cancellations whose orders have no fill in flight; returns how many. */
  finalizeCancels(): Promise<number>;
  /** A swapper cancelled an order on the reactor itself. */
  cancelledOnChain(orderHash: string, txHash: string): Promise<void>;
  /** A swapper raised its nonce floor on the reactor itself. */
  floorRaisedOnChain(account: string, floor: bigint, txHash: string): Promise<void>;
}
