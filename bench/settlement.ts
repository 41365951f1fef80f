/**
 * Settlement benchmark: the real service with CHAIN=devnet (anvil, the reactor, the settler and
 * the indexer) in a child process (bench/support/server-child.ts), traders of both key types
 * funded on the chain, signed orders over HTTP, and every fill settled by the reactor.
 *
 *   npm run bench:settlement -- [--fills 10000] [--rate N] [--seconds 20] [--accounts 4]
 *                               [--ed25519-share 0.1] [--batch-fills N] [--tx-gas-limit N]
 *                               [--time-limit 300] [--cpu-prof DIR] [--server-log]
 *
 * Two phases on one server, each after its resting orders are seeded:
 *  1. throughput: crossing orders for `--fills` fills are saved as fast as the API takes them, so a
 *     backlog forms and the settler sends full batches (at the cap of fills, or of gas); settled
 *     fills/s is measured from the first settlement transaction of the phase to its last.
 *  2. latency: crossing orders stream in at `--rate` fills/s (by default half the throughput just
 *     measured, at most 480: a rate below capacity), a unit every 100 ms for `--seconds`; each
 *     fill's latency is the time from its match (trades.executed_at) to the moment the service
 *     applied its Filled event (settlements.updated_at), both on the server's clock, read from the
 *     server's SQLite store after the run. Its resting orders are seeded after the first phase.
 * At the end every fill must be settled exactly once: as many settled rows as trades, none failed,
 * and one reactor Filled event per trade (same fill id, same transaction), read from the chain.
 * Gas per fill comes from the settlement transactions' receipts. Client, server and anvil share the
 * machine's cores; CPU use per process is printed to show where the time goes.
 */
import { existsSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { type Address, createPublicClient, type Hash, http } from 'viem';
import { openDatabase, type SqlDatabase } from '../packages/server/src/adapters/sqlite/driver.js';
import { MAX_OPEN_ORDERS_PER_ACCOUNT } from '../packages/server/src/application/orders/trading-desk.js';
import { type Account, createAccounts, type KeyKind, login, type Role, signDigest } from './support/accounts.js';
import { type CpuUse, childProcesses, cpuMark, cpuUse } from './support/cpu.js';
import { HttpClient, snippet } from './support/http-client.js';
import { BENCH_BOOK, type BuiltOrder, limitRequest, type Market, readMarket } from './support/market.js';
import { readCount, readProfileDir } from './support/options.js';
import { percentile, printTable, tenths, verdict, whole } from './support/report.js';
import { ask, runBenchmark, type ServerProcess, startServerProcess, stopServerProcess } from './support/server-process.js';

/**
 * Orders rest at BENCH_BOOK's ask and bid prices and takers meet them exactly. Sizes in size steps
 * (0.1 WHBAR): each crossing order fills once, each resting order four times.
 */
const TAKER_STEPS = BENCH_BOOK.takerSteps;
const FILLS_PER_MAKER = 4;
const MAKER_STEPS = TAKER_STEPS * FILLS_PER_MAKER;
/**
 * Orders per unit of the resting and the crossing flow, split between the key kinds: Ed25519
 * orders (about 230k gas each to verify) come in runs of a tenth of this at the default share,
 * small enough that no settlement batch gathers more of them than its gas limit allows.
 */
const MAKER_UNIT = 50;
const TAKER_UNIT = 100;
/** Requests in flight while building orders and in the throughput phase. */
const IN_FLIGHT = 2;
/** The latency phase sends one unit of crossing orders per tick (a request per key kind). */
const TICK_MS = 100;
const STREAM_IN_FLIGHT = 8;
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
const POLL_MS = 50;
/** anvil's state in DATA_DIR (packages/server/src/chain/embedded-devnet.ts). */
const DEVNET_STATE_FILE = 'devnet-chain-state.json';
const STALL_MS = 30_000;
/** Blocks per log query when checking the chain. */
const LOG_BLOCKS = 50n;
/** Tokens each trader gets, in whole units: far more than any run moves. */
const FUNDING_UNITS = 10_000_000n;

/** Goals from the issue; misses are reported, never fatal. */
const TARGETS = { fillsPerSecond: 1_000, p99Ms: 2_000 } as const;

interface Options {
  readonly fills: number;
  /** Fills/s of the latency phase; undefined: chosen from the measured throughput. */
  readonly rate: number | undefined;
  readonly seconds: number;
  readonly accounts: number;
  readonly ed25519Share: number;
  /** SETTLEMENT_BATCH_FILLS and SETTLEMENT_TX_GAS_LIMIT of the server; undefined: its defaults. */
  readonly batchFills: number | undefined;
  readonly txGasLimit: number | undefined;
  readonly timeLimitSeconds: number;
  /** Where the server writes a V8 CPU profile when it stops. */
  readonly cpuProfDir: string | undefined;
  /** Echo the server's warnings as they come (they are always counted and printed at the end). */
  readonly serverLog: boolean;
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
      'batch-fills': { type: 'string' },
      'tx-gas-limit': { type: 'string' },
      'time-limit': { type: 'string' },
      'cpu-prof': { type: 'string' },
      'server-log': { type: 'boolean' },
    },
    strict: true,
  });
  const accounts = readCount('--accounts', values.accounts, 4, 4, 32);
  if (accounts % 4 !== 0) throw new Error('--accounts must be a multiple of 4: both key types, each selling and buying');
  const share = Number(values['ed25519-share'] ?? '0.1');
  if (!(share >= 0 && share <= 1)) throw new Error('--ed25519-share must be in [0, 1]');
  const unit = 2 * FILLS_PER_MAKER;
  const rate = values.rate === undefined ? undefined : readCount('--rate', values.rate, 0, RATE_STEP, 20_000);
  if (rate !== undefined && rate % RATE_STEP !== 0) throw new Error(`--rate must be a multiple of ${RATE_STEP}`);
  const seconds = readCount('--seconds', values.seconds, 20, 1, 600);
  return {
    fills: Math.ceil(readCount('--fills', values.fills, 10_000, unit, 200_000) / unit) * unit,
    rate,
    seconds,
    accounts,
    ed25519Share: share,
    batchFills: values['batch-fills'] === undefined ? undefined : readCount('--batch-fills', values['batch-fills'], 0, 1, 500),
    txGasLimit:
      values['tx-gas-limit'] === undefined
        ? undefined
        : readCount('--tx-gas-limit', values['tx-gas-limit'], 0, 1_000_000, 100_000_000),
    timeLimitSeconds: readCount('--time-limit', values['time-limit'], 300, 10, 3_600),
    cpuProfDir: readProfileDir(values['cpu-prof']),
    serverLog: values['server-log'] === true,
  };
}

// ---- the server process -------------------------------------------------------------------------------

interface Server extends ServerProcess {
  readonly client: HttpClient;
  readonly settlementChain: NonNullable<ServerProcess['settlement']>;
  /** Warnings and errors the server logged, by message. */
  readonly logged: Map<string, number>;
}

/** The server with CHAIN=devnet, its warnings and errors counted by message (echoed with --server-log). */
async function startServer(options: Options): Promise<Server> {
  const logged = new Map<string, number>();
  const process_ = await startServerProcess({
    name: 'settlement',
    env: {
      CHAIN: 'devnet',
      LOG_LEVEL: 'warn',
      ...(options.batchFills === undefined ? {} : { SETTLEMENT_BATCH_FILLS: String(options.batchFills) }),
      ...(options.txGasLimit === undefined ? {} : { SETTLEMENT_TX_GAS_LIMIT: String(options.txGasLimit) }),
    },
    cpuProfDir: options.cpuProfDir,
    logLines: (line) => {
      const message = logMessage(line);
      logged.set(message, (logged.get(message) ?? 0) + 1);
      if (options.serverLog) process.stderr.write(`  server: ${message}\n`);
    },
  });
  if (process_.settlement === null) {
    await stopServerProcess(process_);
    throw new Error('the server started without its settlement chain');
  }
  return { ...process_, client: new HttpClient(process_.url, STREAM_IN_FLIGHT), settlementChain: process_.settlement, logged };
}

/** A JSON log line as its message and, for an error, the first lines of its cause. */
function logMessage(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: unknown; err?: { shortMessage?: unknown; message?: unknown } };
    const cause = entry.err?.shortMessage ?? entry.err?.message;
    return `${String(entry.msg ?? line)}${cause === undefined ? '' : `: ${String(cause).split('\n').slice(0, 3).join(' ')}`}`;
  } catch {
    return line; // not a JSON log line: counted as it is
  }
}

// ---- traders and orders -----------------------------------------------------------------------------------

type BookSide = 'ask' | 'bid';

/** Half secp256k1 wallets, half Ed25519 devnet accounts (published at 0x16a); each kind sells and buys; logged in. */
async function createTraders(server: Server, count: number): Promise<Account[]> {
  const accounts = await createAccounts(server, count);
  return Promise.all(accounts.map((account) => login(server.client, account)));
}

/** One save request: orders of one trader, all resting or all crossing, on one side of the book. */
interface Batch {
  readonly trader: Account;
  readonly taker: boolean;
  readonly size: number;
  body: string;
}

/** A seller rests asks and takes bids; a buyer rests bids and takes asks, each at the side's price. */
function orderRequest(market: Market, role: Role, taker: boolean) {
  const side: BookSide = (role === 'seller') !== taker ? 'ask' : 'bid';
  const ticks = side === 'ask' ? BENCH_BOOK.askTicks : BENCH_BOOK.bidTicks;
  return limitRequest(market, role === 'seller', ticks, taker ? TAKER_STEPS : MAKER_STEPS);
}

/**
 * Splits requests between the key kinds: each unit of orders gives Ed25519 traders their share
 * (rounded, the error carried to the next unit), so Ed25519 orders are spread evenly through the
 * flow rather than bunched into whole requests; round robin over the traders of a kind and role.
 */
class TraderPicker {
  private orders = 0;
  private ed25519 = 0;
  private readonly turns = new Map<string, number>();

  constructor(
    private readonly traders: readonly Account[],
    private readonly share: number,
  ) {}

  /** The requests of one unit of `size` orders of traders of `role`. */
  split(role: Role, taker: boolean, size: number): Batch[] {
    this.orders += size;
    const ed = Math.round(this.share * this.orders) - this.ed25519;
    this.ed25519 += ed;
    const parts = [
      { kind: 'secp256k1', size: size - ed },
      { kind: 'ed25519', size: ed },
    ] as const;
    return parts
      .filter((part) => part.size > 0)
      .map((part) => ({ trader: this.next(role, part.kind), taker, size: part.size, body: '' }));
  }

  private next(role: Role, kind: KeyKind): Account {
    const group = this.traders.filter((trader) => trader.role === role && trader.signer.kind === kind);
    const key = `${role}:${kind}`;
    const turn = this.turns.get(key) ?? 0;
    this.turns.set(key, turn + 1);
    return group[turn % group.length] as Account;
  }
}

/**
 * Units of at most `size` orders, alternating the book's sides, for `fills` fills in all: resting
 * orders (each fills FILLS_PER_MAKER times) or crossing ones (each fills once).
 */
function plan(picker: TraderPicker, fills: number, size: number, taker: boolean): Batch[][] {
  const units: Batch[][] = [];
  const perSide = (taker ? fills : fills / FILLS_PER_MAKER) / 2;
  for (let left = perSide; left > 0; left -= size) {
    for (const side of ['ask', 'bid'] as const) {
      // Resting asks are sellers'; crossing orders that take asks are buyers'.
      const role: Role = (side === 'ask') !== taker ? 'seller' : 'buyer';
      units.push(picker.split(role, taker, Math.min(size, left)));
    }
  }
  return units;
}

/** Builds each batch's orders on the server and signs them here (not timed). */
async function signBatches(server: Server, market: Market, batches: readonly Batch[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < batches.length; at = next++) {
      const batch = batches[at] as Batch;
      const requests = Array.from({ length: batch.size }, () => orderRequest(market, batch.trader.role, batch.taker));
      const { orders } = await server.client.json<{ orders: BuiltOrder[] }>(
        'POST',
        '/orders/build',
        { orderRequests: requests },
        batch.trader.token,
      );
      const items = orders.map(({ meta, ...order }) => ({
        order,
        signature: signDigest(batch.trader.signer, meta.orderHash),
        orderbookId: BENCH_BOOK.id,
        type: 'LIMIT',
      }));
      batch.body = JSON.stringify({ items });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

interface SaveAnswer {
  readonly orders: { meta: { status: string; filledAmount: string } }[];
}

/** Saves a batch and checks that crossing orders filled and resting ones rest. */
async function save(server: Server, batch: Batch, problems: string[]): Promise<void> {
  const reply = await server.client.send('POST', '/orders/save', batch.body, batch.trader.token);
  if (reply.status !== 200) throw new Error(`POST /orders/save answered ${reply.status}: ${snippet(reply.body)}`);
  const { orders } = JSON.parse(reply.body.toString('utf8')) as SaveAnswer;
  const wanted = batch.taker ? 'FILLED' : 'ACTIVE';
  const wrong = orders.filter((order) => order.meta.status !== wanted).length;
  if (orders.length !== batch.size) problems.push(`a save answered ${orders.length} orders for ${batch.size}`);
  if (wrong > 0) problems.push(`${wrong} orders of a save were not ${wanted}`);
}

async function saveAll(server: Server, batches: readonly Batch[], problems: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < batches.length; at = next++) await save(server, batches[at] as Batch, problems);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/** Sends one unit every tick, whatever the answers do (up to a cap of requests in flight); returns the worst lag. */
async function stream(server: Server, units: readonly Batch[][], problems: string[]): Promise<number> {
  const start = performance.now();
  const inFlight = new Set<Promise<void>>();
  let lag = 0;
  for (const [index, unit] of units.entries()) {
    const due = start + index * TICK_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (const batch of unit) {
      while (inFlight.size >= STREAM_IN_FLIGHT) await Promise.race(inFlight);
      lag = Math.max(lag, performance.now() - due);
      const sent: Promise<void> = save(server, batch, problems).finally(() => inFlight.delete(sent));
      inFlight.add(sent);
    }
  }
  await Promise.all(inFlight);
  return lag;
}

// ---- the store and the chain, read afterwards ------------------------------------------------------------

interface Progress {
  readonly trades: number;
  readonly settled: number;
  readonly failed: number;
  readonly open: number;
}

function progress(db: SqlDatabase): Progress {
  const rows = db.prepare<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM settlements GROUP BY status').all();
  const of = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
  const trades = db.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM trades').get()?.n ?? 0;
  return { trades, settled: of('settled'), failed: of('failed'), open: of('pending') + of('submitted') };
}

/** Waits until every trade is settled or failed; gives up at the deadline or when nothing moved for STALL_MS. */
async function settledAll(db: SqlDatabase, trades: number, deadline: number): Promise<void> {
  let last = '';
  let movedAt = performance.now();
  for (;;) {
    const now = progress(db);
    if (now.trades >= trades && now.open === 0 && now.settled + now.failed === now.trades) return;
    const seen = JSON.stringify(now);
    if (seen !== last) {
      last = seen;
      movedAt = performance.now();
    }
    if (performance.now() > deadline) throw new Error(`not settled within --time-limit: ${seen} of ${trades} trades`);
    if (performance.now() - movedAt > STALL_MS)
      throw new Error(`settlement stalled for ${STALL_MS / 1000} s: ${seen} of ${trades} trades`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

interface SettlementTx {
  readonly hash: Hash;
  readonly fills: number;
  /** When the service applied the transaction's events (server clock, ms). */
  readonly settledAt: number;
}

/** The settlement transactions of trades `from`..`to` (ids), in the order they were applied. */
function transactions(db: SqlDatabase, from: number, to: number): SettlementTx[] {
  return db
    .prepare<{ hash: Hash; fills: number; settled_at: number }>(
      `SELECT tx_hash AS hash, COUNT(*) AS fills, MAX(updated_at) AS settled_at FROM settlements
       WHERE status = 'settled' AND trade_id BETWEEN ? AND ? GROUP BY tx_hash ORDER BY settled_at, MIN(trade_id)`,
    )
    .all(from, to)
    .map((row) => ({ hash: row.hash, fills: row.fills, settledAt: row.settled_at }));
}

/** Match-to-settled times (ms) of trades `from`..`to`, sorted. */
function latencies(db: SqlDatabase, from: number, to: number): number[] {
  return db
    .prepare<{ ms: number }>(
      `SELECT s.updated_at - t.executed_at AS ms FROM settlements s JOIN trades t ON t.id = s.trade_id
       WHERE s.status = 'settled' AND t.id BETWEEN ? AND ? ORDER BY ms`,
    )
    .all(from, to)
    .map((row) => row.ms);
}

function lastTradeId(db: SqlDatabase): number {
  return db.prepare<{ id: number | null }>('SELECT MAX(id) AS id FROM trades').get()?.id ?? 0;
}

/** Fills in which an Ed25519 account's order is the maker's, the taker's, either; and orders signed by each kind. */
function keyMix(db: SqlDatabase) {
  const fills = db
    .prepare<{ maker: number; taker: number; either: number; all: number }>(
      `SELECT SUM(m.account LIKE '0.0.%') AS maker, SUM(k.account LIKE '0.0.%') AS taker,
         SUM(m.account LIKE '0.0.%' OR k.account LIKE '0.0.%') AS either, COUNT(*) AS "all"
       FROM trades t JOIN orders m ON m.id = t.maker_order_id JOIN orders k ON k.id = t.taker_order_id`,
    )
    .get();
  const orders = db
    .prepare<{ ed: number; all: number }>(
      `SELECT SUM(account LIKE '0.0.%') AS ed, COUNT(*) AS "all" FROM orders
       WHERE id IN (SELECT maker_order_id FROM trades UNION SELECT taker_order_id FROM trades)`,
    )
    .get();
  return { fills, orders };
}

/** Checks on the chain that each trade was settled exactly once, by the transaction the store names. */
/** What a settlement transaction cost: gas used and calldata bytes. */
interface TxCost {
  readonly gas: bigint;
  readonly bytes: number;
}

async function checkChain(server: Server, db: SqlDatabase, problems: string[]): Promise<Map<Hash, TxCost>> {
  const client = createPublicClient({ transport: http(server.settlementChain.rpcUrl) });
  const reactor = server.settlementChain.reactor as Address;
  const abi = PartialFillLimitOrderReactor.abi;
  const head = await client.getBlockNumber();
  const filled = [];
  let rejected = 0;
  // viem refuses answers over 10 MB; a block of a hundred Filled events is about 100 kB of JSON.
  for (let from = 0n; from <= head; from += LOG_BLOCKS) {
    const range = {
      address: reactor,
      abi,
      fromBlock: from,
      toBlock: from + LOG_BLOCKS - 1n < head ? from + LOG_BLOCKS - 1n : head,
    };
    filled.push(...(await client.getContractEvents({ ...range, eventName: 'Filled' })));
    rejected += (await client.getContractEvents({ ...range, eventName: 'FillRejected' })).length;
  }
  const stored = new Map(
    db
      .prepare<{ id: number; tx: string | null }>(
        "SELECT t.id, s.tx_hash AS tx FROM trades t LEFT JOIN settlements s ON s.trade_id = t.id AND s.status = 'settled'",
      )
      .all()
      .map((row) => [row.id, row.tx]),
  );
  const seen = new Set<number>();
  let mismatched = 0;
  for (const event of filled) {
    const id = Number(event.args.fillId);
    if (seen.has(id)) problems.push(`fill ${id} has more than one Filled event`);
    seen.add(id);
    if (stored.get(id) !== event.transactionHash) mismatched++;
  }
  if (filled.length !== stored.size) problems.push(`${filled.length} Filled events on the chain for ${stored.size} trades`);
  if (mismatched > 0) problems.push(`${mismatched} Filled events are not in the transaction the store recorded`);
  if (rejected > 0) problems.push(`${rejected} FillRejected events`);
  const hashes = [...new Set(filled.map((event) => event.transactionHash))];
  const costs = new Map<Hash, TxCost>();
  for (const hash of hashes) {
    const [receipt, sent] = await Promise.all([client.getTransactionReceipt({ hash }), client.getTransaction({ hash })]);
    costs.set(hash, { gas: receipt.gasUsed, bytes: (sent.input.length - 2) / 2 });
  }
  return costs;
}

// ---- CPU use (Linux /proc) ---------------------------------------------------------------------------------

type Processes = 'server' | 'anvil';

function coresText(use: CpuUse<Processes>): string {
  const cores = (value: number | undefined) => (value === undefined ? 'n/a' : (value / use.wall).toFixed(2));
  const { server, anvil } = use.processes;
  return `server ${cores(server)}, anvil ${cores(anvil)}, client ${cores(use.client)}, other processes ${cores(use.others)} (of ${cpus().length} cores)`;
}

/** Wall and CPU milliseconds per settlement transaction while only settlement ran. */
function perTransactionText(use: CpuUse<Processes>, transactions: number): string {
  const each = (seconds: number | undefined) => (seconds === undefined ? 'n/a' : whole.format((seconds * 1000) / transactions));
  const { server, anvil } = use.processes;
  return (
    `after the last order was saved, per settlement transaction (${transactions}): wall ${each(use.wall)} ms, ` +
    `server CPU ${each(server)} ms, anvil CPU ${each(anvil)} ms, other processes ${each(use.others)} ms`
  );
}

// ---- figures -----------------------------------------------------------------------------------------------

interface Phase {
  readonly name: string;
  readonly fills: number;
  readonly txs: SettlementTx[];
  readonly latencies: number[];
  readonly cpu: CpuUse<Processes>;
  /** Orders saved per second while the phase sent them. */
  readonly intakeRate: number;
}

/** Settled fills/s from the phase's first settlement transaction to its last (the first one's fills not counted). */
function drainRate(txs: readonly SettlementTx[]): number {
  const first = txs[0];
  const last = txs[txs.length - 1];
  if (first === undefined || last === undefined || last.settledAt === first.settledAt) return Number.NaN;
  const fills = txs.slice(1).reduce((sum, tx) => sum + tx.fills, 0);
  return (fills * 1000) / (last.settledAt - first.settledAt);
}

function phaseDetails(phase: Phase, costs: Map<Hash, TxCost>, batchFills: number): string[] {
  const fills = phase.txs.reduce((sum, tx) => sum + tx.fills, 0);
  const gasUsed = phase.txs.reduce((sum, tx) => sum + (costs.get(tx.hash)?.gas ?? 0n), 0n);
  const bytes = phase.txs.reduce((sum, tx) => sum + (costs.get(tx.hash)?.bytes ?? 0), 0);
  const atCap = phase.txs.filter((tx) => tx.fills === batchFills).length;
  const gaps = phase.txs.slice(1).map((tx, index) => tx.settledAt - (phase.txs[index] as SettlementTx).settledAt);
  const meanGap = gaps.length === 0 ? Number.NaN : gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
  return [
    `${phase.name}: ${whole.format(fills)} fills in ${phase.txs.length} settlement transactions ` +
      `(${tenths.format(fills / phase.txs.length)} fills/tx, ${atCap} at the cap of ${batchFills}), ` +
      `${whole.format(Number(gasUsed) / fills)} gas/fill, ${whole.format(Number(gasUsed) / phase.txs.length)} gas/tx, ` +
      `${whole.format(bytes / fills)} calldata bytes/fill, ` +
      `one transaction applied every ${whole.format(meanGap)} ms on average; orders saved at ${whole.format(phase.intakeRate)}/s`,
    `  CPU in cores while it ran: ${coresText(phase.cpu)}`,
  ];
}

/**
 * Plans the orders of `fills` fills in units of `unit` crossing orders (resting orders first, in
 * units of MAKER_UNIT), builds and signs them, and rests the resting ones: the crossing units are
 * left to send.
 */
async function prepare(
  server: Server,
  market: Market,
  picker: TraderPicker,
  fills: number,
  unit: number,
  problems: string[],
): Promise<Batch[][]> {
  const makers = plan(picker, fills, MAKER_UNIT, false).flat();
  const takers = plan(picker, fills, unit, true);
  const resting = new Map<Account, number>();
  for (const batch of makers) resting.set(batch.trader, (resting.get(batch.trader) ?? 0) + batch.size);
  for (const [trader, orders] of resting) {
    if (orders > MAX_OPEN_ORDERS_PER_ACCOUNT) {
      throw new Error(`${trader.id} would rest ${orders} orders, over the cap of ${MAX_OPEN_ORDERS_PER_ACCOUNT}: add --accounts`);
    }
  }
  const all = [...makers, ...takers.flat()];
  process.stderr.write(`  building and signing ${whole.format(all.reduce((sum, batch) => sum + batch.size, 0))} orders\n`);
  await signBatches(server, market, all);
  process.stderr.write(`  resting ${whole.format(makers.reduce((sum, batch) => sum + batch.size, 0))} orders\n`);
  await saveAll(server, makers, problems);
  return takers;
}

/** The latency phase's default rate: half the measured throughput, in steps that keep the plan whole. */
function autoRate(throughput: number): number {
  const step = RATE_STEP;
  return Math.max(step, Math.min(MAX_AUTO_RATE, Math.floor(throughput / 2 / step) * step));
}

function printLogged(server: Server): void {
  for (const [message, times] of server.logged) console.log(`server logged ${times}x: ${message}`);
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
  const db = await openDatabase(server.storeFile);
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

    const picker = new TraderPicker(traders, options.ed25519Share);
    const burst = (await prepare(server, market, picker, options.fills, TAKER_UNIT, problems)).flat();
    process.stderr.write(`  throughput phase: crossing orders for ${whole.format(options.fills)} fills\n`);
    let before = cpuMark(pids);
    let started = performance.now();
    await saveAll(server, burst, problems);
    const burstIntake = (options.fills * 1000) / (performance.now() - started);
    const saved = cpuMark(pids);
    await settledAll(db, options.fills, deadline);
    const settled = cpuMark(pids);
    const burstCpu = cpuUse(before, settled);
    const drainCpu = cpuUse(saved, settled);
    const lastBurst = lastTradeId(db);
    const burstTxs = transactions(db, 1, lastBurst);
    const throughput = drainRate(burstTxs);

    const rate = options.rate ?? autoRate(throughput);
    const streamFills = rate * options.seconds;
    const perTick = (rate * TICK_MS) / 1000;
    const steady = await prepare(server, market, picker, streamFills, perTick, problems);
    process.stderr.write(`  latency phase: ${whole.format(rate)} fills/s for ${options.seconds} s\n`);
    before = cpuMark(pids);
    started = performance.now();
    const lag = await stream(server, steady, problems);
    const steadyIntake = (streamFills * 1000) / (performance.now() - started);
    await settledAll(db, options.fills + streamFills, deadline);
    const steadyCpu = cpuUse(before, cpuMark(pids));
    const last = lastTradeId(db);

    const end = progress(db);
    if (end.trades !== options.fills + streamFills)
      problems.push(`${end.trades} trades, expected ${options.fills + streamFills}`);
    if (end.settled !== end.trades) problems.push(`${end.settled} settled of ${end.trades} trades`);
    if (end.failed > 0) problems.push(`${end.failed} fills failed`);
    const costs = await checkChain(server, db, problems);
    const stateFile = join(server.dataDir, DEVNET_STATE_FILE);
    const stateBytes = existsSync(stateFile) ? statSync(stateFile).size : 0;
    const mix = keyMix(db);

    const phases: Phase[] = [
      {
        name: 'throughput phase',
        fills: options.fills,
        txs: burstTxs,
        latencies: latencies(db, 1, lastBurst),
        cpu: burstCpu,
        intakeRate: burstIntake,
      },
      {
        name: `latency phase (${rate} fills/s offered)`,
        fills: streamFills,
        txs: transactions(db, lastBurst + 1, last),
        latencies: latencies(db, lastBurst + 1, last),
        cpu: steadyCpu,
        intakeRate: steadyIntake,
      },
    ];
    const [burstPhase, steadyPhase] = phases as [Phase, Phase];
    const { batchFills } = server.settlementChain;
    const p99 = percentile(steadyPhase.latencies, 0.99);

    console.log('');
    const ms = (sorted: readonly number[], q: number) => whole.format(percentile(sorted, q));
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
          `>= ${whole.format(TARGETS.fillsPerSecond)}/s`,
          `${(throughput / TARGETS.fillsPerSecond).toFixed(2)}x`,
          verdict(throughput >= TARGETS.fillsPerSecond),
        ],
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
    console.log('');
    console.log(
      `settler: SETTLEMENT_BATCH_FILLS=${batchFills}, SETTLEMENT_TX_GAS_LIMIT=${whole.format(server.settlementChain.txGasLimit)}; ` +
        `ratio = measured / target (throughput: higher is better; p99: lower is better)`,
    );
    for (const line of phaseDetails(burstPhase, costs, batchFills)) console.log(line);
    console.log(`  ${perTransactionText(drainCpu, burstPhase.txs.filter((tx) => tx.settledAt > saved.at).length)}`);
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
    const share = (part: number | undefined, of: number | undefined) =>
      part === undefined || of === undefined || of === 0 ? 'n/a' : `${((100 * part) / of).toFixed(1)}%`;
    console.log(
      `key mix: ${options.accounts / 2} secp256k1 wallets and ${options.accounts / 2} Ed25519 accounts; Ed25519 signed ` +
        `${share(mix.orders?.ed, mix.orders?.all)} of the ${whole.format(mix.orders?.all ?? 0)} orders that traded ` +
        `(each verified on-chain once, about 230k gas for Ed25519); fills with an Ed25519 maker ${share(mix.fills?.maker, mix.fills?.all)}, ` +
        `taker ${share(mix.fills?.taker, mix.fills?.all)}, either ${share(mix.fills?.either, mix.fills?.all)}`,
    );
    console.log(
      `each crossing order fills once against a resting order of ${FILLS_PER_MAKER}x its size (${TAKER_STEPS * FILLS_PER_MAKER} size steps)`,
    );
    console.log(
      `checks: ${problems.length === 0 ? 'every trade settled exactly once (store rows, one Filled event per trade in the recorded transaction, no rejections)' : 'FAIL'}`,
    );
    printLogged(server);
    for (const problem of problems) console.log(`FAIL ${problem}`);
    return problems.length === 0 ? 0 : 1;
  } catch (error) {
    printLogged(server);
    throw error;
  } finally {
    db.close();
    server.client.close();
    await stopServerProcess(server);
  }
}

runBenchmark('bench:settlement', main);
