/**
 * Data API benchmark: `GET /tokens` with API-key checking and quota counting, beside the same
 * route with authentication switched off (DATA_API_AUTH=false, the devnet-only switch), in one run.
 * Each mode has its own server in a child process (bench/support/server-child.ts) on an empty devnet
 * store; the key is issued with the operator CLI's code on the keyed server's store file, as an
 * operator would beside a running server. The client keeps `--connections` requests in flight
 * over keep-alive HTTP for `--seconds` per mode, after `--warmup` seconds, alternating which mode
 * goes first from run to run. The target from the issue: keyed req/s >= 0.8 of the baseline.
 *
 *   npm run bench:data-api -- [--seconds 10] [--warmup 2] [--connections 32] [--runs 1] [--cluster]
 *
 * `--cluster` adds a third mode in the same run: two gateways of a cluster (docs/deploy.md) on a
 * PostgreSQL database of the run's own, the quotas counted in Redis and committed to PostgreSQL,
 * the requests spread evenly over both gateways; its server CPU is both gateways' together.
 *
 * Checks: every answer is 200, the keyed ones carry the four quota headers and the baseline's
 * none, and the key's stored count for the month equals the requests sent with it (over both
 * gateways in the cluster mode).
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { systemClock } from '../packages/server/src/adapters/clock/system-clock.js';
import { openPostgresStore } from '../packages/server/src/adapters/postgres/postgres-store.js';
import { openSqliteStore } from '../packages/server/src/adapters/sqlite/sqlite-store.js';
import { operatorIo } from '../packages/server/src/composition/operator-wiring.js';
import { monthOf } from '../packages/server/src/domain/data-api/utc-month.js';
import { runOperator } from '../packages/server/src/edges/cli/operator.js';
import { forgetKeys } from '../packages/server/src/test-support/redis.js';
import { type ClusterProcesses, startClusterProcesses, startDatabase } from './support/cluster-processes.js';
import { processCpu } from './support/cpu.js';
import { HttpClient, snippet } from './support/http-client.js';
import { readCount } from './support/options.js';
import { fineMillis, median, percentile, printTable, verdict, whole } from './support/report.js';
import { runBenchmark, type ServerProcess, startServerProcess, stopServerProcess } from './support/server-process.js';

const TARGET_RATIO = 0.8;
/** A quota no run can use up: the keyed mode measures checking and counting, never refusals. */
const QUOTA = 1_000_000_000_000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUOTA_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-additional-total', 'x-ratelimit-reset'];

interface BenchOptions {
  readonly seconds: number;
  readonly warmup: number;
  readonly connections: number;
  readonly runs: number;
  readonly cluster: boolean;
}

/** Where a mode's key lives: the SQLite file of a single process, or the cluster's PostgreSQL database. */
type KeyStore = { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string };

interface Mode {
  readonly name: string;
  /** The servers it sends to, each with its client; requests are spread evenly over them. */
  readonly servers: readonly ServerProcess[];
  readonly clients: readonly HttpClient[];
  readonly path: string;
  readonly keyed: boolean;
  /** Requests sent so far, warm-up and checks included. */
  sent: number;
}

interface Measure {
  readonly requests: number;
  readonly seconds: number;
  /** Server CPU (all threads) per request, microseconds; undefined without /proc. */
  readonly serverCpuMicros: number | undefined;
  /** Milliseconds per request, ascending. */
  readonly latencies: readonly number[];
}

function readOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      runs: { type: 'string' },
      cluster: { type: 'boolean' },
    },
    strict: true,
  });
  return {
    seconds: readCount('--seconds', values.seconds, 10, 1, 600),
    warmup: readCount('--warmup', values.warmup, 2, 0, 60),
    connections: readCount('--connections', values.connections, 32, 1, 512),
    runs: readCount('--runs', values.runs, 1, 1, 10),
    cluster: values.cluster === true,
  };
}

function openKeyStore(where: KeyStore) {
  return where.kind === 'sqlite' ? openSqliteStore(where.file) : openPostgresStore({ url: where.url });
}

/** Issues a key on the keyed servers' store with the operator CLI, as an operator would beside them; returns the key and its id. */
async function issueKey(where: KeyStore): Promise<{ key: string; id: number }> {
  const store = await openKeyStore(where);
  const out: string[] = [];
  try {
    const argv = ['apikey', 'issue', '--name', 'bench', '--quota', String(QUOTA), '--json'];
    const io = operatorIo({
      store,
      network: 'devnet',
      clock: systemClock,
      out: (line) => out.push(line),
      err: (line) => out.push(line),
    });
    const code = await runOperator(argv, io);
    if (code !== 0) throw new Error(`apikey issue failed: ${out.join('\n')}`);
  } finally {
    await store.close();
  }
  return JSON.parse(out.join('\n')) as { key: string; id: number };
}

/** Requests counted for the key this month, read from the store as the operator CLI reads it. */
async function storedCount(where: KeyStore, id: number): Promise<number> {
  const store = await openKeyStore(where);
  try {
    return await store.apiKeys.requests(id, monthOf(Date.now()).start);
  } finally {
    await store.close();
  }
}

function mode(
  name: string,
  servers: readonly ServerProcess[],
  connections: number,
  headers: Record<string, string>,
  keyed: boolean,
): Mode {
  const clients = servers.map((server) => new HttpClient(server.dataApiUrl, Math.ceil(connections / servers.length), headers));
  const base = servers[0]?.dataApiUrl.pathname ?? '/';
  return { name, servers, clients, path: `${base.replace(/\/$/, '')}/tokens`, keyed, sent: 0 };
}

/** One request to each server that must succeed, with the quota headers exactly when the mode checks keys. */
async function check(target: Mode, failures: string[]): Promise<void> {
  for (const client of target.clients) await checkOne(target, client, failures);
}

async function checkOne(target: Mode, client: HttpClient, failures: string[]): Promise<void> {
  const reply = await client.send('GET', target.path);
  target.sent++;
  if (reply.status !== 200) failures.push(`${target.name}: GET ${target.path} answered ${reply.status}: ${snippet(reply.body)}`);
  const present = QUOTA_HEADERS.filter((header) => reply.headers[header] !== undefined);
  if (present.length !== (target.keyed ? QUOTA_HEADERS.length : 0)) {
    failures.push(
      `${target.name}: quota headers ${present.join(', ') || 'none'} on a ${target.keyed ? 'keyed' : 'keyless'} answer`,
    );
  }
  if (reply.body.toString('utf8').indexOf('"WHBAR"') < 0) failures.push(`${target.name}: /tokens lacks the devnet's WHBAR`);
}

/** Keeps `connections` requests in flight for `seconds`; every answer must be 200. */
async function load(target: Mode, connections: number, seconds: number, failures: string[]): Promise<Measure> {
  const latencies: number[] = [];
  const cpuNow = () => serversCpu(target.servers);
  const cpuBefore = cpuNow();
  const start = performance.now();
  const end = start + seconds * 1_000;
  let refused = 0;
  const worker = async (client: HttpClient) => {
    while (performance.now() < end) {
      const sent = performance.now();
      const reply = await client.send('GET', target.path);
      latencies.push(performance.now() - sent);
      if (reply.status === 200) continue;
      if (refused === 0) failures.push(`${target.name}: the first answer not 200 was ${reply.status}: ${snippet(reply.body)}`);
      refused++;
    }
  };
  const { clients } = target;
  await Promise.all(Array.from({ length: connections }, (_, index) => worker(clients[index % clients.length] as HttpClient)));
  const elapsed = (performance.now() - start) / 1_000;
  const cpuAfter = cpuNow();
  target.sent += latencies.length;
  if (refused > 0) failures.push(`${target.name}: ${refused} answers were not 200`);
  const serverCpuMicros =
    cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / latencies.length;
  return { requests: latencies.length, seconds: elapsed, serverCpuMicros, latencies: latencies.sort((a, b) => a - b) };
}

/** CPU seconds of the servers' processes together; undefined without /proc. */
function serversCpu(servers: readonly ServerProcess[]): number | undefined {
  const each = servers.map((server) => processCpu(server.child.pid));
  return each.every((value) => value !== undefined) ? each.reduce((sum: number, value) => sum + value, 0) : undefined;
}

function cpuText(measures: readonly Measure[]): string {
  const micros = measures.map((measure) => measure.serverCpuMicros);
  return micros.every((value) => value !== undefined) && micros.length > 0 ? whole.format(median(micros)) : 'n/a';
}

/** The keyed and open single processes and, with `--cluster`, two keyed gateways of a cluster; each keyed mode with its key. */
async function startModes(options: BenchOptions) {
  const keyedServer = await startServerProcess({ name: 'data-api-keys', env: {} });
  const openServer = await startServerProcess({ name: 'data-api-open', env: { DATA_API_AUTH: 'false' } });
  const stops: (() => Promise<void>)[] = [() => stopServerProcess(keyedServer), () => stopServerProcess(openServer)];
  const keyedModes = new Map<Mode, { where: KeyStore; id: number }>();
  const keyedMode = async (name: string, servers: ServerProcess[], where: KeyStore) => {
    const { key, id } = await issueKey(where);
    const target = mode(name, servers, options.connections, { 'x-api-key': key }, true);
    keyedModes.set(target, { where, id });
    return target;
  };
  const single = await keyedMode('key check + quota count', [keyedServer], { kind: 'sqlite', file: keyedServer.storeFile });
  const open = mode('authentication off (baseline)', [openServer], options.connections, {}, false);
  const modes = [single, open];
  if (options.cluster) {
    const database = await startDatabase();
    stops.push(() => database.drop());
    const onPostgres = await startServerProcess({ name: 'data-api-postgres', env: database.env });
    stops.push(() => stopServerProcess(onPostgres));
    const where: KeyStore = { kind: 'postgres', url: database.env.DATABASE_URL };
    modes.push(await keyedMode('one process on PostgreSQL', [onPostgres], where));
    const gateways = await startClusterGateways(stops);
    const url = gateways.databaseUrl;
    modes.push(await keyedMode('cluster: 2 gateways, Redis + PostgreSQL', gateways.servers, { kind: 'postgres', url }));
  }
  const close = async () => {
    for (const target of modes) for (const client of target.clients) client.close();
    for (const stop of stops.reverse()) await stop();
  };
  return { modes, keyed: keyedModes, open, close };
}

/** A cluster of the run's own (one engine: it seeds the devnet tokens) and two gateways sharing a Redis key prefix. */
async function startClusterGateways(stops: (() => Promise<void>)[]) {
  let cluster: ClusterProcesses | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-api-cluster-'));
  stops.push(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  cluster = await startClusterProcesses(1, dataDir);
  const prefix = `bench:${randomBytes(4).toString('hex')}:`;
  stops.push(() => forgetKeys(prefix));
  const env = { ...cluster.gatewayEnv, REDIS_URL: REDIS_URL, REDIS_KEY_PREFIX: prefix };
  const servers: ServerProcess[] = [];
  for (let index = 0; index < 2; index++) {
    const server = await startServerProcess({ name: `data-api-gateway-${index}`, env });
    stops.push(() => stopServerProcess(server));
    servers.push(server);
  }
  return { servers, databaseUrl: cluster.gatewayEnv.DATABASE_URL ?? '' };
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const cores = cpus().length;
  console.log(
    `node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cores} cores), ${process.platform}/${process.arch}`,
  );
  console.log(
    `GET /tokens, ${options.connections} requests in flight over keep-alive HTTP/1.1, ${options.seconds} s per mode after ${options.warmup} s of warm-up, median of ${options.runs} run(s); client and servers (child processes) share the ${cores} cores`,
  );
  const [one, five] = loadavg();
  console.log(`load average before the run: ${one?.toFixed(2)} (1 min), ${five?.toFixed(2)} (5 min)`);

  const failures: string[] = [];
  const { modes, keyed, open, close } = await startModes(options);
  const results = new Map<Mode, Measure[]>(modes.map((target) => [target, []]));
  try {
    for (const target of modes) await check(target, failures);
    for (let run = 1; run <= options.runs; run++) {
      for (const target of run % 2 === 1 ? modes : [...modes].reverse()) {
        if (options.warmup > 0) await load(target, options.connections, options.warmup, failures);
        const measure = await load(target, options.connections, options.seconds, failures);
        process.stderr.write(
          `  run ${run}/${options.runs} ${target.name}: ${whole.format(measure.requests / measure.seconds)} req/s, p99 ${fineMillis.format(percentile(measure.latencies, 0.99))} ms, server ${measure.serverCpuMicros?.toFixed(1) ?? 'n/a'} µs CPU/req\n`,
        );
        results.get(target)?.push(measure);
      }
    }
    for (const [target, { where, id }] of keyed) {
      const counted = await storedCount(where, id);
      if (counted !== target.sent)
        failures.push(`${target.name}: the key's stored count is ${counted}, but ${target.sent} requests were served`);
      else
        console.log(
          `quota count, ${target.name}: ${whole.format(counted)} requests sent, ${whole.format(counted)} stored for the key`,
        );
    }
  } finally {
    await close();
  }

  const rate = (target: Mode) => median((results.get(target) ?? []).map((measure) => measure.requests / measure.seconds));
  const baseline = rate(open);
  const rows = modes.map((target) => {
    const measures = results.get(target) ?? [];
    return [
      target.name,
      whole.format(median(measures.map((measure) => measure.requests))),
      whole.format(rate(target)),
      fineMillis.format(median(measures.map((measure) => percentile(measure.latencies, 0.5)))),
      fineMillis.format(median(measures.map((measure) => percentile(measure.latencies, 0.99)))),
      cpuText(measures),
      `${(rate(target) / baseline).toFixed(2)}x`,
    ];
  });
  console.log('');
  printTable(['GET /tokens', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'vs auth off'], rows);
  console.log('');
  const [single] = modes;
  const ratio = single === undefined ? 0 : rate(single) / baseline;
  console.log(
    `target (issue, informational): keyed req/s >= ${TARGET_RATIO} of the baseline: ${ratio.toFixed(2)} ${verdict(ratio >= TARGET_RATIO)}`,
  );
  const cluster = modes.find((target) => target.servers.length > 1);
  if (cluster !== undefined && single !== undefined) {
    console.log(
      `cluster (informational): two gateways against one process, both keyed: ${(rate(cluster) / rate(single)).toFixed(2)}x the req/s, on the same ${cores} cores`,
    );
  }
  for (const failure of failures) console.log(`FAIL ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

runBenchmark('bench:data-api', main);
