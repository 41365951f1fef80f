import type { ChainContext } from '../../adapters/chain/chain-context.js';
import type { ServedDeps } from '../server.js';

/** The devnet chain as the live devnet's programs work it: anvil's clients, the reactor and the AMM. */
export type DevnetChain = Pick<ChainContext, 'devnet' | 'reactor' | 'amm'>;

/**
 * What the live devnet's programs (the bot, the pools) need of the service they run beside: a
 * whole service (its settlement's chain), or a cluster's gateway (the chain it reads); null
 * settlement without a chain.
 */
export type DevnetHost = Pick<ServedDeps, 'config' | 'store' | 'clock' | 'funds'> & {
  readonly settlement: { readonly chain: DevnetChain } | null;
};
