/**
 * WebSocket fan-out benchmark: a thousand depth followers of one book, each a real `ws` client that
 * parses every diff and checks its `seq`, a sample of them (`--replicas`) also keeping a replica of
 * the book by the spec's reliable-depth procedure (buffer, snapshot, replay, apply), while accounts
 * of both key types save pre-signed orders into that book over HTTP. The server runs in a child
 * process (bench/support/server-child.ts), the order sender in another
 * (bench/support/order-sender-child.ts); the clients are this process.
 *
 *   npm run bench:ws -- [--clients 1000] [--replicas 50] [--orders 8000] [--batch 5] [--in-flight 8]
 *                       [--accounts 4] [--time-limit 120] [--cpu-prof DIR] [--cluster]
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
 * end. Then, the service stopped, the same clients follow a bare `ws` broadcast server sending
 * frames of the diffs' mean size as fast as the sockets drain: the baseline. Its clients parse each
 * frame as the service's do; replicas are a sample because keeping a book costs a client about
 * twice what parsing does, and a thousand of them in one process measure that process instead of
 * the server. Targets (issues 5 and 17, informational): >= 50,000 messages/s, p99 < 50 ms, and
 * >= 0.8 of the baseline's messages/s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUY, SELL, type Side, type WireOrder } from '@dex/core';
import type { ServerMessage } from '../packages/server/src/edges/ws/protocol.js';
import { fetchDepth } from '../packages/server/src/test-support/depth-follower.js';
import { type Account, createAccounts, login, signDigest } from './support/accounts.js';
import { type BareBroadcastFigures, measureBareBroadcast } from './support/bare-broadcast.js';
import { startClusterProcesses } from './support/cluster-processes.js';
import { type CpuUse, cpuMark, cpuUse } from './support/cpu.js';
import { DepthListener } from './support/depth-listener.js';
import { HttpClient } from './support/http-client.js';
import { LatencyRecorder } from './support/latency-recorder.js';
import { BENCH_BOOK, type BuiltOrder, limitRequest, MAX_BATCH, type Market, readMarket } from './support/market.js';
import { ORDER_STREAM_OPTIONS, readAccounts, readCount, readProfileDir } from './support/options.js';
import { startOrderSender } from './support/order-sender.js';
import { millis, percentile, printTable, verdict, whole } from './support/report.js';
import { ask, runBenchmark, type ServerProcess, startServerProcess, stopServerProcess } from './support/server-process.js';

const { id: BOOK_ID, askTicks: ASK_TICKS, bidTicks: BID_TICKS, makerSteps: MAKER_STEPS, takerSteps: TAKER_STEPS } = BENCH_BOOK;

/** Makers rest on this many prices on each side, from ASK_TICKS up and from BID_TICKS down. */
const LEVELS = 25;
/** Followers that open their stream and fetch their snapshot at the same time. */
const JOINING_AT_ONCE = 25;
const CATCH_UP_MS = 60_000;
const MEMORY_SAMPLE_MS = 500;
const MIB = 1024 * 1024;
/** One diff in this many is measured for its size. */
const SIZE_SAMPLE_EVERY = 100;
/** Frames the baseline broadcasts: the service run's diffs per client, within these bounds. */
const BASELINE_FRAMES = { least: 100, most: 5_000 } as const;

/** A cluster run's processes: the bench book is one engine's, the other stands by as in production. */
const CLUSTER_ENGINES = 2;
const CLUSTER_GATEWAYS = 2;

const TARGETS = { messagesPerSecond: 50_000, p99Ms: 50, ofBaseline: 0.8 } as const;

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
  readonly cluster: boolean;
}

function readOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: { ...ORDER_STREAM_OPTIONS, clients: { type: 'string' }, replicas: { type: 'string' }, cluster: { type: 'boolean' } },
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

// ---- followers and measurements ------------------------------------------------------------------------------

/** The diffs every client receives while the clock runs, and a sample of their sizes for the baseline's frames. */
class Deliveries extends LatencyRecorder {
  private sampledBytes = 0;
  private samples = 0;

  diff(message: ServerMessage): void {
    if (message.type !== 'DEPTH_DIFF') return;
    if (this.measuring && this.count % SIZE_SAMPLE_EVERY === 0) {
      this.sampledBytes += Buffer.byteLength(JSON.stringify(message));
      this.samples++;
    }
    this.record(message.timestamp);
  }

  meanBytes(): number {
    return this.samples === 0 ? 0 : Math.round(this.sampledBytes / this.samples);
  }
}

/** Connects `count` followers, spread evenly over the servers; the first `replicas` keep the book. */
async function joinFollowers(
  servers: readonly ServerProcess[],
  accounts: readonly Account[],
  options: BenchOptions,
  deliveries: Deliveries,
) {
  const count = options.clients;
  const followers: DepthListener[] = [];
  for (let start = 0; start < count; start += JOINING_AT_ONCE) {
    const joining = Array.from({ length: Math.min(JOINING_AT_ONCE, count - start) }, async (_, index) => {
      const account = accounts[(start + index) % accounts.length] as Account;
      const base = (servers[(start + index) % servers.length] as ServerProcess).url.origin;
      const follower = await DepthListener.start(base, account.token, BOOK_ID, start + index < options.replicas);
      follower.client.onMessage((message) => deliveries.diff(message));
      return follower;
    });
    followers.push(...(await Promise.all(joining)));
  }
  return followers;
}

interface MemoryFigures {
  rss: number;
  heapUsed: number;
}

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

/**
 * Once every follower has caught up with GET /depth: how many reached its update whole (no seq gap,
 * still connected), and how many replicas equal it; answers the problems found.
 */
async function checkFollowers(
  server: ServerProcess,
  followers: readonly DepthListener[],
): Promise<{ reached: number; equal: number; failures: string[] }> {
  const snapshot = await fetchDepth(server.url.origin, BOOK_ID);
  const failures = new Map<string, number>();
  const note = (problem: string) => failures.set(problem, (failures.get(problem) ?? 0) + 1);
  let reached = 0;
  let equal = 0;
  await Promise.all(
    followers.map(async (follower) => {
      try {
        await follower.reach(snapshot.lastUpdateId, CATCH_UP_MS);
      } catch (error) {
        note(`a client did not reach update ${snapshot.lastUpdateId}: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      if (follower.client.seqGaps > 0) note('a client saw a gap in seq');
      else if (follower.client.socket.readyState !== follower.client.socket.OPEN) note('a client was disconnected');
      else reached++;
      if (follower.replica === undefined) return;
      const view = follower.replica.view();
      const same =
        view.lastUpdateId === snapshot.lastUpdateId &&
        JSON.stringify(view.bids) === JSON.stringify(snapshot.bids) &&
        JSON.stringify(view.asks) === JSON.stringify(snapshot.asks);
      if (same) equal++;
      else note("a client's book differs from GET /depth");
    }),
  );
  return { reached, equal, failures: [...failures].map(([problem, times]) => `${problem} (${times}x)`) };
}

// ---- the run ---------------------------------------------------------------------------------------------------

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

const mib = (bytes: number) => `${whole.format(bytes / MIB)} MiB`;

/** What the service's run measured, for the table. */
interface ServiceFigures {
  readonly saved: number;
  readonly ordersSeconds: number;
  /** From the first save to the last diff received. */
  readonly seconds: number;
  readonly delivered: number;
  readonly latencies: Float64Array;
  readonly meanBytes: number;
  readonly memory: { idle: MemoryFigures; connected: MemoryFigures; peak: MemoryFigures; end: MemoryFigures };
  /** Followers that reached the last update with no seq gap. */
  readonly reached: number;
  /** Replicas equal to GET /depth. */
  readonly equal: number;
  readonly failures: readonly string[];
  /** CPU seconds from the first save until every replica caught up. */
  readonly cpu: CpuUse<string>;
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
    followers.push(...(await joinFollowers(servers, accounts, options, deliveries)));
    globalThis.gc?.();
    const connected = await serverMemory(server);

    process.stderr.write(`  saving ${whole.format(queue.length)} batches\n`);
    const peaks = samplePeaks(server);
    const pids: Record<string, number | undefined> = { sender: sender.pid };
    servers.forEach((each, index) => {
      pids[servers.length === 1 ? 'server' : `gateway ${index}`] = each.child.pid;
    });
    enginePids.forEach((pid, index) => {
      pids[`engine ${index}`] = pid;
    });
    const cpuNow = () => cpuMark(pids);
    deliveries.measuring = true;
    const cpuBefore = cpuNow();
    const start = Date.now();
    let saved: number;
    let savedAt: number;
    let check: { reached: number; equal: number; failures: string[] };
    let peak: MemoryFigures;
    let cpu: CpuUse<string>;
    try {
      const batches = queue.map((batch) => ({ token: batch.account.token, body: batch.body.toString(), orders: batch.orders }));
      saved = await sender.save(server.url, batches, options.inFlight, start + options.timeLimitSeconds * 1000);
      savedAt = Date.now();
      check = await checkFollowers(server, followers);
      cpu = cpuUse(cpuBefore, cpuNow());
    } finally {
      deliveries.measuring = false;
      peak = await peaks.stop();
    }
    return {
      saved,
      ordersSeconds: (savedAt - start) / 1000,
      seconds: (deliveries.lastReceipt - start) / 1000,
      delivered: deliveries.count,
      latencies: deliveries.sortedLatencies(),
      meanBytes: deliveries.meanBytes(),
      memory: { idle, connected, peak, end: await serverMemory(server) },
      cpu,
      ...check,
    };
  } finally {
    client.close();
    sender.stop();
  }
}

/** The service's own processes (server, or gateways and engines), without the order sender. */
function serviceCpu(cpu: CpuUse<string>): number {
  return Object.entries(cpu.processes).reduce((sum, [name, seconds]) => (name === 'sender' ? sum : sum + (seconds ?? 0)), 0);
}

function cpuBreakdown(cpu: CpuUse<string>): string {
  const seconds = (value: number | undefined) => (value === undefined ? 'n/a' : value.toFixed(1));
  const named = Object.entries(cpu.processes).map(([name, value]) => `${name} ${seconds(value)}`);
  return [...named, `clients ${seconds(cpu.client)}`, `others ${seconds(cpu.others)}`, `of ${cpu.wall.toFixed(1)} s`].join(', ');
}

function printFigures(options: BenchOptions, title: string, service: ServiceFigures, bare: BareBroadcastFigures): void {
  const { seconds, latencies, memory } = service;
  const perClient = service.delivered / options.clients;
  const rate = service.delivered / seconds;
  const p99 = percentile(latencies, 0.99);
  const bareRate = bare.delivered / bare.seconds;
  const ofBaseline = rate / bareRate;
  const mibs = (pick: (figures: MemoryFigures) => number) =>
    [memory.idle, memory.connected, memory.peak, memory.end].map((figures) => mib(pick(figures)));
  console.log('');
  console.log(title);
  printTable(
    ['measure', 'value', 'target', 'result'],
    [
      [
        'orders saved',
        `${whole.format(service.saved)} in ${service.ordersSeconds.toFixed(1)} s (${whole.format(service.saved / service.ordersSeconds)}/s)`,
        '',
        '',
      ],
      ['diffs published on the book (per client)', `${whole.format(perClient)} (${whole.format(perClient / seconds)}/s)`, '', ''],
      ['diff frame size, mean bytes', whole.format(service.meanBytes), '', ''],
      ['messages delivered', whole.format(service.delivered), '', ''],
      [
        'messages delivered per second',
        whole.format(rate),
        `>= ${whole.format(TARGETS.messagesPerSecond)}`,
        verdict(rate >= TARGETS.messagesPerSecond),
      ],
      ['latency engine turn -> client, p50 ms', millis.format(percentile(latencies, 0.5)), '', ''],
      ['latency engine turn -> client, p99 ms', millis.format(p99), `< ${TARGETS.p99Ms}`, verdict(p99 < TARGETS.p99Ms)],
      ['latency engine turn -> client, max ms', millis.format(latencies[latencies.length - 1] ?? Number.NaN), '', ''],
      ['bare ws broadcast (baseline): messages per second', whole.format(bareRate), '', ''],
      [
        'bare ws broadcast (baseline): latency p50 / p99 ms',
        `${millis.format(percentile(bare.latencies, 0.5))} / ${millis.format(percentile(bare.latencies, 0.99))}`,
        '',
        '',
      ],
      [
        'messages per second against the baseline',
        `${ofBaseline.toFixed(2)}x`,
        `>= ${TARGETS.ofBaseline}x`,
        verdict(ofBaseline >= TARGETS.ofBaseline),
      ],
      ['CPU s in the window, by process', cpuBreakdown(service.cpu), '', ''],
      [
        'service CPU per message delivered, µs (baseline: bare server)',
        `${whole.format((serviceCpu(service.cpu) / service.delivered) * 1e6)} (${whole.format(((bare.cpu.processes.server ?? Number.NaN) / bare.delivered) * 1e6)})`,
        '',
        '',
      ],
      [
        'clients CPU per message delivered, µs (baseline)',
        `${whole.format((service.cpu.client / service.delivered) * 1e6)} (${whole.format((bare.cpu.client / bare.delivered) * 1e6)})`,
        '',
        '',
      ],
      ['server RSS: idle / clients connected / peak / end', mibs((figures) => figures.rss).join(' / '), '', ''],
      [
        'server heap used: idle / clients connected / peak',
        mibs((figures) => figures.heapUsed)
          .slice(0, 3)
          .join(' / '),
        '',
        '',
      ],
      [
        'clients that received every diff, in seq order',
        `${whole.format(service.reached)} / ${whole.format(options.clients)}`,
        'all',
        verdict(service.reached === options.clients),
      ],
      [
        'client replicas equal to GET /depth at the end',
        `${whole.format(service.equal)} / ${whole.format(options.replicas)}`,
        'all',
        verdict(service.equal === options.replicas),
      ],
    ],
  );
  console.log('');
  console.log(
    `the window runs from the first save to the last diff received (${seconds.toFixed(2)} s); diffs fold every change of ` +
      'one commit group of the book; latency has millisecond resolution (both ends read Date.now())',
  );
  console.log(
    `baseline: a bare ws server in its own process broadcasts ${whole.format(bare.delivered / options.clients)} frames of ` +
      `${whole.format(service.meanBytes)} bytes to the same ${whole.format(options.clients)} clients as fast as their sockets drain ` +
      `(${bare.seconds.toFixed(2)} s), the service stopped; its clients parse each frame as JSON`,
  );
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
  const cluster = options.cluster ? await runCluster(options, env) : null;
  const frames = Math.round(service.delivered / options.clients);
  process.stderr.write(`  the bare ws baseline: ${whole.format(options.clients)} clients\n`);
  const bare = await measureBareBroadcast({
    clients: options.clients,
    messages: Math.min(BASELINE_FRAMES.most, Math.max(BASELINE_FRAMES.least, frames)),
    bytes: service.meanBytes,
    timeLimitMs: options.timeLimitSeconds * 1000,
  });
  printFigures(options, 'one process (SQLite):', service, bare);
  if (cluster !== null) {
    printFigures(
      options,
      `cluster: ${CLUSTER_GATEWAYS} gateways (the followers split between them), ${CLUSTER_ENGINES} engines, PostgreSQL, NATS:`,
      cluster,
      bare,
    );
  }
  const runs = cluster === null ? [service] : [service, cluster];
  const failures = runs.flatMap((run) => run.failures);
  for (const failure of failures) console.log(`FAIL ${failure}`);
  return failures.length === 0 && runs.every((run) => run.reached === options.clients && run.equal === options.replicas) ? 0 : 1;
}

runBenchmark('bench:ws', main);
