import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Address, type Eip712Domain, OrderHasher, parseOrderSignature, parseWireOrder } from '@dex/core';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../../../../bench/workload.js';
import { keccak256 } from './keccak.js';
import { type SignatureCheck, type SignerKey, verifyOrderSignature } from './order-signatures.js';

interface VectorFile {
  keys: { secp256k1: { address: string; privateKey: string }; ed25519: { publicKey: string } };
  cases: { keyType: 'secp256k1' | 'ed25519'; domain: Eip712Domain; order: unknown; digest: string; signature: string }[];
}

const shared = sharedDir();
if (!shared) console.warn('[skip] ../shared is absent: the signed EIP-712 order vectors are not checked (set SHARED_DIR)');

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = bytes.slice();
  copy[bit >> 3] = (copy[bit >> 3] as number) ^ (1 << (bit & 7));
  return copy;
}

describe.skipIf(!shared)('verifyOrderSignature on the shared signed orders', () => {
  const vectors = (): VectorFile => JSON.parse(readFileSync(join(shared as string, 'vectors/eip712-orders.json'), 'utf8'));

  /** The check of one vector case, with the digest recomputed by our own hasher. */
  function checkOf(file: VectorFile, vector: VectorFile['cases'][number]): SignatureCheck {
    const digest = new OrderHasher(vector.domain, keccak256).digest(parseWireOrder(vector.order));
    const signer: SignerKey =
      vector.keyType === 'secp256k1'
        ? { type: 'secp256k1-address', address: file.keys.secp256k1.address as Address }
        : { type: 'ed25519', publicKey: hexToBytes(`0x${file.keys.ed25519.publicKey}`) };
    return { digest, signature: parseOrderSignature(vector.signature).signature, signer };
  }

  it('accepts every case and rejects it once one bit of the digest flips', () => {
    const file = vectors();
    expect(file.cases.map((vector) => vector.keyType)).toContain('ed25519');
    for (const vector of file.cases) {
      const check = checkOf(file, vector);
      expect(check.digest).toEqual(hexToBytes(vector.digest as Address));
      expect(verifyOrderSignature(check)).toBe(true);
      for (const bit of [0, 7, 100, 255])
        expect(verifyOrderSignature({ ...check, digest: flipBit(check.digest, bit) })).toBe(false);
    }
  });

  it('accepts the secp256k1 cases against the registered compressed key of the same account', () => {
    const file = vectors();
    const publicKey = secp256k1.getPublicKey(hexToBytes(file.keys.secp256k1.privateKey as Address), true);
    for (const vector of file.cases.filter((candidate) => candidate.keyType === 'secp256k1')) {
      const check: SignatureCheck = { ...checkOf(file, vector), signer: { type: 'secp256k1-key', publicKey } };
      expect(verifyOrderSignature(check)).toBe(true);
      expect(verifyOrderSignature({ ...check, digest: flipBit(check.digest, 9) })).toBe(false);
    }
  });

  it('rejects a case against the other key type or the wrong key', () => {
    const file = vectors();
    const other: SignerKey = { type: 'ed25519', publicKey: ed25519.getPublicKey(new Uint8Array(32).fill(1)) };
    for (const vector of file.cases) {
      const check = checkOf(file, vector);
      const swapped: SignerKey =
        check.signer.type === 'ed25519' ? { type: 'secp256k1-address', address: file.keys.secp256k1.address as Address } : other;
      expect(verifyOrderSignature({ ...check, signer: swapped })).toBe(false);
      if (check.signer.type === 'secp256k1-address') {
        expect(verifyOrderSignature({ ...check, signer: { type: 'secp256k1-address', address: `0x${'11'.repeat(20)}` } })).toBe(
          false,
        );
      } else {
        expect(verifyOrderSignature({ ...check, signer: other })).toBe(false);
      }
    }
  });

  it('accepts a checksummed or lower-case signer address alike', () => {
    const file = vectors();
    const vector = file.cases.find((candidate) => candidate.keyType === 'secp256k1');
    if (vector === undefined) throw new Error('no secp256k1 case in the vectors');
    const check = checkOf(file, vector);
    const lower = file.keys.secp256k1.address.toLowerCase() as Address;
    expect(verifyOrderSignature({ ...check, signer: { type: 'secp256k1-address', address: lower } })).toBe(true);
  });
});

describe('verifyOrderSignature', () => {
  const digest = keccak256(new Uint8Array([1, 2, 3]));
  const seed = new Uint8Array(32).fill(5);
  const edKey = ed25519.getPublicKey(seed);
  const edSignature = ed25519.sign(digest, seed);

  it('is false for a signature of the wrong length for the key type', () => {
    expect(verifyOrderSignature({ digest, signature: edSignature, signer: { type: 'ed25519', publicKey: edKey } })).toBe(true);
    expect(
      verifyOrderSignature({
        digest,
        signature: new Uint8Array([...edSignature, 27]),
        signer: { type: 'ed25519', publicKey: edKey },
      }),
    ).toBe(false);
    const address: Address = `0x${'22'.repeat(20)}`;
    expect(verifyOrderSignature({ digest, signature: edSignature, signer: { type: 'secp256k1-address', address } })).toBe(false);
    expect(
      verifyOrderSignature({ digest, signature: edSignature, signer: { type: 'secp256k1-key', publicKey: new Uint8Array(33) } }),
    ).toBe(false);
  });

  it('is false for a digest that is not 32 bytes, even with a signature of exactly those bytes', () => {
    const short = digest.subarray(0, 31);
    expect(
      verifyOrderSignature({
        digest: short,
        signature: ed25519.sign(short, seed),
        signer: { type: 'ed25519', publicKey: edKey },
      }),
    ).toBe(false);
  });

  it('never matches the zero address, whatever the signature', () => {
    const zero: SignerKey = { type: 'secp256k1-address', address: `0x${'00'.repeat(20)}` };
    const garbage = [new Uint8Array(65), new Uint8Array(65).fill(0xff), Uint8Array.from({ length: 65 }, (_, index) => index)];
    for (const signature of garbage) expect(verifyOrderSignature({ digest, signature, signer: zero })).toBe(false);
  });
});
