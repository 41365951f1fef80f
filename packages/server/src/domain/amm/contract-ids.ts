import { ledgerIdOfAddress } from '@dex/core';

/**
 * How the exchange names a contract or token it found on the chain: by the ledger id its address
 * encodes when the address is long-zero (tokens created on the ledger), else by its lower-case
 * address (contracts deployed through the EVM, such as the devnet's pairs, have no ledger id there).
 */
export function chainEntityId(address: string): string {
  return ledgerIdOfAddress(address) ?? address.toLowerCase();
}
