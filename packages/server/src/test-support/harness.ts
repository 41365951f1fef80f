import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { BUY, type EngineCommand, type PlaceOrder, SELL, type Side } from '@dex/core';
import { limit } from '@dex/core/test-support';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { DEVNET_TOKENS } from '../devnet/seed.js';
import type { EngineHost } from '../engine/engine-host.js';
import { createLogger } from '../logging.js';
import { openServices, type Services } from '../services.js';
import type { Clock } from '../util/clock.js';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(public time = Date.UTC(2026, 10, 22, 12, 0, 0)) {}

  now(): number {
    return this.time;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

export interface Harness {
  readonly app: FastifyInstance;
  readonly services: Services;
  readonly clock: ManualClock;
  readonly config: Config;
  /** Every log line written so far, as text. */
  readonly logs: () => string;
  close(): Promise<void>;
}

/** A temporary data folder, removed by the returned function. */
export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'dex-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The real app on a real SQLite file in a temporary folder, seeded with the devnet markets, with a
 * manual clock and captured logs.
 */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const data = tempDataDir();
  const config = loadConfig({ DATA_DIR: data.dir, LOG_LEVEL: 'info', ...env });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const clock = new ManualClock();
  const services = await openServices(config, createLogger(config.logLevel, sink), clock);
  const app = await buildApp(services);
  await app.ready();
  return {
    app,
    services,
    clock,
    config,
    logs: () => lines.join(''),
    close: async () => {
      await app.close();
      await services.close();
      data.remove();
    },
  };
}

let nextOrderId = 1;

/** A GTC limit order command in grid units (price in ticks, quantity in size steps), with a fresh id. */
export function limitOrder(
  side: Side,
  price: number,
  quantity: number,
  time: number,
  extra: Partial<PlaceOrder> = {},
): EngineCommand {
  return { type: 'place', ...limit(nextOrderId++, side, price, quantity, { time, ...extra }) };
}

/** EVM addresses of the devnet seed's tokens, by symbol. */
export const DEVNET_ADDRESS = Object.fromEntries(DEVNET_TOKENS.map((token) => [token.symbol, token.evmAddress])) as Record<
  'WHBAR' | 'USDC' | 'SAUCE',
  string
>;

/**
 * Book 1 (WHBAR/USDC, tick 0.00001, size step 0.1 WHBAR): asks 2 @ 0.25 and 3 @ 0.251, and a bid of
 * 5 @ 0.249.
 */
export async function seedBookOneDepth(engines: EngineHost, time: number): Promise<void> {
  await engines.submit(1, [
    limitOrder(SELL, 25_000, 20, time),
    limitOrder(SELL, 25_100, 30, time),
    limitOrder(BUY, 24_900, 50, time),
  ]);
}

/**
 * Two takers on the depth of {@link seedBookOneDepth}: 0.5 WHBAR at `time`, then 2.5 a second later
 * (1.5 @ 0.25 and 1 @ 0.251): three trades, last price 0.251.
 */
export async function tradeOnBookOne(engines: EngineHost, time: number): Promise<void> {
  await engines.submit(1, [limitOrder(BUY, 25_000, 5, time)]);
  await engines.submit(1, [limitOrder(BUY, 25_100, 25, time + 1_000)]);
}
