import type { AccountKeyRecord } from './store/ports.js';

export interface FundingOptions {
  /**
   * Whether the faucet also onboards the account (the token approves Permit2, Permit2 the reactor);
   * default true. False leaves the steps to the account, as on the live service.
   */
  readonly approve?: boolean;
}

/** Gives devnet accounts what they need to trade on the devnet chain: the faucet's side of it. */
export interface DevnetFunding {
  /**
   * Gas money, `amount` raw units of each token, and (unless `approve` is false) an unlimited reactor
   * allowance for each through Permit2.
   */
  fund(account: string, tokens: readonly { token: string; amount: bigint }[], options?: FundingOptions): Promise<void>;
  /** Publishes an Ed25519 account's key in the chain's key registry; other key types need none. */
  publishKey(record: AccountKeyRecord): Promise<void>;
}

/** No devnet chain runs on the data folder: nothing can be funded until the service starts. */
export class DevnetNotRunningError extends Error {
  override readonly name = 'DevnetNotRunningError';
}
