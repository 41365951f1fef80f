/** What an account holds of a token on the chain, and how much of it the reactor may move. */
export interface Holding {
  readonly balance: bigint;
  /** What the reactor may pull through Permit2: the smaller of the token's allowance to Permit2 and the reactor's unexpired allowance inside it. */
  readonly allowance: bigint;
}

/** The chain's answer to each onboarding step of one token, as the live service names them. */
export interface TokenOnboarding {
  /** The account holds the token's association (complete for a token without associations). */
  readonly associated: boolean;
  /** The token's ERC-20 allowance to Permit2 is above zero. */
  readonly approvedToPermit2: boolean;
  /** Inside Permit2 the reactor has an unexpired allowance above zero. */
  readonly approvedToReactor: boolean;
}

/**
 * How current holdings must be. `fresh`: read from the chain now. `recent`: a read of the last
 * moment (about a second) may stand in. That suits a check that is repeated fresh before it refuses
 * anything: holdings only fall between blocks when the owner moves funds, which the owner can do
 * right after any check, and settlement catches it.
 */
export type HoldingsRead = 'fresh' | 'recent';

/**
 * Balances and reactor allowances (through Permit2) on the settlement chain: what the intake reserves against and
 * the onboarding status reports. The chain adapter implements it.
 */
export interface FundsReader {
  /**
   * The owner's holding of each token, keyed by lower-case token address. `recent`: holdings read
   * moments ago may stand in ({@link HoldingsRead}); by default they come from the chain now.
   */
  holdings(owner: string, tokens: readonly string[], read?: HoldingsRead): Promise<Map<string, Holding>>;
  /** Each token's onboarding steps for the owner, keyed by lower-case token address. */
  onboarding(owner: string, tokens: readonly string[]): Promise<Map<string, TokenOnboarding>>;
  /** The Permit2 contract the reactor pulls through (what the reactor's `permit2()` answers), lower-case 0x. */
  permit2(): Promise<string>;
}
