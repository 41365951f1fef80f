import { isEvmAddress, longZeroAddress } from '@dex/core';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

export type AccountKeyType = 'ED25519' | 'ECDSA_SECP256K1';

export interface AccountKey {
  /** 0.0.X */
  readonly accountId: string;
  readonly keyType: AccountKeyType;
  /** 32 bytes for ED25519, 33 bytes (compressed) for ECDSA_SECP256K1. */
  readonly publicKey: Uint8Array;
  /**
   * Lower case. ED25519: the long-zero address of the id; ECDSA: the alias address (keccak of the
   * uncompressed key, last 20 bytes) unless the source gives one.
   */
  readonly evmAddress: `0x${string}`;
}

/** The public key a devnet account `0.0.X` signs with (production reads keys from the mirror node). */
export interface AccountKeyRecord {
  accountId: string;
  keyType: AccountKeyType;
  /** Lower-case hex, no 0x; secp256k1 keys compressed. */
  publicKey: string;
  evmAddress: string;
  createdAt: number;
}

/** A public key that is not a usable key of its type; the message says why and never holds secrets. */
export class InvalidAccountKeyError extends Error {
  override readonly name = 'InvalidAccountKeyError';
}

/**
 * DER SubjectPublicKeyInfo headers that the ledger's SDKs print in front of a raw key, with the
 * hex length of the key that follows each one.
 */
const SPKI_HEADERS: Record<AccountKeyType, readonly { header: string; keyHexLength: number }[]> = {
  ED25519: [{ header: '302a300506032b6570032100', keyHexLength: 64 }],
  ECDSA_SECP256K1: [
    { header: '302d300706052b8104000a032200', keyHexLength: 66 },
    { header: '3056301006072a8648ce3d020106052b8104000a034200', keyHexLength: 130 },
  ],
};

/** The address in lower case when `value` is a 0x-prefixed 20-byte hex address, else undefined. */
export function asEvmAddress(value: unknown): `0x${string}` | undefined {
  return isEvmAddress(value) ? (value.toLowerCase() as `0x${string}`) : undefined;
}

/**
 * Checks a raw public key and returns its canonical bytes: an ED25519 key as it is, a secp256k1
 * key compressed (33 or 65 bytes accepted).
 */
export function canonicalPublicKey(keyType: AccountKeyType, key: Uint8Array): Uint8Array {
  if (keyType === 'ED25519') {
    if (key.length !== 32) throw new InvalidAccountKeyError(`an ED25519 public key has 32 bytes, not ${key.length}`);
    let point: ReturnType<typeof ed25519.Point.fromBytes>;
    try {
      point = ed25519.Point.fromBytes(key);
    } catch (cause) {
      throw new InvalidAccountKeyError('the ED25519 public key is not a point of the curve', { cause });
    }
    // A small-order key has no secret behind it: signatures "by" it can be forged.
    if (point.isSmallOrder()) throw new InvalidAccountKeyError('the ED25519 public key is a small-order point');
    return Uint8Array.from(key);
  }
  return secp256k1Point(key).toBytes(true);
}

function secp256k1Point(key: Uint8Array): ReturnType<typeof secp256k1.Point.fromBytes> {
  if (key.length !== 33 && key.length !== 65) {
    throw new InvalidAccountKeyError(`a secp256k1 public key has 33 (compressed) or 65 bytes, not ${key.length}`);
  }
  try {
    return secp256k1.Point.fromBytes(key);
  } catch (cause) {
    throw new InvalidAccountKeyError('the secp256k1 public key is not a point of the curve', { cause });
  }
}

/** Decodes a hex public key (optional 0x, optional DER SubjectPublicKeyInfo header) into its canonical bytes. */
export function parsePublicKeyHex(keyType: AccountKeyType, text: string): Uint8Array {
  let hex = text.toLowerCase();
  if (hex.startsWith('0x')) hex = hex.slice(2);
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) throw new InvalidAccountKeyError('the public key must be hex');
  for (const { header, keyHexLength } of SPKI_HEADERS[keyType]) {
    if (hex.length === header.length + keyHexLength && hex.startsWith(header)) {
      hex = hex.slice(header.length);
      break;
    }
  }
  return canonicalPublicKey(keyType, Buffer.from(hex, 'hex'));
}

/** The Ethereum-style address of a secp256k1 key: the last 20 bytes of keccak-256 of the uncompressed point. */
export function evmAddressOfSecp256k1Key(compressed: Uint8Array): `0x${string}` {
  const uncompressed = secp256k1Point(compressed).toBytes(false);
  const hash = keccak_256(uncompressed.subarray(1));
  return `0x${Buffer.from(hash.subarray(12)).toString('hex')}`;
}

/** The EVM address an account has when its source names none (see AccountKey.evmAddress). */
export function derivedEvmAddress(accountId: string, keyType: AccountKeyType, publicKey: Uint8Array): `0x${string}` {
  if (keyType === 'ECDSA_SECP256K1') return evmAddressOfSecp256k1Key(publicKey);
  // longZeroAddress always answers 0x and 40 lower-case hex digits.
  return longZeroAddress(accountId) as `0x${string}`;
}
