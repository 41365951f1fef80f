import type { DevnetAccounts } from '../../application/accounts/devnet-accounts.js';
import type { FeeOverrides } from '../../application/accounts/fee-overrides.js';
import type { ApiKeyAdmin } from '../../application/api-keys/api-key-admin.js';
import type { MarketListings } from '../../application/markets/market-listings.js';
import type { TermsAcceptances } from '../../application/web-terms/terms-acceptances.js';
import type { Network } from '../../domain/network.js';
import type { AmmAdmin } from '../../ports/amm-admin.js';
import type { ReadChainToken } from '../../ports/chain-tokens.js';
import type { DevnetFunding } from '../../ports/devnet-funding.js';
import type { NewKeyPair } from '../../ports/key-pairs.js';
import type { StoreFiles } from '../../ports/store-files.js';

/**
 * What the operator CLI works with and writes to: the application's use cases over the store, and
 * the chain; composition/operator-wiring.ts makes one.
 */
export interface OperatorIo {
  /** The network of the store (NETWORK): API keys are issued for it unless told otherwise. */
  readonly network: Network;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The token registry and the books. */
  readonly markets: MarketListings;
  /** The devnet's registry of account keys: `account add`, the faucet and funding work through it. */
  readonly accounts: DevnetAccounts;
  /** Fee overrides of accounts on books. */
  readonly fees: FeeOverrides;
  /** The data API's keys. */
  readonly apiKeys: ApiKeyAdmin;
  /** The web application's record of accepted terms. */
  readonly terms: TermsAcceptances;
  /** Fresh key pairs for the devnet faucet. */
  readonly newKeyPair: NewKeyPair;
  /** The funding of the running service's devnet chain; rejects with DevnetNotRunningError when none runs. */
  readonly devnet?: () => Promise<DevnetFunding>;
  /**
   * The AMM, as its administrator: the running devnet chain's, worked by its issuer (rejects with
   * DevnetNotRunningError when none runs), or that of a chain the service did not start
   * (CHAIN_DEPLOYMENT), worked through the wallet of `ownerKey`, the owner's; null: reads only.
   */
  readonly amm?: (ownerKey: `0x${string}` | null) => Promise<AmmAdmin>;
  /** On a chain the service did not start, reads a token's own contract: `token add` checks what it is told against it. */
  readonly chainToken?: ReadChainToken;
  /** Backups and restores of the store file; absent where no store file is at hand. */
  readonly storeFiles?: StoreFiles;
}
