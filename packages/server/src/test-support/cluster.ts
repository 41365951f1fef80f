import { randomBytes } from 'node:crypto';
import { type DevnetClients, devnetClients } from '@dex/contracts';
import type { DepthSnapshot } from '@dex/core';
import type { FastifyInstance } from 'fastify';
import type { Address } from 'viem';
import { readDevnetRecord } from '../adapters/chain/devnet-record.js';
import { systemClock } from '../adapters/clock/system-clock.js';
import { closeNats, openNats } from '../adapters/nats/nats-connection.js';
import { openPostgresStore } from '../adapters/postgres/postgres-store.js';
import { DeskEvents } from '../application/desk/desk-events.js';
import { EngineHost } from '../application/desk/engine-host.js';
import { TradingDesk } from '../application/desk/trading-desk.js';
import { MarketRegistry } from '../application/markets/market-registry.js';
import { commandLogNames } from '../composition/cluster-nats.js';
import { type Config, loadConfig } from '../composition/config.js';
import { type RunningEngine, startEngine } from '../composition/engine-role.js';
import { openGatewayServices } from '../composition/gateway-role.js';
import { createLogger } from '../composition/logging.js';
import { listenWith, type RunningServer, type ServedDeps } from '../composition/server.js';
import { signingDomainOf } from '../composition/service-parts.js';
import { type RunningSettler, startSettler } from '../composition/settler-role.js';
import type { Store } from '../ports/store/ports.js';
import { ManualClock } from './manual-clock.js';
import { NATS_TEST_URL } from './nats.js';
import { builtEntry, type ServiceProcess, startServiceProcess } from './service-process.js';
import { tempDataDir } from './temp-data-dir.js';
import type { TraderHost } from './trader.js';
import { until } from './until.js';

/** A cluster in this process, on a test database and NATS subjects of its own: engines, settlers and gateways, restartable. */
export interface TestCluster {
  /** The gateways run in this process (none when they run as processes of their own). */
  readonly gateways: RunningServer<ServedDeps>[];
  /** Every gateway's base URL (`http://127.0.0.1:PORT`), in this process or not. */
  readonly gatewayUrls: string[];
  /** The engines run in this process (none when they run as processes of their own). */
  readonly engines: (RunningEngine | null)[];
  /** SIGKILLs the engine process of `shard` (engines run as processes), and waits until it is gone. */
  killEngine(shard: number): Promise<void>;
  /** SIGKILLs settler process `index` (settlers run as processes), and waits until it is gone. */
  killSettler(index: number): Promise<void>;
  /** SIGKILLs gateway process `index` (gateways run as processes), and waits until it is gone. */
  killGateway(index: number): Promise<void>;
  /** The settler processes' output so far, to see which one is active. */
  settlerOutput(index: number): string;
  /** The devnet chain the settlers share, from its record in DATA_DIR: its clients and the reactor. */
  devnet(): { readonly clients: DevnetClients; readonly reactor: Address };
  /**
   * A trader host on gateway `index`; with settlers in this process, it carries the active one's
   * settlement. A gateway process is reached over HTTP, and its host's services are the store, the
   * registry, the signing domain, the config and the clock only: enough for secp256k1 traders and
   * the operator CLI.
   */
  host(index: number): TraderHost;
  stopEngine(shard: number): Promise<void>;
  /** Starts settler `index` (again): it stands by while another holds the lease. */
  startSettler(index: number): Promise<void>;
  startEngine(shard: number): Promise<void>;
  close(): Promise<void>;
}

export interface TestClusterOptions {
  readonly shards: number;
  readonly gateways: number;
  /** Engines as processes of their own (`main.ts` from source, ROLE=engine), to kill -9; default: in this process. */
  readonly engineProcesses?: boolean;
  /** Settlers on the devnet chain (CHAIN=devnet for every role); default none (CHAIN=off). */
  readonly settlers?: number;
  /** Settlers as processes of their own, to kill -9; default: in this process. */
  readonly settlerProcesses?: boolean;
  /** Gateways as processes of their own, to kill -9; default: in this process. */
  readonly gatewayProcesses?: boolean;
  /** Variables every role gets over the defaults: another NATS_URL, REDIS_URL or DATABASE_URL (a proxy, a private server). */
  readonly env?: Record<string, string>;
}

/** Fastify's `inject` over real HTTP, for the traders of a gateway process. */
function httpApp(base: string): FastifyInstance {
  const inject = async (options: { method?: string; url: string; headers?: Record<string, string>; payload?: object }) => {
    const json = options.payload === undefined ? {} : { 'content-type': 'application/json' };
    const response = await fetch(new URL(options.url, base), {
      method: options.method ?? 'GET',
      headers: { ...options.headers, ...json },
      ...(options.payload === undefined ? {} : { body: JSON.stringify(options.payload) }),
    });
    const body = await response.text();
    return { statusCode: response.status, headers: Object.fromEntries(response.headers), body, json: () => JSON.parse(body) };
  };
  return { inject } as unknown as FastifyInstance;
}

/** The depth of each book as the store at `databaseUrl` holds it, rebuilt as a restarted engine rebuilds its books. */
export async function storedDepths(databaseUrl: string, bookIds: readonly number[]): Promise<Map<number, DepthSnapshot>> {
  const store = await openPostgresStore({ url: databaseUrl });
  try {
    const registry = new MarketRegistry(store);
    await registry.load();
    const engines = new EngineHost(registry);
    const logger = createLogger('silent');
    await TradingDesk.open(registry, engines, store, new ManualClock(), logger, new DeskEvents(logger), {
      confirmCancels: false,
    });
    return new Map(bookIds.map((bookId) => [bookId, engines.engine(bookId)?.depth() ?? { bids: [], asks: [], lastUpdateId: 0 }]));
  } finally {
    await store.close();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The server's main, built: each role a process as `npm run cluster` starts it. */
const MAIN = builtEntry(new URL('../composition/main.ts', import.meta.url));

export async function startTestCluster(databaseUrl: string, options: TestClusterOptions): Promise<TestCluster> {
  const data = tempDataDir();
  const prefix = `test.cluster${randomBytes(4).toString('hex')}`;
  const logger = createLogger(process.env.CLUSTER_LOG_LEVEL === undefined ? 'silent' : 'info');
  const baseEnv = (): Record<string, string> => ({
    DATA_DIR: data.dir,
    CHAIN: (options.settlers ?? 0) > 0 ? 'devnet' : 'off',
    VERIFY_WORKERS: '0',
    DATABASE_URL: databaseUrl,
    NATS_URL: NATS_TEST_URL,
    NATS_PREFIX: prefix,
    ENGINE_SHARDS: String(options.shards),
    COMMAND_TIMEOUT_MS: '1500',
    ...options.env,
  });
  const configOf = (env: Record<string, string>): Config => loadConfig({ ...baseEnv(), ...env });
  const secret = randomBytes(32).toString('hex');
  const engines: (RunningEngine | null)[] = [];
  const processes: (ServiceProcess | null)[] = [];
  const settlers: (RunningSettler | null)[] = [];
  const settlerProcesses: (ServiceProcess | null)[] = [];
  const gateways: RunningServer<ServedDeps>[] = [];
  const gatewayProcesses: (ServiceProcess | null)[] = [];
  const gatewayUrls: string[] = [];
  /** What the HTTP hosts of gateway processes read: the store (at the test's own URL), its registry, the signing domain. */
  let processHost: { store: Store; registry: MarketRegistry; config: Config } | null = null;
  const engineEnv = (shard: number) => ({ ...baseEnv(), ROLE: 'engine', ENGINE_SHARD: String(shard), JWT_SECRET: secret });
  /** Starts a role as a process; a killed engine's lease is free once PostgreSQL sees its connection gone: a moment. */
  const startProcess = async (env: Record<string, string>): Promise<ServiceProcess> => {
    for (let attempt = 1; ; attempt++) {
      const child = startServiceProcess(MAIN, { ...env, LOG_LEVEL: 'info' });
      const started = await child.url.then(
        () => true,
        (error: unknown) => {
          if (attempt >= 10) throw error;
          return false;
        },
      );
      if (started) return child;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  };
  const start = async (shard: number) => {
    if (options.engineProcesses === true) processes[shard] = await startProcess(engineEnv(shard));
    else engines[shard] = await startEngine(configOf(engineEnv(shard)), logger);
  };
  const settlerEnv = { ...baseEnv(), ROLE: 'settler', JWT_SECRET: secret };
  const startSettlerAt = async (index: number) => {
    if (options.settlerProcesses === true) settlerProcesses[index] = await startProcess(settlerEnv);
    else settlers[index] = await startSettler(configOf(settlerEnv), logger);
  };
  const kill = async (child: ServiceProcess | null | undefined, what: string) => {
    if (child === undefined || child === null) throw new Error(`no process for ${what}`);
    process.kill(child.pid, 'SIGKILL');
    await until(() => (isAlive(child.pid) ? undefined : true), `${what} to die`, 5_000, 20);
  };
  const removeCommandStream = async (url: string) => {
    const nats = await openNats(url, 'test cleanup', logger);
    await (await nats.jetstreamManager()).streams.delete(commandLogNames({ natsPrefix: prefix }).stream).catch(() => false);
    await closeNats(nats);
  };
  const close = async () => {
    for (const gateway of gateways.splice(0)) await gateway.close();
    for (const settler of settlers.splice(0)) await settler?.close();
    for (const engine of engines.splice(0)) await engine?.close();
    const children = [...gatewayProcesses.splice(0), ...settlerProcesses.splice(0), ...processes.splice(0)];
    for (const child of children) await child?.stop().catch(() => null);
    await processHost?.store.close();
    processHost = null;
    // A private NATS server of the test may be gone already: its streams go with it.
    await removeCommandStream(baseEnv().NATS_URL ?? NATS_TEST_URL).catch(() => false);
    data.remove();
  };
  const startGateway = async () => {
    const env = { ROLE: 'gateway', PORT: '0', JWT_SECRET: secret };
    if (options.gatewayProcesses !== true) {
      const gateway = await listenWith(await openGatewayServices(configOf(env), logger), logger);
      gateways.push(gateway);
      gatewayUrls.push(gateway.url);
      return;
    }
    const child = await startProcess({ ...baseEnv(), ...env });
    gatewayProcesses.push(child);
    gatewayUrls.push(await child.url);
    if (processHost !== null) return;
    const store = await openPostgresStore({ url: databaseUrl });
    const registry = new MarketRegistry(store);
    processHost = { store, registry, config: configOf(env) };
    await registry.load();
  };
  /** A gateway process's host: requests over HTTP, and what a secp256k1 trader and the operator CLI read. */
  const httpHost = (index: number): TraderHost => {
    const url = gatewayUrls[index];
    if (url === undefined || processHost === null) throw new Error(`no gateway ${index}`);
    const { store, registry, config } = processHost;
    const reactor = (options.settlers ?? 0) > 0 ? (readDevnetRecord(data.dir)?.reactor ?? null) : null;
    const domain = signingDomainOf(config, reactor === null ? null : { reactor });
    const services = { store, registry, config, domain, clock: systemClock };
    return { app: httpApp(url), services: services as unknown as TraderHost['services'] };
  };
  try {
    // Shard 0 first: it seeds the devnet markets the others read.
    for (let shard = 0; shard < options.shards; shard++) await start(shard);
    // The first settler is the active one: it starts the devnet chain the gateways read.
    for (let index = 0; index < (options.settlers ?? 0); index++) {
      await startSettlerAt(index);
      if (index === 0) await settlers[0]?.active;
    }
    for (let index = 0; index < options.gateways; index++) await startGateway();
  } catch (error) {
    await close();
    throw error;
  }
  // Settlers in this process: the first is active, and its chain funds the traders.
  const settlement = settlers[0] === undefined || settlers[0] === null ? null : await settlers[0].active;
  return {
    gateways,
    gatewayUrls,
    engines,
    host: (index) => {
      if (options.gatewayProcesses === true) return httpHost(index);
      const gateway = gateways[index];
      if (gateway === undefined) throw new Error(`no gateway ${index}`);
      return { app: gateway.app, services: { ...gateway.services, settlement } };
    },
    stopEngine: async (shard) => {
      await engines[shard]?.close();
      engines[shard] = null;
      await processes[shard]?.stop();
      processes[shard] = null;
    },
    killEngine: async (shard) => {
      await kill(processes[shard], `engine ${shard}`);
      processes[shard] = null;
    },
    killSettler: async (index) => {
      await kill(settlerProcesses[index], `settler ${index}`);
      settlerProcesses[index] = null;
    },
    killGateway: async (index) => {
      await kill(gatewayProcesses[index], `gateway ${index}`);
      gatewayProcesses[index] = null;
    },
    settlerOutput: (index) => settlerProcesses[index]?.output() ?? '',
    devnet: () => {
      const record = readDevnetRecord(data.dir);
      if (record === null) throw new Error('no devnet chain recorded: the cluster runs without settlers');
      return { clients: devnetClients(record.rpcUrl, record.chainId), reactor: record.reactor };
    },
    startEngine: start,
    startSettler: startSettlerAt,
    close,
  };
}
