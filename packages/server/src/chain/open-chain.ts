import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../store/ports.js';
import type { ChainContext } from './chain-context.js';
import { openEmbeddedDevnet } from './embedded-devnet.js';
import { openRpcChain } from './rpc-chain.js';

/** The configured settlement chain, or null when settlement is off (devnet only). */
export async function openChain(config: Config, store: Store, logger: FastifyBaseLogger): Promise<ChainContext | null> {
  const { chain } = config;
  if (chain.kind === 'off') return null;
  if (chain.kind === 'devnet') return openEmbeddedDevnet({ ...config, chain }, store, logger);
  return openRpcChain({ ...config, chain });
}
