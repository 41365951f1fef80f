/**
 * The service in a process of its own, for tests that kill it (kill -9) and start it again on the
 * same data folder. Configured from the environment like main.ts. Messages from the parent:
 * `fund` (a secp256k1 maker and an Ed25519 taker get tokens and reactor allowances), `trade`
 * (`count` trades between them on book 1) and `stop`. It answers `ready`, `funded`, `traded` with
 * the trade ids, and `failed` with a message.
 */
import { BUY, SELL } from '@dex/core';
import { DevnetIssuer } from '../adapters/chain/devnet/devnet-issuer.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import { buildApp } from '../composition/app.js';
import { loadConfig } from '../composition/config.js';
import { createLogger } from '../composition/logging.js';
import { openServices } from '../composition/services.js';
import { Trader } from './trader.js';

export type ServiceParentMessage = { type: 'fund' } | { type: 'trade'; count: number } | { type: 'stop' };
export type ServiceChildMessage =
  | { type: 'ready' }
  | { type: 'funded' }
  | { type: 'traded'; tradeIds: number[] }
  | { type: 'failed'; message: string };

function tell(message: ServiceChildMessage): void {
  process.send?.(message);
}

/** A crash is told to the parent before the exit, so the failing test shows its cause. */
function crash(error: unknown): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (process.send === undefined) process.exit(1);
  process.send({ type: 'failed', message: `the service crashed: ${message}` } satisfies ServiceChildMessage, () =>
    process.exit(1),
  );
}
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

const config = loadConfig(process.env);
const services = await openServices(config, createLogger(config.logLevel), systemClock).catch((error: unknown) => {
  crash(error);
  return new Promise<never>(() => {});
});
const app = await buildApp(services);
await app.ready();
const host = { app, services };

let traders: { maker: Trader; taker: Trader } | undefined;

async function fund(): Promise<void> {
  const { chain } = services;
  if (chain === null) throw new Error('the service runs without a settlement chain');
  const issuer = DevnetIssuer.of(chain);
  const maker = await Trader.secp256k1(host);
  const taker = await Trader.ed25519(host);
  const tokens = await services.store.tokens.list();
  for (const trader of [maker, taker]) {
    await issuer.fund(
      trader.swapper,
      tokens.map((token) => ({ token: token.evmAddress, amount: 1_000n * 10n ** BigInt(token.decimals) })),
    );
  }
  traders = { maker, taker };
}

async function trade(count: number): Promise<number[]> {
  if (traders === undefined) throw new Error('fund first');
  const { maker, taker } = traders;
  // `count` asks of one size step at 1.00000, then one bid that takes them all: `count` trades.
  await maker.place(Array.from({ length: count }, () => maker.limitRequest(1, SELL, 100_000, 1)));
  const bid = await taker.limit(1, BUY, 100_000, count);
  const { trades } = await services.store.trades.page(1, 'desc', 0, count);
  return trades.filter((trade) => trade.takerOrderId === bid.id).map((trade) => trade.id);
}

process.on('message', (message: ServiceParentMessage) => {
  if (message.type === 'stop') {
    void app
      .close()
      .then(() => services.close())
      .then(() => process.exit(0));
    return;
  }
  const failed = (error: unknown) => tell({ type: 'failed', message: String(error) });
  if (message.type === 'fund') fund().then(() => tell({ type: 'funded' }), failed);
  else trade(message.count).then((tradeIds) => tell({ type: 'traded', tradeIds }), failed);
});
tell({ type: 'ready' });
