import type { Address } from '@dex/core';
import { verifyEd25519Strict } from './ed25519.js';
import { recoverAddress, recoversToPublicKey } from './secp256k1.js';

/** How an account proves it signed: its EVM address, its registered secp256k1 key, or its Ed25519 key. */
export type SignerKey =
  | { type: 'secp256k1-address'; address: Address }
  | { type: 'secp256k1-key'; publicKey: Uint8Array }
  | { type: 'ed25519'; publicKey: Uint8Array };

export interface SignatureCheck {
  /** The 32-byte EIP-712 digest of the order. */
  digest: Uint8Array;
  /** The signature without its mode byte: 65 bytes r ‖ s ‖ v (secp256k1) or 64 bytes (Ed25519). */
  signature: Uint8Array;
  signer: SignerKey;
}

const DIGEST_BYTES = 32;
const SECP256K1_SIGNATURE_BYTES = 65;
const ED25519_SIGNATURE_BYTES = 64;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/**
 * Whether the order digest was signed by the signer: secp256k1 by address or by key (both by recovery),
 * Ed25519 strictly over the 32-byte digest. A digest that is not 32 bytes, a signature of the
 * wrong length for the key type, or the zero address as signer, is simply false.
 */
export function verifyOrderSignature({ digest, signature, signer }: SignatureCheck): boolean {
  if (digest.length !== DIGEST_BYTES) return false;
  switch (signer.type) {
    case 'secp256k1-address': {
      if (signature.length !== SECP256K1_SIGNATURE_BYTES) return false;
      const expected = signer.address.toLowerCase();
      return expected !== ZERO_ADDRESS && recoverAddress(digest, signature) === expected;
    }
    case 'secp256k1-key':
      // Recovery rather than a plain (r, s) verification: a wrong v byte would pass here and fail on-chain.
      return signature.length === SECP256K1_SIGNATURE_BYTES && recoversToPublicKey(signer.publicKey, digest, signature);
    case 'ed25519':
      return signature.length === ED25519_SIGNATURE_BYTES && verifyEd25519Strict(signer.publicKey, digest, signature);
  }
}
