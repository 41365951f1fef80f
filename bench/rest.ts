/**
 * Public REST under load (issue 41): `GET /depth/1` and `GET /books` of the service as `npm start`
 * runs it (the devnet with its embedded chain, CHAIN=devnet) without its market-making bot, in a
 * child process, against a bare node:http server in another child answering the very bytes the
 * service answered (read just before), with a JSON content type and a length and nothing else.
 * Both are driven the same way, autocannon-style (bench/support/rest-load.ts): C keep-alive
 * connections, each sending its next GET as soon as its answer is in, for a fixed time, one server
 * after the other and alternating (service, bare, bare, service, ...), after an untimed warm-up of
 * each. Book 1 first holds a small ladder like the devnet bot's (5 levels a side), then a deep one.
 *
 *   npm run bench:rest -- [--connections 16] [--seconds 5] [--rounds 2] [--levels 5,50]
 *                         [--time-limit 300] [--cpu-prof DIR] [--server-log] [--autocannon]
 *
 * Printed: requests/s and latency p50/p99 of each, the ratio with PASS/MISS against 0.8x (the
 * target, informational), the CPU per answer of each server and of the load generator (this
 * process), which must stay below the server's for the figure to measure the server, the ratio of
 * the servers' CPU per answer (what the requests/s ratio would be with a core for each server), and
 * with `--cpu-prof` the server's self time by function (the whole run: setup, both servers' turns).
 * `--autocannon` drives the load with autocannon itself instead of the leaner raw-socket
 * generator (bench/support/lean-load.ts), which costs less CPU per answer on a shared machine.
 *
 * Checks: no connection error, timeout or non-2xx answer; the service's depth has the book's
 * levels; each server's answers are all of one size; the bodies read after the load equal those
 * read before (depth's timestamp aside).
 */
import { parseArgs } from 'node:util';
import { BareRestServer } from './support/bare-rest.js';
import { newestProfile, selfTimes } from './support/cpu-profile.js';
import { snippet } from './support/http-client.js';
import { BENCH_BOOK, readMarket } from './support/market.js';
import { readCount, readProfileDir } from './support/options.js';
import { fineMillis, machineText, whole } from './support/report.js';
import { RestingLadder } from './support/rest-book.js';
import { driveLoad, type Generator, type LoadFigures } from './support/rest-load.js';
import { generatorBound, printCpu, printRoutes, type RouteFigures, TARGET_RATIO, totalsOf } from './support/rest-report.js';
import { runBenchmark, stopServerProcess } from './support/server-process.js';
import { printLogged, type Server, startServer } from './support/settlement-server.js';

const DEPTH_PATH = `/depth/${BENCH_BOOK.id}`;
const BOOKS_PATH = '/books';
/** Untimed load on each server before a route's rounds: sockets open, code compiled. */
const WARMUP_SECONDS = 1;
/** Functions of the server's profile printed. */
const PROFILE_ROWS = 25;

interface Options {
  readonly connections: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly levels: readonly number[];
  readonly timeLimitSeconds: number;
  readonly cpuProfDir: string | undefined;
  readonly serverLog: boolean;
  readonly generator: Generator;
}

function readOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      connections: { type: 'string' },
      seconds: { type: 'string' },
      rounds: { type: 'string' },
      levels: { type: 'string' },
      'time-limit': { type: 'string' },
      'cpu-prof': { type: 'string' },
      'server-log': { type: 'boolean' },
      autocannon: { type: 'boolean' },
    },
    strict: true,
  });
  const levels = (values.levels ?? '5,50').split(',').map((text) => readCount('--levels', text.trim(), 0, 1, 500));
  if (levels.some((count, index) => index > 0 && count <= (levels[index - 1] ?? 0)))
    throw new Error('--levels must grow: the book only gains levels');
  return {
    connections: readCount('--connections', values.connections, 16, 1, 256),
    seconds: readCount('--seconds', values.seconds, 5, 1, 60),
    rounds: readCount('--rounds', values.rounds, 2, 1, 10),
    levels,
    timeLimitSeconds: readCount('--time-limit', values['time-limit'], 300, 10, 3_600),
    cpuProfDir: readProfileDir(values['cpu-prof']),
    serverLog: values['server-log'] === true,
    generator: values.autocannon === true ? 'autocannon' : 'lean',
  };
}

/** The service's answer to a GET, which must be a 200. */
async function answerOf(server: Server, path: string): Promise<Buffer> {
  const reply = await server.client.send('GET', path);
  if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}: ${snippet(reply.body)}`);
  return reply.body;
}

/** A body as compared before and after the load: depth's timestamp is the time of the answer. */
function comparable(path: string, body: Buffer): string {
  if (path !== DEPTH_PATH) return body.toString('utf8');
  const { timestamp: _timestamp, ...rest } = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  return JSON.stringify(rest);
}

function checkDepth(body: Buffer, levels: number, problems: string[]): void {
  const depth = JSON.parse(body.toString('utf8')) as { bids: unknown[]; asks: unknown[] };
  if (depth.bids.length !== levels || depth.asks.length !== levels)
    problems.push(`GET ${DEPTH_PATH} has ${depth.bids.length} bids and ${depth.asks.length} asks, expected ${levels} each`);
}

interface Servers {
  readonly service: Server;
  readonly bare: BareRestServer;
}

/** A route's rounds: warm-up of each, then service and bare in turn, the order flipped every round. */
async function measureRoute(servers: Servers, path: string, options: Options, deadline: number) {
  const load = (name: keyof Servers, seconds: number): Promise<LoadFigures> => {
    if (performance.now() + seconds * 1000 > deadline) throw new Error('the run would pass --time-limit');
    const { url, child } = servers[name];
    return driveLoad({
      url,
      path,
      connections: options.connections,
      seconds,
      serverPid: child.pid,
      generator: options.generator,
    });
  };
  await load('service', WARMUP_SECONDS);
  await load('bare', WARMUP_SECONDS);
  const runs = { service: [] as LoadFigures[], bare: [] as LoadFigures[] };
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? (['service', 'bare'] as const) : (['bare', 'service'] as const);
    for (const name of order) runs[name].push(await load(name, options.seconds));
  }
  return { service: totalsOf(runs.service), bare: totalsOf(runs.bare) };
}

/** One book size's routes (GET /books only at the first: its body does not depend on depth). */
async function measureBook(
  servers: Servers,
  levels: number,
  first: boolean,
  options: Options,
  deadline: number,
  problems: string[],
) {
  const paths = first ? [DEPTH_PATH, BOOKS_PATH] : [DEPTH_PATH];
  const bodies = new Map<string, Buffer>();
  for (const path of paths) bodies.set(path, await answerOf(servers.service, path));
  checkDepth(bodies.get(DEPTH_PATH) as Buffer, levels, problems);
  await servers.bare.serve(bodies);
  const routes: RouteFigures[] = [];
  for (const [path, body] of bodies) {
    process.stderr.write(`  ${levels} levels a side: GET ${path} (${body.length} B)\n`);
    const { service, bare } = await measureRoute(servers, path, options, deadline);
    routes.push({ levels, path, bodyBytes: body.length, service, bare });
    const after = await answerOf(servers.service, path);
    if (comparable(path, after) !== comparable(path, body)) problems.push(`GET ${path} changed during the load`);
    for (const [name, totals] of [
      ['service', service],
      ['bare server', bare],
    ] as const) {
      if (totals.failures > 0) problems.push(`GET ${path}: ${totals.failures} errors or non-2xx answers from the ${name}`);
      if (totals.answerBytes.size !== 1)
        problems.push(`GET ${path}: the ${name}'s answers were of ${totals.answerBytes.size} sizes`);
    }
  }
  return routes;
}

function printProfile(dir: string): void {
  const file = newestProfile(dir);
  if (file === undefined) {
    console.log(`no CPU profile in ${dir}`);
    return;
  }
  const { total, byFunction } = selfTimes(file);
  const busy = byFunction.filter(({ where }) => where !== '(idle)').reduce((sum, { ms }) => sum + ms, 0);
  console.log(
    `\nthe server's CPU profile (${file}): ${whole.format(busy)} ms busy of ${whole.format(total)} ms; self time by function:`,
  );
  for (const { where, ms } of byFunction.filter(({ where }) => where !== '(idle)').slice(0, PROFILE_ROWS))
    console.log(`${fineMillis.format((100 * ms) / busy).padStart(6)} %  ${whole.format(ms).padStart(7)} ms  ${where}`);
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const deadline = performance.now() + options.timeLimitSeconds * 1000;
  console.log(machineText());
  console.log(
    `${options.connections} keep-alive connections, ${options.rounds} round${options.rounds === 1 ? '' : 's'} of ${options.seconds} s on each server per route (after ${WARMUP_SECONDS} s of each untimed), alternating; the load generator is this process (${options.generator === 'lean' ? 'raw sockets' : 'autocannon'}, one thread)`,
  );
  const service = await startServer({
    batchFills: undefined,
    txGasLimit: undefined,
    cpuProfDir: options.cpuProfDir,
    serverLog: options.serverLog,
  });
  const problems: string[] = [];
  const routes: RouteFigures[] = [];
  let bare: BareRestServer | undefined;
  try {
    bare = await BareRestServer.start();
    const ladder = await RestingLadder.open(service, await readMarket(service.client, BENCH_BOOK.id));
    for (const [index, levels] of options.levels.entries()) {
      process.stderr.write(`  resting orders up to ${levels} levels a side\n`);
      await ladder.growTo(levels, problems);
      routes.push(...(await measureBook({ service, bare }, levels, index === 0, options, deadline, problems)));
    }
  } finally {
    await bare?.stop();
    service.client.close();
    await stopServerProcess(service);
  }
  console.log(`load average at the end ${machineText().split('load average ')[1]}\n`);
  const met = printRoutes(routes);
  console.log('');
  printCpu(routes);
  const bound = generatorBound(routes);
  console.log(
    bound.length === 0
      ? '\nthe load generator spent less CPU per answer than the server it loaded in every run: the server was the bottleneck'
      : `\nWARNING the load generator spent as much CPU per answer as the server (its figure measures the generator): ${bound.join('; ')}`,
  );
  console.log(`\ntargets met: ${met} of ${routes.length} (>= ${TARGET_RATIO}x the bare server's requests/s; informational)`);
  if (options.cpuProfDir !== undefined) printProfile(options.cpuProfDir);
  printLogged(service);
  console.log(`checks: ${problems.length === 0 ? 'every answer 2xx and of one size, depth as laid, bodies unchanged' : 'FAIL'}`);
  for (const problem of problems) console.log(`FAIL ${problem}`);
  return problems.length === 0 ? 0 : 1;
}

runBenchmark('bench:rest', main);
