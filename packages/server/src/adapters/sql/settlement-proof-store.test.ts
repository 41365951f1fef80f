import { expect, it } from 'vitest';
import type { ProofLog } from '../../ports/store/settlement-proof-ports.js';
import { describeEachEngine } from '../../test-support/store-engines.js';

const word = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;

function log(tx: number, logIndex: number, blockNumber: bigint): ProofLog {
  return {
    txHash: word(tx),
    blockNumber,
    blockHash: word(1_000 + Number(blockNumber)),
    transactionIndex: 2,
    logIndex,
    topics: [word(7), word(tx * 10 + logIndex)],
    data: `0x${'ab'.repeat(64)}`,
  };
}

describeEachEngine('settlement proofs', ({ open }) => {
  it("keeps a transaction's logs as the chain gave them, in log order, with block numbers past 2^53", async () => {
    const store = await open();
    const high = 2n ** 60n + 3n;
    await store.settlementProofs.record([log(1, 5, high), log(1, 2, high), log(2, 0, 9n)]);
    const kept = await store.settlementProofs.ofTransaction(word(1).toUpperCase().replace('0X', '0x'));
    expect(kept).toEqual([log(1, 2, high), log(1, 5, high)]);
    expect(await store.settlementProofs.ofTransaction(word(3))).toEqual([]);
  });

  it('keeps the first record of a log seen twice (a receipt and a range read of the same block)', async () => {
    const store = await open();
    await store.settlementProofs.record([log(1, 0, 10n)]);
    await store.settlementProofs.record([{ ...log(1, 0, 10n), data: '0x' }, log(1, 1, 10n)]);
    expect((await store.settlementProofs.ofTransaction(word(1))).map((kept) => kept.data)).toEqual([
      log(1, 0, 10n).data,
      log(1, 1, 10n).data,
    ]);
  });

  it('forgets the logs of blocks the chain lost, and only those', async () => {
    const store = await open();
    await store.settlementProofs.record([log(1, 0, 10n), log(2, 0, 11n), log(3, 0, 12n)]);
    expect(await store.settlementProofs.forgetAfter(10n)).toBe(2);
    expect(await store.settlementProofs.ofTransaction(word(1))).toHaveLength(1);
    expect(await store.settlementProofs.ofTransaction(word(2))).toEqual([]);
    expect(await store.settlementProofs.ofTransaction(word(3))).toEqual([]);
  });
});
