import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { EngineCommand, PlaceOrder, Side } from '@dex/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
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

/** A GTC limit order command in grid units, with a fresh id. */
export function limitOrder(
  side: Side,
  price: number,
  quantity: number,
  time: number,
  extra: Partial<PlaceOrder> = {},
): EngineCommand {
  return {
    type: 'place',
    id: nextOrderId++,
    side,
    price,
    quantity,
    timeInForce: 'GTC',
    makerOnly: false,
    takerOnce: false,
    time,
    ...extra,
  };
}
