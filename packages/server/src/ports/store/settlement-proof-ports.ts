/**
 * One event the reactor emitted in a settlement transaction, kept as the chain gave it: enough for
 * a client to check it against a node's receipt, or, once the node has forgotten the block, the
 * fills it settled against the reactor's state.
 */
export interface ProofLog {
  readonly txHash: string;
  readonly blockNumber: bigint;
  readonly blockHash: string;
  readonly transactionIndex: number;
  readonly logIndex: number;
  /** 0x hex words, the event's signature first. */
  readonly topics: readonly string[];
  readonly data: string;
}

/**
 * The reactor's events of every transaction that settled, cancelled or raised a floor, kept by the
 * service for as long as it keeps its trades: a node keeps receipts for a horizon only (the devnet
 * for `DEVNET_CHAIN_HISTORY_BLOCKS`).
 */
export interface SettlementProofStore {
  /** Keeps these logs; a log kept already (same transaction and index) is left as it is. */
  record(logs: readonly ProofLog[]): Promise<void>;
  /** The kept logs of one transaction (hash in any case), by log index; empty when none. */
  ofTransaction(txHash: string): Promise<ProofLog[]>;
  /** Forgets the logs of blocks after `block`: the chain no longer has them. Returns how many. */
  forgetAfter(block: bigint): Promise<number>;
}
