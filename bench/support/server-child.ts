/**
 * The server of the benchmarks (bench/orders.ts, bench/ws.ts, bench/data-api.ts), in its own process
 * so the client's work does not share its event loop. Started by bench/support/server-process.ts with
 * an IPC channel; configured from the environment like main.ts (DATA_DIR, PORT=0, HOST, LOG_LEVEL,
 * VERIFY_WORKERS, ORDER_RATE_LIMIT, WS_*, DATA_API_*).
 *
 * Messages from the parent: `register` (raw Ed25519 public keys to enter in the devnet account
 * registry, as the operator CLI's `account create` does), `memory` and `stop`. It answers `ready`
 * with the URLs it listens on (REST and data API), `registered` with the new account ids, `memory`
 * with its process.memoryUsage(), and `failed` with a message.
 */
import { rmSync } from 'node:fs';
import type { Eip712Domain } from '@dex/core';
import { DevnetAccountKeys } from '../../packages/server/src/accounts/devnet-account-keys.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { createLogger } from '../../packages/server/src/logging.js';
import { type RunningServer, startServer } from '../../packages/server/src/server.js';

export type ParentMessage = { type: 'register'; publicKeys: string[] } | { type: 'memory' } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; url: string; dataApiUrl: string; verifyWorkers: number; domain: Eip712Domain }
  | { type: 'registered'; accountIds: string[] }
  | { type: 'memory'; rss: number; heapUsed: number; external: number }
  | { type: 'failed'; message: string };

function tell(message: ChildMessage): void {
  process.send?.(message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function register(server: RunningServer, publicKeys: readonly string[]): Promise<string[]> {
  const registry = new DevnetAccountKeys(server.services.store.accountKeys);
  const tokenIds = new Set((await server.services.store.tokens.list()).map((token) => token.id));
  const accountIds: string[] = [];
  for (const hex of publicKeys) {
    const record = await registry.registerNew(
      'ED25519',
      Uint8Array.from(Buffer.from(hex, 'hex')),
      server.services.clock.now(),
      tokenIds,
    );
    accountIds.push(record.accountId);
  }
  return accountIds;
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('no IPC channel: bench/support/server-process.ts starts this server');
  const config = loadConfig(process.env);
  const server = await startServer(config, createLogger(config.logLevel));
  let stopping: Promise<void> | undefined;
  const stop = (code: number): Promise<void> => {
    stopping ??= server.close().then(
      () => process.exit(code),
      () => process.exit(1),
    );
    return stopping;
  };
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') {
      void stop(0);
      return;
    }
    if (message.type === 'memory') {
      const { rss, heapUsed, external } = process.memoryUsage();
      tell({ type: 'memory', rss, heapUsed, external });
      return;
    }
    register(server, message.publicKeys).then(
      (accountIds) => tell({ type: 'registered', accountIds }),
      (error: unknown) => tell({ type: 'failed', message: messageOf(error) }),
    );
  });
  // The benchmark went away without saying stop: do not outlive it, nor leave its temporary store behind.
  process.on('disconnect', () => {
    stopping ??= server.close().finally(() => {
      rmSync(config.dataDir, { recursive: true, force: true });
      process.exit(1);
    });
  });
  tell({
    type: 'ready',
    url: server.url,
    dataApiUrl: server.dataApiUrl,
    verifyWorkers: config.verifyWorkers,
    domain: server.services.domain,
  });
}

main().catch((error: unknown) => {
  tell({ type: 'failed', message: messageOf(error) });
  process.exit(1);
});
