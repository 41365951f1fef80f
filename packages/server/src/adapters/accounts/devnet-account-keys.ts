import { isLedgerId } from '@dex/core';
import type { AccountKeyRecord } from '../../domain/accounts/account-keys.js';
import {
  type AccountKey,
  type AccountKeyType,
  asEvmAddress,
  canonicalPublicKey,
  derivedEvmAddress,
} from '../../domain/accounts/account-keys.js';
import type { AccountKeyRegistry } from '../../ports/account-keys.js';
import type { AccountRegistrar } from '../../ports/account-registrar.js';
import { type AccountKeyStore, StoreConflictError } from '../../ports/store/ports.js';

/** The devnet faucet hands out ids from here up, clear of the seeded tokens' low numbers. */
export const FIRST_DEVNET_ACCOUNT_NUMBER = 5001;

/** Another operator process may take the same next id between our read and our insert. */
const ALLOCATION_ATTEMPTS = 3;

const STORED_KEY_HEX: Record<AccountKeyType, RegExp> = {
  ED25519: /^[0-9a-f]{64}$/,
  ECDSA_SECP256K1: /^0[23][0-9a-f]{64}$/,
};

/**
 * The devnet's account registry: keys the operator registered in the store. No cache, so an
 * account the operator CLI adds is usable at once; a lookup is one indexed SQLite read.
 */
export class DevnetAccountKeys implements AccountKeyRegistry, AccountRegistrar {
  constructor(private readonly store: AccountKeyStore) {}

  async lookup(accountId: string): Promise<AccountKey | undefined> {
    if (!isLedgerId(accountId)) return undefined;
    const record = await this.store.get(accountId);
    if (record === undefined) return undefined;
    const evmAddress = asEvmAddress(record.evmAddress);
    // Keys are checked on the way in, so a bad row means the store was edited by hand.
    if (!STORED_KEY_HEX[record.keyType].test(record.publicKey) || evmAddress === undefined) {
      throw new Error(`the stored key of account ${accountId} is malformed`);
    }
    // A plain Uint8Array: a Buffer's slice() would share memory instead of copying.
    const publicKey = Uint8Array.from(Buffer.from(record.publicKey, 'hex'));
    return { accountId, keyType: record.keyType, publicKey, evmAddress };
  }

  /**
   * Registers the key of an account; a secp256k1 key may come uncompressed and is stored compressed.
   * Throws InvalidAccountKeyError for a bad key and StoreConflictError for a taken id or address.
   */
  async register(accountId: string, keyType: AccountKeyType, publicKey: Uint8Array, now: number): Promise<AccountKeyRecord> {
    const key = canonicalPublicKey(keyType, publicKey);
    return this.store.insert(
      {
        accountId,
        keyType,
        publicKey: Buffer.from(key).toString('hex'),
        evmAddress: derivedEvmAddress(accountId, keyType, key),
      },
      now,
    );
  }

  /**
   * Registers a key under the next free devnet id `0.0.N` (N at least FIRST_DEVNET_ACCOUNT_NUMBER),
   * skipping `reserved` ids (tokens: an ED25519 account would share their long-zero address).
   */
  async registerNew(
    keyType: AccountKeyType,
    publicKey: Uint8Array,
    now: number,
    reserved: ReadonlySet<string> = new Set(),
  ): Promise<AccountKeyRecord> {
    for (let attempt = 1; ; attempt++) {
      let num = Math.max((await this.store.maxAccountNumber()) + 1, FIRST_DEVNET_ACCOUNT_NUMBER);
      while (reserved.has(`0.0.${num}`)) num++;
      try {
        return await this.register(`0.0.${num}`, keyType, publicKey, now);
      } catch (error) {
        if (!(error instanceof StoreConflictError) || attempt >= ALLOCATION_ATTEMPTS) throw error;
      }
    }
  }
}
