/** A pair the AMM factory created: its lower-case address and its pool id (the factory's index plus one). */
export interface CreatedPairRef {
  readonly address: string;
  readonly poolId: number;
}

/**
 * The ledger id `0.0.N` of each pair contract, which the data API gives as the pool's `contractId`
 * (and its LP token's id: a pair is its own LP token). A contract the ledger creates through the
 * EVM keeps its CREATE2 address, so the id is not in the address: the ledger's mirror node knows
 * it, and the devnet numbers its pairs itself (contract-ids.ts).
 */
export interface PairLedgerIds {
  /** Throws when the id cannot be known yet; the AMM indexer then reads the same blocks again later. */
  idOf(pair: CreatedPairRef): Promise<string>;
}
