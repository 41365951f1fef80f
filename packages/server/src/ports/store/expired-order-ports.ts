/** An order past its deadline whose record on the reactor has not been freed yet. */
export interface ExpiredOrder {
  readonly orderId: number;
  /** Unix seconds. */
  readonly deadline: number;
  /** The signed order as JSON (wire form). */
  readonly signedOrder: string;
  /**
   * Whether the reactor may hold something of it: it took part in a trade (every trade goes to the
   * reactor, settled or refused) or a cancellation of it was sent there. Others left no trace.
   */
  readonly onChain: boolean;
}

/** Which expired orders the reactor still holds state for (see the reactor's `forgetExpired`). */
export interface ExpiredOrderStore {
  /** Orders with a deadline (unix seconds) before `before`, not marked forgotten yet, earliest deadline first. */
  unforgotten(before: number, limit: number): Promise<ExpiredOrder[]>;
  /** Records that the reactor holds nothing more of these orders: freed in `block`, or 0n when it never held anything. */
  markForgotten(orderIds: readonly number[], block: bigint): Promise<void>;
}
