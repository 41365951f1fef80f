/**
 * The engines of a cluster for `--cluster` runs: a PostgreSQL database of the run's own on the
 * local server, and one engine process per shard (packages/server main.ts, ROLE=engine) on the
 * local NATS. The benchmark's server child then runs as the cluster's gateway with `gatewayEnv`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import postgres from 'postgres';
import { closeNats, openNats } from '../../packages/server/src/adapters/nats/nats-connection.js';
import { commandLogNames } from '../../packages/server/src/composition/cluster-nats.js';
import { createLogger } from '../../packages/server/src/composition/logging.js';

const MAIN = new URL('../../packages/server/src/composition/main.ts', import.meta.url);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const ENGINE_START_MS = 60_000;

export interface ClusterProcesses {
  /** The environment of the cluster's gateway. */
  readonly gatewayEnv: Readonly<Record<string, string>>;
  readonly enginePids: readonly number[];
  stop(): Promise<void>;
}

function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Starts an engine and resolves once it follows its command log; rejects if it exits first. */
function startEngine(shard: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(MAIN, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, ROLE: 'engine', ENGINE_SHARD: String(shard), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`engine ${shard} did not start in time`)), ENGINE_START_MS);
    // Read to the end, so a full pipe never blocks the engine.
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (!line.includes('engine following its command log')) return;
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`engine ${shard} exited with ${code}`));
    });
  });
}

/** A PostgreSQL database of the run's own: the environment that points a server at it, and its drop. */
export async function startDatabase(): Promise<{ env: { DATABASE_URL: string }; drop(): Promise<void> }> {
  const database = `bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${database}`);
  return {
    env: { DATABASE_URL: databaseUrl(database) },
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/** A database, NATS subjects and `shards` engines of the run's own; `stop` ends the engines and drops both. */
export async function startClusterProcesses(shards: number, dataDir: string): Promise<ClusterProcesses> {
  const token = randomBytes(4).toString('hex');
  const database = await startDatabase();
  const env = {
    DATA_DIR: dataDir,
    CHAIN: 'off',
    NETWORK: 'devnet',
    ...database.env,
    NATS_URL,
    NATS_PREFIX: `bench.cluster${token}`,
    ENGINE_SHARDS: String(shards),
    JWT_SECRET: randomBytes(32).toString('hex'),
  };
  const engines: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      engines.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    const nats = await openNats(NATS_URL, 'bench cleanup', createLogger('silent'));
    await (await nats.jetstreamManager()).streams
      .delete(commandLogNames({ natsPrefix: env.NATS_PREFIX }).stream)
      .catch(() => false);
    await closeNats(nats);
    await database.drop();
  };
  try {
    // Shard 0 first: it seeds the markets.
    for (let shard = 0; shard < shards; shard++) engines.push(await startEngine(shard, env));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    gatewayEnv: Object.fromEntries([...Object.entries(env).filter(([name]) => name !== 'DATA_DIR'), ['ROLE', 'gateway']]),
    enginePids: engines.map((child) => child.pid ?? 0),
    stop,
  };
}
