import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { closeNats, openNats } from '../adapters/nats/nats-connection.js';
import { commandLogNames } from '../composition/cluster-nats.js';
import { type Config, loadConfig } from '../composition/config.js';
import { type RunningEngine, startEngine } from '../composition/engine-role.js';
import { openGatewayServices } from '../composition/gateway-role.js';
import { createLogger } from '../composition/logging.js';
import { listenWith, type RunningServer, type ServedDeps } from '../composition/server.js';
import { tempDataDir } from './harness.js';
import { NATS_TEST_URL } from './nats.js';

/** A cluster in this process, on a test database and NATS subjects of its own: engines and gateways, restartable. */
export interface TestCluster {
  readonly gateways: RunningServer<ServedDeps>[];
  readonly engines: (RunningEngine | null)[];
  /** A trader host on gateway `index`. */
  host(index: number): { app: FastifyInstance; services: ServedDeps };
  stopEngine(shard: number): Promise<void>;
  startEngine(shard: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTestCluster(databaseUrl: string, options: { shards: number; gateways: number }): Promise<TestCluster> {
  const data = tempDataDir();
  const prefix = `test.cluster${randomBytes(4).toString('hex')}`;
  const logger = createLogger(process.env.CLUSTER_LOG_LEVEL === undefined ? 'silent' : 'info');
  const configOf = (env: Record<string, string>): Config =>
    loadConfig({
      DATA_DIR: data.dir,
      CHAIN: 'off',
      VERIFY_WORKERS: '0',
      DATABASE_URL: databaseUrl,
      NATS_URL: NATS_TEST_URL,
      NATS_PREFIX: prefix,
      ENGINE_SHARDS: String(options.shards),
      COMMAND_TIMEOUT_MS: '1500',
      JWT_SECRET: randomBytes(32).toString('hex'),
      ...env,
    });
  const secret = randomBytes(32).toString('hex');
  const engines: (RunningEngine | null)[] = [];
  const gateways: RunningServer<ServedDeps>[] = [];
  const start = async (shard: number) => {
    engines[shard] = await startEngine(configOf({ ROLE: 'engine', ENGINE_SHARD: String(shard), JWT_SECRET: secret }), logger);
  };
  const close = async () => {
    for (const gateway of gateways.splice(0)) await gateway.close();
    for (const engine of engines.splice(0)) await engine?.close();
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
    },
    startEngine: start,
    close,
  };
}
