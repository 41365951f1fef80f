import { generateKeyPairSync } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { AccountKeyType } from '../../domain/accounts/account-keys.js';
import type { KeyPair } from '../../ports/key-pairs.js';

/** A fresh key pair of a devnet account (the faucet's and the devnet bot's). */
export function generateKeyPair(type: AccountKeyType): KeyPair {
  if (type === 'ECDSA_SECP256K1') {
    const secretKey = secp256k1.utils.randomSecretKey();
    return { secretKey, publicKey: secp256k1.getPublicKey(secretKey, true) };
  }
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  if (jwk.d === undefined || jwk.x === undefined) throw new Error('node:crypto exported an Ed25519 key without its parts');
  return { secretKey: Buffer.from(jwk.d, 'base64url'), publicKey: Buffer.from(jwk.x, 'base64url') };
}

/** The public key of a stored secret key, in the registry's form. */
export function publicKeyOf(type: AccountKeyType, secretKey: Uint8Array): Uint8Array {
  return type === 'ECDSA_SECP256K1' ? secp256k1.getPublicKey(secretKey, true) : ed25519.getPublicKey(secretKey);
}
