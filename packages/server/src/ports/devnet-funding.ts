import type { AccountKeyRecord } from '../domain/accounts/account-keys.js';
import type { TokenRecord } from '../domain/markets/market-records.js';

export interface FundingOptions {
  /**
   * Whether the faucet also onboards the account (the token approves Permit2, Permit2 the reactor);
   * default true. False leaves the steps to the account, as on the live service.
   */
  readonly approve?: boolean;
  /**
   * Whether the faucet associates the account with a token it is not associated with (as the
   * account, on its behalf); default true. False leaves it to the account, as on the ledger, and
   * such a token is not funded: the ledger pays no account that is not associated.
   */
  readonly associate?: boolean;
}

/** What a funding did besides minting. */
export interface FundingResult {
  /** Tokens the faucet associated the account with, on its behalf. */
  readonly associated: readonly string[];
  /** Tokens not funded: the account is not associated with them and the faucet was not to associate it. */
  readonly unassociated: readonly string[];
}

/** Gives devnet accounts what they need to trade on the devnet chain: the faucet's side of it. */
export interface DevnetFunding {
  /**
   * Gas money, the association with each token (unless `associate` is false), `amount` raw units of
   * each token the account is associated with, and (unless `approve` is false) an unlimited reactor
   * allowance for each through Permit2.
   */
  fund(account: string, tokens: readonly { token: string; amount: bigint }[], options?: FundingOptions): Promise<FundingResult>;
  /** Publishes an Ed25519 account's key in the chain's key registry; other key types need none. */
  publishKey(record: AccountKeyRecord): Promise<void>;
  /**
   * Puts a newly listed token's contract at its address, as the service does for every listed token
   * when it starts: without it, funding, pools and settlement in the token fail until a restart.
   */
  installToken(token: TokenRecord): Promise<void>;
}

/** No devnet chain runs on the data folder: nothing can be funded until the service starts. */
export class DevnetNotRunningError extends Error {
  override readonly name = 'DevnetNotRunningError';
}
