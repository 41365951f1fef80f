import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { isAnvil, processLives, readPid } from '@dex/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { devnetPidFile } from '../adapters/chain/devnet/embedded-devnet.js';
import { NATS_AVAILABLE, NATS_TEST_URL } from '../test-support/nats.js';
import { REDIS_AVAILABLE, REDIS_TEST_URL } from '../test-support/redis.js';
import { builtEntry } from '../test-support/service-process.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../test-support/store-engines.js';
import { tempDataDir } from '../test-support/temp-data-dir.js';
import { until } from '../test-support/until.js';

/** `npm run cluster`: the built launcher, running the server's built main for each role. */
const LAUNCHER = fileURLToPath(builtEntry(new URL('./cluster-main.ts', import.meta.url)));
const MAIN = fileURLToPath(builtEntry(new URL('./main.ts', import.meta.url)));

interface Launcher {
  readonly child: ChildProcess;
  readonly dataDir: string;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

const cleanUps: (() => void)[] = [];
afterEach(() => {
  for (const cleanUp of cleanUps.splice(0)) cleanUp();
});

/** Whether any process of the group still runs. */
function groupRuns(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The launcher with one engine, one gateway and two settlers on the devnet chain, in a process
 * group of its own (so that a test can Ctrl-C it as a terminal does); resolves once it says the
 * cluster is up.
 */
async function startCluster(databaseUrl: string): Promise<Launcher> {
  const data = tempDataDir();
  const child = spawn(process.execPath, [LAUNCHER, MAIN], {
    detached: true,
    env: {
      ...process.env,
      DATA_DIR: data.dir,
      DATABASE_URL: databaseUrl,
      NATS_URL: NATS_TEST_URL,
      NATS_PREFIX: `test.launcher${randomBytes(4).toString('hex')}`,
      REDIS_URL: REDIS_TEST_URL,
      CLUSTER_ENGINES: '1',
      CLUSTER_GATEWAYS: '1',
      CLUSTER_SETTLERS: '2',
      PORT: '0',
      MARKET_MAKER: 'false',
      VERIFY_WORKERS: '0',
      LOG_LEVEL: 'info',
      // Longer than the test: a node gone within it was stopped by its settler, not by its watchdog.
      DEVNET_CHAIN_ORPHAN_GRACE_MS: '600000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const group = child.pid as number;
  cleanUps.push(() => {
    if (groupRuns(group)) process.kill(-group, 'SIGKILL');
    const node = readPid(devnetPidFile(data.dir));
    if (node !== null && processLives(node)) process.kill(node, 'SIGKILL');
    data.remove();
  });
  const output = () => chunks.join('');
  await until(() => (/cluster up/.test(output()) ? true : undefined), `the cluster to start:\n${output()}`, 120_000, 100);
  return { child, dataDir: data.dir, output, exited };
}

describe.skipIf(!POSTGRES_AVAILABLE || !NATS_AVAILABLE || !REDIS_AVAILABLE)('`npm run cluster` on the devnet chain', () => {
  const database = usePostgresDatabase('each', 'cluster_launcher');

  it.each([
    ['SIGTERM to the launcher', (launcher: Launcher) => launcher.child.kill('SIGTERM')],
    [
      'Ctrl-C (SIGINT to its whole process group)',
      (launcher: Launcher) => process.kill(-(launcher.child.pid as number), 'SIGINT'),
    ],
  ])(
    'stops every role and the chain node at once on %s',
    async (_, signal) => {
      const launcher = await startCluster(database.url());
      const node = readPid(devnetPidFile(launcher.dataDir)) as number;
      expect(isAnvil(node)).toBe(true);
      signal(launcher);
      expect(await launcher.exited).toBe(0);
      await until(() => (isAnvil(node) ? undefined : true), 'the chain node to stop', 2_000, 20);
      // Nothing of the group is left (a role's own helpers, tsx's esbuild, end with it).
      await until(() => (groupRuns(launcher.child.pid as number) ? undefined : true), 'the whole group to end', 5_000, 20);
      // Each of the four roles stopped once, cleanly: a Ctrl-C brings it SIGINT and SIGTERM both.
      expect(launcher.output().match(/"msg":"shutting down"/g)).toHaveLength(4);
      expect(launcher.output()).not.toMatch(/did not stop cleanly|exited \(/);
    },
    180_000,
  );
});
