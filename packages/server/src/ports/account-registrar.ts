import type { AccountKeyRecord, AccountKeyType } from '../domain/accounts/account-keys.js';

/** Registers the keys of ledger accounts in the devnet's own registry: the operator's `account add` and faucet. */
export interface AccountRegistrar {
  /**
   * Registers the key of an account. Throws InvalidAccountKeyError for a bad key and
   * StoreConflictError for a taken id or address.
   */
  register(accountId: string, keyType: AccountKeyType, publicKey: Uint8Array, now: number): Promise<AccountKeyRecord>;
  /** Registers a key under the next free devnet id `0.0.N`, skipping `reserved` ids (those of tokens). */
  registerNew(
    keyType: AccountKeyType,
    publicKey: Uint8Array,
    now: number,
    reserved?: ReadonlySet<string>,
  ): Promise<AccountKeyRecord>;
}
