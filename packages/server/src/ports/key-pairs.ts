import type { AccountKeyType } from '../domain/accounts/account-keys.js';

export interface KeyPair {
  /** 32 bytes; whoever holds it signs for the account. */
  readonly secretKey: Uint8Array;
  /** Compressed for secp256k1, 32 bytes for Ed25519: what the account registry stores. */
  readonly publicKey: Uint8Array;
}

/** A fresh key pair of a devnet account; where its randomness comes from is the adapter's business. */
export type NewKeyPair = (type: AccountKeyType) => KeyPair;
