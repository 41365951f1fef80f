import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { devnetClients, fund } from '../src/devnet-chain.js';
import { DevnetNode } from '../src/devnet-node.js';

const dir = mkdtempSync(join(tmpdir(), 'devnet-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('DevnetNode', () => {
  it('serves the configured chain id on a loopback port', async () => {
    const node = await DevnetNode.start({ chainId: 298, stateFile: null });
    try {
      expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await devnetClients(node.rpcUrl, 298).public.getChainId()).toBe(298);
    } finally {
      await node.stop();
    }
  });

  it('keeps its state across a clean stop and start', async () => {
    const stateFile = join(dir, 'chain.json');
    const address = '0x00000000000000000000000000000000000a11ce';
    const first = await DevnetNode.start({ chainId: 298, stateFile });
    await fund(devnetClients(first.rpcUrl, 298), address, 12_345n);
    await first.stop();

    const second = await DevnetNode.start({ chainId: 298, stateFile });
    try {
      expect(await devnetClients(second.rpcUrl, 298).public.getBalance({ address })).toBe(12_345n);
    } finally {
      await second.stop();
    }
  });
});
