import { isEvmAddress, isLedgerId, ledgerIdOfAddress, longZeroAddress } from '@dex/core';
import type { AccountKeyStore } from '../../ports/store/ports.js';

/**
 * The names an account's farm stakes may be recorded under. The chain names a staker by address:
 * a ledger account `0.0.X` acts from its long-zero address and, with a secp256k1 key registered
 * here, from its key's address; an address stands for itself and the ledger id it encodes.
 */
export function stakerNames(keys: Pick<AccountKeyStore, 'get'>): (accountId: string) => Promise<string[]> {
  return async (accountId) => {
    if (isEvmAddress(accountId)) {
      const address = accountId.toLowerCase();
      const id = ledgerIdOfAddress(address);
      return id === undefined ? [address] : [address, id];
    }
    if (!isLedgerId(accountId)) return [accountId];
    const names = [accountId, longZeroAddress(accountId)];
    const record = await keys.get(accountId);
    if (record !== undefined) names.push(record.evmAddress.toLowerCase());
    return [...new Set(names)];
  };
}
