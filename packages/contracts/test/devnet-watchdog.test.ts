import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isAnvil } from '../src/anvil-process.js';
import { devnetClients } from '../src/devnet-chain.js';
import { DevnetNode } from '../src/devnet-node.js';
import { ownerFileOf } from '../src/devnet-ownership.js';
import { goodStateFile } from '../src/devnet-state.js';
import { cleanUpOwners, eventually, killOwner, MARK, startOwner, watchdogsOf } from './support/node-owners.js';

const dir = mkdtempSync(join(tmpdir(), 'devnet-watchdog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(cleanUpOwners);

const GRACE_MS = 2_000;
const ADOPTION_GRACE_MS = 8_000;

function nodeOptions(name: string) {
  const folder = mkdtempSync(join(dir, `${name}-`));
  return {
    chainId: 298,
    stateFile: join(folder, 'chain.json'),
    pidFile: join(folder, 'node.pid'),
    logFile: join(folder, 'node.log'),
    orphanGraceMs: GRACE_MS,
  };
}

/** The marked balance of the chain in `stateFile`, read from a node started on it (and stopped). */
async function markedBalance(stateFile: string): Promise<bigint> {
  const node = await DevnetNode.start({ chainId: 298, stateFile });
  try {
    return await devnetClients(node.rpcUrl, 298).public.getBalance({ address: MARK });
  } finally {
    await node.stop();
  }
}

describe("a devnet node's watchdog", () => {
  it('stops the node with SIGINT, its state saved, once its owner has been gone for the grace period, and exits', async () => {
    const options = nodeOptions('orphan');
    const owner = startOwner(options);
    const { pid } = await owner.ready;
    expect(watchdogsOf(options.pidFile)).toHaveLength(1);
    const killed = Date.now();
    await killOwner(owner);

    await new Promise((resolve) => setTimeout(resolve, GRACE_MS / 2));
    expect(isAnvil(pid)).toBe(true);
    expect(await eventually(() => !isAnvil(pid), GRACE_MS + 15_000)).toBe(true);
    expect(Date.now() - killed).toBeGreaterThanOrEqual(GRACE_MS);
    expect(await eventually(() => watchdogsOf(options.pidFile).length === 0, 5_000)).toBe(true);
    expect(existsSync(options.pidFile)).toBe(false);
    expect(existsSync(ownerFileOf(options.pidFile))).toBe(false);
    expect(readFileSync(options.logFile, 'utf8')).toMatch(/nobody took the node over: stopping it, its state saved/);
    expect(readFileSync(goodStateFile(options.stateFile))).toEqual(readFileSync(options.stateFile));
    expect(await markedBalance(options.stateFile)).toBe(4_242n);
  }, 60_000);

  it('steps down for an owner that takes the node over within the grace period, whose own watchdog never stops it while it runs', async () => {
    // A grace the second owner's start fits in on a loaded machine: it starts Node with TypeScript.
    const options = { ...nodeOptions('adopted'), orphanGraceMs: ADOPTION_GRACE_MS };
    const first = startOwner(options);
    const { pid, rpcUrl } = await first.ready;
    const [firstWatchdog] = watchdogsOf(options.pidFile);
    await killOwner(first);
    const killed = Date.now();

    const second = startOwner({ ...options, rpcUrl });
    expect(await second.ready).toEqual({ pid, rpcUrl, reattached: true });
    expect(
      await eventually(() => firstWatchdog !== undefined && !watchdogsOf(options.pidFile).includes(firstWatchdog), 5_000),
    ).toBe(true);
    // Past the first owner's grace: the second owner runs, and so does the node.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, killed + ADOPTION_GRACE_MS + 1_000 - Date.now())));
    expect(isAnvil(pid)).toBe(true);
    expect(watchdogsOf(options.pidFile)).toHaveLength(1);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(isAnvil(pid)).toBe(false);
    expect(await eventually(() => watchdogsOf(options.pidFile).length === 0, 5_000)).toBe(true);
  }, 60_000);

  it('exits once the node is gone, killed from outside', async () => {
    const options = nodeOptions('killed');
    const owner = startOwner(options);
    const { pid } = await owner.ready;
    process.kill(pid, 'SIGKILL');
    expect(await eventually(() => watchdogsOf(options.pidFile).length === 0, 5_000)).toBe(true);
    await killOwner(owner);
  }, 60_000);
});

describe('a process that owns a devnet node', () => {
  it('stops the node on the way out when it exits without stopping it, its state saved', async () => {
    const options = nodeOptions('exit');
    const owner = startOwner({ ...options, orphanGraceMs: 600_000 }, 'exit');
    const { pid } = await owner.ready;
    expect(await owner.exited).toBe(0);
    expect(await eventually(() => !isAnvil(pid), 5_000)).toBe(true);
    expect(await markedBalance(options.stateFile)).toBe(4_242n);
  }, 60_000);
});
