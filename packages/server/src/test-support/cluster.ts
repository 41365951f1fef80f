import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { closeNats, openNats } from '../adapters/nats/nats-connection.js';
import { commandLogNames } from '../composition/cluster-nats.js';
import { type Config, loadConfig } from '../composition/config.js';
import { type RunningEngine, startEngine } from '../composition/engine-role.js';
import { openGatewayServices } from '../composition/gateway-role.js';
import { createLogger } from '../composition/logging.js';
import { listenWith, type RunningServer, type ServedDeps } from '../composition/server.js';
import { tempDataDir, until } from './harness.js';
import { NATS_TEST_URL } from './nats.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';

/** A cluster in this process, on a test database and NATS subjects of its own: engines and gateways, restartable. */
export interface TestCluster {
  readonly gateways: RunningServer<ServedDeps>[];
  /** The engines run in this process (none when they run as processes of their own). */
  readonly engines: (RunningEngine | null)[];
  /** SIGKILLs the engine process of `shard` (engines run as processes), and waits until it is gone. */
  killEngine(shard: number): Promise<void>;
  /** A trader host on gateway `index`. */
  host(index: number): { app: FastifyInstance; services: ServedDeps };
  stopEngine(shard: number): Promise<void>;
  startEngine(shard: number): Promise<void>;
  close(): Promise<void>;
}

export interface TestClusterOptions {
  readonly shards: number;
  readonly gateways: number;
  /** Engines as processes of their own (`main.ts` from source, ROLE=engine), to kill -9; default: in this process. */
  readonly engineProcesses?: boolean;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const MAIN = new URL('../composition/main.ts', import.meta.url);

export async function startTestCluster(databaseUrl: string, options: TestClusterOptions): Promise<TestCluster> {
  const data = tempDataDir();
  const prefix = `test.cluster${randomBytes(4).toString('hex')}`;
  const logger = createLogger(process.env.CLUSTER_LOG_LEVEL === undefined ? 'silent' : 'info');
  const baseEnv = (): Record<string, string> => ({
    DATA_DIR: data.dir,
    CHAIN: 'off',
    VERIFY_WORKERS: '0',
    DATABASE_URL: databaseUrl,
    NATS_URL: NATS_TEST_URL,
    NATS_PREFIX: prefix,
    ENGINE_SHARDS: String(options.shards),
    COMMAND_TIMEOUT_MS: '1500',
  });
  const configOf = (env: Record<string, string>): Config => loadConfig({ ...baseEnv(), ...env });
  const secret = randomBytes(32).toString('hex');
  const engines: (RunningEngine | null)[] = [];
  const processes: (ServiceProcess | null)[] = [];
  const gateways: RunningServer<ServedDeps>[] = [];
  const engineEnv = (shard: number) => ({ ...baseEnv(), ROLE: 'engine', ENGINE_SHARD: String(shard), JWT_SECRET: secret });
  const start = async (shard: number) => {
    if (options.engineProcesses === true) {
      // The lease of a killed engine is free once PostgreSQL sees its connection gone: a moment.
      for (let attempt = 1; ; attempt++) {
        const child = startServiceProcess(MAIN, { ...engineEnv(shard), LOG_LEVEL: 'info' });
        processes[shard] = child;
        const started = await child.url.then(
          () => true,
          (error: unknown) => {
            if (attempt >= 10) throw error;
            return false;
          },
        );
        if (started) break;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    } else {
      engines[shard] = await startEngine(configOf(engineEnv(shard)), logger);
    }
  };
  const close = async () => {
    for (const gateway of gateways.splice(0)) await gateway.close();
    for (const engine of engines.splice(0)) await engine?.close();
    for (const child of processes.splice(0)) await child?.stop().catch(() => null);
    const nats = await openNats(NATS_TEST_URL, 'test cleanup', logger);
    await (await nats.jetstreamManager()).streams.delete(commandLogNames({ natsPrefix: prefix }).stream).catch(() => false);
    await closeNats(nats);
    data.remove();
  };
  try {
    // Shard 0 first: it seeds the devnet markets the others read.
    for (let shard = 0; shard < options.shards; shard++) await start(shard);
    for (let index = 0; index < options.gateways; index++) {
      const config = configOf({ ROLE: 'gateway', PORT: '0', JWT_SECRET: secret });
      gateways.push(await listenWith(await openGatewayServices(config, logger), logger));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    gateways,
    engines,
    host: (index) => {
      const gateway = gateways[index];
      if (gateway === undefined) throw new Error(`no gateway ${index}`);
      return { app: gateway.app, services: gateway.services };
    },
    stopEngine: async (shard) => {
      await engines[shard]?.close();
      engines[shard] = null;
      await processes[shard]?.stop();
      processes[shard] = null;
    },
    killEngine: async (shard) => {
      const child = processes[shard];
      if (child === undefined || child === null) throw new Error(`no engine process for shard ${shard}`);
      processes[shard] = null;
      process.kill(child.pid, 'SIGKILL');
      await until(() => (isAlive(child.pid) ? undefined : true), `engine ${shard} to die`, 5_000, 20);
    },
    startEngine: start,
    close,
  };
}
