import { ed25519 } from '@noble/curves/ed25519.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyEd25519Strict } from './ed25519.js';

const P = (1n << 255n) - 19n;
const L = (1n << 252n) + 27742317777372353535851937790883648493n;
const Point = ed25519.Point;

const noble = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean =>
  ed25519.verify(signature, message, publicKey, { zip215: false });

/** 32-byte little-endian encoding of a y coordinate with the given x sign bit. */
function encodeY(y: bigint, signBit: boolean): Uint8Array {
  const bytes = new Uint8Array(32);
  let rest = y;
  for (let index = 0; index < 32; index++) {
    bytes[index] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  if (signBit) bytes[31] = (bytes[31] as number) | 0x80;
  return bytes;
}

function littleEndian(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`);
}

/** Every encoding of the 8 torsion points: canonical, with the other sign bit, and y + p where that still fits. */
function smallOrderEncodings(): Uint8Array[] {
  const order8 = Point.fromBytes(Buffer.from('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 'hex'));
  const encodings: Uint8Array[] = [];
  for (let multiple = 0n; multiple < 8n; multiple++) {
    const point = multiple === 0n ? Point.ZERO : order8.multiplyUnsafe(multiple);
    const y = point.toAffine().y;
    for (const candidate of [y, y + P]) {
      if (candidate >= 1n << 255n) continue;
      encodings.push(encodeY(candidate, false), encodeY(candidate, true));
    }
  }
  return encodings;
}

/** A signature (R = s·B, s) that the cofactorless equation accepts for the identity key and any message. */
function forgeryForIdentity(): Uint8Array {
  const s = 1234567n;
  const signature = new Uint8Array(64);
  signature.set(Point.BASE.multiply(s).toBytes(), 0);
  signature.set(encodeY(s, false), 32);
  return signature;
}

describe('verifyEd25519Strict', () => {
  it('accepts honest signatures and agrees with @noble/curves (zip215: false) on tampered ones', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 100 }),
        fc.integer({ min: 0, max: 3 }),
        fc.nat(),
        (seed, message, tamper, position) => {
          const publicKey = ed25519.getPublicKey(seed);
          const signature = ed25519.sign(message, seed);
          expect(verifyEd25519Strict(publicKey, message, signature)).toBe(true);
          const parts = [publicKey.slice(), message.slice(), signature.slice()] as const;
          // tamper 3 leaves all three intact
          const target = parts[tamper];
          if (target !== undefined && target.length > 0) {
            const index = position % target.length;
            target[index] = (target[index] as number) ^ (1 << (position % 8));
          }
          expect(verifyEd25519Strict(...parts)).toBe(noble(...parts));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('agrees with @noble/curves on random keys and signatures', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        (publicKey, signature) => {
          const message = new Uint8Array([1, 2, 3]);
          expect(verifyEd25519Strict(publicKey, message, signature)).toBe(noble(publicKey, message, signature));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects every encoding of the 8 small-order public keys, even with a signature the plain equation accepts', () => {
    const encodings = smallOrderEncodings();
    expect(encodings.length).toBeGreaterThanOrEqual(16);
    const message = new Uint8Array([42]);
    const forged = forgeryForIdentity();
    for (const publicKey of encodings) {
      expect(verifyEd25519Strict(publicKey, message, forged)).toBe(false);
      expect(noble(publicKey, message, forged)).toBe(false);
    }
  });

  it('rejects S + L, the malleated twin of a valid signature', () => {
    const seed = new Uint8Array(32).fill(7);
    const message = new Uint8Array([1, 2, 3]);
    const signature = ed25519.sign(message, seed);
    const twin = signature.slice();
    twin.set(encodeY(littleEndian(signature.subarray(32)) + L, false), 32);
    expect(verifyEd25519Strict(ed25519.getPublicKey(seed), message, twin)).toBe(false);
  });

  it('rejects non-canonical encodings of the public key and of R', () => {
    const seed = new Uint8Array(32).fill(9);
    const message = new Uint8Array([5]);
    const publicKey = ed25519.getPublicKey(seed);
    const signature = ed25519.sign(message, seed);
    // y = p + 2 .. p + 18 are the only non-canonical y values above the small-order ones; find one that decodes.
    for (let y = 2n; y < 19n; y++) {
      const canonical = encodeY(y, false);
      const nonCanonical = encodeY(y + P, false);
      let decodes = true;
      try {
        Point.fromBytes(canonical);
      } catch {
        decodes = false;
      }
      if (!decodes) continue;
      expect(verifyEd25519Strict(nonCanonical, message, signature)).toBe(false);
      const badR = signature.slice();
      badR.set(nonCanonical, 0);
      expect(verifyEd25519Strict(publicKey, message, badR)).toBe(false);
    }
    // y = 1 with the sign bit set would be x = -0: not a valid encoding of R either.
    const negativeZeroR = signature.slice();
    negativeZeroR.set(encodeY(1n, true), 0);
    expect(verifyEd25519Strict(publicKey, message, negativeZeroR)).toBe(false);
  });

  it('rejects wrong lengths without throwing', () => {
    const seed = new Uint8Array(32).fill(3);
    const message = new Uint8Array([1]);
    const publicKey = ed25519.getPublicKey(seed);
    const signature = ed25519.sign(message, seed);
    expect(verifyEd25519Strict(publicKey.subarray(1), message, signature)).toBe(false);
    expect(verifyEd25519Strict(new Uint8Array([...publicKey, 0]), message, signature)).toBe(false);
    expect(verifyEd25519Strict(publicKey, message, signature.subarray(1))).toBe(false);
    expect(verifyEd25519Strict(publicKey, message, new Uint8Array([...signature, 0]))).toBe(false);
  });

  it('stays correct when more keys pass through than its key cache holds', () => {
    const message = new Uint8Array([8]);
    const seeds = Array.from({ length: 1100 }, (_, index) => {
      const seed = new Uint8Array(32);
      new DataView(seed.buffer).setUint32(0, index + 1);
      return seed;
    });
    const signed = seeds.map((seed) => ({ publicKey: ed25519.getPublicKey(seed), signature: ed25519.sign(message, seed) }));
    for (const { publicKey, signature } of signed) expect(verifyEd25519Strict(publicKey, message, signature)).toBe(true);
    const [first, second] = signed as [(typeof signed)[number], (typeof signed)[number]];
    expect(verifyEd25519Strict(first.publicKey, message, first.signature)).toBe(true);
    expect(verifyEd25519Strict(first.publicKey, message, second.signature)).toBe(false);
  });
});
