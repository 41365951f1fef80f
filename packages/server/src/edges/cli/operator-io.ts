import type { Network } from '../../domain/network.js';
import type { AccountRegistrar } from '../../ports/account-registrar.js';
import type { AmmAdmin } from '../../ports/amm-admin.js';
import type { ReadChainToken } from '../../ports/chain-tokens.js';
import type { Clock } from '../../ports/clock.js';
import type { DevnetFunding } from '../../ports/devnet-funding.js';
import type { NewKeyPair } from '../../ports/key-pairs.js';
import type { Store } from '../../ports/store/ports.js';
import type { StoreFiles } from '../../ports/store-files.js';

/** What the operator CLI works with and writes to; composition/operator-wiring.ts makes one. */
export interface OperatorIo {
  readonly store: Store;
  /** The network of the store (NETWORK): API keys are issued for it unless told otherwise. */
  readonly network: Network;
  readonly clock: Clock;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The registry of account keys in the store: `account add` and the faucet register through it. */
  readonly accounts: AccountRegistrar;
  /**
   * The name an account trades under (AccountDirectory.canonical): a ledger account with a
   * secp256k1 key in the store's registry is its EVM address. Fee overrides are kept under it.
   */
  readonly tradingName: (account: string) => Promise<string>;
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
