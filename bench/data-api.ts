/**
 * Data API benchmark: `GET /tokens` with API-key checking and quota counting, beside the same
 * route with authentication switched off (DATA_API_AUTH=false, the devnet-only switch), in one run.
 * Each mode has its own server in a child process (bench/support/server-child.ts) on an empty devnet
 * store; the key is issued with the operator CLI's code on the keyed server's store file, as an
 * operator would beside a running server. The client keeps `--connections` requests in flight
 * over keep-alive HTTP for `--seconds` per mode, after `--warmup` seconds, alternating which mode
 * goes first from run to run. The target from the issue: keyed req/s >= 0.8 of the baseline.
 *
 *   npm run bench:data-api -- [--seconds 10] [--warmup 2] [--connections 32] [--runs 1]
 *
 * Checks: every answer is 200, the keyed ones carry the four quota headers and the baseline's
 * none, and the key's stored count for the month equals the requests sent to the keyed server.
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openSqliteStore } from '../packages/server/src/adapters/sqlite/sqlite-store.js';
import { operatorIo } from '../packages/server/src/composition/operator-wiring.js';
import { monthOf } from '../packages/server/src/domain/data-api/utc-month.js';
import { runOperator } from '../packages/server/src/edges/cli/operator.js';
import { systemClock } from '../packages/server/src/ports/clock.js';
import { processCpu } from './support/cpu.js';
import { HttpClient, snippet } from './support/http-client.js';
import { readCount } from './support/options.js';
import { fineMillis, median, percentile, printTable, verdict, whole } from './support/report.js';
import { runBenchmark, type ServerProcess, startServerProcess, stopServerProcess } from './support/server-process.js';

const TARGET_RATIO = 0.8;
/** A quota no run can use up: the keyed mode measures checking and counting, never refusals. */
const QUOTA = 1_000_000_000_000;
const QUOTA_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-additional-total', 'x-ratelimit-reset'];

interface BenchOptions {
  readonly seconds: number;
  readonly warmup: number;
  readonly connections: number;
  readonly runs: number;
}

interface Mode {
  readonly name: string;
  readonly server: ServerProcess;
  readonly client: HttpClient;
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
    },
    strict: true,
  });
  return {
    seconds: readCount('--seconds', values.seconds, 10, 1, 600),
    warmup: readCount('--warmup', values.warmup, 2, 0, 60),
    connections: readCount('--connections', values.connections, 32, 1, 512),
    runs: readCount('--runs', values.runs, 1, 1, 10),
  };
}

/** Issues a key on the keyed server's store file with the operator CLI; returns the key and its id. */
async function issueKey(server: ServerProcess): Promise<{ key: string; id: number }> {
  const store = await openSqliteStore(join(server.dataDir, 'devnet.sqlite'));
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

/** Requests counted for the key this month, read from the store file as the operator CLI reads it. */
async function storedCount(server: ServerProcess, id: number): Promise<number> {
  const store = await openSqliteStore(join(server.dataDir, 'devnet.sqlite'));
  try {
    return await store.apiKeys.requests(id, monthOf(Date.now()).start);
  } finally {
    await store.close();
  }
}

async function mode(
  name: string,
  server: ServerProcess,
  connections: number,
  headers: Record<string, string>,
  keyed: boolean,
): Promise<Mode> {
  const base = server.dataApiUrl;
  const client = new HttpClient(base, connections, headers);
  return { name, server, client, path: `${base.pathname.replace(/\/$/, '')}/tokens`, keyed, sent: 0 };
}

/** One request that must succeed, with the quota headers exactly when the mode checks keys. */
async function check(target: Mode, failures: string[]): Promise<void> {
  const reply = await target.client.send('GET', target.path);
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
  const pid = target.server.child.pid;
  const cpuBefore = processCpu(pid);
  const start = performance.now();
  const end = start + seconds * 1_000;
  let refused = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const sent = performance.now();
      const reply = await target.client.send('GET', target.path);
      latencies.push(performance.now() - sent);
      if (reply.status !== 200) refused++;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - start) / 1_000;
  const cpuAfter = processCpu(pid);
  target.sent += latencies.length;
  if (refused > 0) failures.push(`${target.name}: ${refused} answers were not 200`);
  const serverCpuMicros =
    cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / latencies.length;
  return { requests: latencies.length, seconds: elapsed, serverCpuMicros, latencies: latencies.sort((a, b) => a - b) };
}

function cpuText(measures: readonly Measure[]): string {
  const micros = measures.map((measure) => measure.serverCpuMicros);
  return micros.every((value) => value !== undefined) && micros.length > 0 ? whole.format(median(micros)) : 'n/a';
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
  const keyedServer = await startServerProcess({ name: 'data-api-keys', env: {} });
  const openServer = await startServerProcess({ name: 'data-api-open', env: { DATA_API_AUTH: 'false' } });
  const { key, id } = await issueKey(keyedServer);
  const keyed = await mode('key check + quota count', keyedServer, options.connections, { 'x-api-key': key }, true);
  const open = await mode('authentication off (baseline)', openServer, options.connections, {}, false);
  const results = new Map<Mode, Measure[]>([
    [keyed, []],
    [open, []],
  ]);
  try {
    for (const target of [keyed, open]) await check(target, failures);
    for (let run = 1; run <= options.runs; run++) {
      for (const target of run % 2 === 1 ? [keyed, open] : [open, keyed]) {
        if (options.warmup > 0) await load(target, options.connections, options.warmup, failures);
        const measure = await load(target, options.connections, options.seconds, failures);
        process.stderr.write(
          `  run ${run}/${options.runs} ${target.name}: ${whole.format(measure.requests / measure.seconds)} req/s, p99 ${fineMillis.format(percentile(measure.latencies, 0.99))} ms, server ${measure.serverCpuMicros?.toFixed(1) ?? 'n/a'} µs CPU/req\n`,
        );
        results.get(target)?.push(measure);
      }
    }
    const counted = await storedCount(keyedServer, id);
    if (counted !== keyed.sent) failures.push(`the key's stored count is ${counted}, but ${keyed.sent} requests were served`);
    else
      console.log(
        `quota count: ${whole.format(counted)} requests sent to the keyed server, ${whole.format(counted)} stored for the key`,
      );
  } finally {
    keyed.client.close();
    open.client.close();
    await stopServerProcess(keyedServer);
    await stopServerProcess(openServer);
  }

  const rate = (target: Mode) => median((results.get(target) ?? []).map((measure) => measure.requests / measure.seconds));
  const baseline = rate(open);
  const rows = [keyed, open].map((target) => {
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
  const ratio = rate(keyed) / baseline;
  console.log(
    `target (issue, informational): keyed req/s >= ${TARGET_RATIO} of the baseline: ${ratio.toFixed(2)} ${verdict(ratio >= TARGET_RATIO)}`,
  );
  for (const failure of failures) console.log(`FAIL ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

runBenchmark('bench:data-api', main);
