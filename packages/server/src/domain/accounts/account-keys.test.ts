import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  asEvmAddress,
  canonicalPublicKey,
  derivedEvmAddress,
  evmAddressOfSecp256k1Key,
  InvalidAccountKeyError,
  parsePublicKeyHex,
} from './account-keys.js';

/** Keys as the ledger SDK documentation prints them (DER SubjectPublicKeyInfo). */
const SDK_ED25519 = '302a300506032b65700321001a5a62bb9f35990d3fea1a5bb7ef6f1df0a297697adef1e04510c9d4ecc5db3f';
const SDK_SECP256K1 = '302d300706052b8104000a03220002e1f3b3bad1e0d97ed129725efaa4fc0289735a9f355438d2619676f1ff3f30dd';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** A secret key 1..n-1 as 32 bytes. */
const secretKeys = fc
  .bigInt({ min: 1n, max: secp256k1.Point.CURVE().n - 1n })
  .map((secret) => Buffer.from(secret.toString(16).padStart(64, '0'), 'hex'));

describe('evmAddressOfSecp256k1Key', () => {
  it('gives the Ethereum address of the well-known secret key 1', () => {
    const publicKey = secp256k1.getPublicKey(Buffer.from('01'.padStart(64, '0'), 'hex'), true);
    expect(evmAddressOfSecp256k1Key(publicKey)).toBe('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf');
  });

  it('agrees with viem for any key, compressed or not', () => {
    fc.assert(
      fc.property(secretKeys, (secretKey) => {
        const expected = privateKeyToAddress(`0x${secretKey.toString('hex')}`).toLowerCase();
        expect(evmAddressOfSecp256k1Key(secp256k1.getPublicKey(secretKey, true))).toBe(expected);
        expect(evmAddressOfSecp256k1Key(secp256k1.getPublicKey(secretKey, false))).toBe(expected);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses bytes that are not a secp256k1 point', () => {
    expect(() => evmAddressOfSecp256k1Key(Buffer.from(`02${'ff'.repeat(32)}`, 'hex'))).toThrow(InvalidAccountKeyError);
    expect(() => evmAddressOfSecp256k1Key(new Uint8Array(32))).toThrow(/33 \(compressed\) or 65 bytes/);
  });
});

describe('canonicalPublicKey', () => {
  it('keeps a valid ED25519 key and compresses an uncompressed secp256k1 key', () => {
    const { publicKey } = ed25519.keygen();
    expect(canonicalPublicKey('ED25519', publicKey)).toEqual(publicKey);
    const secretKey = secp256k1.utils.randomSecretKey();
    expect(canonicalPublicKey('ECDSA_SECP256K1', secp256k1.getPublicKey(secretKey, false))).toEqual(
      secp256k1.getPublicKey(secretKey, true),
    );
  });

  it.each([
    ['a short ED25519 key', 'ED25519', new Uint8Array(31), /32 bytes/],
    ['an ED25519 y with no point', 'ED25519', Uint8Array.from([2, ...new Uint8Array(31)]), /not a point/],
    ['a non-canonical ED25519 y', 'ED25519', Uint8Array.from([...new Uint8Array(31).fill(0xff), 0x7f]), /not a point/],
    ['the ED25519 identity (small order)', 'ED25519', Uint8Array.from([1, ...new Uint8Array(31)]), /small-order/],
    ['a 32-byte secp256k1 key', 'ECDSA_SECP256K1', new Uint8Array(32), /33 \(compressed\)/],
    ['a secp256k1 x beyond the field', 'ECDSA_SECP256K1', Buffer.from(`02${'ff'.repeat(32)}`, 'hex'), /not a point/],
    ['the secp256k1 point at infinity', 'ECDSA_SECP256K1', new Uint8Array(33), /not a point/],
  ] as const)('refuses %s', (_name, keyType, key, message) => {
    expect(() => canonicalPublicKey(keyType, key)).toThrow(message);
  });
});

describe('parsePublicKeyHex', () => {
  it('reads raw hex, 0x-prefixed or upper-case hex and the DER form the ledger SDKs print', () => {
    const raw = SDK_ED25519.slice(24);
    for (const text of [raw, `0x${raw}`, raw.toUpperCase(), SDK_ED25519])
      expect(hex(parsePublicKeyHex('ED25519', text))).toBe(raw);
    const compressed = SDK_SECP256K1.slice(28);
    expect(hex(parsePublicKeyHex('ECDSA_SECP256K1', SDK_SECP256K1))).toBe(compressed);
    expect(hex(parsePublicKeyHex('ECDSA_SECP256K1', compressed))).toBe(compressed);
  });

  it('reads the DER form of an uncompressed secp256k1 key', () => {
    const secretKey = secp256k1.utils.randomSecretKey();
    const der = `3056301006072a8648ce3d020106052b8104000a034200${hex(secp256k1.getPublicKey(secretKey, false))}`;
    expect(parsePublicKeyHex('ECDSA_SECP256K1', der)).toEqual(secp256k1.getPublicKey(secretKey, true));
  });

  it('does not take the header of one curve for the other', () => {
    expect(() => parsePublicKeyHex('ECDSA_SECP256K1', SDK_ED25519)).toThrow(InvalidAccountKeyError);
    expect(() => parsePublicKeyHex('ED25519', SDK_SECP256K1)).toThrow(InvalidAccountKeyError);
  });

  it.each(['', '0x', 'abc', 'zz'.repeat(32), ` ${SDK_ED25519.slice(24)}`])('refuses %j as not hex', (text) => {
    expect(() => parsePublicKeyHex('ED25519', text)).toThrow(/must be hex/);
  });
});

describe('derivedEvmAddress and asEvmAddress', () => {
  it('gives an ED25519 account its long-zero address and a secp256k1 account its alias address', () => {
    expect(derivedEvmAddress('0.0.5001', 'ED25519', ed25519.keygen().publicKey)).toBe(
      '0x0000000000000000000000000000000000001389',
    );
    const secretKey = secp256k1.utils.randomSecretKey();
    expect(derivedEvmAddress('0.0.5001', 'ECDSA_SECP256K1', secp256k1.getPublicKey(secretKey, true))).toBe(
      privateKeyToAddress(`0x${hex(secretKey)}`).toLowerCase(),
    );
  });

  it('lower-cases addresses and refuses anything else', () => {
    expect(asEvmAddress('0xAbCdEf0000000000000000000000000000000001')).toBe('0xabcdef0000000000000000000000000000000001');
    for (const value of ['0x12', 'abcdef0000000000000000000000000000000001', null, 7, `0x${'g'.repeat(40)}`]) {
      expect(asEvmAddress(value)).toBeUndefined();
    }
  });
});
