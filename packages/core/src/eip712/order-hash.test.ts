import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { hashTypedData, hashDomain as viemHashDomain } from 'viem';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../../../bench/workload.js';
import { MAX_UINT256 } from '../amount.js';
import { CoreError } from '../errors.js';
import { addressArbitrary, orderArbitrary as anyOrder } from '../test-support/order-arbitraries.js';
import { bytesToHex } from './hex.js';
import { parseWireOrder } from './order-codec.js';
import { hashDomain, ORDER_TYPE_HASH, ORDER_TYPE_STRING, OrderHasher } from './order-hash.js';
import { orderTypedData } from './order-typed-data.js';
import type { Address, Eip712Domain, Hex, PartialFillLimitOrder } from './order-types.js';

interface VectorCase {
  domain: Eip712Domain;
  order: unknown;
  structHash: string;
  digest: string;
}

interface VectorFile {
  typeString: string;
  typeHash: string;
  cases: VectorCase[];
}

const shared = sharedDir();
if (!shared) console.warn('[skip] ../shared is absent: the EIP-712 order vectors are not checked (set SHARED_DIR)');

describe.skipIf(!shared)('OrderHasher against the shared EIP-712 vectors', () => {
  const vectors = (): VectorFile => JSON.parse(readFileSync(join(shared as string, 'vectors/eip712-orders.json'), 'utf8'));

  it('has the type string and type hash of the vectors', () => {
    const { typeString, typeHash } = vectors();
    expect(ORDER_TYPE_STRING).toBe(typeString);
    expect(ORDER_TYPE_HASH).toBe(typeHash);
  });

  it('reproduces every struct hash and digest', () => {
    const { cases } = vectors();
    expect(cases.length).toBeGreaterThan(0);
    for (const vector of cases) {
      const hasher = new OrderHasher(vector.domain);
      const order = parseWireOrder(vector.order);
      expect(bytesToHex(hasher.structHash(order))).toBe(vector.structHash);
      expect(bytesToHex(hasher.digest(order))).toBe(vector.digest);
    }
  });
});

const orderArbitrary = anyOrder(1024);

const domainArbitrary: fc.Arbitrary<Eip712Domain> = fc.record({
  name: fc.string({ unit: 'grapheme', maxLength: 40 }),
  version: fc.string({ maxLength: 8 }),
  chainId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  verifyingContract: addressArbitrary,
});

function viemDigest(domain: Eip712Domain, order: PartialFillLimitOrder): Hex {
  return hashTypedData(orderTypedData(domain, order));
}

const VIEM_DOMAIN_TYPES = {
  EIP712Domain: [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ],
} as const;

describe('OrderHasher', () => {
  it('computes the same digest as viem for random orders and domains', () => {
    fc.assert(
      fc.property(domainArbitrary, fc.array(orderArbitrary, { minLength: 1, maxLength: 3 }), (domain, orders) => {
        const hasher = new OrderHasher(domain);
        expect(bytesToHex(hasher.domainSeparator)).toBe(
          viemHashDomain({ domain: { ...domain, chainId: BigInt(domain.chainId) }, types: VIEM_DOMAIN_TYPES }),
        );
        // Several orders through one hasher: its reused buffers must not leak one order into the next.
        for (const order of orders) expect(bytesToHex(hasher.digest(order))).toBe(viemDigest(domain, order));
      }),
      { numRuns: 200 },
    );
  });

  it('hashes the domain like viem', () => {
    fc.assert(
      fc.property(domainArbitrary, (domain) => {
        expect(bytesToHex(hashDomain(domain))).toBe(
          viemHashDomain({ domain: { ...domain, chainId: BigInt(domain.chainId) }, types: VIEM_DOMAIN_TYPES }),
        );
      }),
    );
  });

  it('uses an injected keccak implementation', () => {
    const calls: number[] = [];
    const domain: Eip712Domain = { name: 'n', version: '1', chainId: 1, verifyingContract: `0x${'11'.repeat(20)}` };
    const hasher = new OrderHasher(domain, (data) => {
      calls.push(data.length);
      return new Uint8Array(32);
    });
    calls.length = 0;
    const order = fc.sample(orderArbitrary, { numRuns: 1, seed: 7 })[0] as PartialFillLimitOrder;
    expect(hasher.digest(order)).toEqual(new Uint8Array(32));
    // validation data, info, input, output, order, then the 66-byte signing input
    expect(calls.slice(1)).toEqual([224, 96, 128, 256, 66]);
  });

  it('keeps its domain separator when a caller mutates the exposed copy', () => {
    const domain: Eip712Domain = { name: 'n', version: '1', chainId: 1, verifyingContract: `0x${'11'.repeat(20)}` };
    const order = fc.sample(orderArbitrary, { numRuns: 1, seed: 3 })[0] as PartialFillLimitOrder;
    const hasher = new OrderHasher(domain);
    hasher.domainSeparator.fill(0);
    expect(bytesToHex(hasher.digest(order))).toBe(viemDigest(domain, order));
  });

  it.each([
    ['a negative nonce', (order: PartialFillLimitOrder) => ({ ...order, info: { ...order.info, nonce: -1n } })],
    [
      'an amount above uint256',
      (order: PartialFillLimitOrder) => ({ ...order, input: { ...order.input, amount: MAX_UINT256 + 1n } }),
    ],
    [
      'a short address',
      (order: PartialFillLimitOrder) => ({ ...order, output: { ...order.output, recipient: '0x1234' as Address } }),
    ],
    [
      'a non-hex address',
      (order: PartialFillLimitOrder) => ({ ...order, input: { ...order.input, token: `0x${'zz'.repeat(20)}` as Address } }),
    ],
    [
      'odd-length data',
      (order: PartialFillLimitOrder) => ({ ...order, info: { ...order.info, additionalValidationData: '0xabc' as Hex } }),
    ],
    ['a fractional fee', (order: PartialFillLimitOrder) => ({ ...order, maxTakerFeePips: 1.5 })],
  ])('refuses to hash an order with %s instead of truncating it', (_name, corrupt) => {
    const domain: Eip712Domain = { name: 'n', version: '1', chainId: 1, verifyingContract: `0x${'11'.repeat(20)}` };
    const order = fc.sample(orderArbitrary, { numRuns: 1, seed: 11 })[0] as PartialFillLimitOrder;
    expect(() => new OrderHasher(domain).digest(corrupt(order))).toThrow(CoreError);
  });
});
