/** One side of a trade awaiting settlement: the stored order as its swapper signed it. */
export interface SettlementOrder {
  readonly orderId: number;
  readonly account: string;
  readonly orderHash: string;
  /** The signed order as JSON (wire form). */
  readonly signedOrder: string;
  readonly signature: string;
}

/** A matched trade that is not settled yet, with both of its orders. */
export interface UnsettledTrade {
  readonly tradeId: number;
  readonly bookId: number;
  /** The taker's side. */
  readonly direction: 'buy' | 'sell';
  /** Display price, quote per base. */
  readonly price: string;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
  readonly status: 'pending' | 'submitted';
  readonly txHash: string | null;
  /** Null for a swap with the book's pool. */
  readonly maker: SettlementOrder | null;
  readonly taker: SettlementOrder;
}

/** A fill the reactor settled, from its `Filled` or `PoolFilled` event. */
export interface SettledFill {
  readonly tradeId: number;
  readonly txHash: string;
  readonly blockNumber: bigint;
  readonly makerFee: bigint;
  readonly takerFee: bigint;
}

/** A trade `markSettled` recorded as settled, and when it was matched (unix ms). */
export interface NewlySettled {
  readonly tradeId: number;
  readonly executedAt: number;
}

export interface SettlementStore {
  /** Trades waiting to be sent, oldest first. */
  pending(limit: number): Promise<UnsettledTrade[]>;
  /** Trades sent in a transaction whose outcome is not applied yet. */
  submitted(): Promise<UnsettledTrade[]>;
  /** Records the transaction that carries these trades (still pending ones only). */
  markSubmitted(tradeIds: readonly number[], txHash: string, now: number): Promise<void>;
  /** Puts trades back in the queue, e.g. after their transaction was lost or reverted. */
  markPending(tradeIds: readonly number[], now: number): Promise<void>;
  /**
   * Records settled fills: the settlement, the trade's transaction hash, and the hash on the fill
   * events of both orders' histories. Idempotent; returns the trades that changed, with the time
   * each was matched.
   */
  markSettled(fills: readonly SettledFill[], now: number): Promise<NewlySettled[]>;
  /**
   * Records trades the reactor's state reports settled though no block holds their `Filled` event
   * (a devnet node whose restored state is newer than its restored blocks): settled, without a
   * transaction, at the block `seenAt` where the state was read, so that a chain rewound below it
   * queues them again. Returns the trade ids that changed.
   */
  markSettledWithoutEvent(tradeIds: readonly number[], seenAt: bigint, now: number): Promise<number[]>;
  /** Swaps with a pool (trades without a maker) neither settled nor failed, oldest first. */
  unsettledSwaps(): Promise<UnsettledTrade[]>;
  /** These trades, where they are neither settled nor failed. */
  unsettledTrades(tradeIds: readonly number[]): Promise<UnsettledTrade[]>;
  /**
   * Puts trades recorded as settled in blocks after `block` back in the queue, with their
   * transaction hashes cleared: the chain no longer has those blocks (a devnet node that lost
   * its latest state). Returns how many.
   */
  requeueSettledAfter(block: bigint, now: number): Promise<number>;
  /** Which of these trades are neither settled nor failed. */
  unsettled(tradeIds: readonly number[]): Promise<Set<number>>;
  /** Last block whose events were applied for `cursor`, or null before the first. */
  cursor(name: string): Promise<bigint | null>;
  setCursor(name: string, block: bigint): Promise<void>;
}

/** Recorded as the transaction of a floor of an account without orders: nothing needed sending. */
export const NOTHING_SENT = 'none';

/** A requested cancellation the operator has not sent to the reactor yet. */
/** A raised nonce floor to send, with the swapper the account's latest order names (null: none). */
export interface UnsentFloor {
  readonly account: string;
  readonly floor: bigint;
  readonly swapper: string | null;
}

export interface UnsentCancellation {
  readonly orderId: number;
  readonly orderHash: string;
  /** The signed order's swapper. */
  readonly swapper: string;
}

/** A cancellation the reactor confirmed whose order has no fill in flight: ready to be final. */
export interface ConfirmedCancellation {
  readonly orderId: number;
  readonly reason: string;
  readonly txHash: string;
}

export interface CancellationStore {
  /**
   * Requested cancellations not sent yet whose orders have no fill in flight, oldest first, but
   * none of the `skipped` swappers (whose cancellations failed lately and wait).
   */
  unsent(limit: number, skipped?: readonly string[]): Promise<UnsentCancellation[]>;
  /** Records the transaction that carries these cancellations; null sends them again (it was not mined in time). */
  markSent(orderIds: readonly number[], txHash: string | null): Promise<void>;
  /**
   * Records that the reactor cancelled the order (its OrderCancelled event, or its state after the
   * relay's transaction), in `block`; false when no cancellation was asked for that hash.
   */
  confirm(orderHash: string, txHash: string, block: bigint): Promise<boolean>;
  /** Confirmed, not final, and without a fill in flight. */
  finalizable(): Promise<ConfirmedCancellation[]>;
  /**
   * Raised nonce floors the operator has not sent yet, with the swapper the account's latest order
   * names (null when it has none: nothing of it can reach the reactor).
   */
  unsentFloors(): Promise<UnsentFloor[]>;
  /** Records the transaction that raises the floor; null sends it again (it was not mined in time). */
  markFloorSent(account: string, floor: bigint, txHash: string | null): Promise<void>;
  /** Records the block of the mined transaction that raised the floor on the reactor. */
  markFloorMined(account: string, floor: bigint, block: bigint): Promise<void>;
  /**
   * Start-up reconciliation: cancellations and floors whose transaction the chain no longer has
   * (mined after `block`, or sent and never seen mined) are queued to be sent again; a cancellation
   * already final here stays final. Returns how many of each.
   */
  requeueLostAfter(block: bigint, now: number): Promise<{ cancellations: number; floors: number }>;
}
