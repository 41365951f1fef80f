import fc from 'fast-check';
import { type Hex, type Signature, serializeTransaction, type TransactionSerializableEIP1559, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { eip1559Envelope, isPlainEip1559 } from './eip1559-envelope.js';

const hexBytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((bytes) => toHex(bytes));
/** 32-byte words, often with leading zero bytes (trimmed in the encoding). */
const word = fc
  .tuple(fc.integer({ min: 0, max: 32 }), hexBytes(32, 32))
  .map(([zeros, hex]) => `0x${'00'.repeat(zeros)}${hex.slice(2 + 2 * zeros)}` as Hex);

const transaction: fc.Arbitrary<TransactionSerializableEIP1559> = fc.record({
  type: fc.constantFrom('eip1559' as const, undefined),
  chainId: fc.integer({ min: 1, max: 2 ** 32 }),
  nonce: fc.oneof(fc.constant(0), fc.nat()),
  to: fc.option(hexBytes(20, 20), { nil: undefined }),
  // Up to past 55 bytes (one-byte length) and 255 (two-byte length); 120 kB in the test below.
  data: fc.option(hexBytes(0, 300), { nil: undefined }),
  gas: fc.bigInt({ min: 0n, max: 30_000_000n }),
  maxPriorityFeePerGas: fc.bigInt({ min: 0n, max: 10n ** 9n }),
  maxFeePerGas: fc.bigInt({ min: 10n ** 9n, max: 10n ** 30n }),
  value: fc.option(fc.bigInt({ min: 0n, max: 2n ** 128n }), { nil: undefined }),
});

const signature: fc.Arbitrary<Signature> = fc
  .record({ r: word, s: word, recovery: fc.constantFrom(0, 1) })
  .map(({ r, s, recovery }) => ({ r, s, yParity: recovery, v: recovery === 0 ? 27n : 28n }));

describe('eip1559Envelope', () => {
  it("encodes unsigned and signed EIP-1559 transactions exactly as viem's serializer does", () => {
    fc.assert(
      fc.property(transaction, signature, (tx, sig) => {
        expect(isPlainEip1559(tx)).toBe(true);
        expect(toHex(eip1559Envelope(tx))).toBe(serializeTransaction(tx));
        expect(toHex(eip1559Envelope(tx, sig))).toBe(serializeTransaction(tx, sig));
      }),
      { numRuns: 300 },
    );
  });

  it('encodes the 120 kB calldata of a settlement batch (a three-byte length) as viem does', () => {
    const tx: TransactionSerializableEIP1559 = {
      type: 'eip1559',
      chainId: 298,
      nonce: 1_234,
      to: '0x00000000000000000000000000000000000004d2',
      data: toHex(Uint8Array.from({ length: 120_000 }, (_, index) => index % 256)),
      gas: 15_000_000n,
      maxFeePerGas: 2n * 10n ** 9n,
      maxPriorityFeePerGas: 1n,
    };
    const sig: Signature = { r: `0x${'11'.repeat(32)}`, s: `0x00${'22'.repeat(31)}`, yParity: 1, v: 28n };
    expect(toHex(eip1559Envelope(tx, sig))).toBe(serializeTransaction(tx, sig));
  });

  it('leaves other transactions to viem: legacy, access lists, authorizations', () => {
    const base = { chainId: 1, to: '0x00000000000000000000000000000000000004d2' as const, gas: 21_000n };
    expect(isPlainEip1559({ ...base, gasPrice: 1n })).toBe(false);
    expect(
      isPlainEip1559({
        ...base,
        maxFeePerGas: 2n,
        maxPriorityFeePerGas: 1n,
        accessList: [{ address: base.to, storageKeys: [] }],
      }),
    ).toBe(false);
    expect(isPlainEip1559({ ...base, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n, accessList: [] })).toBe(true);
  });
});
