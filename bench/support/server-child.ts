/**
 * The server of the benchmarks, in its own process so the client's work does not share its event
 * loop. Started by bench/support/server-process.ts with an IPC channel; configured from the
 * environment like main.ts (DATA_DIR, PORT=0, HOST, LOG_LEVEL, VERIFY_WORKERS, ORDER_RATE_LIMIT,
 * WS_*, DATA_API_*, and CHAIN=devnet with SETTLEMENT_* for bench/settlement.ts).
 *
 * Messages from the parent: `register` (raw Ed25519 public keys to enter in the devnet account
 * registry, as the operator CLI's `account create` does, and, with a settlement chain, to publish
 * at 0x16a where the reactor checks them), `fund` (test tokens and the reactor allowance for EVM
 * addresses on the settlement chain, through the devnet issuer), `bot` (starts `npm start`'s
 * market-making bot and pool drift beside the server), `memory`, `metrics` and `stop`. It answers `ready`
 * with what the benchmark reads afterwards (URLs, the store file, the settlement chain),
 * `registered` with the new accounts (ids and EVM addresses), `funded`, `bot-started`, `memory`
 * with its process.memoryUsage(), `metrics` with the metrics text (METRICS_PORT set), and `failed` with a message.
 */
import { rmSync } from 'node:fs';
import type { Eip712Domain } from '@dex/core';
import { type LiveDevnet, startLiveDevnet } from '../../packages/devnet/src/live-devnet.js';
import { DevnetAccountKeys } from '../../packages/server/src/adapters/accounts/devnet-account-keys.js';
import { DevnetIssuer } from '../../packages/server/src/adapters/chain/devnet/devnet-issuer.js';
import type { ChainReader } from '../../packages/server/src/adapters/chain/reads/chain-reader.js';
import { loadConfig } from '../../packages/server/src/composition/config.js';
import { openGatewayServices } from '../../packages/server/src/composition/gateway-role.js';
import { createLogger } from '../../packages/server/src/composition/logging.js';
import { listenWith, type RunningServer, type ServedDeps, startServer } from '../../packages/server/src/composition/server.js';
import { storeFile } from '../../packages/server/src/composition/store-choice.js';

export type ParentMessage =
  | { type: 'register'; publicKeys: string[] }
  | { type: 'fund'; accounts: string[]; tokens: { token: string; amount: string }[] }
  | { type: 'memory' }
  | { type: 'metrics' }
  | { type: 'bot' }
  | { type: 'stop' };

/** The settlement chain of a server started with CHAIN=devnet. */
export interface SettlementFacts {
  readonly rpcUrl: string;
  readonly reactor: string;
  readonly batchFills: number;
  readonly txGasLimit: number;
}

export type ChildMessage =
  | {
      type: 'ready';
      url: string;
      dataApiUrl: string;
      verifyWorkers: number;
      domain: Eip712Domain;
      storeFile: string;
      settlement: SettlementFacts | null;
    }
  | { type: 'registered'; accountIds: string[]; evmAddresses: string[] }
  | { type: 'funded' }
  | { type: 'bot-started' }
  | { type: 'memory'; rss: number; heapUsed: number; external: number }
  | { type: 'metrics'; text: string }
  | { type: 'failed'; message: string };

/** The whole service (ROLE=all), or a cluster's gateway (ROLE=gateway, for `--cluster`), which reads the chain and settles nothing. */
type BenchServer = RunningServer<ServedDeps & { readonly chain: ChainReader | null }>;

function tell(message: ChildMessage): void {
  process.send?.(message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function issuerOf(server: BenchServer): DevnetIssuer | null {
  const { chain } = server.services;
  return chain === null ? null : DevnetIssuer.of(chain);
}

async function register(server: BenchServer, publicKeys: readonly string[]): Promise<ChildMessage> {
  const registry = new DevnetAccountKeys(server.services.store.accountKeys);
  const tokenIds = new Set((await server.services.store.tokens.list()).map((token) => token.id));
  const issuer = issuerOf(server);
  const accountIds: string[] = [];
  const evmAddresses: string[] = [];
  for (const hex of publicKeys) {
    const record = await registry.registerNew(
      'ED25519',
      Uint8Array.from(Buffer.from(hex, 'hex')),
      server.services.clock.now(),
      tokenIds,
    );
    await issuer?.publishKey(record);
    accountIds.push(record.accountId);
    evmAddresses.push(record.evmAddress);
  }
  return { type: 'registered', accountIds, evmAddresses };
}

/** The service's metrics as its metrics listener serves them (METRICS_PORT set), for figures the benchmark reads from inside. */
async function metricsText(server: BenchServer): Promise<ChildMessage> {
  const exposition = server.services.metricsExposition;
  if (exposition === null) throw new Error('the server has no metrics: start it with METRICS_PORT');
  return { type: 'metrics', text: await exposition.text() };
}

async function fund(server: BenchServer, message: Extract<ParentMessage, { type: 'fund' }>): Promise<ChildMessage> {
  const issuer = issuerOf(server);
  if (issuer === null) throw new Error('funding needs a settlement chain: start the server with CHAIN=devnet');
  const tokens = message.tokens.map(({ token, amount }) => ({ token, amount: BigInt(amount) }));
  for (const account of message.accounts) await issuer.fund(account, tokens);
  return { type: 'funded' };
}

function settlementFacts(server: BenchServer): SettlementFacts | null {
  const { chain, config } = server.services;
  if (chain === null || config.chain.kind === 'off') return null;
  return {
    rpcUrl: chain.public.chain.rpcUrls.default.http[0] ?? '',
    reactor: chain.reactor,
    batchFills: config.chain.settlement.batchFills,
    txGasLimit: config.chain.settlement.txGasLimit,
  };
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('no IPC channel: bench/support/server-process.ts starts this server');
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const server: BenchServer =
    config.cluster.role === 'all'
      ? await startServer(config, logger)
      : await listenWith(await openGatewayServices(config, logger), logger);
  let bot: LiveDevnet | undefined;
  /** The bot of `npm start` beside the server, as its live devnet runs it. */
  const startBot = async (): Promise<ChildMessage> => {
    bot ??= startLiveDevnet(server, config.marketMaker ?? { intervalMs: 2_000 }, logger);
    if ((await bot.started) === undefined) throw new Error('the bot did not start (see the server log)');
    return { type: 'bot-started' };
  };
  // The bot first: it cancels its resting orders through the server.
  const close = (): Promise<void> =>
    Promise.resolve(bot?.stop())
      .catch(() => undefined)
      .then(() => server.close());
  let stopping: Promise<void> | undefined;
  const stop = (code: number): Promise<void> => {
    stopping ??= close().then(
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
    const work =
      message.type === 'register'
        ? register(server, message.publicKeys)
        : message.type === 'bot'
          ? startBot()
          : message.type === 'metrics'
            ? metricsText(server)
            : fund(server, message);
    work.then(tell, (error: unknown) => tell({ type: 'failed', message: messageOf(error) }));
  });
  // The benchmark went away without saying stop: do not outlive it, nor leave its temporary store behind.
  process.on('disconnect', () => {
    stopping ??= close().finally(() => {
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
    storeFile: storeFile(config),
    settlement: settlementFacts(server),
  });
}

main().catch((error: unknown) => {
  tell({ type: 'failed', message: messageOf(error) });
  process.exit(1);
});
