/**
 * WebSocket fan-out benchmark: a thousand depth followers of one book, each a real `ws` client that
 * parses every diff and checks its `seq`, a sample of them (`--replicas`) also keeping a replica of
 * the book by the spec's reliable-depth procedure (buffer, snapshot, replay, apply), while accounts
 * of both key types save pre-signed orders into that book over HTTP. The server runs in a child
 * process (bench/support/server-child.ts), the order sender in another
 * (bench/support/order-sender-child.ts); the clients are this process.
 *
 *   npm run bench:ws -- [--clients 1000] [--replicas 50] [--orders 8000] [--batch 5] [--in-flight 8]
 *                       [--accounts 4] [--time-limit 120] [--cpu-prof DIR] [--skip-intake-run] [--cluster]
 *
 * `--cluster` runs the same clients and orders a second time against a cluster (docs/deploy.md):
 * two engine processes and two gateways (the server child as ROLE=gateway) on a PostgreSQL
 * database of the run's own, the followers split between the gateways and the orders sent to the
 * first; each gateway serves its followers from the replica the engines' feed keeps.
 *
 * Printed: depth diffs published and messages delivered per second, the latency from the engine
 * turn that made a change (the diff's timestamp, server clock) to its receipt by a client (this
 * process's clock, the same machine), the CPU each process used, the server's memory, whether
 * every client received every diff in order and whether every replica equals GET /depth at the
 * end. Then the same orders are saved again on a fresh server with no follower (unless
 * `--skip-intake-run`): what the service's CPU costs without fan-out. Then, the service stopped,
 * the same clients follow a bare `ws` server that sends the diffs one follower received again,
 * as frames of the same sizes at the same times: the baseline, like for like (issue 41); and
 * the same server sending frames as fast as the sockets drain, the clients' capacity. Its clients
 * parse each frame as the service's do; replicas are a sample because keeping a book costs a
 * client about twice what parsing does, and a thousand of them in one process measure that
 * process instead of the server. Targets (informational): >= 50,000 messages/s (issues 5, 17);
 * >= 0.8x the paced baseline's messages/s, p99 < 50 ms, server CPU per message <= 1.5x the paced
 * bare server's (issue 41).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUY, SELL, type Side, type WireOrder } from '@dex/core';
import { type Account, createAccounts, login, signDigest } from './support/accounts.js';
import { BareBroadcast } from './support/bare-broadcast.js';
import { startClusterProcesses } from './support/cluster-processes.js';
import { cpuMark, cpuUse } from './support/cpu.js';
import type { DepthListener } from './support/depth-listener.js';
import { HttpClient } from './support/http-client.js';
import { BENCH_BOOK, type BuiltOrder, limitRequest, MAX_BATCH, type Market, readMarket } from './support/market.js';
import { ORDER_STREAM_OPTIONS, readAccounts, readCount, readProfileDir } from './support/options.js';
import { startOrderSender } from './support/order-sender.js';
import { whole } from './support/report.js';
import { ask, runBenchmark, type ServerProcess, startServerProcess, stopServerProcess } from './support/server-process.js';
import { checkFollowers, Deliveries, DiffSchedule, type FollowerCheck, joinFollowers } from './support/ws-followers.js';
import { type MemoryFigures, printFigures, type ServiceFigures, serviceCpu } from './support/ws-report.js';

const { id: BOOK_ID, askTicks: ASK_TICKS, bidTicks: BID_TICKS, makerSteps: MAKER_STEPS, takerSteps: TAKER_STEPS } = BENCH_BOOK;

/** Makers rest on this many prices on each side, from ASK_TICKS up and from BID_TICKS down. */
const LEVELS = 25;
const MEMORY_SAMPLE_MS = 500;
/** Frames the full-speed baseline broadcasts: the service run's diffs per client, within these bounds. */
const BASELINE_FRAMES = { least: 100, most: 5_000 } as const;

/** A cluster run's processes: the bench book is one engine's, the other stands by as in production. */
const CLUSTER_ENGINES = 2;
const CLUSTER_GATEWAYS = 2;

interface BenchOptions {
  readonly clients: number;
  /** Followers that also keep a replica of the book. */
  readonly replicas: number;
  readonly orders: number;
  readonly batch: number;
  readonly inFlight: number;
  readonly accounts: number;
  readonly timeLimitSeconds: number;
  readonly cpuProfDir: string | undefined;
  /** Save the same orders with no follower, to tell the fan-out's CPU from the rest. */
  readonly intakeRun: boolean;
  readonly cluster: boolean;
}

function readOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      ...ORDER_STREAM_OPTIONS,
      clients: { type: 'string' },
      replicas: { type: 'string' },
      'skip-intake-run': { type: 'boolean' },
      cluster: { type: 'boolean' },
    },
    strict: true,
  });
  const accounts = readAccounts(values.accounts, 4, 32);
  const clients = readCount('--clients', values.clients, 1_000, 1, 10_000);
  return {
    clients,
    replicas: readCount('--replicas', values.replicas, Math.min(clients, 50), 0, clients),
    orders: readCount('--orders', values.orders, 8_000, accounts, 3_000 * accounts),
    batch: readCount('--batch', values.batch, 5, 1, 250),
    inFlight: readCount('--in-flight', values['in-flight'], 8, 1, 64),
    accounts,
    timeLimitSeconds: readCount('--time-limit', values['time-limit'], 120, 1, 3_600),
    cpuProfDir: readProfileDir(values['cpu-prof']),
    intakeRun: values['skip-intake-run'] !== true,
    cluster: values.cluster === true,
  };
}

// ---- orders -----------------------------------------------------------------------------------------------

interface Planned {
  readonly side: Side;
  readonly ticks: number;
  readonly steps: number;
}

/**
 * An account's orders: two makers, then a taker, over and over. Makers rest on one of LEVELS prices
 * on their own side (so levels appear, grow and shrink); takers cross a few levels of the other side.
 */
function planOf(account: Account, count: number): Planned[] {
  const seller = account.role === 'seller';
  return Array.from({ length: count }, (_, index) => {
    if (index % 3 === 2) {
      return { side: seller ? SELL : BUY, ticks: seller ? BID_TICKS - 3 : ASK_TICKS + 3, steps: TAKER_STEPS };
    }
    const level = (index * 7) % LEVELS;
    return { side: seller ? SELL : BUY, ticks: seller ? ASK_TICKS + level : BID_TICKS - level, steps: MAKER_STEPS };
  });
}

function requestOf(market: Market, order: Planned) {
  return limitRequest(market, order.side === SELL, order.ticks, order.steps);
}

interface Batch {
  readonly account: Account;
  readonly body: Buffer;
  readonly orders: number;
}

/** Builds and signs every order (not timed), then cuts save batches, round-robin over the accounts. */
async function signedBatches(client: HttpClient, market: Market, accounts: readonly Account[], options: BenchOptions) {
  const perAccount = await Promise.all(
    accounts.map(async (account) => {
      const plan = planOf(account, Math.floor(options.orders / accounts.length));
      const items: { order: WireOrder; signature: string; orderbookId: number; type: 'LIMIT' }[] = [];
      for (let start = 0; start < plan.length; start += MAX_BATCH) {
        const { orders } = await client.json<{ orders: BuiltOrder[] }>(
          'POST',
          '/orders/build',
          { orderRequests: plan.slice(start, start + MAX_BATCH).map((order) => requestOf(market, order)) },
          account.token,
        );
        for (const { meta, ...order } of orders) {
          items.push({ order, signature: signDigest(account.signer, meta.orderHash), orderbookId: BOOK_ID, type: 'LIMIT' });
        }
      }
      const batches: Batch[] = [];
      for (let start = 0; start < items.length; start += options.batch) {
        const slice = items.slice(start, start + options.batch);
        batches.push({ account, body: Buffer.from(JSON.stringify({ items: slice })), orders: slice.length });
      }
      return batches;
    }),
  );
  const queue: Batch[] = [];
  const rounds = Math.max(...perAccount.map((batches) => batches.length));
  for (let round = 0; round < rounds; round++) {
    for (const batches of perAccount) {
      const batch = batches[round];
      if (batch !== undefined) queue.push(batch);
    }
  }
  return queue;
}

// ---- the service's runs ------------------------------------------------------------------------------------

async function serverMemory(server: ServerProcess): Promise<MemoryFigures> {
  const { rss, heapUsed } = await ask(server, { type: 'memory' }, 'memory');
  return { rss, heapUsed };
}

/** Samples the server's memory until stopped; answers the peaks. */
function samplePeaks(server: ServerProcess): { stop: () => Promise<MemoryFigures> } {
  const peak: MemoryFigures = { rss: 0, heapUsed: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const sample = await serverMemory(server);
      peak.rss = Math.max(peak.rss, sample.rss);
      peak.heapUsed = Math.max(peak.heapUsed, sample.heapUsed);
      await new Promise((resolve) => setTimeout(resolve, MEMORY_SAMPLE_MS));
    }
  })().catch(() => {
    // The server went away: the run fails on its own account; the peaks seen so far stand.
  });
  return {
    stop: async () => {
      running = false;
      await loop;
      return peak;
    },
  };
}

function printHeader(options: BenchOptions): void {
  const cores = cpus().length;
  console.log(
    `node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cores} cores), ${process.platform}/${process.arch}`,
  );
  console.log(
    `${whole.format(options.clients)} /ws/depth clients on book ${BOOK_ID}; ${whole.format(options.orders)} orders from ` +
      `${options.accounts} accounts (2 makers : 1 taker), batches of ${options.batch}, ${options.inFlight} requests in flight`,
  );
  console.log(
    `clients (this process), order sender and server (child processes, 127.0.0.1) share the ${cores} cores; ` +
      `orders are built and signed before the clock starts`,
  );
  const [one, five] = loadavg();
  console.log(`load average before the run: ${one?.toFixed(2)} (1 min), ${five?.toFixed(2)} (5 min)`);
}

/** The processes whose CPU a run reads: the sender, the servers (or gateways) and the engines. */
function processIds(senderPid: number | undefined, servers: readonly ServerProcess[], enginePids: readonly number[]) {
  const pids: Record<string, number | undefined> = { sender: senderPid };
  servers.forEach((each, index) => {
    pids[servers.length === 1 ? 'server' : `gateway ${index}`] = each.child.pid;
  });
  enginePids.forEach((pid, index) => {
    pids[`engine ${index}`] = pid;
  });
  return pids;
}

/**
 * Connects the followers (spread over the servers), saves every batch through the first server,
 * checks the replicas: the service's figures, with the first server's memory.
 */
async function measureService(
  servers: readonly ServerProcess[],
  options: BenchOptions,
  followers: DepthListener[],
  enginePids: readonly number[],
): Promise<ServiceFigures> {
  const server = servers[0] as ServerProcess;
  const client = new HttpClient(server.url, options.inFlight + 1);
  // Out of this process: the sender must not take the followers' event loop, nor they its.
  const sender = await startOrderSender();
  try {
    const accounts = await Promise.all((await createAccounts(server, options.accounts)).map((account) => login(client, account)));
    const market = await readMarket(client, BOOK_ID);
    process.stderr.write(`  building and signing ${whole.format(options.orders)} orders\n`);
    const queue = await signedBatches(client, market, accounts, options);
    const idle = await serverMemory(server);

    process.stderr.write(`  connecting ${whole.format(options.clients)} followers\n`);
    const deliveries = new Deliveries();
    const schedule = new DiffSchedule();
    followers.push(...(await joinFollowers(servers, accounts, options, deliveries, schedule)));
    globalThis.gc?.();
    const connected = await serverMemory(server);

    process.stderr.write(`  saving ${whole.format(queue.length)} batches\n`);
    const peaks = samplePeaks(server);
    const pids = processIds(sender.pid, servers, enginePids);
    deliveries.measuring = true;
    const cpuBefore = cpuMark(pids);
    const start = Date.now();
    schedule.begin(start);
    let saved: number;
    let savedAt: number;
    let check: FollowerCheck;
    let peak: MemoryFigures;
    let cpu: ServiceFigures['cpu'];
    try {
      const batches = queue.map((batch) => ({ token: batch.account.token, body: batch.body.toString(), orders: batch.orders }));
      saved = await sender.save(server.url, batches, options.inFlight, start + options.timeLimitSeconds * 1000);
      savedAt = Date.now();
      check = await checkFollowers(server, followers);
      cpu = cpuUse(cpuBefore, cpuMark(pids));
    } finally {
      deliveries.measuring = false;
      schedule.end();
      peak = await peaks.stop();
    }
    return {
      saved,
      ordersSeconds: (savedAt - start) / 1000,
      seconds: (deliveries.lastReceipt - start) / 1000,
      delivered: deliveries.count,
      latencies: deliveries.sortedLatencies(),
      schedule: schedule.frames,
      meanBytes: schedule.meanBytes(),
      memory: { idle, connected, peak, end: await serverMemory(server) },
      cpu,
      ...check,
    };
  } finally {
    client.close();
    sender.stop();
  }
}

/** The service's figures with the followers on `servers`; the servers are stopped afterwards. */
async function runService(
  servers: readonly ServerProcess[],
  options: BenchOptions,
  enginePids: readonly number[] = [],
): Promise<ServiceFigures> {
  const followers: DepthListener[] = [];
  try {
    return await measureService(servers, options, followers, enginePids);
  } finally {
    await Promise.all(followers.map((follower) => follower.client.close()));
    for (const server of servers) await stopServerProcess(server);
  }
}

/**
 * The CPU seconds a fresh server spends on the same orders with no follower: intake, matching,
 * storage and the rest that is not fan-out. Profiled beside the service's run when it is, so the
 * profiler's cost cancels out.
 */
async function intakeCpu(options: BenchOptions, env: Record<string, string>): Promise<number> {
  process.stderr.write('  the same orders with no follower\n');
  const cpuProfDir = options.cpuProfDir === undefined ? undefined : join(options.cpuProfDir, 'no-followers');
  const server = await startServerProcess({ name: 'ws-intake', env, cpuProfDir });
  const run = await runService([server], { ...options, clients: 0, replicas: 0 });
  return serviceCpu(run.cpu);
}

/** The same run against two gateways in front of two engines; its processes and database are gone afterwards. */
async function runCluster(options: BenchOptions, env: Record<string, string>): Promise<ServiceFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ws-cluster-'));
  const cluster = await startClusterProcesses(CLUSTER_ENGINES, dataDir);
  try {
    const gateways: ServerProcess[] = [];
    for (let index = 0; index < CLUSTER_GATEWAYS; index++) {
      gateways.push(await startServerProcess({ name: `ws-gateway-${index}`, env: { ...env, ...cluster.gatewayEnv } }));
    }
    return await runService(gateways, options, cluster.enginePids);
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  printHeader(options);
  const env = {
    VERIFY_WORKERS: '1',
    WS_MAX_CONNECTIONS_PER_IP: String(options.clients + 10),
    WS_MAX_CONNECTIONS: String(options.clients + 10),
  };
  const server = await startServerProcess({ name: 'ws', env, cpuProfDir: options.cpuProfDir });
  const service = await runService([server], options);
  const intake = options.intakeRun ? await intakeCpu(options, env) : undefined;
  const cluster = options.cluster ? await runCluster(options, env) : null;
  process.stderr.write(`  the bare ws baselines: ${whole.format(options.clients)} clients\n`);
  const bare = await BareBroadcast.start(options.clients, options.timeLimitSeconds * 1000);
  try {
    const paced = await bare.replay(service.schedule);
    const clusterPaced = cluster === null ? null : await bare.replay(cluster.schedule);
    const frames = Math.min(BASELINE_FRAMES.most, Math.max(BASELINE_FRAMES.least, service.schedule.length));
    const drain = await bare.drain(frames, service.meanBytes);
    printFigures(options, 'one process (SQLite):', service, { paced, drain }, intake);
    if (cluster !== null && clusterPaced !== null) {
      printFigures(
        options,
        `cluster: ${CLUSTER_GATEWAYS} gateways (the followers split between them), ${CLUSTER_ENGINES} engines, PostgreSQL, NATS:`,
        cluster,
        { paced: clusterPaced, drain },
        undefined,
      );
    }
  } finally {
    bare.stop();
  }
  const runs = cluster === null ? [service] : [service, cluster];
  const failures = runs.flatMap((run) => run.failures);
  for (const failure of failures) console.log(`FAIL ${failure}`);
  return failures.length === 0 && runs.every((run) => run.reached === options.clients && run.equal === options.replicas) ? 0 : 1;
}

runBenchmark('bench:ws', main);
