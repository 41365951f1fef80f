import { InvalidKeyError } from '../errors.js';
import type { KeyType } from './signer.js';

/**
 * DER prefixes (PKCS#8) of 32-byte private keys as the ledger's tools print them: the key is the
 * 32 bytes after the prefix.
 */
const DER_PREFIX: Record<KeyType, string> = {
  ed25519: '302e020100300506032b657004220420',
  secp256k1: '3030020100300706052b8104000a04220420',
};

const HEX = /^[0-9a-f]*$/;

/**
 * The 32 bytes of a private key given as bytes, as hex (with or without `0x`, surrounding
 * whitespace ignored, as a key file holds it) or as the ledger's DER hex. Errors never quote the key.
 */
export function privateKeyBytes(source: string | Uint8Array, keyType: KeyType): Uint8Array {
  if (source instanceof Uint8Array) {
    if (source.length !== 32)
      throw new InvalidKeyError(`A ${keyType} private key is 32 bytes`, { details: `got ${source.length}` });
    return Uint8Array.from(source);
  }
  if (typeof source !== 'string') throw new InvalidKeyError(`A ${keyType} private key must be bytes or a hex string`);
  let hex = source.trim().toLowerCase();
  if (hex.startsWith('0x')) hex = hex.slice(2);
  if (hex.length === DER_PREFIX[keyType].length + 64 && hex.startsWith(DER_PREFIX[keyType])) {
    hex = hex.slice(DER_PREFIX[keyType].length);
  }
  if (hex.length !== 64 || !HEX.test(hex)) {
    throw new InvalidKeyError(`A ${keyType} private key must be 32 bytes of hex, or the DER hex of a ${keyType} key`, {
      details: `got ${hex.length} characters`,
    });
  }
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}
