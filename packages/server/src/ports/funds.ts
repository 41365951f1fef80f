/** What an account holds of a token on the chain, and how much of it the reactor may move. */
export interface Holding {
  readonly balance: bigint;
  readonly allowance: bigint;
}

/**
 * Balances and reactor allowances on the settlement chain: what the intake reserves against and
 * the onboarding status reports. The chain adapter implements it.
 */
export interface FundsReader {
  /** The owner's holding of each token, keyed by lower-case token address. */
  holdings(owner: string, tokens: readonly string[]): Promise<Map<string, Holding>>;
}
