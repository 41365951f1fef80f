/**
 * Order intake benchmark: accounts of both key types save pre-signed orders over real HTTP to a
 * server running in a child process (bench/support/server-child.ts), half of them crossing resting
 * orders of other accounts. The same run measures the bare verification floor in this process:
 * parse, hash and verify each of the same signed orders with the server's own components, on
 * one thread and with the server's worker pool. The ratio that the issue names is end-to-end
 * orders/s over the single-thread floor.
 *
 *   npm run bench:orders -- [--orders 40000] [--accounts 8] [--batch 250,50] [--in-flight 4] [--runs 1]
 *                           [--verify-workers 1] [--time-limit 120] [--cpu-prof DIR] [--cluster]
 *
 * `--cluster` measures each batch size twice more: one process on a PostgreSQL database of its
 * own, and a cluster (docs/deploy.md), where the server child runs as a gateway (ROLE=gateway) in
 * front of two engine processes on the local NATS; the CPU of each role is printed.
 *
 * Each run starts a fresh server (empty store in a temporary DATA_DIR), registers and logs in the
 * accounts, builds and signs every order (not timed), then saves them all (timed) and checks the
 * outcome. Every figure printed is the median over the runs. Client and server share the machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  type Eip712Domain,
  fromDisplayAmount,
  type Hex,
  OrderHasher,
  orderTypedData,
  parseOrderSignature,
  parseWireOrder,
  type WireOrder,
} from '@dex/core';
import { hashTypedData } from 'viem';
import { VerifyPool } from '../packages/server/src/adapters/crypto/verify-pool.js';
import { openDatabase } from '../packages/server/src/adapters/sqlite/driver.js';
import { keccak256 } from '../packages/server/src/domain/signatures/keccak.js';
import { type SignerKey, verifyOrderSignature } from '../packages/server/src/domain/signatures/order-signatures.js';
import { type Account, createAccounts, login, type Role, signDigest } from './support/accounts.js';
import { startClusterProcesses, startDatabase } from './support/cluster-processes.js';
import { machineBusy, processCpu } from './support/cpu.js';
import { HttpClient, type Reply, snippet } from './support/http-client.js';
import { BENCH_BOOK, type BuiltOrder, limitRequest, MAX_BATCH, type Market, readBook, readMarket } from './support/market.js';
import { ORDER_STREAM_OPTIONS, readAccounts, readCount, readProfileDir } from './support/options.js';
import { median, millis, percentile, printTable, verdict, whole } from './support/report.js';
import { runBenchmark, startServerProcess, stopServerProcess } from './support/server-process.js';

const { id: BOOK_ID, askTicks: ASK_TICKS, bidTicks: BID_TICKS, makerSteps: MAKER_STEPS, takerSteps: TAKER_STEPS } = BENCH_BOOK;

/** Most open orders one account may have (the server's cap); every maker of an account may rest at once. */
const OPEN_ORDER_CAP = 5_000;
const BUILD_IN_FLIGHT = 2;

/**
 * Informational goals, reported and never fatal: issue 5's rate and half the single-thread floor,
 * issue 17's 0.8 of the floor verifying on 2 workers, issue 41's 0.8 of the single-thread floor.
 */
const TARGETS = { ordersPerSecond: 5_000, floorRatio: 0.5, nearFloorRatio: 0.8, twoWorkerRatio: 0.8, batch: 250 } as const;

interface BenchOptions {
  readonly orders: number;
  readonly accounts: number;
  readonly batches: readonly number[];
  readonly inFlight: number;
  readonly runs: number;
  readonly verifyWorkers: number;
  readonly timeLimitSeconds: number;
  readonly cpuProfDir: string | undefined;
  readonly cluster: boolean;
}

/** The whole service in one process (on SQLite, or on PostgreSQL), or a gateway in front of two engine processes. */
type Mode = 'single' | 'postgres' | 'cluster';
const CLUSTER_ENGINES = 2;

type BookSide = 'ask' | 'bid';

interface SignedOrder {
  readonly account: Account;
  readonly taker: boolean;
  readonly wire: WireOrder;
  readonly orderHash: string;
  readonly signature: Hex;
}

interface Batch {
  readonly account: Account;
  readonly orders: readonly SignedOrder[];
  readonly body: Buffer;
  readonly makerSteps: number;
  readonly takerSteps: number;
}

interface Answer {
  readonly batch: Batch;
  readonly reply: Reply;
  readonly milliseconds: number;
}

interface SavedMeta {
  /** A decimal string on the wire. */
  id: string;
  status: string;
  orderHash: string;
  filledAmount: string;
}

interface RunResult {
  readonly batch: number;
  readonly orders: number;
  readonly seconds: number;
  readonly ordersPerSecond: number;
  readonly requests: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly liquidityWaits: number;
  readonly cpu: CpuUse;
  readonly failures: readonly string[];
  readonly verifyWorkers: number;
  readonly setupSeconds: number;
}

interface Row {
  readonly measure: string;
  readonly batch: string;
  readonly inFlight: string;
  readonly orders: number;
  readonly ordersPerSecond: number;
  readonly p50: number | undefined;
  readonly p99: number | undefined;
  /** A part of the single-thread floor (one stage of it), shown without ratios. */
  readonly part: boolean;
}

function readOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      ...ORDER_STREAM_OPTIONS,
      runs: { type: 'string' },
      'verify-workers': { type: 'string' },
      cluster: { type: 'boolean' },
    },
    strict: true,
  });
  const accounts = readAccounts(values.accounts, 8, 64);
  const orders = readCount('--orders', values.orders, 40_000, accounts * 4, 400_000);
  const makersPerAccount = Math.floor(Math.floor(orders / accounts) / 2);
  if (makersPerAccount > OPEN_ORDER_CAP) {
    throw new Error(`--orders ${orders} over ${accounts} accounts would rest more than ${OPEN_ORDER_CAP} orders per account`);
  }
  const batches = (values.batch ?? '250,50').split(',').map((text) => readCount('--batch', text.trim(), 0, 1, MAX_BATCH));
  // An account's first batch must be makers only, or no taker ever finds liquidity to meet.
  const tooLarge = batches.find((batch) => batch > makersPerAccount);
  if (tooLarge !== undefined) {
    throw new Error(
      `--batch ${tooLarge} exceeds the ${makersPerAccount} makers per account of --orders ${orders} over ${accounts} accounts`,
    );
  }
  return {
    orders,
    accounts,
    batches,
    inFlight: readCount('--in-flight', values['in-flight'], 4, 1, 64),
    runs: readCount('--runs', values.runs, 1, 1, 20),
    verifyWorkers: readCount('--verify-workers', values['verify-workers'], 1, 0, 16),
    timeLimitSeconds: readCount('--time-limit', values['time-limit'], 120, 1, 3_600),
    cpuProfDir: readProfileDir(values['cpu-prof']),
    cluster: values.cluster === true,
  };
}

// ---- accounts and orders --------------------------------------------------------------------------------

/**
 * Checks one order of an account against an independent implementation: the server's digest
 * against viem's hashTypedData, and for secp256k1 our signature against viem's signTypedData.
 */
async function crossCheck(order: SignedOrder, domain: Eip712Domain): Promise<string | undefined> {
  const typed = orderTypedData(domain, parseWireOrder(order.wire));
  if (hashTypedData(typed) !== order.orderHash) {
    return `the server's digest of an order of ${order.account.id} differs from viem's`;
  }
  const { signer } = order.account;
  if (signer.kind === 'secp256k1' && `0x00${(await signer.wallet.signTypedData(typed)).slice(2)}` !== order.signature) {
    return `the native secp256k1 signature of ${order.account.id} differs from viem's signTypedData`;
  }
  return undefined;
}

/** A limit order of the account's direction: makers rest on its own side, takers meet the other side's price. */
function orderRequest(market: Market, role: Role, taker: boolean) {
  const steps = taker ? TAKER_STEPS : MAKER_STEPS;
  const ticks = role === 'seller' ? (taker ? BID_TICKS : ASK_TICKS) : taker ? ASK_TICKS : BID_TICKS;
  return limitRequest(market, role === 'seller', ticks, steps);
}

/**
 * The maker/taker sequence of one account: first at least a quarter of its orders as makers, in
 * whole batches, so that other accounts have liquidity to take before any taker is sent; then the
 * rest of its makers spread evenly among all its takers.
 */
function planOf(count: number, batch: number): boolean[] {
  const makers = Math.floor(count / 2);
  const takers = count - makers;
  const front = Math.min(makers, Math.ceil(Math.floor(makers / 2) / batch) * batch);
  const plan: boolean[] = Array.from({ length: front }, () => false);
  const tail = count - front;
  let placedTakers = 0;
  for (let index = 0; index < tail; index++) {
    const wanted = Math.round(((index + 1) * takers) / tail);
    plan.push(wanted > placedTakers);
    if (wanted > placedTakers) placedTakers++;
  }
  return plan;
}

async function buildAndSign(
  client: HttpClient,
  market: Market,
  accounts: readonly Account[],
  perAccount: number,
  batch: number,
): Promise<SignedOrder[][]> {
  const plan = planOf(perAccount, batch);
  const jobs: { account: Account; flags: boolean[] }[] = [];
  for (const account of accounts) {
    for (let start = 0; start < plan.length; start += MAX_BATCH) {
      jobs.push({ account, flags: plan.slice(start, start + MAX_BATCH) });
    }
  }
  const results: SignedOrder[][] = [];
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < jobs.length; at = next++) {
      const { account, flags } = jobs[at] as (typeof jobs)[number];
      const requests = flags.map((taker) => orderRequest(market, account.role, taker));
      const { orders } = await client.json<{ orders: BuiltOrder[] }>(
        'POST',
        '/orders/build',
        { orderRequests: requests },
        account.token,
      );
      if (orders.length !== flags.length) throw new Error(`build answered ${orders.length} orders for ${flags.length} requests`);
      results[at] = orders.map(({ meta, ...wire }, index) => ({
        account,
        taker: flags[index] === true,
        wire,
        orderHash: meta.orderHash,
        signature: signDigest(account.signer, meta.orderHash),
      }));
    }
  };
  await Promise.all(Array.from({ length: BUILD_IN_FLIGHT }, worker));
  // Jobs are in account order, so each account's orders come back in plan order.
  return accounts.map((account) => jobs.flatMap((job, at) => (job.account === account ? (results[at] ?? []) : [])));
}

/** Save batches, round-robin over the accounts so every request in flight is a different account's. */
function batchesOf(signed: readonly SignedOrder[][], size: number): Batch[] {
  const perAccount = signed.map((orders) => {
    const batches: Batch[] = [];
    for (let start = 0; start < orders.length; start += size) {
      const slice = orders.slice(start, start + size);
      const account = (slice[0] as SignedOrder).account;
      const items = slice.map((order) => ({
        order: order.wire,
        signature: order.signature,
        orderbookId: BOOK_ID,
        type: 'LIMIT',
      }));
      const takers = slice.filter((order) => order.taker).length;
      batches.push({
        account,
        orders: slice,
        body: Buffer.from(JSON.stringify({ items })),
        makerSteps: (slice.length - takers) * MAKER_STEPS,
        takerSteps: takers * TAKER_STEPS,
      });
    }
    return batches;
  });
  const rounds = Math.max(...perAccount.map((batches) => batches.length));
  const queue: Batch[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const batches of perAccount) {
      const batch = batches[round];
      if (batch !== undefined) queue.push(batch);
    }
  }
  return queue;
}

// ---- the timed phase ---------------------------------------------------------------------------------------

function restsOn(role: Role): BookSide {
  return role === 'seller' ? 'ask' : 'bid';
}

function takesFrom(role: Role): BookSide {
  return role === 'seller' ? 'bid' : 'ask';
}

/**
 * Saves every batch with `inFlight` requests at a time. A batch is sent only when the resting
 * liquidity already acknowledged on the side it takes from covers its takers plus every taker
 * sent before it, so each taker fills completely and the outcome is exact whatever the order in
 * which the server handles concurrent requests.
 */
async function saveAll(
  client: HttpClient,
  queue: readonly Batch[],
  inFlight: number,
  deadline: number,
): Promise<{ answers: Answer[]; seconds: number; waits: number }> {
  const pending = [...queue];
  const acknowledged: Record<BookSide, number> = { ask: 0, bid: 0 };
  const promised: Record<BookSide, number> = { ask: 0, bid: 0 };
  const answers: Answer[] = [];
  let running = 0;
  let waits = 0;
  let wake: (() => void) | undefined;
  const nextBatch = (): Batch | undefined => {
    const index = pending.findIndex((batch) => {
      const side = takesFrom(batch.account.role);
      return acknowledged[side] - promised[side] >= batch.takerSteps;
    });
    return index < 0 ? undefined : pending.splice(index, 1)[0];
  };
  const start = performance.now();
  let end = start;
  const worker = async () => {
    while (pending.length > 0) {
      if (performance.now() > deadline) throw new Error('the timed phase ran past --time-limit');
      const batch = nextBatch();
      if (batch === undefined) {
        if (running === 0) throw new Error('no batch can be sent: not enough resting liquidity was planned');
        waits++;
        await new Promise<void>((resolve) => {
          const previous = wake;
          wake = () => {
            previous?.();
            resolve();
          };
        });
        continue;
      }
      promised[takesFrom(batch.account.role)] += batch.takerSteps;
      running++;
      const before = performance.now();
      try {
        const reply = await client.send('POST', '/orders/save', batch.body, batch.account.token);
        end = performance.now();
        answers.push({ batch, reply, milliseconds: end - before });
        // A refused batch leaves the liquidity plan wrong and the figures meaningless: stop at once.
        if (reply.status !== 200) throw new Error(`POST /orders/save answered ${reply.status}: ${snippet(reply.body)}`);
        acknowledged[restsOn(batch.account.role)] += batch.makerSteps;
      } finally {
        running--;
        const woken = wake;
        wake = undefined;
        woken?.();
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { answers, seconds: (end - start) / 1000, waits };
}

// ---- checking the outcome -------------------------------------------------------------------------------------

interface Expected {
  readonly open: number;
  readonly filled: number;
  readonly trades: number;
  readonly baseSteps: number;
}

/** Per side: takers of TAKER_STEPS eat makers of MAKER_STEPS first in, first out; each taker fills against one maker. */
function expectedOutcome(signed: readonly SignedOrder[][]): Expected {
  let open = 0;
  let filled = 0;
  let trades = 0;
  let baseSteps = 0;
  for (const side of ['ask', 'bid'] as const) {
    const orders = signed.flat();
    const makers = orders.filter((order) => !order.taker && restsOn(order.account.role) === side).length;
    const takers = orders.filter((order) => order.taker && takesFrom(order.account.role) === side).length;
    const taken = takers * TAKER_STEPS;
    const consumed = Math.floor(taken / MAKER_STEPS);
    open += makers - consumed;
    filled += takers + consumed;
    trades += takers;
    baseSteps += taken;
  }
  return { open, filled, trades, baseSteps };
}

function checkAnswers(answers: readonly Answer[], failures: string[]): number {
  let accepted = 0;
  const ids = new Set<string>();
  const problems = new Map<string, number>();
  const note = (problem: string) => problems.set(problem, (problems.get(problem) ?? 0) + 1);
  for (const { batch, reply } of answers) {
    if (reply.status !== 200) {
      note(`save answered ${reply.status}: ${snippet(reply.body)}`);
      continue;
    }
    const { orders } = JSON.parse(reply.body.toString('utf8')) as { orders: { meta: SavedMeta }[] };
    if (orders.length !== batch.orders.length) note(`save answered ${orders.length} orders for ${batch.orders.length}`);
    orders.forEach(({ meta }, index) => {
      const sent = batch.orders[index];
      if (sent === undefined || meta.orderHash !== sent.orderHash) note('an answer is not in the order of its items');
      else if (sent.taker && meta.status !== 'FILLED') note(`a crossing order answered ${meta.status}, not FILLED`);
      else if (!sent.taker && (meta.status !== 'ACTIVE' || meta.filledAmount !== '0')) {
        note(`a resting order answered ${meta.status}`);
      }
      ids.add(meta.id);
    });
    accepted += orders.length;
  }
  for (const [problem, count] of problems) failures.push(`${problem} (${count}x)`);
  if (ids.size !== accepted) failures.push(`${accepted} orders accepted but ${ids.size} distinct ids`);
  return accepted;
}

async function countOrders(client: HttpClient, account: Account, status?: string): Promise<number> {
  const query = status === undefined ? '' : `&status=${status}`;
  const page = await client.json<{ total: number }>(
    'GET',
    `/orders?limit=1&orderbookId=${BOOK_ID}${query}`,
    undefined,
    account.token,
  );
  return page.total;
}

async function checkServerState(
  client: HttpClient,
  market: Market,
  accounts: readonly Account[],
  perAccount: number,
  expected: Expected,
  booksReadAt: number,
  failures: string[],
): Promise<void> {
  let total = 0;
  let open = 0;
  let filled = 0;
  for (const account of accounts) {
    const all = await countOrders(client, account);
    if (all !== perAccount) failures.push(`GET /orders of ${account.id}: ${all} orders, sent ${perAccount}`);
    total += all;
    open += await countOrders(client, account, 'OPEN,PARTIALLY_FILLED');
    filled += await countOrders(client, account, 'FILLED');
  }
  if (open !== expected.open) failures.push(`GET /orders: ${open} open orders, expected ${expected.open}`);
  if (filled !== expected.filled) failures.push(`GET /orders: ${filled} filled orders, expected ${expected.filled}`);
  if (open + filled !== total) failures.push(`GET /orders: ${total - open - filled} orders neither open nor filled`);

  const depth = await client.json<{ bestBidQuote: string | null; bestAskQuote: string | null }>('GET', `/depth/${BOOK_ID}`);
  const bid = market.grid.formatPrice(BigInt(BID_TICKS));
  const ask = market.grid.formatPrice(BigInt(ASK_TICKS));
  if (depth.bestBidQuote !== bid || depth.bestAskQuote !== ask) {
    failures.push(`depth: best bid ${depth.bestBidQuote} ask ${depth.bestAskQuote}, expected ${bid} and ${ask}`);
  }
  const tape = await client.json<{ total: number }>('GET', `/trades/${BOOK_ID}?limit=1`);
  if (tape.total !== expected.trades) failures.push(`GET /trades: ${tape.total} trades, expected ${expected.trades}`);
  // GET /books is cached for a second; the setup read it.
  const wait = booksReadAt + 1_100 - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const book = await readBook(client, BOOK_ID);
  const volume = fromDisplayAmount(book.baseVol24h, market.baseDecimals);
  if (volume !== market.grid.baseAmount(expected.baseSteps)) {
    failures.push(
      `GET /books: baseVol24h ${book.baseVol24h}, expected ${market.grid.formatBase(market.grid.baseAmount(expected.baseSteps))}`,
    );
  }
}

// ---- CPU accounting (bench/support/cpu.ts; absent off Linux) ---------------------------------------------------

interface CpuSnapshot {
  readonly engines: number | undefined;
  readonly server: number | undefined;
  readonly serverMain: number | undefined;
  readonly client: number;
  readonly machine: number | undefined;
}

/** Core-seconds used during the timed phase by the server, this client and everything else on the machine. */
interface CpuUse {
  /** The engine processes of a cluster run (the server is then its gateway); undefined in one process. */
  readonly engines: number | undefined;
  readonly server: number | undefined;
  /** The server's main thread (its event loop): its thread id is the process id. */
  readonly serverMain: number | undefined;
  readonly client: number;
  readonly others: number | undefined;
}

function cpuSnapshot(serverPid: number | undefined, enginePids: readonly number[]): CpuSnapshot {
  const own = process.cpuUsage();
  const engines = enginePids.map((pid) => processCpu(pid));
  return {
    engines:
      enginePids.length === 0 || engines.includes(undefined) ? undefined : engines.reduce((sum = 0, cpu = 0) => sum + cpu, 0),
    server: processCpu(serverPid),
    serverMain: processCpu(serverPid, serverPid),
    client: (own.user + own.system) / 1e6,
    machine: machineBusy(),
  };
}

function cpuSince(before: CpuSnapshot, serverPid: number | undefined, enginePids: readonly number[]): CpuUse {
  const after = cpuSnapshot(serverPid, enginePids);
  const delta = (end: number | undefined, start: number | undefined) =>
    end === undefined || start === undefined ? undefined : end - start;
  const server = delta(after.server, before.server);
  const serverMain = delta(after.serverMain, before.serverMain);
  const client = after.client - before.client;
  const machine = delta(after.machine, before.machine);
  const engines = delta(after.engines, before.engines);
  const others =
    machine === undefined || server === undefined ? undefined : Math.max(0, machine - server - client - (engines ?? 0));
  return { engines, server, serverMain, client, others };
}

// ---- one run ---------------------------------------------------------------------------------------------------

/** A run's figures, and the orders it signed with the domain they were signed for (the floor reuses them). */
interface RunOutput {
  readonly result: RunResult;
  readonly signed: readonly SignedOrder[];
  readonly domain: Eip712Domain;
}

/**
 * Writes the setup left unsynced (the builds' nonces do not wait for the disk) to the database
 * file, as a checkpoint does: the first timed save would otherwise sync them, and the timed phase
 * measures saves.
 */
async function settleSetupWrites(storeFile: string): Promise<void> {
  const db = await openDatabase(storeFile);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
  } finally {
    db.close();
  }
}

async function runOnce(options: BenchOptions, batchSize: number, label: string, mode: Mode): Promise<RunOutput> {
  const setupStart = performance.now();
  const engineDir = mkdtempSync(join(tmpdir(), 'bench-orders-engines-'));
  const cluster = mode === 'cluster' ? await startClusterProcesses(CLUSTER_ENGINES, engineDir) : null;
  const database = mode === 'postgres' ? await startDatabase() : null;
  const enginePids = cluster?.enginePids ?? [];
  const server = await startServerProcess({
    name: 'orders',
    env: { VERIFY_WORKERS: String(options.verifyWorkers), ...cluster?.gatewayEnv, ...database?.env },
    cpuProfDir: options.cpuProfDir,
  }).catch(async (error: unknown) => {
    await cluster?.stop();
    await database?.drop();
    throw error;
  });
  const client = new HttpClient(server.url, Math.max(options.inFlight, BUILD_IN_FLIGHT));
  try {
    const { domain } = server;
    const accounts = await Promise.all((await createAccounts(server, options.accounts)).map((account) => login(client, account)));
    const market = await readMarket(client, BOOK_ID);
    const booksReadAt = performance.now();
    const perAccount = Math.floor(options.orders / options.accounts);
    process.stderr.write(`  ${label}: building and signing ${whole.format(perAccount * accounts.length)} orders\n`);
    const signed = await buildAndSign(client, market, accounts, perAccount, batchSize);
    const failures: string[] = [];
    for (const orders of signed) {
      const first = orders[0];
      const problem = first === undefined ? 'an account has no orders' : await crossCheck(first, domain);
      if (problem !== undefined) failures.push(problem);
    }
    const queue = batchesOf(signed, batchSize);
    if (mode === 'single') await settleSetupWrites(server.storeFile);
    const setupSeconds = (performance.now() - setupStart) / 1000;

    process.stderr.write(`  ${label}: saving ${queue.length} batches of ${batchSize}, ${options.inFlight} in flight\n`);
    globalThis.gc?.();
    const deadline = performance.now() + options.timeLimitSeconds * 1000;
    const windowStart = process.hrtime.bigint();
    const cpuBefore = cpuSnapshot(server.child.pid, enginePids);
    const { answers, seconds, waits } = await saveAll(client, queue, options.inFlight, deadline);
    const cpu = cpuSince(cpuBefore, server.child.pid, enginePids);
    if (options.cpuProfDir !== undefined) {
      // V8 profiles time samples on the same monotonic clock, in microseconds.
      const micros = (value: bigint) => (value / 1000n).toString();
      process.stderr.write(
        `  ${label}: timed phase in the server's profile (pid ${server.child.pid}): ` +
          `${micros(windowStart)}..${micros(process.hrtime.bigint())} us\n`,
      );
    }

    const accepted = checkAnswers(answers, failures);
    const sent = queue.reduce((sum, batch) => sum + batch.orders.length, 0);
    if (accepted !== sent) failures.push(`${whole.format(accepted)} orders accepted of ${whole.format(sent)} sent`);
    await checkServerState(client, market, accounts, perAccount, expectedOutcome(signed), booksReadAt, failures);

    const latencies = answers.map((answer) => answer.milliseconds).sort((a, b) => a - b);
    const result: RunResult = {
      batch: batchSize,
      orders: accepted,
      seconds,
      ordersPerSecond: accepted / seconds,
      requests: answers.length,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? Number.NaN,
      liquidityWaits: waits,
      cpu,
      failures,
      verifyWorkers: server.verifyWorkers,
      setupSeconds,
    };
    return { result, signed: signed.flat(), domain };
  } finally {
    client.close();
    await stopServerProcess(server);
    await cluster?.stop();
    await database?.drop();
    rmSync(engineDir, { recursive: true, force: true });
  }
}

// ---- the verification floor ------------------------------------------------------------------------------------

/** One signed order the way the server sees it: the parsed JSON of an item, and the key of its account. */
interface FloorItem {
  readonly order: unknown;
  readonly signature: string;
  readonly signer: SignerKey;
}

interface FloorResult {
  readonly name: string;
  readonly orders: number;
  readonly seconds: number;
  readonly invalid: number;
}

/** Every `stride`-th order, so both key types and both roles stay in proportion. */
function floorItems(signed: readonly SignedOrder[], limit: number): FloorItem[] {
  const stride = Math.max(1, Math.ceil(signed.length / limit));
  const items: FloorItem[] = [];
  for (let index = 0; index < signed.length; index += stride) {
    const order = signed[index] as SignedOrder;
    items.push({ order: order.wire, signature: order.signature, signer: order.account.key });
  }
  return items;
}

function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** What the server does per order before its store: parse the wire order and signature, hash, verify. */
function floorSingleThread(items: readonly FloorItem[], hasher: OrderHasher): FloorResult {
  let invalid = 0;
  const start = process.hrtime.bigint();
  for (const item of items) {
    const order = parseWireOrder(item.order);
    const { signature } = parseOrderSignature(item.signature);
    const digest = hasher.digest(order);
    if (!verifyOrderSignature({ digest, signature, signer: item.signer })) invalid++;
  }
  return { name: 'floor: parse + hash + verify, 1 thread', orders: items.length, seconds: secondsSince(start), invalid };
}

/** The same, with verification on the server's worker pool in batches as the server sends them. */
async function floorPooled(items: readonly FloorItem[], hasher: OrderHasher, workers: number, batch: number, inFlight: number) {
  const verifier = await VerifyPool.start({ workers });
  try {
    let invalid = 0;
    let next = 0;
    const start = process.hrtime.bigint();
    const loop = async () => {
      for (let from = next; from < items.length; from = next) {
        next += batch;
        const checks = items.slice(from, from + batch).map((item) => {
          const order = parseWireOrder(item.order);
          return { digest: hasher.digest(order), signature: parseOrderSignature(item.signature).signature, signer: item.signer };
        });
        for (const valid of await verifier.verifyBatch(checks)) if (!valid) invalid++;
      }
    };
    await Promise.all(Array.from({ length: inFlight }, loop));
    const seconds = secondsSince(start);
    const name = `floor: parse + hash, verify on a pool of ${workers} worker${workers === 1 ? '' : 's'} (batch ${batch})`;
    return { name, orders: items.length, seconds, invalid } satisfies FloorResult;
  } finally {
    await verifier.close();
  }
}

/** Where the single-thread floor's time goes: parsing and hashing, then each curve on its own. */
function floorParts(items: readonly FloorItem[], hasher: OrderHasher): FloorResult[] {
  const prepared = items.map((item) => ({
    digest: hasher.digest(parseWireOrder(item.order)),
    signature: parseOrderSignature(item.signature).signature,
    signer: item.signer,
  }));
  let start = process.hrtime.bigint();
  let sink = 0;
  for (const item of items) sink += hasher.digest(parseWireOrder(item.order))[0] ?? 0;
  const hashing: FloorResult = {
    name: '  of which parse + hash only',
    orders: items.length,
    seconds: secondsSince(start),
    invalid: 0,
  };
  const curves: FloorResult[] = [];
  for (const [type, name] of [
    ['secp256k1-address', '  of which verify only, secp256k1 (recovery)'],
    ['ed25519', '  of which verify only, Ed25519 (strict)'],
  ] as const) {
    const checks = prepared.filter((check) => check.signer.type === type);
    let invalid = 0;
    start = process.hrtime.bigint();
    for (const check of checks) if (!verifyOrderSignature(check)) invalid++;
    curves.push({ name, orders: checks.length, seconds: secondsSince(start), invalid });
  }
  if (sink < 0) throw new Error('unreachable');
  return [hashing, ...curves];
}

// ---- measuring ----------------------------------------------------------------------------------------------------

/** Median of each floor over the runs, by name, in first-seen order. */
function medianFloors(runs: readonly FloorResult[][]): FloorResult[] {
  const first = runs[0] ?? [];
  return first.map((result, index) => {
    const rates = runs.map((run) => {
      const same = run[index] as FloorResult;
      return same.orders / same.seconds;
    });
    const invalid = runs.reduce((sum, run) => sum + (run[index] as FloorResult).invalid, 0);
    return { name: result.name, orders: result.orders, seconds: result.orders / median(rates), invalid };
  });
}

// ---- printing -----------------------------------------------------------------------------------------------------

function printRows(rows: readonly Row[], floor: number, pool: number | undefined): void {
  const header = [
    'measure',
    'batch',
    'in flight',
    'orders',
    'orders/s',
    'p50 ms',
    'p99 ms',
    'vs floor 1 thread',
    'vs floor pool',
  ];
  const ratio = (rate: number, reference: number | undefined) =>
    reference === undefined ? '-' : `${(rate / reference).toFixed(2)}x`;
  const body = rows.map((row) => [
    row.measure,
    row.batch,
    row.inFlight,
    whole.format(row.orders),
    whole.format(row.ordersPerSecond),
    row.p50 === undefined ? '-' : millis.format(row.p50),
    row.p99 === undefined ? '-' : millis.format(row.p99),
    row.part ? '-' : ratio(row.ordersPerSecond, floor),
    row.part ? '-' : ratio(row.ordersPerSecond, pool),
  ]);
  printTable(header, body);
}

/** CPU of the timed phase in cores (core-seconds per second of wall time), out of the machine's. */
function cpuText(cpu: CpuUse, seconds: number, orders: number): string {
  const cores = (value: number | undefined) => (value === undefined ? 'n/a' : (value / seconds).toFixed(2));
  const perOrder = (value: number | undefined) => (value === undefined ? 'n/a' : whole.format((value * 1e6) / orders));
  return (
    `CPU in the timed phase, in cores of ${cpus().length}: server ${cores(cpu.server)} (${perOrder(cpu.server)} us per order), ` +
    `of which its main thread ${cores(cpu.serverMain)} (${perOrder(cpu.serverMain)} us per order); ` +
    (cpu.engines === undefined ? '' : `engines ${cores(cpu.engines)} (${perOrder(cpu.engines)} us per order); `) +
    `client ${cores(cpu.client)}; other processes (PostgreSQL and NATS in a cluster run) ${cores(cpu.others)}`
  );
}

function printHeader(options: BenchOptions): void {
  const cores = cpus().length;
  console.log(
    `node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cores} cores), ${process.platform}/${process.arch}`,
  );
  console.log(
    `${whole.format(options.orders)} orders from ${options.accounts} accounts (half secp256k1 0x wallets, half Ed25519 0.0.X), ` +
      `half of them crossing; batch ${options.batches.join(', ')}; ${options.inFlight} requests in flight; ` +
      `server VERIFY_WORKERS=${options.verifyWorkers}; median of ${options.runs} run(s)`,
  );
  console.log(
    `client (this process) and server (a child process, 127.0.0.1 over keep-alive HTTP/1.1) share the ${cores} cores; ` +
      'orders are built, signed and serialised before the clock starts',
  );
  const [one, five] = loadavg();
  console.log(`load average before the run: ${one?.toFixed(2)} (1 min), ${five?.toFixed(2)} (5 min)`);
  if (globalThis.gc === undefined) console.log('note: run with --expose-gc to collect garbage between runs');
}

// ---- main ---------------------------------------------------------------------------------------------------------

/** Floors run on at most this many of the signed orders (spread over all accounts). */
const FLOOR_ORDERS = 20_000;
/** Orders of a warm-up pass over each floor before it is timed. */
const FLOOR_WARMUP = 2_000;

async function measureFloors(signed: readonly SignedOrder[], domain: Eip712Domain, options: BenchOptions) {
  const items = floorItems(signed, FLOOR_ORDERS);
  const hasher = new OrderHasher(domain, keccak256);
  const poolSizes = [...new Set([1, 2, options.verifyWorkers].filter((workers) => workers > 0))].sort((a, b) => a - b);
  const warm = items.slice(0, FLOOR_WARMUP);
  floorSingleThread(warm, hasher);
  floorParts(warm, hasher);
  const runs: FloorResult[][] = [];
  for (let run = 1; run <= options.runs; run++) {
    process.stderr.write(`  floor: run ${run}/${options.runs} over ${whole.format(items.length)} orders\n`);
    globalThis.gc?.();
    const results = [floorSingleThread(items, hasher), ...floorParts(items, hasher)];
    for (const workers of poolSizes) {
      globalThis.gc?.();
      results.push(await floorPooled(items, hasher, workers, MAX_BATCH, options.inFlight));
    }
    runs.push(results);
  }
  return { floors: medianFloors(runs), poolSizes };
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  printHeader(options);
  const results = new Map<string, { mode: Mode; batch: number; runs: RunResult[] }>();
  const failures: string[] = [];
  let firstRun: RunOutput | undefined;
  const modes: Mode[] = options.cluster ? ['single', 'postgres', 'cluster'] : ['single'];
  for (const [mode, batch] of modes.flatMap((mode) => options.batches.map((batch) => [mode, batch] as const))) {
    const runs: RunResult[] = [];
    for (let run = 1; run <= options.runs; run++) {
      const label = `${mode === 'single' ? '' : `${mode} `}batch ${batch} run ${run}/${options.runs}`;
      const output = await runOnce(options, batch, label, mode);
      firstRun ??= output;
      const { result } = output;
      process.stderr.write(
        `  ${label}: ${whole.format(result.ordersPerSecond)} orders/s, p50 ${millis.format(result.p50)} ms, p99 ${millis.format(result.p99)} ms\n`,
      );
      for (const failure of result.failures) failures.push(`${label}: ${failure}`);
      runs.push(result);
    }
    results.set(`${mode} ${batch}`, { mode, batch, runs });
  }
  if (firstRun === undefined) throw new Error('no run');
  // The floor runs with no server alive, on the orders the first run signed.
  const { floors, poolSizes } = await measureFloors(firstRun.signed, firstRun.domain, options);
  const floorOf = (name: string) => floors.find((floor) => floor.name.startsWith(name));
  const single = floorOf('floor: parse + hash + verify, 1 thread');
  const pool = floorOf(`floor: parse + hash, verify on a pool of ${options.verifyWorkers} worker`);
  if (single === undefined) throw new Error('no single-thread floor');
  for (const floor of floors) if (floor.invalid > 0) failures.push(`${floor.name}: ${floor.invalid} signatures did not verify`);

  const rows: Row[] = [];
  for (const { mode, batch, runs } of results.values()) {
    rows.push({
      measure: {
        single: `end to end: POST /orders/save over HTTP (server VERIFY_WORKERS=${firstRun.result.verifyWorkers})`,
        postgres: 'end to end, one process on PostgreSQL',
        cluster: `end to end, cluster: a gateway and ${CLUSTER_ENGINES} engines on PostgreSQL and NATS`,
      }[mode],
      batch: String(batch),
      inFlight: String(options.inFlight),
      orders: runs[0]?.orders ?? 0,
      ordersPerSecond: median(runs.map((run) => run.ordersPerSecond)),
      p50: median(runs.map((run) => run.p50)),
      p99: median(runs.map((run) => run.p99)),
      part: false,
    });
  }
  for (const floor of floors) {
    const pooled = floor.name.includes('pool');
    rows.push({
      measure: floor.name,
      batch: pooled ? String(MAX_BATCH) : '-',
      inFlight: pooled ? String(options.inFlight) : '-',
      orders: floor.orders,
      ordersPerSecond: floor.orders / floor.seconds,
      p50: undefined,
      p99: undefined,
      part: floor.name.startsWith('  of which'),
    });
  }

  console.log('');
  const singleRate = single.orders / single.seconds;
  const poolRate = pool === undefined ? undefined : pool.orders / pool.seconds;
  printRows(rows, singleRate, poolRate);
  console.log('');
  const target = rows.find((row) => row.batch === String(TARGETS.batch) && row.measure.startsWith('end to end'));
  if (target !== undefined) {
    const ratio = target.ordersPerSecond / singleRate;
    const twoWorkers = floorOf('floor: parse + hash, verify on a pool of 2 workers');
    const twoWorkerRatio =
      twoWorkers === undefined ? undefined : target.ordersPerSecond / (twoWorkers.orders / twoWorkers.seconds);
    console.log(
      `targets (issue, informational): batch ${TARGETS.batch} >= ${whole.format(TARGETS.ordersPerSecond)} orders/s end to end: ` +
        `${whole.format(target.ordersPerSecond)} ${verdict(target.ordersPerSecond >= TARGETS.ordersPerSecond)} | ` +
        `>= ${TARGETS.floorRatio} of the single-thread floor: ${ratio.toFixed(2)} ${verdict(ratio >= TARGETS.floorRatio)} | ` +
        `>= ${TARGETS.nearFloorRatio} of it (issue 41): ${verdict(ratio >= TARGETS.nearFloorRatio)}` +
        (twoWorkerRatio === undefined
          ? ''
          : ` | >= ${TARGETS.twoWorkerRatio} of the 2-worker floor: ${twoWorkerRatio.toFixed(2)} ${verdict(twoWorkerRatio >= TARGETS.twoWorkerRatio)}`),
    );
  }
  console.log(
    'ratio = end-to-end orders/s over a floor; the target ratio is the one over the single-thread floor. The pool column uses ' +
      `the pool of ${options.verifyWorkers} worker(s), the server's setting${pool === undefined ? ' (none: it verifies in process)' : ''}; ` +
      `pools measured: ${poolSizes.join(', ')} worker(s), with parsing and hashing on the main thread as in the server.`,
  );
  console.log(
    `latency: per POST /orders/save request, which is also each of its orders' latency; ` +
      `floors run in this process after the servers stopped, on ${whole.format(single.orders)} of the signed orders.`,
  );
  printClusterRatios(results);
  for (const { mode, batch, runs } of results.values()) {
    for (const run of runs) {
      console.log(
        `${mode === 'single' ? '' : `${mode} `}batch ${batch}: ${whole.format(run.orders)} orders accepted in ${run.requests} requests over ${run.seconds.toFixed(2)} s ` +
          `(max ${millis.format(run.max)} ms; setup ${run.setupSeconds.toFixed(1)} s; ${run.liquidityWaits} waits for resting liquidity); ` +
          `checks: ${run.failures.length === 0 ? 'all answers 200; order counts, statuses, depth, trades and volume match' : 'FAIL'}`,
      );
      console.log(`  ${cpuText(run.cpu, run.seconds, run.orders)}`);
    }
  }
  for (const failure of failures) console.log(`FAIL ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

/** Each batch size's PostgreSQL and cluster figures against the one process on SQLite measured in the same run. */
function printClusterRatios(results: ReadonlyMap<string, { mode: Mode; batch: number; runs: RunResult[] }>): void {
  for (const { mode, batch, runs } of results.values()) {
    const single = results.get(`single ${batch}`);
    if (mode === 'single' || single === undefined) continue;
    const rate = median(runs.map((run) => run.ordersPerSecond));
    const baseline = median(single.runs.map((run) => run.ordersPerSecond));
    console.log(
      `${mode === 'cluster' ? 'cluster' : 'one process on PostgreSQL'} vs one process on SQLite, batch ${batch}: ` +
        `${whole.format(rate)} vs ${whole.format(baseline)} orders/s, ratio ${(rate / baseline).toFixed(2)} (all on this machine's ${cpus().length} cores)`,
    );
  }
}

runBenchmark('bench:orders', main);
