import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AmmDeployment, writeFileAtomic } from '@dex/contracts';
import type { Address } from 'viem';

/** What the devnet deployed, kept in DATA_DIR so a restart reuses it and the operator CLI finds it. */
export interface DevnetRecord {
  readonly chainId: number;
  readonly reactor: Address;
  /** RPC address of the running node, for the operator CLI. */
  readonly rpcUrl: string;
  /** The AMM (pair factory, router, farm, SAUCE staking); absent until deployed. */
  readonly amm?: AmmDeployment;
}

export const DEVNET_RECORD_FILE = 'devnet-chain.json';

export function readDevnetRecord(dataDir: string): DevnetRecord | null {
  const file = join(dataDir, DEVNET_RECORD_FILE);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as DevnetRecord;
}

export function writeDevnetRecord(dataDir: string, record: DevnetRecord): void {
  writeFileAtomic(join(dataDir, DEVNET_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
}
