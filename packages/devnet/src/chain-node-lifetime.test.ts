import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { devnetClients, isAnvil, processLives, readPid } from '@dex/contracts';
import { builtEntry, cleanUpServiceProcesses, type ServiceProcess, startServiceProcess, until } from '@dex/server/test-support';
import type { Address } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';

/** `npm start`: the built main in a process of its own, its market maker off. */
const MAIN = builtEntry(new URL('./main.ts', import.meta.url));
/** Longer than any of these tests: a node gone within it was stopped by its service, not by its watchdog. */
const NO_WATCHDOG_IN_TIME = { DEVNET_CHAIN_ORPHAN_GRACE_MS: '600000' };
const GRACE_MS = 2_000;

afterEach(cleanUpServiceProcesses);

const startMain = (env: Record<string, string>) => startServiceProcess(MAIN, { MARKET_MAKER: 'false', ...env });

/** The service's chain node: its pid, from DATA_DIR's pid file (null while there is none). */
const nodePid = (service: ServiceProcess): number | null => readPid(join(service.dataDir, 'devnet-chain.pid'));

/** The chain's record in DATA_DIR: where its node answers and its reactor. */
function chainRecord(dataDir: string): { rpcUrl: string; reactor: Address } {
  return JSON.parse(readFileSync(join(dataDir, 'devnet-chain.json'), 'utf8')) as { rpcUrl: string; reactor: Address };
}

/** Waits until the service's process is gone. */
const exited = (service: ServiceProcess, timeoutMs: number) =>
  until(() => (processLives(service.pid) ? undefined : true), 'the service to exit', timeoutMs, 20);

/** Waits until anvil `pid` is gone; answers how long that took. */
async function nodeGone(pid: number, timeoutMs: number): Promise<number> {
  const from = Date.now();
  await until(() => (isAnvil(pid) ? undefined : true), `the devnet node ${pid} to stop`, timeoutMs, 20);
  return Date.now() - from;
}

describe("the devnet chain node of `npm start's` service", () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops at once when the service gets %s',
    async (signal) => {
      const service = startMain(NO_WATCHDOG_IN_TIME);
      await service.url;
      const node = nodePid(service) as number;
      expect(isAnvil(node)).toBe(true);
      process.kill(service.pid, signal);
      await exited(service, 20_000);
      await nodeGone(node, 5_000);
      expect(service.output()).toMatch(new RegExp(`"signal":"${signal}".*"shutting down"`));
      expect(existsSync(join(service.dataDir, 'devnet-chain.pid'))).toBe(false);
    },
    120_000,
  );

  it('stops at once when the service gets SIGTERM while it starts, before it listens', async () => {
    const service = startMain(NO_WATCHDOG_IN_TIME);
    // It never listens.
    service.url.catch(() => {});
    // The node runs before the service sets the chain up (the first boot deploys the reactor and the AMM).
    const node = await until(() => nodePid(service) ?? undefined, 'the devnet node to start', 60_000, 5);
    process.kill(service.pid, 'SIGTERM');
    await exited(service, 10_000);
    expect(service.output()).not.toMatch(/order book API listening/);
    await nodeGone(node, 5_000);
  }, 120_000);

  it('outlives a kill -9 of the service for the grace period; then its watchdog stops it, its state saved for the next start', async () => {
    const first = startMain({ DEVNET_CHAIN_ORPHAN_GRACE_MS: String(GRACE_MS) });
    await first.url;
    const node = nodePid(first) as number;
    const { rpcUrl, reactor } = chainRecord(first.dataDir);
    const head = await devnetClients(rpcUrl, 298).public.getBlockNumber();
    expect(head).toBeGreaterThan(0n);
    const killed = Date.now();
    process.kill(-first.pid, 'SIGKILL');
    await exited(first, 10_000);

    await new Promise((resolve) => setTimeout(resolve, GRACE_MS / 2));
    expect(isAnvil(node)).toBe(true);
    await nodeGone(node, GRACE_MS + 15_000);
    expect(Date.now() - killed).toBeGreaterThanOrEqual(GRACE_MS);
    // The watchdog removes the pid file once the node is gone.
    await until(() => (existsSync(join(first.dataDir, 'devnet-chain.pid')) ? undefined : true), 'the pid file to go', 5_000);

    const second = startMain({ DATA_DIR: first.dataDir, ...NO_WATCHDOG_IN_TIME });
    await second.url;
    expect(readPid(join(first.dataDir, 'devnet-chain.pid'))).not.toBe(node);
    const clients = devnetClients(chainRecord(first.dataDir).rpcUrl, 298);
    expect(await clients.public.getBlockNumber()).toBeGreaterThanOrEqual(head);
    expect(chainRecord(first.dataDir).reactor).toBe(reactor);
    expect(await clients.public.getCode({ address: reactor })).not.toBe(undefined);
    expect(await second.stop()).toBe(0);
  }, 180_000);
});
