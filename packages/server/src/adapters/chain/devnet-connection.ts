import { type DevnetClients, devnetClients } from '@dex/contracts';
import { getAddress } from 'viem';
import type { AmmAdmin } from '../../ports/amm-admin.js';
import { DevnetNotRunningError } from '../../ports/devnet-funding.js';
import { ChainAmmAdmin } from './amm-admin.js';
import { devnetIssuerSender } from './amm-senders.js';
import { DevnetIssuer } from './devnet-issuer.js';
import { type DevnetRecord, readDevnetRecord } from './devnet-record.js';

const PING_TIMEOUT_MS = 2_000;

/** The devnet chain a running service started on this data folder, found through its record. */
async function connectRecorded(dataDir: string): Promise<{ record: DevnetRecord; clients: DevnetClients }> {
  const record = readDevnetRecord(dataDir);
  if (record === null) throw new DevnetNotRunningError('the devnet chain has not run on this DATA_DIR yet: start the service');
  const clients = devnetClients(record.rpcUrl, record.chainId);
  try {
    const chainId = await Promise.race([
      clients.public.getChainId(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS).unref()),
    ]);
    if (chainId !== record.chainId) throw new Error(`chain ${chainId}`);
  } catch {
    throw new DevnetNotRunningError(`the devnet chain is not running at ${record.rpcUrl}: start the service`);
  }
  return { record, clients };
}

/** The issuer of the running devnet chain: what the operator CLI funds accounts through. */
export async function connectRunningDevnet(dataDir: string): Promise<DevnetIssuer> {
  const { record, clients } = await connectRecorded(dataDir);
  return new DevnetIssuer(clients, getAddress(record.reactor));
}

/** The AMM of the running devnet chain, worked as its administrator: what the operator CLI's pool and farm commands use. */
export async function connectRunningAmm(dataDir: string): Promise<AmmAdmin> {
  const { record, clients } = await connectRecorded(dataDir);
  if (record.amm === undefined) throw new DevnetNotRunningError('the devnet chain has no AMM yet: start the service');
  const issuer = new DevnetIssuer(clients, getAddress(record.reactor));
  return new ChainAmmAdmin(clients.public, devnetIssuerSender(clients, issuer), record.amm);
}
