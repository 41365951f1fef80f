import type { AccountKeyRecord } from './store/ports.js';

/** Gives devnet accounts what they need to trade on the devnet chain: the faucet's side of it. */
export interface DevnetFunding {
  /** Gas money, `amount` raw units of each token, and an unlimited reactor allowance for each. */
  fund(account: string, tokens: readonly { token: string; amount: bigint }[]): Promise<void>;
  /** Publishes an Ed25519 account's key in the chain's key registry; other key types need none. */
  publishKey(record: AccountKeyRecord): Promise<void>;
}

/** No devnet chain runs on the data folder: nothing can be funded until the service starts. */
export class DevnetNotRunningError extends Error {
  override readonly name = 'DevnetNotRunningError';
}
