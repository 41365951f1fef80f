import { devnetClients } from '@dex/contracts';
import { getAddress } from 'viem';
import { DevnetNotRunningError } from '../../ports/devnet-funding.js';
import { DevnetIssuer } from './devnet-issuer.js';
import { readDevnetRecord } from './embedded-devnet.js';

const PING_TIMEOUT_MS = 2_000;

/**
 * The issuer of the devnet chain a running service started on this data folder (its address is
 * in the devnet record): what the operator CLI funds accounts through.
 */
export async function connectRunningDevnet(dataDir: string): Promise<DevnetIssuer> {
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
  return new DevnetIssuer(clients, getAddress(record.reactor));
}
