import { setTimeout as sleep } from 'node:timers/promises';
import { devnetClients } from '@dex/contracts';
import { type Address, getAddress } from 'viem';
import type { Dependency } from '../../../ports/dependency.js';
import type { ChainSettings } from '../chain-config.js';
import type { ChainContext } from '../chain-context.js';
import { readDevnetRecord } from '../devnet-record.js';
import { keepAliveFetch } from '../keep-alive-fetch.js';
import { rpcClients } from '../rpc-chain.js';

/**
 * What a gateway reads from the settlement chain, holding no key: balances, allowances and the
 * reactor's address; on the embedded devnet also anvil's clients and the AMM, for the devnet's bot.
 */
export type ChainReader = Pick<ChainContext, 'public' | 'reactor' | 'devnet' | 'amm'>;

/** How often a gateway looks for the devnet record the active settler writes, and for how long. */
const RECORD_POLL_MS = 250;
const RECORD_WAIT_MS = 120_000;

export class ChainReaderError extends Error {
  override readonly name = 'ChainReaderError';
}

/**
 * The chain as a gateway reads it. Over RPC: the configured node and reactor. On the embedded
 * devnet: the node and reactor of the record the active settler keeps in the shared DATA_DIR,
 * waited for while the settler starts (its first boot deploys the reactor).
 */
export async function openChainReader(config: ChainSettings, waitMs = RECORD_WAIT_MS): Promise<ChainReader | null> {
  const { chain } = config;
  if (chain.kind === 'off') return null;
  if (chain.kind === 'rpc') {
    return {
      public: rpcClients(config, chain.rpcUrl).publicClient,
      reactor: getAddress(config.reactorAddress as Address),
      devnet: null,
      amm: null,
    };
  }
  const deadline = Date.now() + waitMs;
  for (;;) {
    const record = readDevnetRecord(config.dataDir);
    if (record !== null && record.chainId === config.chainId) {
      const devnet = devnetClients(record.rpcUrl, config.chainId, keepAliveFetch());
      return { public: devnet.public, reactor: getAddress(record.reactor), devnet, amm: record.amm ?? null };
    }
    if (Date.now() >= deadline) {
      throw new ChainReaderError(`no devnet chain recorded in ${config.dataDir} after ${waitMs} ms: is a settler running there?`);
    }
    await sleep(RECORD_POLL_MS);
  }
}

/** `/ready`'s question to the chain node: a raw request, since the client's cached block number would hide a dead node. */
export function chainNodeDependency(chain: Pick<ChainContext, 'public'>): Dependency {
  return {
    name: 'chain',
    check: async () => {
      await chain.public.request({ method: 'eth_blockNumber' }, { retryCount: 0 });
    },
  };
}
