import fc from 'fast-check';
import { type Hex, parseTransaction, recoverTransactionAddress, type TransactionSerializable, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { operatorAccount } from './operator-account.js';

/** A valid secp256k1 private key: 32 bytes below the group order (a leading 0x7f byte keeps it there). */
const privateKey = fc.uint8Array({ minLength: 31, maxLength: 31 }).map((bytes) => toHex(Uint8Array.of(0x7f, ...bytes)));
const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => toHex(bytes));
const calldata = fc.uint8Array({ maxLength: 2_000 }).map((bytes) => toHex(bytes));

const common = {
  chainId: fc.integer({ min: 1, max: 1_000_000 }),
  nonce: fc.nat(),
  to: address,
  data: calldata,
  gas: fc.bigInt({ min: 21_000n, max: 30_000_000n }),
};
const transaction: fc.Arbitrary<TransactionSerializable> = fc.oneof(
  fc.record({
    ...common,
    type: fc.constant('eip1559' as const),
    maxFeePerGas: fc.bigInt({ min: 10n ** 9n, max: 10n ** 12n }),
    maxPriorityFeePerGas: fc.bigInt({ min: 0n, max: 10n ** 9n }),
    value: fc.bigInt({ min: 0n, max: 10n ** 20n }),
  }),
  fc.record({ ...common, type: fc.constant('legacy' as const), gasPrice: fc.bigInt({ min: 1n, max: 10n ** 12n }) }),
);

describe('operatorAccount', () => {
  it("signs transactions exactly as viem's own signer does, for the same key", async () => {
    await fc.assert(
      fc.asyncProperty(privateKey, transaction, async (key, tx) => {
        const native = operatorAccount(key as Hex);
        const viem = privateKeyToAccount(key as Hex);
        expect(native.address).toBe(viem.address);
        const signed = await native.signTransaction(tx);
        expect(signed).toBe(await viem.signTransaction(tx));
        expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(viem.address);
        expect(parseTransaction(signed).data ?? '0x').toBe(tx.data === '0x' ? '0x' : tx.data);
      }),
      { numRuns: 100 },
    );
  });

  it('signs a settlement-sized transaction (120 kB of calldata) that recovers to the operator', async () => {
    const key = toHex(Uint8Array.from({ length: 32 }, (_, index) => index + 1));
    const account = operatorAccount(key);
    const signed = await account.signTransaction({
      type: 'eip1559',
      chainId: 298,
      nonce: 7,
      to: '0x00000000000000000000000000000000000004d2',
      data: toHex(Uint8Array.from({ length: 120_000 }, (_, index) => index % 251)),
      gas: 15_000_000n,
      maxFeePerGas: 10n ** 9n,
      maxPriorityFeePerGas: 1n,
    });
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(account.address);
  });
});
