import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hex } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { type DevnetClients, devnetClients } from '../src/devnet-chain.js';
import { compactState } from '../src/devnet-history.js';
import { DevnetNode } from '../src/devnet-node.js';
import type { DevnetLog } from '../src/devnet-state.js';

const dir = mkdtempSync(join(tmpdir(), 'devnet-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sends `count` transactions with 1 kB of data from the node's unlocked account; each is a block. */
async function transact(clients: DevnetClients, count: number): Promise<Hex[]> {
  const [from] = (await clients.public.request({ method: 'eth_accounts' } as never)) as Hex[];
  const hashes: Hex[] = [];
  for (let sent = 0; sent < count; sent++) {
    const params = [{ from, to: from, data: `0x${'ab'.repeat(1_000)}`, gas: '0x30d40' }];
    hashes.push((await clients.public.request({ method: 'eth_sendTransaction', params } as never)) as Hex);
  }
  return hashes;
}

const blocksIn = (stateFile: string): number =>
  (JSON.parse(readFileSync(stateFile, 'utf8')) as { blocks: unknown[] }).blocks.length;

describe('compactState', () => {
  it('keeps the genesis and the last blocks with their transactions; the node loads the same head, forgets older blocks and mines on top', async () => {
    const stateFile = join(mkdtempSync(join(dir, 'trim-')), 'chain.json');
    const first = await DevnetNode.start({ chainId: 298, stateFile });
    const clients = devnetClients(first.rpcUrl, 298);
    const hashes = await transact(clients, 30);
    // The node mines on arrival, a moment after it answers: the head is the last one's block.
    const last = await clients.public.waitForTransactionReceipt({ hash: hashes[29] as Hex });
    const head = await clients.public.getBlock({ blockNumber: last.blockNumber });
    const genesis = await clients.public.getBlock({ blockNumber: 0n });
    await first.stop();
    const before = statSync(stateFile).size;

    expect(compactState(stateFile, 10)).toEqual({ blocks: 20, emptySlots: 0 });
    expect(blocksIn(stateFile)).toBe(11);
    expect(statSync(stateFile).size).toBeLessThan(before / 2);
    expect(compactState(stateFile, 10)).toEqual({ blocks: 0, emptySlots: 0 });

    const second = await DevnetNode.start({ chainId: 298, stateFile });
    try {
      const again = devnetClients(second.rpcUrl, 298);
      expect((await again.public.getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
      await expect(again.public.getBlock({ blockNumber: 5n })).rejects.toThrow();
      expect((await again.public.getBlock({ blockNumber: 0n })).hash).toBe(genesis.hash);
      expect((await again.public.getTransactionReceipt({ hash: hashes[29] as Hex })).blockNumber).toBe(head.number);
      const [next] = await transact(again, 1);
      // Mined a moment after the node answers (as above): wait for it, or a busy machine sees no receipt yet.
      const mined = await again.public.waitForTransactionReceipt({ hash: next as Hex });
      expect((await again.public.getBlock({ blockNumber: mined.blockNumber })).parentHash).toBe(head.hash);
    } finally {
      await second.stop();
    }
  });
  it('drops storage slots that hold zero, which the node keeps as entries; the node reads the same values', async () => {
    const stateFile = join(mkdtempSync(join(dir, 'slots-')), 'chain.json');
    const first = await DevnetNode.start({ chainId: 298, stateFile });
    const clients = devnetClients(first.rpcUrl, 298);
    const holder = '0x00000000000000000000000000000000000c0de5';
    const word = (value: number) => `0x${value.toString(16).padStart(64, '0')}` as Hex;
    await clients.test.setCode({ address: holder, bytecode: '0x00' });
    for (let slot = 1; slot <= 5; slot++) await clients.test.setStorageAt({ address: holder, index: slot, value: word(slot) });
    for (const slot of [2, 4]) await clients.test.setStorageAt({ address: holder, index: slot, value: word(0) });
    await transact(clients, 1);
    const head = await clients.public.getBlock();
    await first.stop();
    const entries = () =>
      Object.keys(
        (JSON.parse(readFileSync(stateFile, 'utf8')) as { accounts: Record<string, { storage: object }> }).accounts[holder]
          ?.storage ?? {},
      ).length;
    expect(entries()).toBe(5);

    expect(compactState(stateFile, 1_000)).toEqual({ blocks: 0, emptySlots: 2 });
    expect(entries()).toBe(3);

    const second = await DevnetNode.start({ chainId: 298, stateFile });
    try {
      const again = devnetClients(second.rpcUrl, 298);
      const values = await Promise.all(
        [1, 2, 3, 4, 5].map((slot) => again.public.getStorageAt({ address: holder, slot: word(slot) })),
      );
      expect(values).toEqual([word(1), word(0), word(3), word(0), word(5)]);
      // The head by number: the node may mine an empty block of its own meanwhile.
      expect((await again.public.getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
    } finally {
      await second.stop();
    }
  });
});

describe('a devnet node with a bounded history', () => {
  it('restarts a supervised node that mined its bound of blocks, with its history trimmed, and says so', async () => {
    const folder = mkdtempSync(join(dir, 'compact-'));
    const stateFile = join(folder, 'chain.json');
    const lines: { fields: { bytes?: number; compactedBytes?: number }; message: string }[] = [];
    const log: DevnetLog = { info: (fields, message) => lines.push({ fields, message }), warn: () => {}, error: () => {} };
    let restarts = 0;
    const node = await DevnetNode.start({
      chainId: 298,
      stateFile,
      stateIntervalSeconds: 1,
      snapshotIntervalSeconds: 1,
      superviseMs: 100,
      historyBlocks: 8,
      compactEveryBlocks: 30,
      log,
      onRestart: () => restarts++,
    });
    try {
      const clients = devnetClients(node.rpcUrl, 298);
      await transact(clients, 40);
      const head = await clients.public.getBlock();
      for (let waited = 0; waited < 100 && restarts === 0; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(restarts).toBe(1);
      const compacted = lines.find((line) => line.message.includes('restarted it with its history trimmed'));
      expect(compacted?.message).toBe('the devnet node mined 30 blocks since it started; restarted it with its history trimmed');
      expect(compacted?.fields.compactedBytes).toBeLessThan(compacted?.fields.bytes ?? 0);
      expect((await clients.public.getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
      expect(blocksIn(stateFile)).toBeLessThanOrEqual(10);
    } finally {
      await node.stop();
    }
  });
});

describe('a devnet node with few past states', () => {
  it('answers reads at its last pastStates blocks, and refuses reads further back', async () => {
    const node = await DevnetNode.start({ chainId: 298, stateFile: null, pastStates: 8 });
    try {
      const clients = devnetClients(node.rpcUrl, 298);
      await transact(clients, 20);
      const head = await clients.public.getBlockNumber({ cacheTime: 0 });
      const [account] = (await clients.public.request({ method: 'eth_accounts' } as never)) as Hex[];
      const balanceAt = (blockNumber: bigint) => clients.public.getBalance({ address: account as Hex, blockNumber });
      await expect(balanceAt(head - 4n)).resolves.toBeGreaterThan(0n);
      await expect(balanceAt(head - 15n)).rejects.toThrow();
    } finally {
      await node.stop();
    }
  });
});
