import { type DevnetClients, devnetClients } from '@dex/contracts';
import { getAddress } from 'viem';
import type { AmmAdmin } from '../../../ports/amm-admin.js';
import { DevnetNotRunningError } from '../../../ports/devnet-funding.js';
import { ChainAmmAdmin } from '../amm-admin/amm-admin.js';
import { type DevnetRecord, readDevnetRecord } from '../devnet-record.js';
import { DevnetIssuer } from './devnet-issuer.js';
import { devnetIssuerSender } from './devnet-issuer-sender.js';

const PING_TIMEOUT_MS = 2_000;
/**
 * How long a node that does not answer is waited for: the service stops and starts its node to
 * trim its history (DEVNET_CHAIN_COMPACT_BLOCKS), a pause of a second or two.
 */
const RESTART_GRACE_MS = 10_000;
const RETRY_MS = 500;

/** Whether the node answers as the recorded chain within one ping's time. */
async function answers(clients: DevnetClients, chainId: number): Promise<boolean> {
  try {
    const answered = await Promise.race([
      clients.public.getChainId(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS).unref()),
    ]);
    return answered === chainId;
  } catch {
    return false;
  }
}

/** The devnet chain a running service started on this data folder, found through its record. */
async function connectRecorded(dataDir: string): Promise<{ record: DevnetRecord; clients: DevnetClients }> {
  const record = readDevnetRecord(dataDir);
  if (record === null) throw new DevnetNotRunningError('the devnet chain has not run on this DATA_DIR yet: start the service');
  const clients = devnetClients(record.rpcUrl, record.chainId);
  const giveUp = Date.now() + RESTART_GRACE_MS;
  while (!(await answers(clients, record.chainId))) {
    if (Date.now() >= giveUp) {
      throw new DevnetNotRunningError(`the devnet chain is not running at ${record.rpcUrl}: start the service`);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
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
