import { InvalidKeyError, type Signer, secp256k1Signer } from '@dex/sdk';

const hex = (bytes: Uint8Array) => `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;

/**
 * A fresh secp256k1 private key from the browser's CSPRNG. The SDK's signer checks it lies in the
 * curve's range; the one-in-2^128 draw outside it is drawn again.
 */
export function generateDevnetKey(random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): string {
  for (;;) {
    const key = hex(random(new Uint8Array(32)));
    try {
      secp256k1Signer(key);
      return key;
    } catch (error) {
      if (!(error instanceof InvalidKeyError)) throw error;
    }
  }
}

/** The signer of a stored key; its `account` is the key's lower-case 0x address. */
export const devnetSigner = (privateKey: string): Signer => secp256k1Signer(privateKey);

/** The 0x address of a key, or undefined for 32 bytes outside the curve's range (zero, or at least its order). */
export function addressOfKey(privateKey: string): string | undefined {
  try {
    return devnetSigner(privateKey).account;
  } catch (error) {
    if (error instanceof InvalidKeyError) return undefined;
    throw error;
  }
}
