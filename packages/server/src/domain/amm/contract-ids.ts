import { ledgerIdOfAddress } from '@dex/core';

/**
 * How the exchange names a token it found on the chain: by the ledger id its address encodes when
 * the address is long-zero (tokens created on the ledger), else by its lower-case address.
 */
export function chainEntityId(address: string): string {
  return ledgerIdOfAddress(address) ?? address.toLowerCase();
}

/**
 * The exchange's id of a pool: the factory's 0-based index of its pair plus one. Pools count from 1
 * wherever they are shown or named (the data API, dex-trade, dex-operator).
 */
export function poolIdOfPairIndex(index: bigint | number): number {
  return Number(index) + 1;
}

/**
 * The devnet's first pair is contract `0.0.1000000001`, the next `0.0.1000000002`, in the factory's
 * order: the devnet has no ledger to number them, and this band stays clear of its tokens (low
 * numbers) and accounts (from 0.0.5001 up) however many pairs anyone creates.
 */
export const FIRST_DEVNET_PAIR_NUMBER = 1_000_000_001;

/** The ledger id the devnet gives the pair of a pool. */
export function devnetPairId(poolId: number): string {
  return `0.0.${FIRST_DEVNET_PAIR_NUMBER + poolId - 1}`;
}
