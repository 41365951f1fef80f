/**
 * Cancel finality benchmark: how long after `POST /cancel` answers 202 the order is void on the
 * chain. The real service with CHAIN=devnet (anvil, the reactor, the settler, the indexer and the
 * cancellation relay) runs in a child process (bench/support/server-child.ts); traders of both key
 * types, funded on the chain, rest orders that never cross, then cancel them through the API.
 *
 *   npm run bench:cancel -- [--cancels 300] [--rate 20] [--burst 300] [--fills 3000]
 *                            [--baseline 100] [--accounts 4] [--load 0.5] [--time-limit 300]
 *                            [--server-log]
 *
 * The path measured (adapters/chain/settlement/cancel-relay.ts): the desk takes the order off its book and
 * stores the cancellation, which wakes the relay before the 202 goes out; the relay sends the
 * operator's `cancelFor` (one transaction per swapper per round), applies its receipt through the
 * indexer (OrderCancelled confirms the cancellation), and the desk makes the order CANCELED. Two
 * moments are timed from each 202 (this process's clock):
 *  - mined: the order's OrderCancelled event reaches a WebSocket subscription to the node
 *    (support/cancel-chain.ts): the order is void on chain;
 *  - final: the desk made it CANCELED (order_cancellations.finalized_at, the server's clock, the
 *    same machine's), read from the server's SQLite store after the run.
 * No order here has a fill in flight, which would hold its cancellation back until the fill settles.
 *
 * Four phases on one server and chain:
 *  1. baseline: `--baseline` bare transactions with the same on-chain effect, a trader's own
 *     reactor `cancel([hash])`, sent one at a time at `--rate`, timed from send to receipt
 *     (support/bare-cancels.ts). The devnet node mines each transaction as it arrives, so there is
 *     no block interval to compare with; a bare transaction's receipt is the chain's own floor.
 *  2. steady: `--cancels` orders cancelled at `--rate` per second, one request each.
 *  3. burst: `--burst` orders cancelled at once, one request each (as many in flight as the
 *     client has sockets, 8), so the relay's rounds carry many swappers' cancellations.
 *  4. beside settlement (skipped with --fills 0): crossing orders for `--fills` fills are saved as
 *     fast as the API takes them (bench:settlement's throughput phase, a tenth Ed25519) while
 *     BACKLOG_CANCELS orders are cancelled at `--rate`: the relay's cancelFor transactions queue
 *     with the settler's batches for the operator's nonces and for anvil, which mines one
 *     transaction at a time.
 * Each phase waits until all its cancellations are final. At the end every cancelled order must be
 * CANCELED in the store with a confirming transaction, its OrderCancelled event seen, and
 * `cancelled(swapper, hash)` true on the reactor. Ratios: each p99 against the baseline's p99 (what
 * the service adds to the chain's own latency), and the final figures against the bound
 * docs/security.md publishes. `--load` adds a process that keeps that share of one core busy.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Address } from 'viem';
import { openDatabase } from '../packages/server/src/adapters/sqlite/driver.js';
import { type Account, createAccounts, login } from './support/accounts.js';
import { bareCancels } from './support/bare-cancels.js';
import { CancelWatcher, notCancelledOnChain } from './support/cancel-chain.js';
import { type CancelSent, cancelAtOnce, cancelAtRate, restOrders } from './support/cancel-orders.js';
import { allFinal, type StoredCancel, storedCancels } from './support/cancel-store.js';
import { type CpuUse, childProcesses, cpuMark, cpuUse } from './support/cpu.js';
import { startCpuLoad } from './support/cpu-load.js';
import { BENCH_BOOK, readMarket } from './support/market.js';
import { readCount } from './support/options.js';
import { percentile, printTable, tenths, verdict, whole } from './support/report.js';
import { ask, runBenchmark, stopServerProcess } from './support/server-process.js';
import { coresText, type Processes } from './support/settlement-figures.js';
import { BOOK_PRICES, FILLS_PER_MAKER, plan, saveAll, TraderPicker } from './support/settlement-orders.js';
import { makersFor, prepare } from './support/settlement-phases.js';
import { printLogged, type Server, startServer } from './support/settlement-server.js';
import { lastTradeId, progress, settledAll, transactions } from './support/settlement-store.js';

/** Tokens each trader gets, in whole units: far more than its resting orders reserve. */
const FUNDING_UNITS = 10_000_000n;
/**
 * The bounds docs/security.md publishes for the embedded devnet, 202 to final: the p99 of a steady
 * flow's cancels, the slowest cancel of a burst, and the p99 of a steady flow beside a settlement
 * backlog (each cancelFor then waits behind a settlement batch). Misses are reported, never fatal.
 */
const BOUNDS = { steadyP99Ms: 1_000, burstMaxMs: 5_000, besideSettlementP99Ms: 10_000 } as const;
/** Cancels of the phase beside settlement: 5 s at the default rate, while the backlog drains. */
const BACKLOG_CANCELS = 100;
/** Crossing orders per save request and the Ed25519 share of the fills, as bench:settlement's defaults. */
const TAKER_UNIT = 100;
const ED25519_SHARE = 0.1;

interface Options {
  readonly cancels: number;
  readonly rate: number;
  readonly burst: number;
  /** Fills settling beside the last phase's cancels; 0: no such phase. */
  readonly fills: number;
  readonly baseline: number;
  readonly accounts: number;
  readonly load: number;
  readonly timeLimitSeconds: number;
  readonly serverLog: boolean;
}

function readOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      cancels: { type: 'string' },
      rate: { type: 'string' },
      burst: { type: 'string' },
      fills: { type: 'string' },
      baseline: { type: 'string' },
      accounts: { type: 'string' },
      load: { type: 'string' },
      'time-limit': { type: 'string' },
      'server-log': { type: 'boolean' },
    },
    strict: true,
  });
  const accounts = readCount('--accounts', values.accounts, 4, 4, 32);
  if (accounts % 4 !== 0) throw new Error('--accounts must be a multiple of 4: both key types, each selling and buying');
  const load = Number(values.load ?? 0);
  if (!(load >= 0 && load <= 1)) throw new Error('--load must be in [0, 1]');
  return {
    cancels: readCount('--cancels', values.cancels, 300, 10, 5_000),
    rate: readCount('--rate', values.rate, 20, 1, 200),
    burst: readCount('--burst', values.burst, 300, 0, 5_000),
    // Whole resting orders on both sides (FILLS_PER_MAKER fills each).
    fills: Math.ceil(readCount('--fills', values.fills, 3_000, 0, 50_000) / (2 * FILLS_PER_MAKER)) * 2 * FILLS_PER_MAKER,
    baseline: readCount('--baseline', values.baseline, 100, 10, 2_000),
    accounts,
    load,
    timeLimitSeconds: readCount('--time-limit', values['time-limit'], 300, 10, 3_600),
    serverLog: values['server-log'] === true,
  };
}

/** A phase's cancels as the client sent them, and the CPU used until the last was final. */
interface Phase {
  readonly name: string;
  readonly sent: readonly CancelSent[];
  readonly cpu: CpuUse<Processes>;
  /** The machine's load average when the phase ended. */
  readonly load: string;
  /** The bound on its final figures, and which percentile it bounds. */
  readonly bound: { readonly ms: number; readonly q: number };
}

/** Each figure sorted, in ms. */
interface Figures {
  /** 202 to the OrderCancelled event seen. */
  readonly mined: number[];
  /** 202 to CANCELED in the store. */
  readonly final: number[];
  /** The desk's request to CANCELED (server clock only). */
  readonly serverSide: number[];
  /** Send to 202. */
  readonly answers: number[];
  /** 202 to final by key kind of the order's account. */
  readonly byKind: Map<string, number[]>;
  /** Distinct transactions whose OrderCancelled confirmed the phase's cancels. */
  readonly transactions: number;
}

const ascending = (values: number[]) => values.sort((a, b) => a - b);

function figuresOf(phase: Phase, stored: ReadonlyMap<number, StoredCancel>, watcher: CancelWatcher, problems: string[]): Figures {
  const figures: Figures = { mined: [], final: [], serverSide: [], answers: [], byKind: new Map(), transactions: 0 };
  const txs = new Set<string>();
  let unseen = 0;
  for (const { order, sentAt, answeredAt } of phase.sent) {
    figures.answers.push(answeredAt - sentAt);
    const row = stored.get(order.id);
    const minedAt = watcher.minedAt(order.orderHash);
    if (minedAt === undefined) unseen++;
    else figures.mined.push(minedAt - answeredAt);
    if (row?.finalizedAt == null) continue;
    const final = row.finalizedAt - answeredAt;
    figures.final.push(final);
    figures.serverSide.push(row.finalizedAt - row.requestedAt);
    const kind = order.trader.signer.kind;
    figures.byKind.set(kind, [...(figures.byKind.get(kind) ?? []), final]);
    if (row.confirmedTx !== null) txs.add(row.confirmedTx);
  }
  if (unseen > 0) problems.push(`${phase.name}: ${unseen} OrderCancelled events never reached the subscription`);
  for (const values of [figures.mined, figures.final, figures.serverSide, figures.answers, ...figures.byKind.values()])
    ascending(values);
  return { ...figures, transactions: txs.size };
}

/** Every cancelled order is CANCELED in the store with a confirming transaction, and cancelled on the reactor. */
async function checkCancelled(server: Server, stored: ReadonlyMap<number, StoredCancel>, expected: number, problems: string[]) {
  if (stored.size !== expected) problems.push(`${stored.size} stored cancellations for ${expected} cancels`);
  const rows = [...stored.values()];
  const open = rows.filter((row) => row.status !== 'CANCELED' || row.confirmedTx === null).length;
  if (open > 0) problems.push(`${open} cancelled orders are not CANCELED with a confirming transaction`);
  const { rpcUrl, reactor } = server.settlementChain;
  const missing = await notCancelledOnChain(rpcUrl, reactor as Address, rows);
  if (missing > 0) problems.push(`${missing} orders final in the store are not cancelled on the reactor`);
}

async function createTraders(server: Server, count: number): Promise<Account[]> {
  const accounts = await createAccounts(server, count);
  return Promise.all(accounts.map((account) => login(server.client, account)));
}

function loadText(): string {
  const [one, five] = loadavg();
  return `load average ${one?.toFixed(2)} / ${five?.toFixed(2)}`;
}

function printFigures(phases: readonly Phase[], figures: readonly Figures[], bare: readonly number[]): void {
  const ms = (values: readonly number[], q: number) => whole.format(percentile(values, q));
  const bareP99 = percentile(bare, 0.99);
  const versus = (values: readonly number[]) => `${(percentile(values, 0.99) / bareP99).toFixed(1)}x`;
  const rows = phases.flatMap((phase, index) => {
    const f = figures[index] as Figures;
    const count = whole.format(phase.sent.length);
    const txs = whole.format(f.transactions);
    const bounded = percentile(f.final, phase.bound.q);
    const what = phase.bound.q === 1 ? 'max' : 'p99';
    return [
      [
        `${phase.name}: 202 -> mined`,
        count,
        txs,
        ms(f.mined, 0.5),
        ms(f.mined, 0.99),
        ms(f.mined, 1),
        versus(f.mined),
        '',
        '',
        '',
      ],
      [
        `${phase.name}: 202 -> final`,
        count,
        txs,
        ms(f.final, 0.5),
        ms(f.final, 0.99),
        ms(f.final, 1),
        versus(f.final),
        `${what} <= ${whole.format(phase.bound.ms)} ms`,
        verdict(bounded <= phase.bound.ms),
        `${(bounded / phase.bound.ms).toFixed(2)}x`,
      ],
    ];
  });
  printTable(
    ['cancel through the API', 'cancels', 'txs', 'p50 ms', 'p99 ms', 'max ms', 'p99 vs baseline', 'bound', '', 'ratio'],
    [
      ...rows,
      [
        'baseline: bare cancel tx, send -> receipt',
        whole.format(bare.length),
        whole.format(bare.length),
        tenths.format(percentile(bare, 0.5)),
        tenths.format(bareP99),
        tenths.format(percentile(bare, 1)),
        '1.0x',
        '',
        '',
        '',
      ],
    ],
  );
  console.log('');
  console.log(
    'mined: the OrderCancelled event reached a subscription (void on chain); final: CANCELED in the store; ' +
      'p99 vs baseline = p99 / the bare transaction p99 (what the service adds to the chain); ratio = measured / bound (lower is better)',
  );
  for (const [index, phase] of phases.entries()) {
    const f = figures[index] as Figures;
    const kinds = [...f.byKind].map(
      ([kind, values]) => `${kind} ${values.length}: p50 ${ms(values, 0.5)} / p99 ${ms(values, 0.99)}`,
    );
    console.log(
      `${phase.name}: ${whole.format(phase.sent.length)} cancels in ${f.transactions} cancelFor transactions ` +
        `(${tenths.format(phase.sent.length / f.transactions)} orders/tx); 202 answered in p50 ${ms(f.answers, 0.5)} / ` +
        `max ${ms(f.answers, 1)} ms; the desk's request to final (server clock) p50 ${ms(f.serverSide, 0.5)} / ` +
        `p99 ${ms(f.serverSide, 0.99)} ms`,
    );
    console.log(`  202 -> final by key kind of the account: ${kinds.join(', ')}`);
    console.log(`  CPU in cores while it ran: ${coresText(phase.cpu)}; ${phase.load} at its end`);
  }
}

// ---- main -------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const deadline = performance.now() + options.timeLimitSeconds * 1000;
  console.log(`node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores, shared), ${loadText()}`);

  const server = await startServer({
    batchFills: undefined,
    txGasLimit: undefined,
    cpuProfDir: undefined,
    serverLog: options.serverLog,
  });
  const load = startCpuLoad(options.load);
  const db = await openDatabase(server.storeFile);
  const { rpcUrl, reactor } = server.settlementChain;
  const watcher = new CancelWatcher(rpcUrl, reactor as Address);
  const problems: string[] = [];
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const pids = { server: server.child.pid, anvil: childProcesses(server.child.pid, 'anvil')[0] };
    process.stderr.write(
      `  server up (anvil pid ${pids.anvil ?? '?'}); registering, funding and logging in ${options.accounts} traders\n`,
    );
    const traders = await createTraders(server, options.accounts);
    const market = await readMarket(server.client, BENCH_BOOK.id);
    const funding = [
      { token: market.base, amount: (FUNDING_UNITS * 10n ** BigInt(market.baseDecimals)).toString() },
      { token: market.quote, amount: (FUNDING_UNITS * 10n ** BigInt(market.quoteDecimals)).toString() },
    ];
    await ask(server, { type: 'fund', accounts: traders.map((trader) => trader.evmAddress), tokens: funding }, 'funded');
    const backlogCancels = options.fills > 0 ? BACKLOG_CANCELS : 0;
    const cancels = options.cancels + options.burst + backlogCancels;
    process.stderr.write(`  resting ${whole.format(cancels)} orders that never cross\n`);
    const resting = await restOrders(server.client, market, traders, cancels);
    await watcher.start();

    process.stderr.write(`  baseline: ${options.baseline} bare cancel transactions at ${options.rate}/s\n`);
    let before = cpuMark(pids);
    const bare = await bareCancels(rpcUrl, reactor as Address, traders, options.baseline, options.rate);
    const bareCpu = cpuUse(before, cpuMark(pids));

    const phases: Phase[] = [];
    process.stderr.write(`  steady: ${options.cancels} cancels at ${options.rate}/s\n`);
    const steadyOrders = resting.slice(0, options.cancels);
    before = cpuMark(pids);
    const steady = await cancelAtRate(server.client, steadyOrders, options.rate);
    await allFinal(
      db,
      steadyOrders.map((order) => order.id),
      deadline,
    );
    phases.push({
      name: `steady ${options.rate}/s`,
      sent: steady.sent,
      cpu: cpuUse(before, cpuMark(pids)),
      load: loadText(),
      bound: { ms: BOUNDS.steadyP99Ms, q: 0.99 },
    });

    const burstOrders = resting.slice(options.cancels, options.cancels + options.burst);
    if (burstOrders.length > 0) {
      process.stderr.write(`  burst: ${burstOrders.length} cancels at once\n`);
      before = cpuMark(pids);
      const sent = await cancelAtOnce(server.client, burstOrders);
      await allFinal(
        db,
        burstOrders.map((order) => order.id),
        deadline,
      );
      phases.push({
        name: `burst of ${burstOrders.length}`,
        sent,
        cpu: cpuUse(before, cpuMark(pids)),
        load: loadText(),
        bound: { ms: BOUNDS.burstMaxMs, q: 1 },
      });
    }

    let backlogText = '';
    if (backlogCancels > 0) {
      const backlogOrders = resting.slice(options.cancels + options.burst);
      const picker = new TraderPicker(traders, ED25519_SHARE);
      const takers = plan(picker, options.fills, TAKER_UNIT, true, BOOK_PRICES);
      const crossing = await prepare(server, market, makersFor(picker, options.fills, BOOK_PRICES), takers, problems);
      process.stderr.write(
        `  beside settlement: crossing orders for ${whole.format(options.fills)} fills, ${backlogCancels} cancels at ${options.rate}/s\n`,
      );
      const firstTrade = lastTradeId(db) + 1;
      before = cpuMark(pids);
      const [, cancelled] = await Promise.all([
        saveAll(server.client, crossing.flat(), problems),
        cancelAtRate(server.client, backlogOrders, options.rate),
      ]);
      await allFinal(
        db,
        backlogOrders.map((order) => order.id),
        deadline,
      );
      const cpu = cpuUse(before, cpuMark(pids));
      await settledAll(db, progress(db).trades, deadline);
      const settling = transactions(db, firstTrade, lastTradeId(db));
      const fills = lastTradeId(db) - firstTrade + 1;
      if (fills !== options.fills) problems.push(`${fills} trades beside the cancels, expected ${options.fills}`);
      if (progress(db).failed > 0) problems.push(`${progress(db).failed} fills failed to settle`);
      const drained = settling[settling.length - 1]?.settledAt ?? 0;
      const during = cancelled.sent.filter((cancel) => cancel.answeredAt < drained).length;
      phases.push({
        name: `steady ${options.rate}/s beside settlement`,
        sent: cancelled.sent,
        cpu,
        load: loadText(),
        bound: { ms: BOUNDS.besideSettlementP99Ms, q: 0.99 },
      });
      backlogText =
        `beside settlement: ${whole.format(fills)} fills in ${settling.length} settlement transactions, ` +
        `the last applied ${whole.format(drained - (settling[0]?.settledAt ?? drained))} ms after the first; ` +
        `${during} of the ${backlogCancels} cancels answered before it`;
    }

    const stored = storedCancels(
      db,
      resting.map((order) => order.id),
    );
    await checkCancelled(server, stored, resting.length, problems);
    watcher.check(problems);
    const figures = phases.map((phase) => figuresOf(phase, stored, watcher, problems));

    console.log('');
    printFigures(phases, figures, bare);
    console.log(`baseline: CPU in cores while it ran: ${coresText(bareCpu)}`);
    console.log(`steady phase: worst send lag behind schedule ${whole.format(steady.lag)} ms`);
    if (backlogText !== '') console.log(backlogText);
    if (options.load > 0) console.log(`other load (--load): a process kept ${options.load} of a core busy`);
    console.log(
      `key mix: ${options.accounts / 2} secp256k1 wallets and ${options.accounts / 2} Ed25519 accounts, orders and cancels ` +
        'spread evenly; the baseline sends from the secp256k1 wallets (Ed25519 accounts sign no EVM transactions here)',
    );
    console.log(
      `checks: ${
        problems.length === 0
          ? 'every cancelled order is CANCELED in the store with its confirming transaction, its OrderCancelled event seen, and cancelled on the reactor'
          : 'FAIL'
      }`,
    );
    printLogged(server);
    for (const problem of problems) console.log(`FAIL ${problem}`);
    return problems.length === 0 ? 0 : 1;
  } catch (error) {
    printLogged(server);
    throw error;
  } finally {
    await watcher.stop().catch(() => undefined);
    db.close();
    server.client.close();
    load?.kill();
    await stopServerProcess(server);
  }
}

runBenchmark('bench:cancel', main);
