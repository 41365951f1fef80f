import { DevnetAccountKeys } from '../adapters/accounts/devnet-account-keys.js';
import { generateKeyPair } from '../adapters/accounts/key-pairs.js';
import { connectRunningAmm, connectRunningDevnet } from '../adapters/chain/devnet-connection.js';
import { postgresStoreFiles } from '../adapters/postgres/postgres-store-files.js';
import { sqliteStoreFiles } from '../adapters/sqlite/store-files.js';
import { AccountDirectory } from '../application/auth/trading-identity.js';
import type { OperatorIo } from '../edges/cli/operator-io.js';

/** What a caller of the operator CLI chooses; the adapters behind the rest are this module's to pick. */
export type OperatorSetting = Omit<OperatorIo, 'accounts' | 'tradingName' | 'newKeyPair' | 'devnet' | 'amm' | 'storeFiles'> & {
  /** DATA_DIR of the service whose devnet chain funds accounts and runs the AMM; without it neither is reached. */
  readonly devnetDataDir?: string;
  /**
   * The store's file, for backup and restore; `owned` when the store is the CLI's own connection,
   * which a restore closes before it checks that no one else has the store open. `postgres`: the
   * store is a PostgreSQL database, backed up with its own tools.
   */
  readonly storeFile?: { readonly path: string; readonly owned: boolean } | 'postgres';
};

/** The operator CLI's dependencies over a store: its account-key registry, fresh key pairs, and the running devnet chain and its AMM. */
export function operatorIo({ devnetDataDir, storeFile, ...setting }: OperatorSetting): OperatorIo {
  const accounts = new DevnetAccountKeys(setting.store.accountKeys);
  const directory = new AccountDirectory(accounts);
  return {
    ...setting,
    accounts,
    tradingName: (account) => directory.canonical(account),
    newKeyPair: generateKeyPair,
    ...(devnetDataDir === undefined
      ? {}
      : { devnet: () => connectRunningDevnet(devnetDataDir), amm: () => connectRunningAmm(devnetDataDir) }),
    ...(storeFile === undefined
      ? {}
      : storeFile === 'postgres'
        ? { storeFiles: postgresStoreFiles() }
        : {
            storeFiles: sqliteStoreFiles({
              file: storeFile.path,
              network: setting.network,
              clock: setting.clock,
              ...(storeFile.owned ? { releaseStore: () => setting.store.close() } : {}),
            }),
          }),
  };
}
