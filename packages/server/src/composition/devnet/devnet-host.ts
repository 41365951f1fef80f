import type { ChainContext } from '../../adapters/chain/chain-context.js';
import type { ServedDeps } from '../server.js';

/** The devnet chain as the live devnet's programs work it: anvil's clients, the reactor and the AMM. */
export type DevnetChain = Pick<ChainContext, 'devnet' | 'reactor' | 'amm'>;

/**
 * What the live devnet's programs (the bot, the pools) need of the service they run beside: a
 * whole service or a cluster's gateway, and the chain it reads (null without one).
 */
export type DevnetHost = Pick<ServedDeps, 'config' | 'store' | 'clock' | 'funds'> & {
  readonly chain: DevnetChain | null;
};
