/** What a token contract on the settlement chain says of itself. */
export interface ChainTokenFacts {
  readonly decimals: number;
  /** Its `symbol()`, or null when it has none. */
  readonly symbol: string | null;
}

/**
 * Reads a token on the settlement chain: null when the address holds no contract that answers
 * `decimals()` (a typo, another chain's address, a contract that is not a token).
 */
export type ReadChainToken = (address: string) => Promise<ChainTokenFacts | null>;
