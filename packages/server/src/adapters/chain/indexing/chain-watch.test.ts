import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactState, DevnetNode, devnetClients } from '@dex/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainWatch } from './chain-watch.js';

let node: DevnetNode;
let clients: ReturnType<typeof devnetClients>;

beforeAll(async () => {
  node = await DevnetNode.start({ chainId: 298, stateFile: null });
  clients = devnetClients(node.rpcUrl, 298);
});
afterAll(() => node.stop());

const mine = (blocks: number) => clients.test.mine({ blocks });

describe('ChainWatch', () => {
  it('answers null while the blocks it saw hold', async () => {
    const watch = new ChainWatch(clients);
    await mine(3);
    expect(await watch.look()).toBeNull();
    await mine(2);
    expect(await watch.look()).toBeNull();
  });

  it('finds the last block that holds when the chain lost the blocks after it, also once new ones took their numbers', async () => {
    const watch = new ChainWatch(clients);
    expect(await watch.look()).toBeNull();
    const kept = await clients.public.getBlockNumber();
    const snapshot = await clients.test.snapshot();
    for (let look = 0; look < 5; look++) {
      await mine(2);
      expect(await watch.look()).toBeNull();
    }
    await clients.test.revert({ id: snapshot });
    // The chain goes on past the lost heights before the watch looks again.
    await mine(20);
    expect(await watch.look()).toBe(kept);
    expect(await watch.look()).toBeNull();
  });

  it('notices lost blocks it was told of between its looks (a receipt the store recorded)', async () => {
    const watch = new ChainWatch(clients);
    expect(await watch.look()).toBeNull();
    const kept = await clients.public.getBlockNumber();
    const snapshot = await clients.test.snapshot();
    await mine(1);
    const recorded = await clients.public.getBlock({ blockTag: 'latest' });
    watch.remember(recorded.number, recorded.hash);
    await clients.test.revert({ id: snapshot });
    expect(await watch.look()).toBe(kept);
  });

  it('finds a recorded block that was lost though the new chain passed its height and recorded newer blocks before the look', async () => {
    const watch = new ChainWatch(clients);
    expect(await watch.look()).toBeNull();
    const kept = await clients.public.getBlockNumber();
    const snapshot = await clients.test.snapshot();
    await mine(2);
    const lost = await clients.public.getBlock({ blockTag: 'latest' });
    watch.remember(lost.number, lost.hash);
    await clients.test.revert({ id: snapshot });
    await mine(10);
    const newer = await clients.public.getBlock({ blockTag: 'latest' });
    watch.remember(newer.number, newer.hash);
    expect(await watch.look()).toBe(kept);
  });

  it('takes a block a node with a bounded history dropped for one that holds, and still finds what a later loss took', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'chain-watch-'));
    const stateFile = join(folder, 'chain.json');
    let bounded = await DevnetNode.start({ chainId: 298, stateFile });
    try {
      const chain = { public: devnetClients(bounded.rpcUrl, 298).public };
      const watch = new ChainWatch(chain);
      expect(await watch.look()).toBeNull();
      for (let look = 0; look < 5; look++) {
        await devnetClients(bounded.rpcUrl, 298).test.mine({ blocks: 10 });
        expect(await watch.look()).toBeNull();
      }
      // The node starts again with its first blocks dropped, the first one the watch saw among them.
      await bounded.stop();
      expect(compactState(stateFile, 20).blocks).toBeGreaterThan(0);
      bounded = await DevnetNode.start({ chainId: 298, stateFile });
      const restarted = devnetClients(bounded.rpcUrl, 298);
      chain.public = restarted.public;
      expect(await watch.look()).toBeNull();

      const kept = await restarted.public.getBlockNumber({ cacheTime: 0 });
      const snapshot = await restarted.test.snapshot();
      await restarted.test.mine({ blocks: 2 });
      expect(await watch.look()).toBeNull();
      await restarted.test.revert({ id: snapshot });
      await restarted.test.mine({ blocks: 20 });
      expect(await watch.look()).toBe(kept);
    } finally {
      await bounded.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
