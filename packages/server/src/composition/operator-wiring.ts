import { DevnetAccountKeys } from '../adapters/accounts/devnet-account-keys.js';
import { generateKeyPair } from '../adapters/accounts/key-pairs.js';
import { connectRpcAmm, type RpcAmmSetting } from '../adapters/chain/amm-admin/rpc-amm-connection.js';
import { connectRunningAmm, connectRunningDevnet } from '../adapters/chain/devnet/devnet-connection.js';
import { chainTokenReader } from '../adapters/chain/reads/chain-token-reader.js';
import { postgresStoreFiles } from '../adapters/postgres/postgres-store-files.js';
import { sqliteStoreFiles } from '../adapters/sqlite/store-files.js';
import { DevnetAccounts } from '../application/accounts/devnet-accounts.js';
import { FeeOverrides } from '../application/accounts/fee-overrides.js';
import { ApiKeyAdmin } from '../application/api-keys/api-key-admin.js';
import { AccountDirectory } from '../application/auth/trading-identity.js';
import { MarketListings } from '../application/markets/market-listings.js';
import { TermsAcceptances } from '../application/web-terms/terms-acceptances.js';
import type { OperatorIo } from '../edges/cli/operator-io.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store/ports.js';
import type { Config } from './config.js';

/** What a caller of the operator CLI chooses; the adapters and use cases behind the rest are this module's to pick. */
export interface OperatorSetting extends OperatorChain, Pick<OperatorIo, 'network' | 'out' | 'err'> {
  /** The store the commands work on. */
  readonly store: Store;
  readonly clock: Clock;
  /**
   * The store's file, for backup and restore; `owned` when the store is the CLI's own connection,
   * which a restore closes before it checks that no one else has the store open. `postgres`: the
   * store is a PostgreSQL database, backed up with its own tools.
   */
  readonly storeFile?: { readonly path: string; readonly owned: boolean } | 'postgres';
}

/** The chain the operator CLI reaches: the running service's devnet, and an AMM deployed on a chain it did not start. */
export interface OperatorChain {
  /** DATA_DIR of the service whose devnet chain funds accounts and runs the AMM; without it neither is reached. */
  readonly devnetDataDir?: string;
  /** On CHAIN=rpc, the AMM that CHAIN_DEPLOYMENT names (null: none) is the one pool and farm work, not the devnet's. */
  readonly rpcAmm?: RpcAmmSetting | null;
  /** On CHAIN=rpc, the node (CHAIN_RPC_URL) `token add` checks a token's contract through. */
  readonly rpcUrl?: string;
}

/** What the operator CLI reaches of the configured chain. */
export function operatorChain(config: Config): OperatorChain {
  const { chain } = config;
  if (chain.kind !== 'rpc') return { devnetDataDir: config.dataDir };
  const amm = chain.deployment?.amm ?? null;
  // No devnet here: `account fund` then says funding is the devnet's, rather than looking for one.
  return {
    rpcUrl: chain.rpcUrl,
    rpcAmm: amm === null ? null : { network: config.network, chainId: config.chainId, rpcUrl: chain.rpcUrl, amm },
  };
}

function ammOf(devnetDataDir: string | undefined, rpcAmm: OperatorChain['rpcAmm']): OperatorIo['amm'] {
  if (rpcAmm !== undefined) return rpcAmm === null ? undefined : (ownerKey) => connectRpcAmm(rpcAmm, ownerKey);
  return devnetDataDir === undefined ? undefined : () => connectRunningAmm(devnetDataDir);
}

/** The use cases the operator CLI's commands work the store through. */
function operatorServices(store: Store, clock: Clock) {
  const registry = new DevnetAccountKeys(store.accountKeys);
  return {
    markets: new MarketListings(store, clock),
    accounts: new DevnetAccounts(store.accountKeys, registry, store.tokens, clock),
    fees: new FeeOverrides(store.feeOverrides, new AccountDirectory(registry), clock),
    apiKeys: new ApiKeyAdmin(store.apiKeys, clock),
    terms: new TermsAcceptances(store.termsAcceptances),
  };
}

/** Backups and restores of the store: its file's, or PostgreSQL's own tools'; none without a store file. */
function storeFilesOf({ storeFile, store, network, clock }: OperatorSetting): Pick<OperatorIo, 'storeFiles'> {
  if (storeFile === undefined) return {};
  if (storeFile === 'postgres') return { storeFiles: postgresStoreFiles() };
  return {
    storeFiles: sqliteStoreFiles({
      file: storeFile.path,
      network,
      clock,
      ...(storeFile.owned ? { releaseStore: () => store.close() } : {}),
    }),
  };
}

/** The operator CLI's dependencies over a store: its use cases, fresh key pairs, the running devnet chain and the AMM. */
export function operatorIo(setting: OperatorSetting): OperatorIo {
  const { devnetDataDir, rpcAmm, rpcUrl, network, out, err } = setting;
  const amm = ammOf(devnetDataDir, rpcAmm);
  return {
    network,
    out,
    err,
    ...operatorServices(setting.store, setting.clock),
    newKeyPair: generateKeyPair,
    ...(devnetDataDir === undefined ? {} : { devnet: () => connectRunningDevnet(devnetDataDir) }),
    ...(amm === undefined ? {} : { amm }),
    ...(rpcUrl === undefined ? {} : { chainToken: chainTokenReader(rpcUrl) }),
    ...storeFilesOf(setting),
  };
}
