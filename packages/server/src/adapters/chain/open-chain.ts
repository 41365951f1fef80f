import type { Logger } from '../../ports/logger.js';
import type { Store } from '../../ports/store/ports.js';
import type { ChainSettings } from './chain-config.js';
import type { ChainContext } from './chain-context.js';
import { openEmbeddedDevnet } from './devnet/embedded-devnet.js';
import { openRpcChain } from './rpc-chain.js';

/** The configured settlement chain, or null when settlement is off (devnet only). */
export async function openChain(config: ChainSettings, store: Store, logger: Logger): Promise<ChainContext | null> {
  const { chain } = config;
  if (chain.kind === 'off') return null;
  if (chain.kind === 'devnet') return openEmbeddedDevnet({ ...config, chain }, store, logger);
  return openRpcChain({ ...config, chain });
}
