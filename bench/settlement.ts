/**
 * Settlement benchmark: the real service with CHAIN=devnet (anvil, the reactor, the settler and
 * the indexer) in a child process (bench/support/server-child.ts), traders of both key types
 * funded on the chain, signed orders over HTTP, and every fill settled by the reactor.
 *
 *   npm run bench:settlement -- [--fills 10000] [--rate N] [--seconds 20] [--accounts 4]
 *                               [--ed25519-share 0.1] [--amm-share 0.5] [--batch-fills N]
 *                               [--tx-gas-limit N] [--load 0.5] [--time-limit 300] [--cpu-prof DIR]
 *                               [--server-log] [--bot-minutes 60] [--sample-seconds 60]
 *
 * Three phases on one server, each after its resting orders are seeded:
 *  1. throughput: crossing orders for `--fills` fills are saved as fast as the API takes them, so a
 *     backlog forms and the settler sends full batches (at the cap of fills, or of gas); settled
 *     fills/s is measured from the first settlement transaction of the phase to its last.
 *  2. throughput with pool legs (skipped with --amm-share 0): the operator CLI deposits into the
 *     pool of the book's pair (AMM_POOL), and as many crossing orders as in phase 1 are saved at
 *     once, `--amm-share` of them opted in to the pool (isAMMEnabled): each takes part of its size
 *     from the pool (a trade without a maker, settled as a reactor pool fill) and the rest from the
 *     book. Its fills/s and gas per fill are printed beside phase 1's, the baseline.
 *  3. latency: crossing orders stream in at `--rate` fills/s (by default half the throughput of
 *     phase 1, at most 480: a rate below capacity), a unit every 100 ms for `--seconds`; each fill's
 *     latency is the time from its match (trades.executed_at) to the moment the service applied its
 *     Filled event (settlements.updated_at), both on the server's clock, read from the server's
 *     SQLite store after the run.
 * At the end every fill must be settled exactly once: as many settled rows as trades, none failed,
 * and one reactor Filled event per book trade and one PoolFilled event per pool trade (same fill
 * id, same transaction), read from the chain as the run goes (the node keeps only its latest
 * blocks). A swap the reactor refuses because the pool moved
 * (`PoolMoved`) is counted and shown, not failed: nothing else trades the pool here, so there
 * should be none. Gas per fill comes from the settlement transactions' receipts. Client, server
 * and anvil share the machine's cores; CPU use per process is printed to show where the time goes.
 * `--load` adds other work: a process that keeps that share of one core busy throughout.
 * `--bot-minutes` then runs `npm start`'s bot on the same server and chain for that long, sampling
 * the chain every `--sample-seconds` (support/settlement-bot-hour.ts): whether its state file and
 * anvil's CPU per transaction stay flat after the burst, as bench:devnet-state judges a live devnet.
 */
import { existsSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Address } from 'viem';
import { openDatabase } from '../packages/server/src/adapters/sqlite/driver.js';
import { type Account, createAccounts, login } from './support/accounts.js';
import { childProcesses, cpuMark, cpuUse } from './support/cpu.js';
import { startCpuLoad } from './support/cpu-load.js';
import { BENCH_BOOK, readBook, readMarket } from './support/market.js';
import { readCount, readProfileDir } from './support/options.js';
import { percentile, printTable, tenths, verdict, whole } from './support/report.js';
import { ask, runBenchmark, stopServerProcess } from './support/server-process.js';
import { botAfterSettlement } from './support/settlement-bot-hour.js';
import { ChainFollower } from './support/settlement-chain.js';
import { drainRate, type Phase, phaseDetails, poolPhaseLines, printPoolComparison } from './support/settlement-figures.js';
import {
  AMM_POOL,
  BOOK_PRICES,
  FILLS_PER_MAKER,
  POOL_BOOK_PRICES,
  plan,
  planWithPool,
  stream,
  TAKER_STEPS,
  TICK_MS,
  TraderPicker,
} from './support/settlement-orders.js';
import { type Burst, burst, makersFor, prepare } from './support/settlement-phases.js';
import {
  addLiquidity,
  poolInEngine,
  printLogged,
  type Server,
  type ServerOptions,
  startServer,
} from './support/settlement-server.js';
import { keyMix, lastTradeId, latencies, progress, settledAll, transactions } from './support/settlement-store.js';

/**
 * Orders per unit of the crossing flow (resting ones: MAKER_UNIT of settlement-phases.ts), split
 * between the key kinds: Ed25519 orders (about 230k gas each to verify) come in runs of a tenth of
 * this at the default share, small enough that no settlement batch gathers more of them than its
 * gas limit allows.
 */
const TAKER_UNIT = 100;
/**
 * Latency-phase rates are multiples of this, so that each tick carries a whole, even number of
 * crossing orders and any duration asks for whole resting orders (FILLS_PER_MAKER per side).
 */
const RATE_STEP = 40;
/**
 * The latency phase's default rate at most: about half the throughput target, a rate below
 * capacity (a multiple of RATE_STEP).
 */
const MAX_AUTO_RATE = 480;
/** anvil's state in DATA_DIR (packages/server/src/adapters/chain/devnet/embedded-devnet.ts). */
const DEVNET_STATE_FILE = 'devnet-chain-state.json';
/** Tokens each trader gets, in whole units: far more than any run moves. */
const FUNDING_UNITS = 10_000_000n;
/** Goals from the issue; misses are reported, never fatal. Under `--load` the throughput goal is the loaded one. */
const TARGETS = { fillsPerSecond: 1_000, loadedFillsPerSecond: 850, p99Ms: 2_000 } as const;

interface Options extends ServerOptions {
  readonly fills: number;
  /** Fills/s of the latency phase; undefined: chosen from the measured throughput. */
  readonly rate: number | undefined;
  readonly seconds: number;
  readonly accounts: number;
  readonly ed25519Share: number;
  /** Of the AMM phase's crossing orders, the share that opt in to the pool; 0: no AMM phase. */
  readonly ammShare: number;
  readonly timeLimitSeconds: number;
  /** Share of one core kept busy by another process during the run. */
  readonly load: number;
  /** Minutes of `npm start`'s bot on the same chain after the phases; 0: none. */
  readonly botMinutes: number;
  readonly sampleSeconds: number;
}

function readShare(flag: string, text: string | undefined, fallback: number): number {
  const share = Number(text ?? fallback);
  if (!(share >= 0 && share <= 1)) throw new Error(`${flag} must be in [0, 1]`);
  return share;
}

function readOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      fills: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      accounts: { type: 'string' },
      'ed25519-share': { type: 'string' },
      'amm-share': { type: 'string' },
      'batch-fills': { type: 'string' },
      'tx-gas-limit': { type: 'string' },
      load: { type: 'string' },
      'time-limit': { type: 'string' },
      'cpu-prof': { type: 'string' },
      'server-log': { type: 'boolean' },
      'bot-minutes': { type: 'string' },
      'sample-seconds': { type: 'string' },
    },
    strict: true,
  });
  const accounts = readCount('--accounts', values.accounts, 4, 4, 32);
  if (accounts % 4 !== 0) throw new Error('--accounts must be a multiple of 4: both key types, each selling and buying');
  const unit = 2 * FILLS_PER_MAKER;
  const rate = values.rate === undefined ? undefined : readCount('--rate', values.rate, 0, RATE_STEP, 20_000);
  if (rate !== undefined && rate % RATE_STEP !== 0) throw new Error(`--rate must be a multiple of ${RATE_STEP}`);
  return {
    fills: Math.ceil(readCount('--fills', values.fills, 10_000, unit, 200_000) / unit) * unit,
    rate,
    seconds: readCount('--seconds', values.seconds, 20, 1, 600),
    accounts,
    ed25519Share: readShare('--ed25519-share', values['ed25519-share'], 0.1),
    ammShare: readShare('--amm-share', values['amm-share'], 0.5),
    batchFills: values['batch-fills'] === undefined ? undefined : readCount('--batch-fills', values['batch-fills'], 0, 1, 500),
    txGasLimit:
      values['tx-gas-limit'] === undefined
        ? undefined
        : readCount('--tx-gas-limit', values['tx-gas-limit'], 0, 1_000_000, 100_000_000),
    load: readShare('--load', values.load, 0),
    timeLimitSeconds: readCount('--time-limit', values['time-limit'], 300, 10, 3_600),
    cpuProfDir: readProfileDir(values['cpu-prof']),
    serverLog: values['server-log'] === true,
    botMinutes: readCount('--bot-minutes', values['bot-minutes'], 0, 0, 24 * 60),
    sampleSeconds: readCount('--sample-seconds', values['sample-seconds'], 60, 5, 3_600),
  };
}

/** Half secp256k1 wallets, half Ed25519 devnet accounts (published at 0x16a); each kind sells and buys; logged in. */
async function createTraders(server: Server, count: number): Promise<Account[]> {
  const accounts = await createAccounts(server, count);
  return Promise.all(accounts.map((account) => login(server.client, account)));
}

/** The latency phase's default rate: half the measured throughput, in steps that keep the plan whole. */
function autoRate(throughput: number): number {
  const step = RATE_STEP;
  return Math.max(step, Math.min(MAX_AUTO_RATE, Math.floor(throughput / 2 / step) * step));
}

// ---- main -------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const deadline = performance.now() + options.timeLimitSeconds * 1000;
  const [one, five] = loadavg();
  console.log(
    `node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores, shared), load average ${one?.toFixed(2)} / ${five?.toFixed(2)}`,
  );

  const server = await startServer(options);
  const load = startCpuLoad(options.load);
  const follower = new ChainFollower(server.settlementChain.rpcUrl, server.settlementChain.reactor as Address);
  const db = await openDatabase(server.storeFile);
  const problems: string[] = [];
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const pids = { server: server.child.pid, anvil: childProcesses(server.child.pid, 'anvil')[0] };
    const withPool = options.ammShare > 0;
    process.stderr.write(
      `  server up (anvil pid ${pids.anvil ?? '?'}); registering, funding and logging in ${options.accounts} traders` +
        `${withPool ? ' and 2 that take the pool' : ''}\n`,
    );
    const traders = await createTraders(server, options.accounts);
    // Traders that take both sides of the book (one secp256k1, one Ed25519) and never rest an order.
    const poolTraders = withPool ? await createTraders(server, 2) : [];
    const market = await readMarket(server.client, BENCH_BOOK.id);
    const funding = [
      { token: market.base, amount: (FUNDING_UNITS * 10n ** BigInt(market.baseDecimals)).toString() },
      { token: market.quote, amount: (FUNDING_UNITS * 10n ** BigInt(market.quoteDecimals)).toString() },
    ];
    const evm = [...traders, ...poolTraders].map((trader) => trader.evmAddress);
    await ask(server, { type: 'fund', accounts: evm, tokens: funding }, 'funded');

    const picker = new TraderPicker(traders, options.ed25519Share);
    const takers = plan(picker, options.fills, TAKER_UNIT, true, BOOK_PRICES);
    const burstOrders = await prepare(server, market, makersFor(picker, options.fills, BOOK_PRICES), takers, problems);
    process.stderr.write(`  throughput phase: crossing orders for ${whole.format(options.fills)} fills\n`);
    const book = await burst(server, db, pids, 'throughput phase', burstOrders.flat(), deadline, problems);
    if (book.phase.fills !== options.fills)
      problems.push(`${book.phase.fills} trades in the throughput phase, expected ${options.fills}`);
    const throughput = drainRate(book.phase.txs);

    let pooled: Burst | undefined;
    if (withPool) {
      const item = await readBook(server.client, BENCH_BOOK.id);
      if (item.isAMMEnabled !== 1)
        throw new Error(`book ${BENCH_BOOK.id} does not route into a pool (isAMMEnabled 0): use --amm-share 0`);
      const symbols = [item.baseTokenSymbol ?? market.base, item.quoteTokenSymbol ?? market.quote] as const;
      const pool = await addLiquidity(server, symbols, AMM_POOL);
      process.stderr.write(
        `  pool ${pool.pair}: ${AMM_POOL.base} ${symbols[0]} and ${AMM_POOL.quote} ${symbols[1]} deposited with the operator CLI\n`,
      );
      const poolPicker = new TraderPicker(poolTraders, options.ed25519Share, true);
      const mixed = planWithPool(picker, poolPicker, options.fills, TAKER_UNIT, options.ammShare);
      const orders = await prepare(server, market, makersFor(picker, options.fills, POOL_BOOK_PRICES), mixed, problems);
      await poolInEngine(server, market, poolTraders[0] as Account);
      process.stderr.write(
        `  throughput phase with pool legs: ${whole.format(options.fills)} crossing orders, ${Math.round(options.ammShare * 100)}% opted in\n`,
      );
      pooled = await burst(server, db, pids, 'throughput phase with pool legs', orders.flat(), deadline, problems);
    }

    const rate = options.rate ?? autoRate(throughput);
    const streamFills = rate * options.seconds;
    const perTick = (rate * TICK_MS) / 1000;
    const steadyTakers = plan(picker, streamFills, perTick, true, BOOK_PRICES);
    const steady = await prepare(server, market, makersFor(picker, streamFills, BOOK_PRICES), steadyTakers, problems);
    process.stderr.write(`  latency phase: ${whole.format(rate)} fills/s for ${options.seconds} s\n`);
    const firstSteady = lastTradeId(db) + 1;
    const before = cpuMark(pids);
    const started = performance.now();
    const lag = await stream(server.client, steady, problems);
    const steadyIntake = (streamFills * 1000) / (performance.now() - started);
    await settledAll(db, firstSteady - 1 + streamFills, deadline);
    const steadyCpu = cpuUse(before, cpuMark(pids));
    const last = lastTradeId(db);
    if (last - firstSteady + 1 !== streamFills)
      problems.push(`${last - firstSteady + 1} trades in the latency phase, expected ${streamFills}`);

    const end = progress(db);
    const { costs, poolMoved } = await follower.check(db, problems);
    if (end.settled + end.failed !== end.trades)
      problems.push(`${end.settled} settled and ${end.failed} failed of ${end.trades} trades`);
    if (end.failed > poolMoved.size)
      problems.push(`${end.failed - poolMoved.size} fills failed (besides ${poolMoved.size} refused swaps)`);
    const stateFile = join(server.dataDir, DEVNET_STATE_FILE);
    const stateBytes = existsSync(stateFile) ? statSync(stateFile).size : 0;
    const mix = keyMix(db);

    const steadyPhase: Phase = {
      name: `latency phase (${rate} fills/s offered)`,
      fills: streamFills,
      txs: transactions(db, firstSteady, last),
      latencies: latencies(db, firstSteady, last),
      cpu: steadyCpu,
      intakeRate: steadyIntake,
    };
    const burstPhase = book.phase;
    const { batchFills } = server.settlementChain;
    const p99 = percentile(steadyPhase.latencies, 0.99);
    const target = options.load > 0 ? TARGETS.loadedFillsPerSecond : TARGETS.fillsPerSecond;

    console.log('');
    const ms = (sorted: readonly number[], q: number) => whole.format(percentile(sorted, q));
    const pooledRow = (run: Burst) => {
      const fillsPerSecond = drainRate(run.phase.txs);
      return [
        `settled fills/s with pool legs (${Math.round(options.ammShare * 100)}% opted in)`,
        whole.format(run.phase.fills),
        whole.format(fillsPerSecond),
        ms(run.phase.latencies, 0.5),
        ms(run.phase.latencies, 0.99),
        ms(run.phase.latencies, 1),
        'the row above',
        `${(fillsPerSecond / throughput).toFixed(2)}x`,
        '',
      ];
    };
    printTable(
      ['measure', 'fills', 'fills/s', 'p50 ms', 'p99 ms', 'max ms', 'target', 'ratio', ''],
      [
        [
          'settled fills/s, backlog draining (full batches)',
          whole.format(burstPhase.fills),
          whole.format(throughput),
          ms(burstPhase.latencies, 0.5),
          ms(burstPhase.latencies, 0.99),
          ms(burstPhase.latencies, 1),
          `>= ${whole.format(target)}/s`,
          `${(throughput / target).toFixed(2)}x`,
          verdict(throughput >= target),
        ],
        ...(pooled === undefined ? [] : [pooledRow(pooled)]),
        [
          `match -> settled event, steady ${whole.format(rate)} fills/s`,
          whole.format(steadyPhase.fills),
          whole.format(drainRate(steadyPhase.txs)),
          ms(steadyPhase.latencies, 0.5),
          ms(steadyPhase.latencies, 0.99),
          ms(steadyPhase.latencies, 1),
          `p99 < ${whole.format(TARGETS.p99Ms)} ms`,
          `${(p99 / TARGETS.p99Ms).toFixed(2)}x`,
          verdict(p99 < TARGETS.p99Ms),
        ],
      ],
    );
    if (pooled !== undefined) printPoolComparison(burstPhase, pooled.phase, costs, options.ammShare);
    console.log('');
    console.log(
      `settler: SETTLEMENT_BATCH_FILLS=${batchFills}, SETTLEMENT_TX_GAS_LIMIT=${whole.format(server.settlementChain.txGasLimit)}; ` +
        `ratio = measured / target (throughput: higher is better; p99: lower is better)${pooled === undefined ? '' : '; with pool legs: against the book-only phase'}`,
    );
    for (const line of phaseDetails(burstPhase, costs, batchFills)) console.log(line);
    console.log(`  ${book.drainText}`);
    if (pooled !== undefined) {
      for (const line of phaseDetails(pooled.phase, costs, batchFills)) console.log(line);
      console.log(`  ${pooled.drainText}`);
      const wantedBase = market.grid.baseAmount(options.fills * TAKER_STEPS);
      for (const line of poolPhaseLines(db, pooled, wantedBase, poolMoved.size, problems)) console.log(line);
    }
    for (const line of phaseDetails(steadyPhase, costs, batchFills)) console.log(line);
    console.log(
      `latency phase: ${perTick} crossing orders every ${TICK_MS} ms (sides alternating), worst send lag ${whole.format(lag)} ms; ` +
        (options.rate === undefined
          ? `offered rate: half the measured throughput, at most ${whole.format(MAX_AUTO_RATE)} fills/s (--rate to set it)`
          : 'offered rate set by --rate'),
    );
    console.log(
      `anvil's state file (written every DEVNET_CHAIN_STATE_INTERVAL_SECONDS, ${process.env.DEVNET_CHAIN_STATE_INTERVAL_SECONDS ?? 'default 2'}) ` +
        `was ${tenths.format(stateBytes / 1e6)} MB at the end`,
    );
    console.log(`chain events and receipts read during the run, at most ${follower.maxLag} blocks behind the head`);
    if (options.load > 0)
      console.log(
        `other load (--load): a process kept ${options.load} of a core busy; the throughput target under load is ${whole.format(TARGETS.loadedFillsPerSecond)}/s`,
      );
    const share = (part: number | undefined, of: number | undefined) =>
      part === undefined || of === undefined || of === 0 ? 'n/a' : `${((100 * part) / of).toFixed(1)}%`;
    console.log(
      `key mix: ${options.accounts / 2} secp256k1 wallets and ${options.accounts / 2} Ed25519 accounts; Ed25519 signed ` +
        `${share(mix.orders?.ed, mix.orders?.all)} of the ${whole.format(mix.orders?.all ?? 0)} orders that traded ` +
        `(each verified on-chain once, about 230k gas for Ed25519); book fills with an Ed25519 maker ${share(mix.fills?.maker, mix.fills?.all)}, ` +
        `taker ${share(mix.fills?.taker, mix.fills?.all)}, either ${share(mix.fills?.either, mix.fills?.all)}`,
    );
    console.log(
      `each crossing order fills once against a resting order of ${FILLS_PER_MAKER}x its size (${TAKER_STEPS * FILLS_PER_MAKER} size steps)` +
        (withPool ? ', or in the pool phase, if it opted in, partly from the pool' : ''),
    );
    console.log(
      `checks: ${
        problems.length === 0
          ? 'every trade settled exactly once (store rows, one Filled event per book trade and one PoolFilled event per pool trade in the recorded transaction, no rejections)'
          : 'FAIL'
      }`,
    );
    if (options.botMinutes > 0) {
      follower.stop();
      const flat = await botAfterSettlement(server, options.botMinutes, options.sampleSeconds);
      if (!flat.cpuFlat || !flat.sizeFlat) console.log('(not flat: reported, not failed)');
    }
    printLogged(server);
    for (const problem of problems) console.log(`FAIL ${problem}`);
    return problems.length === 0 ? 0 : 1;
  } catch (error) {
    printLogged(server);
    throw error;
  } finally {
    db.close();
    server.client.close();
    follower.stop();
    load?.kill();
    await stopServerProcess(server);
  }
}

runBenchmark('bench:settlement', main);
