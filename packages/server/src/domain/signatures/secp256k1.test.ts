import { type Eip712Domain, OrderHasher, orderTypedData, type PartialFillLimitOrder } from '@dex/core';
import { secp256k1 as nobleSecp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { bytesToHex, hexToBytes, recoverAddress as viemRecoverAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { keccak256 } from './keccak.js';
import { addressOfPublicKey, recoverAddress, recoversToPublicKey, verifySecp256k1 } from './secp256k1.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const word = (value: bigint): Uint8Array => hexToBytes(`0x${value.toString(16).padStart(64, '0')}`);
const scalar = (bytes: Uint8Array): bigint => BigInt(bytesToHex(bytes));

/** r ‖ s ‖ v with the given parts. */
function signature(r: bigint, s: bigint, v: number): Uint8Array {
  const bytes = new Uint8Array(65);
  bytes.set(word(r), 0);
  bytes.set(word(s), 32);
  bytes[64] = v;
  return bytes;
}

/** A fresh key pair and its signature of a (random) digest, all made by viem. */
async function signedDigest(digest = crypto.getRandomValues(new Uint8Array(32))) {
  const account = privateKeyToAccount(generatePrivateKey());
  const signed = hexToBytes(await account.sign({ hash: bytesToHex(digest) }));
  const uncompressed = hexToBytes(account.publicKey);
  const compressed = nobleSecp256k1.Point.fromBytes(uncompressed).toBytes(true);
  return { account, digest, signed, uncompressed, compressed };
}

/** The same signature with s replaced by n - s (and v flipped): what a malleating relayer would send. */
function highS(signed: Uint8Array): Uint8Array {
  const r = scalar(signed.subarray(0, 32));
  const s = scalar(signed.subarray(32, 64));
  return signature(r, N - s, (signed[64] as number) === 27 ? 28 : 27);
}

const domain: Eip712Domain = {
  name: 'PartialFillLimitOrderReactor',
  version: '1',
  chainId: 296,
  verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
};

function order(swapper: `0x${string}`): PartialFillLimitOrder {
  return {
    info: {
      reactor: domain.verifyingContract,
      swapper,
      nonce: 7n,
      deadline: 1_798_761_600n,
      additionalValidationContract: `0x${'00'.repeat(20)}`,
      additionalValidationData: '0x',
    },
    input: { token: `0x${'00'.repeat(17)}163b5a`, amount: 250_000_000n },
    output: { token: `0x${'00'.repeat(17)}06f89a`, amount: 12_345_678n, recipient: swapper },
    makerOnly: false,
    takerOnce: true,
    maxTakerFeePips: 3000,
    maxMakerFeePips: 0,
  };
}

describe('recoverAddress', () => {
  it('recovers the signer of a digest like viem does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), async (digest) => {
        const { account, signed } = await signedDigest(digest);
        expect(recoverAddress(digest, signed)).toBe(account.address.toLowerCase());
        expect(await viemRecoverAddress({ hash: bytesToHex(digest), signature: bytesToHex(signed) })).toBe(account.address);
      }),
      { numRuns: 25 },
    );
  });

  it('recovers the signer of an order signed with signTypedData against our digest', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const swapper = account.address.toLowerCase() as `0x${string}`;
    const signed = hexToBytes(await account.signTypedData(orderTypedData(domain, order(swapper))));
    expect(recoverAddress(new OrderHasher(domain, keccak256).digest(order(swapper)), signed)).toBe(swapper);
  });

  it('accepts v as 0/1 as well as 27/28', async () => {
    const { account, digest, signed } = await signedDigest();
    const raw = signed.slice();
    raw[64] = (signed[64] as number) - 27;
    expect(recoverAddress(digest, raw)).toBe(account.address.toLowerCase());
  });

  it('rejects a high-s secp256k1 signature that a permissive recoverer accepts', async () => {
    const { account, digest, signed } = await signedDigest();
    const malleated = highS(signed);
    // The twin is a valid ECDSA signature of the same key: only the low-s rule tells them apart.
    const twin = nobleSecp256k1.Signature.fromBytes(malleated.subarray(0, 64)).addRecoveryBit((malleated[64] as number) - 27);
    expect(bytesToHex(twin.recoverPublicKey(digest).toBytes(false))).toBe(account.publicKey);
    expect(recoverAddress(digest, malleated)).toBeNull();
  });

  it.each([
    ['r = 0', (_r: bigint, s: bigint, v: number) => signature(0n, s, v)],
    ['s = 0', (r: bigint, _s: bigint, v: number) => signature(r, 0n, v)],
    ['r = n', (_r: bigint, s: bigint, v: number) => signature(N, s, v)],
    ['s = n', (r: bigint, _s: bigint, v: number) => signature(r, N, v)],
    ['r = 2^256 - 1', (_r: bigint, s: bigint, v: number) => signature((1n << 256n) - 1n, s, v)],
    ['v = 29', (r: bigint, s: bigint) => signature(r, s, 29)],
    ['v = 26', (r: bigint, s: bigint) => signature(r, s, 26)],
    ['v = 2', (r: bigint, s: bigint) => signature(r, s, 2)],
    ['v = 255', (r: bigint, s: bigint) => signature(r, s, 255)],
  ])('rejects a signature with %s', async (_name, corrupt) => {
    const { digest, signed } = await signedDigest();
    const r = scalar(signed.subarray(0, 32));
    const s = scalar(signed.subarray(32, 64));
    expect(recoverAddress(digest, corrupt(r, s, signed[64] as number))).toBeNull();
  });

  it('returns null, never the zero address, when r is not the x coordinate of a curve point', () => {
    // x = 5 is not on secp256k1 (5^3 + 7 = 132 is not a square mod p), so recovery has no point to start from.
    const digest = keccak256(new Uint8Array([1]));
    expect(recoverAddress(digest, signature(5n, 1n, 27))).toBeNull();
    expect(recoverAddress(digest, signature(5n, 1n, 28))).toBeNull();
  });

  it('rejects wrong digest and signature lengths', async () => {
    const { digest, signed } = await signedDigest();
    expect(recoverAddress(digest.subarray(1), signed)).toBeNull();
    expect(recoverAddress(digest, signed.subarray(0, 64))).toBeNull();
    expect(recoverAddress(digest, new Uint8Array([...signed, 0]))).toBeNull();
  });
});

describe('verifySecp256k1', () => {
  it('verifies with compressed and uncompressed keys and r, s as bytes or bigints', async () => {
    const { digest, signed, uncompressed, compressed } = await signedDigest();
    const r = signed.subarray(0, 32);
    const s = signed.subarray(32, 64);
    for (const key of [compressed, uncompressed]) {
      expect(verifySecp256k1(key, digest, r, s)).toBe(true);
      expect(verifySecp256k1(key, digest, scalar(r), scalar(s))).toBe(true);
    }
  });

  it('agrees with @noble/curves on random digests and tampered signatures', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 64 * 8 - 1 }), async (bit) => {
        const { digest, signed, compressed } = await signedDigest();
        const compact = signed.slice(0, 64);
        compact[bit >> 3] = (compact[bit >> 3] as number) ^ (1 << (bit & 7));
        const noble = nobleSecp256k1.verify(compact, digest, compressed, { prehash: false, lowS: true });
        expect(verifySecp256k1(compressed, digest, compact.subarray(0, 32), compact.subarray(32))).toBe(noble);
      }),
      { numRuns: 25 },
    );
  });

  it('rejects a high-s signature, zero scalars and out-of-range bigints', async () => {
    const { digest, signed, compressed } = await signedDigest();
    const r = scalar(signed.subarray(0, 32));
    const s = scalar(signed.subarray(32, 64));
    expect(verifySecp256k1(compressed, digest, r, N - s)).toBe(false);
    expect(verifySecp256k1(compressed, digest, 0n, s)).toBe(false);
    expect(verifySecp256k1(compressed, digest, r, 0n)).toBe(false);
    expect(verifySecp256k1(compressed, digest, r + N, s)).toBe(false);
    expect(verifySecp256k1(compressed, digest, -r, s)).toBe(false);
    expect(verifySecp256k1(compressed, digest, r, s + (1n << 256n))).toBe(false);
  });

  it('rejects malformed keys, digests and scalars without throwing', async () => {
    const { digest, signed, compressed, uncompressed } = await signedDigest();
    const r = signed.subarray(0, 32);
    const s = signed.subarray(32, 64);
    const hybrid = uncompressed.slice();
    hybrid[0] = 6 + ((uncompressed[64] as number) & 1);
    const offCurve = compressed.slice();
    offCurve.set(word(5n), 1);
    expect(verifySecp256k1(hybrid, digest, r, s)).toBe(false);
    expect(verifySecp256k1(offCurve, digest, r, s)).toBe(false);
    expect(verifySecp256k1(compressed.subarray(1), digest, r, s)).toBe(false);
    expect(verifySecp256k1(compressed, digest.subarray(1), r, s)).toBe(false);
    expect(verifySecp256k1(compressed, digest, r.subarray(1), s)).toBe(false);
  });
});

describe('recoversToPublicKey', () => {
  it('accepts the signing key and rejects a wrong v that plain verification lets through', async () => {
    const { digest, signed, compressed, uncompressed } = await signedDigest();
    expect(recoversToPublicKey(compressed, digest, signed)).toBe(true);
    expect(recoversToPublicKey(uncompressed, digest, signed)).toBe(true);
    const wrongV = signed.slice();
    wrongV[64] = (signed[64] as number) === 27 ? 28 : 27;
    expect(verifySecp256k1(compressed, digest, wrongV.subarray(0, 32), wrongV.subarray(32, 64))).toBe(true);
    expect(recoversToPublicKey(compressed, digest, wrongV)).toBe(false);
    expect(recoversToPublicKey(compressed, digest, highS(signed))).toBe(false);
  });

  it('rejects another key', async () => {
    const first = await signedDigest();
    const second = await signedDigest();
    expect(recoversToPublicKey(second.compressed, first.digest, first.signed)).toBe(false);
  });
});

describe('addressOfPublicKey', () => {
  it('derives the address viem derives, from either key form', async () => {
    const { account, compressed, uncompressed } = await signedDigest();
    expect(addressOfPublicKey(compressed)).toBe(account.address.toLowerCase());
    expect(addressOfPublicKey(uncompressed)).toBe(publicKeyToAddress(account.publicKey).toLowerCase());
  });

  it('throws on a key that is not a curve point or has the wrong shape', async () => {
    const { compressed } = await signedDigest();
    const offCurve = compressed.slice();
    offCurve.set(word(5n), 1);
    expect(() => addressOfPublicKey(offCurve)).toThrow(RangeError);
    expect(() => addressOfPublicKey(compressed.subarray(1))).toThrow(RangeError);
  });
});
