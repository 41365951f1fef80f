/**
 * Latency as a market maker feels it (issue 41): one order at a time over loopback HTTP with
 * keep-alive, against the service as `npm start` runs it (the devnet with its embedded chain,
 * CHAIN=devnet) without its market-making bot, in a child process (bench/support/server-child.ts
 * starts the bot only when asked). Each client has its own account and socket and sends one
 * request at a time, in rounds (bench/support/latency-round.ts): build and save two resting
 * orders, build and save a crossing order that fills against liquidity rested before the clock
 * started, `POST /cancel` the first (202), `POST /cancel/all` above the round's nonces (202).
 *
 *   npm run bench:latency -- [--requests 500] [--concurrency 1,4,16] [--time-limit 900] [--server-log] [--cpu-prof DIR]
 *
 * `--requests N`: rounds per key kind at each concurrency level, so N cancels, cancel/alls and
 * crossing saves, 2N resting saves and 3N builds of each kind. One client runs the rounds of a
 * secp256k1 wallet, then one those of an Ed25519 account; C clients at once are C/2 of each kind.
 *
 * The floors, measured after each level once the service's chain work for it is done: a bare
 * node:http server in a child process answering a body of each route's mean answer size to a
 * request of its mean request size, through the same client, with as many clients at once; and
 * fdatasync of 4 KiB in the data directory's filesystem (bench/support/fdatasync-floor.ts). Saves
 * are compared with round trip + fdatasync, builds and cancel acknowledgements with the round
 * trip, at the same percentile. Targets (issue 41, informational): a save's p50 and p99 <= 3x its
 * floor; build, cancel and cancel/all p99 <= 3x the round trip's.
 *
 * Checks: every answer has its expected status (resting orders ACTIVE, crossing ones FILLED, each
 * cancel accepting exactly its order); after each level, every fill settled on the chain and every
 * cancellation final; at the end the clients' orders are, in the store, exactly as many FILLED,
 * CANCELED by USER and CANCELED by NONCE_FLOOR as rounds.
 */
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { SqlDatabase } from '../packages/server/src/adapters/sqlite/driver.js';
import { openDatabase } from '../packages/server/src/adapters/sqlite/driver.js';
import { type Account, createAccounts, login } from './support/accounts.js';
import { type BareHttpServer, bareRoundTrips, shareOf, startBareHttp } from './support/bare-http.js';
import { childProcesses, cpuMark, cpuUse } from './support/cpu.js';
import { fdatasyncFloor } from './support/fdatasync-floor.js';
import { HttpClient } from './support/http-client.js';
import { type LevelFigures, printLevel } from './support/latency-report.js';
import { runRound, type Trader } from './support/latency-round.js';
import { LatencySamples, MEASURES, type Measure, type Spread, spreadOf } from './support/latency-samples.js';
import { BENCH_BOOK, type Market, readMarket } from './support/market.js';
import { readCount, readProfileDir } from './support/options.js';
import { noneOpen, statusCounts } from './support/order-statuses.js';
import { machineText, whole } from './support/report.js';
import { ask, runBenchmark, stopServerProcess } from './support/server-process.js';
import { coresText } from './support/settlement-figures.js';
import { BOOK_PRICES, FILLS_PER_MAKER, TraderPicker } from './support/settlement-orders.js';
import { makersFor, prepare } from './support/settlement-phases.js';
import { printLogged, type Server, startServer } from './support/settlement-server.js';
import { progress, settledAll } from './support/settlement-store.js';
import { printStages, readStages, type StageReading } from './support/stage-figures.js';

/** Tokens each account gets, in whole units: far more than its orders ever reserve. */
const FUNDING_UNITS = 10_000_000n;
/** Accounts that rest the liquidity the crossing orders take: a seller and a buyer of each key kind. */
const LIQUIDITY_ACCOUNTS = 4;
/** Untimed rounds of every client before the first level: its socket open and the server's code paths compiled. */
const WARMUP_ROUNDS = 4;
/** fdatasyncs timed after each level: enough for a p99, about a second. */
const FDATASYNC_SAMPLES = 2_000;

interface Options {
  readonly requests: number;
  readonly concurrency: readonly number[];
  readonly timeLimitSeconds: number;
  readonly serverLog: boolean;
  /** Where the server child writes a V8 CPU profile when it exits. */
  readonly cpuProfDir: string | undefined;
}

function readOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      requests: { type: 'string' },
      concurrency: { type: 'string' },
      'time-limit': { type: 'string' },
      'server-log': { type: 'boolean' },
      'cpu-prof': { type: 'string' },
    },
    strict: true,
  });
  const concurrency = (values.concurrency ?? '1,4,16')
    .split(',')
    .map((text) => readCount('--concurrency', text.trim(), 0, 1, 64));
  if (concurrency.some((clients) => clients !== 1 && clients % 2 !== 0))
    throw new Error('--concurrency levels must be 1 or even: half the clients of each key kind');
  return {
    requests: readCount('--requests', values.requests, 500, 10, 20_000),
    concurrency,
    timeLimitSeconds: readCount('--time-limit', values['time-limit'], 900, 10, 3_600),
    serverLog: values['server-log'] === true,
    cpuProfDir: readProfileDir(values['cpu-prof']),
  };
}

/** A level's clients, each with its rounds: one after the other for a single client (each kind in turn), else all at once. */
function groupsOf(traders: readonly Trader[], clients: number, rounds: number): { trader: Trader; rounds: number }[][] {
  const ofKind = (kind: string) => traders.filter((trader) => trader.account.signer.kind === kind);
  const [secp, ed] = [ofKind('secp256k1'), ofKind('ed25519')];
  if (clients === 1) return [secp, ed].map((group) => [{ trader: group[0] as Trader, rounds }]);
  const perKind = clients / 2;
  return [
    [secp, ed].flatMap((group) =>
      group.slice(0, perKind).map((trader, index) => ({ trader, rounds: shareOf(rounds, perKind, index) })),
    ),
  ];
}

/** Crossing orders per side the warm-up and the levels send at most: a trader alternates sides from round to round. */
function crossingPerSide(traders: readonly Trader[], options: Options): number {
  const warmup = traders.length * Math.ceil(WARMUP_ROUNDS / 2);
  return options.concurrency
    .flatMap((clients) => groupsOf(traders, clients, options.requests).flat())
    .reduce((sum, { rounds }) => sum + Math.ceil(rounds / 2), warmup);
}

async function newAccounts(server: Server, count: number, market: Market): Promise<Account[]> {
  const accounts: Account[] = [];
  // One after the other: the server keeps only a few open login challenges per client address.
  for (const account of await createAccounts(server, count)) accounts.push(await login(server.client, account));
  const funding = [
    { token: market.base, amount: (FUNDING_UNITS * 10n ** BigInt(market.baseDecimals)).toString() },
    { token: market.quote, amount: (FUNDING_UNITS * 10n ** BigInt(market.quoteDecimals)).toString() },
  ];
  await ask(server, { type: 'fund', accounts: accounts.map((account) => account.evmAddress), tokens: funding }, 'funded');
  return accounts;
}

/** Rests the liquidity of every crossing order of the run, at the book's two prices (not timed). */
async function restLiquidity(server: Server, market: Market, perSide: number, problems: string[]): Promise<void> {
  const liquidity = await newAccounts(server, LIQUIDITY_ACCOUNTS, market);
  // Whole resting orders on both sides: FILLS_PER_MAKER crossing orders each.
  const fills = Math.ceil((2 * perSide) / (2 * FILLS_PER_MAKER)) * 2 * FILLS_PER_MAKER;
  await prepare(server, market, makersFor(new TraderPicker(liquidity, 0.5), fills, BOOK_PRICES), [], problems);
}

/** Every client's untimed warm-up rounds, all at once; how many rounds in all. */
async function warmUp(traders: readonly Trader[], market: Market): Promise<number> {
  await Promise.all(
    traders.map(async (trader, index) => {
      for (let round = 0; round < WARMUP_ROUNDS; round++)
        await runRound(trader, market, new LatencySamples(), (round + index) % 2 === 0);
    }),
  );
  return traders.length * WARMUP_ROUNDS;
}

/** One level's rounds, timed; its samples and wall seconds. */
async function measureLevel(traders: readonly Trader[], clients: number, options: Options, market: Market, deadline: number) {
  const samples = new LatencySamples();
  const started = performance.now();
  for (const group of groupsOf(traders, clients, options.requests)) {
    await Promise.all(
      group.map(async ({ trader, rounds }, index) => {
        for (let round = 0; round < rounds; round++) {
          if (performance.now() > deadline) throw new Error('the run passed --time-limit');
          await runRound(trader, market, samples, (round + index) % 2 === 0);
        }
      }),
    );
  }
  return { samples, seconds: (performance.now() - started) / 1000 };
}

/** Waits until the level's fills are settled and its cancellations final, so the next level and the floors start quiet. */
async function drain(db: SqlDatabase, traders: readonly Trader[], deadline: number, problems: string[]): Promise<void> {
  await settledAll(db, progress(db).trades, deadline);
  await noneOpen(
    db,
    traders.map((trader) => trader.account.id),
    deadline,
  );
  const { failed } = progress(db);
  if (failed > 0) problems.push(`${failed} fills failed to settle`);
}

async function stageReading(server: Server): Promise<StageReading> {
  return readStages((await ask(server, { type: 'metrics' }, 'metrics')).text);
}

async function measureFloors(bare: BareHttpServer, server: Server, samples: LatencySamples, clients: number) {
  const roundTrips = new Map<Measure, { sizes: ReturnType<LatencySamples['sizes']>; spread: Spread }>();
  for (const measure of MEASURES) {
    const sizes = samples.sizes(measure);
    const sorted = await bareRoundTrips(bare.url, sizes, clients, samples.count(measure));
    roundTrips.set(measure, { sizes, spread: spreadOf(sorted) });
  }
  return { roundTrips, fdatasync: spreadOf(fdatasyncFloor(dirname(server.dataDir), FDATASYNC_SAMPLES)) };
}

/** The clients' orders in the store: one FILLED, one CANCELED USER and one CANCELED NONCE_FLOOR per round, nothing else. */
function checkStore(db: SqlDatabase, traders: readonly Trader[], rounds: number, problems: string[]): void {
  const counts = statusCounts(
    db,
    traders.map((trader) => trader.account.id),
  );
  const expected = new Map([
    ['FILLED', rounds],
    ['CANCELED USER', rounds],
    ['CANCELED NONCE_FLOOR', rounds],
  ]);
  for (const key of new Set([...counts.keys(), ...expected.keys()])) {
    if ((counts.get(key) ?? 0) !== (expected.get(key) ?? 0))
      problems.push(`the clients have ${counts.get(key) ?? 0} ${key} orders in the store, expected ${expected.get(key) ?? 0}`);
  }
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const deadline = performance.now() + options.timeLimitSeconds * 1000;
  console.log(machineText());
  const server = await startServer({
    batchFills: undefined,
    txGasLimit: undefined,
    cpuProfDir: options.cpuProfDir,
    serverLog: options.serverLog,
  });
  const problems: string[] = [];
  const traders: Trader[] = [];
  let bare: BareHttpServer | undefined;
  const db = await openDatabase(server.storeFile);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    bare = await startBareHttp();
    const market = await readMarket(server.client, BENCH_BOOK.id);
    const clients = Math.max(2, ...options.concurrency);
    process.stderr.write(`  registering, funding and logging in ${clients} clients\n`);
    for (const account of await newAccounts(server, clients, market))
      traders.push({ account, http: new HttpClient(server.url, 1) });
    await restLiquidity(server, market, crossingPerSide(traders, options), problems);
    const pids = { server: server.child.pid, anvil: childProcesses(server.child.pid, 'anvil')[0] };
    let rounds = await warmUp(traders, market);
    await drain(db, traders, deadline, problems);
    let passed = 0;
    let judged = 0;
    for (const level of options.concurrency) {
      process.stderr.write(`  ${level} client${level === 1 ? '' : 's'} at once: ${options.requests} rounds per key kind\n`);
      const before = cpuMark(pids);
      const stagesBefore = await stageReading(server);
      const { samples, seconds } = await measureLevel(traders, level, options, market, deadline);
      const cpu = cpuUse(before, cpuMark(pids));
      const stagesAfter = await stageReading(server);
      rounds += 2 * options.requests;
      await drain(db, traders, deadline, problems);
      const figures: LevelFigures = { clients: level, samples, seconds, ...(await measureFloors(bare, server, samples, level)) };
      const verdicts = printLevel(figures);
      console.log(`CPU in cores while the requests ran: ${coresText(cpu)}`);
      printStages(stagesBefore, stagesAfter);
      passed += verdicts.passed;
      judged += verdicts.judged;
    }
    checkStore(db, traders, rounds, problems);
    console.log(`\ntargets met: ${passed} of ${judged} (informational)`);
    console.log(
      `checks: ${problems.length === 0 ? `every answer as expected; ${whole.format(rounds)} rounds' fills settled and cancellations final in the store` : 'FAIL'}`,
    );
    printLogged(server);
    for (const problem of problems) console.log(`FAIL ${problem}`);
    return problems.length === 0 ? 0 : 1;
  } finally {
    for (const trader of traders) trader.http.close();
    await bare?.stop();
    db.close();
    server.client.close();
    await stopServerProcess(server);
  }
}

runBenchmark('bench:latency', main);
