import type { CancelReason } from '@dex/core';

/** A trade the reactor will not settle, and whose order (if either) is at fault. */
export interface FailedFill {
  readonly tradeId: number;
  readonly bookId: number;
  /** Null for a swap with the book's pool. */
  readonly makerOrderId: number | null;
  readonly takerOrderId: number;
  /** Display price, quote per base. */
  readonly price: string;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
  readonly culprit: 'maker' | 'taker' | null;
  /** Why the order at fault is cancelled, and what the failed settlement records. */
  readonly reason: CancelReason;
}

/** A pair's reserves as the chain held them after `block` (its last `Sync` event up to there). */
export interface PairReserves {
  /** Lower-case token addresses, token0 < token1 as the pair orders them. */
  readonly token0: string;
  readonly token1: string;
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  readonly block: bigint;
}

/** A swap with a pool that the reactor settled (its `PoolFilled` event), and the block. */
export interface SettledSwap {
  readonly tradeId: number;
  readonly block: bigint;
}

/** Where the AMM indexer sends the reserves it reads: the desk's engines route takers on them. */
export interface PoolReservesListener {
  poolReservesSynced(pairs: readonly PairReserves[]): void;
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
  /** The reactor settled these swaps with pools: once the pools' reserves hold them, the engines stop replaying them. */
  poolSwapsSettled(swaps: readonly SettledSwap[]): void;
}
