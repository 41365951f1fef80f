/** The environments of the service: each has its own chain, keys and API keys. */
export type Network = 'devnet' | 'testnet' | 'mainnet';

export const NETWORKS: readonly Network[] = ['devnet', 'testnet', 'mainnet'];
