import type { Address } from '@dex/core';
import { keccak256 } from './keccak.js';
import { recoverAddress } from './secp256k1.js';

const utf8 = new TextEncoder();
const PREFIX = '\x19Ethereum Signed Message:\n';

/** EIP-191 version 0x45 digest of a text message, as wallets compute it for `personal_sign`. */
export function personalSignDigest(message: string): Uint8Array {
  const body = utf8.encode(message);
  const prefix = utf8.encode(`${PREFIX}${body.length}`);
  const data = new Uint8Array(prefix.length + body.length);
  data.set(prefix, 0);
  data.set(body, prefix.length);
  return keccak256(data);
}

/** The address that personal-signed `message` with a 65-byte r ‖ s ‖ v signature, or null (same rules as {@link recoverAddress}). */
export function recoverPersonalSigner(message: string, signature: Uint8Array): Address | null {
  return recoverAddress(personalSignDigest(message), signature);
}
