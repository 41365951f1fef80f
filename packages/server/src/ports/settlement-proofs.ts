import type { SettlementProof } from '@dex/protocol';

/** What the service kept of a settlement transaction, decoded for a client to check against the chain. */
export interface SettlementProofs {
  /** The proof of a transaction the reactor's events were seen in; null when none was. */
  ofTransaction(txHash: string): Promise<SettlementProof | null>;
}
