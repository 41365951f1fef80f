import { Writable } from 'node:stream';
import { BUY, SELL } from '@dex/core';
import type { FastifyInstance } from 'fastify';
import { buildApp, buildDataApiApp } from '../composition/app.js';
import { type Config, loadConfig } from '../composition/config.js';
import { createLogger } from '../composition/logging.js';
import { operatorIo } from '../composition/operator-wiring.js';
import { openServices, type Services } from '../composition/services.js';
import { runOperator } from '../edges/cli/operator.js';
import { buildMetricsApp } from '../edges/http/metrics/metrics-app.js';
import { DEVNET_ADDRESS } from './devnet-addresses.js';
import { ManualClock } from './manual-clock.js';
import { tempDataDir } from './temp-data-dir.js';
import { type OrderRequestBody, Trader, type TraderHost } from './trader.js';

export { type DataApiHost, dataGet, quotaHeaders } from './data-api-client.js';
export { DEVNET_ADDRESS } from './devnet-addresses.js';
export { ManualClock, RealTimeClock } from './manual-clock.js';
export { builtEntry, cleanUpServiceProcesses, type ServiceProcess, startServiceProcess } from './service-process.js';
export { tempDataDir } from './temp-data-dir.js';
export { type BuiltOrder, type OrderRequestBody, type Reply, type SavedMeta, Trader, type TraderHost, wireOf } from './trader.js';
export { until } from './until.js';

export interface HarnessOptions {
  /** Listen on 127.0.0.1 (a free port, kept across restarts) for real sockets: WebSocket tests. */
  readonly listen?: boolean;
  /** The clock of the services; default: a manual clock at 2026-11-22 12:00 UTC. */
  readonly clock?: ManualClock;
}

export interface Harness {
  readonly app: FastifyInstance;
  /** The app that serves the data API: `app`, or its own app when DATA_API_PORT is set. */
  readonly dataApi: FastifyInstance;
  /** Base URL of the listening server (`http://127.0.0.1:PORT`); only with the `listen` option. */
  readonly url: string;
  /** Base URL of the metrics listener (`GET /metrics`); only with METRICS_PORT set (it always listens, on 127.0.0.1). */
  readonly metricsUrl: string;
  readonly services: Services;
  readonly clock: ManualClock;
  readonly config: Config;
  /** Every log line written so far, as text. */
  readonly logs: () => string;
  /**
   * Stops the app and opens it again on the same data folder and clock, as a process restart would;
   * `whileDown` runs in between (to move the clock, or change DATA_DIR, while nothing runs).
   */
  restart(whileDown?: () => void | Promise<void>): Promise<void>;
  close(): Promise<void>;
}

function listeningPort(app: FastifyInstance): number {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the harness server has no TCP address');
  return address.port;
}

/**
 * The real app on a real SQLite file in a temporary folder, seeded with the devnet markets, with a
 * manual clock and captured logs; with `listen`, also on a real port of 127.0.0.1. Tests on the
 * devnet chain pass a clock near the real time, since the chain's blocks carry the real time and
 * check deadlines against it.
 */
export async function startHarness(env: Record<string, string> = {}, options: HarnessOptions = {}): Promise<Harness> {
  const data = tempDataDir();
  // Settlement is off unless a test asks for the devnet chain (CHAIN=devnet).
  const config = loadConfig({ DATA_DIR: data.dir, LOG_LEVEL: 'info', VERIFY_WORKERS: '0', CHAIN: 'off', ...env });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const clock = options.clock ?? new ManualClock();
  let port = 0;
  let metricsPort = config.metricsPort ?? 0;
  const open = async () => {
    const services = await openServices(config, createLogger(config.logLevel, sink), clock);
    const app = await buildApp(services);
    await app.ready();
    const dataApi = config.dataApi.port === null ? app : await buildDataApiApp(services);
    await dataApi.ready();
    if (options.listen === true) {
      await app.listen({ host: '127.0.0.1', port });
      port = listeningPort(app);
    }
    const exposition = services.metricsExposition;
    const metrics = exposition === null ? undefined : await buildMetricsApp(exposition, services.logger);
    if (metrics !== undefined) {
      await metrics.listen({ host: '127.0.0.1', port: metricsPort });
      metricsPort = listeningPort(metrics);
    }
    return { services, app, dataApi, metrics };
  };
  let running: Awaited<ReturnType<typeof open>>;
  try {
    running = await open();
  } catch (error) {
    data.remove();
    throw error;
  }
  const stop = async () => {
    await Promise.all([running.app.close(), running.dataApi.close(), running.metrics?.close()]);
    await running.services.close();
  };
  return {
    get app() {
      return running.app;
    },
    get dataApi() {
      return running.dataApi;
    },
    get services() {
      return running.services;
    },
    get url() {
      if (port === 0) throw new Error('startHarness(env, { listen: true }) serves a URL; this harness does not listen');
      return `http://127.0.0.1:${port}`;
    },
    get metricsUrl() {
      if (running.metrics === undefined) throw new Error('startHarness serves metrics only with METRICS_PORT set');
      return `http://127.0.0.1:${metricsPort}`;
    },
    clock,
    config,
    logs: () => lines.join(''),
    restart: async (whileDown: () => void | Promise<void> = () => {}) => {
      await stop();
      await whileDown();
      running = await open();
    },
    close: async () => {
      await stop();
      data.remove();
    },
  };
}

/** A build request of book 1 that builds: sell 1 WHBAR for 0.25 USDC. */
export const WHBAR_SELL_REQUEST = {
  orderbookId: 1,
  type: 'LIMIT',
  inputToken: DEVNET_ADDRESS.WHBAR,
  inputAmount: '100000000',
  outputToken: DEVNET_ADDRESS.USDC,
  outputAmount: '250000',
} as const satisfies OrderRequestBody;

/**
 * Book 1 (WHBAR/USDC, tick 0.00001, size step 0.1 WHBAR): asks 2 @ 0.25 and 3 @ 0.251, and a bid of
 * 5 @ 0.249, as real signed orders of one maker wallet, which it returns.
 */
export async function seedBookOneDepth(host: TraderHost): Promise<Trader> {
  const maker = await Trader.secp256k1(host);
  await maker.place([
    maker.limitRequest(1, SELL, 25_000, 20),
    maker.limitRequest(1, SELL, 25_100, 30),
    maker.limitRequest(1, BUY, 24_900, 50),
  ]);
  return maker;
}

/**
 * Two takers on the depth of {@link seedBookOneDepth}: 0.5 WHBAR, then (after `between`) 2.5
 * (1.5 @ 0.25 and 1 @ 0.251): three trades, last price 0.251.
 */
export async function tradeOnBookOne(host: TraderHost, between: () => void = () => {}): Promise<Trader> {
  const taker = await Trader.secp256k1(host);
  await taker.limit(1, BUY, 25_000, 5);
  between();
  await taker.limit(1, BUY, 25_100, 25);
  return taker;
}

export interface IssuedApiKey {
  readonly id: number;
  readonly key: string;
}

export interface OperatorRun {
  readonly code: number;
  /** Standard output and error, in order. */
  readonly out: string;
}

/**
 * Runs an operator CLI command on the store of the running services, as `npm run cli` would beside
 * the server (with the devnet chain it runs, when it runs one).
 */
export async function runOperatorOn(host: TraderHost, ...argv: string[]): Promise<OperatorRun> {
  const { store, config, clock } = host.services;
  const out: string[] = [];
  const io = operatorIo({
    store,
    network: config.network,
    clock,
    out: (line) => out.push(line),
    err: (line) => out.push(line),
    devnetDataDir: config.dataDir,
  });
  const code = await runOperator(argv, io);
  return { code, out: out.join('\n') };
}

/** Issues a data API key with the operator CLI, on the store of the running services. */
export async function issueApiKey(
  host: TraderHost,
  quota: number,
  options: { overage?: boolean; environment?: string; name?: string } = {},
): Promise<IssuedApiKey> {
  const argv = ['apikey', 'issue', '--name', options.name ?? 'test client', '--quota', String(quota), '--json'];
  if (options.overage === true) argv.push('--overage');
  if (options.environment !== undefined) argv.push('--environment', options.environment);
  const { code, out } = await runOperatorOn(host, ...argv);
  if (code !== 0) throw new Error(`apikey issue failed: ${out}`);
  const issued = JSON.parse(out) as IssuedApiKey;
  return { id: issued.id, key: issued.key };
}
