/**
 * Matching benchmark: this repository's MatchingEngine against the npm package nodejs-order-book,
 * on the shared deterministic workloads, in the same process and run.
 *
 *   npm run bench:matching -- [--ops 1000000] [--runs 3] [--baseline-ops 200000] [--warmup-ops 100000]
 *
 * Each run is a throughput pass (one clock read around the whole workload) and a separate latency
 * pass (one clock read around each operation); every figure printed is the median over the runs.
 */
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { type EngineEvent, MatchingEngine } from '@dex/core';
import { Side as BaselineSide, type IProcessOrder, OrderBook } from 'nodejs-order-book';
import { applyRecord, generateWorkload, RECORD_WORDS, sharedDir, type Workload, type WorkloadSummary } from './workload.js';

/**
 * The AMM workload: the same records on a book with a constant-product pool a million size steps
 * deep (one tick of one size step = 1 quote unit), where every odd-numbered order opts in to
 * routing. Every 1,000 operations the pool is set 0.5 % above or below the workload's mid of
 * 10,000 ticks, as swaps on the chain would move it, so routing keeps finding work beyond the fee.
 */
const POOL_GRID = { sizeStepRaw: 10_000_000n, stepValue: { num: 1n, den: 1n } };
const POOL_BASE = 10_000_000_000_000n;
const POOL_DRIFT_EVERY = 1_000;
const poolAt = (mid: bigint) => ({ base: POOL_BASE, quote: (POOL_BASE * mid) / POOL_GRID.sizeStepRaw });
const DRIFTED_POOLS = [poolAt(9_950n), poolAt(10_050n)] as const;

const KINDS = ['steady', 'deep'] as const;
type Kind = (typeof KINDS)[number];

const LIMIT = 0;
const OURS = '@dex/core';
const OURS_AMM = '@dex/core + pool';
const BASELINE = 'nodejs-order-book';

/** Informational goals for our engine; misses are reported, never fatal. */
const TARGETS = { steady: 1_500_000, deep: 1_000_000, p99Micros: 5, ammShare: 0.5 } as const;

interface BenchOptions {
  readonly ops: number;
  readonly runs: number;
  /** Operations given to the baseline, a prefix of the same workload: it is ~50x slower. 0 skips it. */
  readonly baselineOps: number;
  readonly warmupOps: number;
}

/** What one pass produced; counting every result keeps the engines' output live. */
interface Tally {
  fills: number;
  /** Swaps with the pool (AMM workload only). */
  swaps: number;
  filledQuantity: number;
  depthEvents: number;
  orderEvents: number;
  cancelled: number;
}

interface Pass {
  readonly seconds: number;
  readonly tally: Tally;
  readonly resting: number;
}

interface Contender {
  readonly name: string;
  throughput(records: Int32Array, count: number): Pass;
  latency(records: Int32Array, count: number, samples: Float64Array): Pass;
}

interface Row {
  readonly kind: Kind;
  readonly engine: string;
  readonly ops: number;
  readonly opsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly last: Pass;
  readonly expected: WorkloadSummary;
}

function emptyTally(): Tally {
  return { fills: 0, swaps: 0, filledQuantity: 0, depthEvents: 0, orderEvents: 0, cancelled: 0 };
}

function readOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      ops: { type: 'string' },
      runs: { type: 'string' },
      'baseline-ops': { type: 'string' },
      'warmup-ops': { type: 'string' },
    },
    strict: true,
  });
  const ops = readCount('--ops', values.ops, 1_000_000, 1);
  return {
    ops,
    runs: readCount('--runs', values.runs, 3, 1),
    baselineOps: Math.min(ops, readCount('--baseline-ops', values['baseline-ops'], 200_000, 0)),
    warmupOps: Math.min(ops, readCount('--warmup-ops', values['warmup-ops'], 100_000, 0)),
  };
}

function readCount(flag: string, text: string | undefined, fallback: number, minimum: number): number {
  if (text === undefined) return fallback;
  const value = Number(text.replaceAll('_', ''));
  if (!Number.isSafeInteger(value) || value < minimum) throw new Error(`${flag} must be an integer >= ${minimum}, got ${text}`);
  return value;
}

// ---- our engine -------------------------------------------------------------------------------

/** A sink that looks at every event, as a real consumer would, so none can be optimised away. */
function countingSink(tally: Tally): (event: EngineEvent) => void {
  return (event) => {
    switch (event.type) {
      case 'fill':
        tally.fills++;
        tally.filledQuantity += event.quantity;
        break;
      case 'pool-fill':
        tally.swaps++;
        tally.filledQuantity += event.quantity;
        break;
      case 'depth':
        tally.depthEvents++;
        break;
      case 'order':
        tally.orderEvents++;
        break;
    }
  };
}

// Each engine has its own loops so that neither call site carries the other engine's type feedback.
const ours: Contender = {
  name: OURS,
  throughput(records, count) {
    const tally = emptyTally();
    const engine = new MatchingEngine(countingSink(tally));
    const start = process.hrtime.bigint();
    for (let index = 0; index < count; index++) applyRecord(engine, records, index);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { seconds, tally, resting: engine.openOrderCount };
  },
  latency(records, count, samples) {
    const tally = emptyTally();
    const engine = new MatchingEngine(countingSink(tally));
    const start = process.hrtime.bigint();
    for (let index = 0; index < count; index++) {
      const before = performance.now();
      applyRecord(engine, records, index);
      samples[index] = performance.now() - before;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { seconds, tally, resting: engine.openOrderCount };
  },
};

function applyRoutedRecord(engine: MatchingEngine, records: Int32Array, index: number): void {
  if (index % POOL_DRIFT_EVERY === 0) engine.setPool(DRIFTED_POOLS[(index / POOL_DRIFT_EVERY) & 1 ? 1 : 0]);
  applyRecord(engine, records, index, true);
}

function routedEngine(tally: Tally): MatchingEngine {
  return new MatchingEngine(countingSink(tally), { poolGrid: POOL_GRID, pool: DRIFTED_POOLS[0] });
}

const oursWithPool: Contender = {
  name: OURS_AMM,
  throughput(records, count) {
    const tally = emptyTally();
    const engine = routedEngine(tally);
    const start = process.hrtime.bigint();
    for (let index = 0; index < count; index++) applyRoutedRecord(engine, records, index);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { seconds, tally, resting: engine.openOrderCount };
  },
  latency(records, count, samples) {
    const tally = emptyTally();
    const engine = routedEngine(tally);
    const start = process.hrtime.bigint();
    for (let index = 0; index < count; index++) {
      const before = performance.now();
      applyRoutedRecord(engine, records, index);
      samples[index] = performance.now() - before;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { seconds, tally, resting: engine.openOrderCount };
  },
};

// ---- nodejs-order-book --------------------------------------------------------------------------

/**
 * Fills of one limit order, from the package's reply: `done` lists the makers it used up, plus the
 * taker itself when nothing of it rests; `partial` is a maker left partly filled, or the resting taker.
 */
function baselineFills(reply: IProcessOrder): number {
  if (reply.quantityLeft > 0) return reply.done.length;
  const partlyFilledMaker = reply.partial !== null && reply.partialQuantityProcessed > 0 ? 1 : 0;
  return reply.done.length - 1 + partlyFilledMaker;
}

/** Its ids are strings and its sides are enum strings: converting them is part of a caller's cost. */
function applyBaseline(book: OrderBook, records: Int32Array, index: number, tally: Tally): void {
  const offset = index * RECORD_WORDS;
  const id = String(records[offset + 1]);
  if (records[offset] === LIMIT) {
    const size = records[offset + 4] as number;
    const reply = book.limit({
      id,
      side: records[offset + 2] === 0 ? BaselineSide.BUY : BaselineSide.SELL,
      size,
      price: records[offset + 3] as number,
    });
    tally.fills += baselineFills(reply);
    tally.filledQuantity += size - reply.quantityLeft;
  } else if (book.cancel(id) !== undefined) {
    tally.cancelled++;
  }
}

/** Its order map is private; a snapshot lists every resting order. Outside the timed loops. */
function baselineResting(book: OrderBook): number {
  const { bids, asks } = book.snapshot();
  let count = 0;
  for (const level of [...bids, ...asks]) count += level.orders.length;
  return count;
}

const baseline: Contender = {
  name: BASELINE,
  throughput(records, count) {
    const tally = emptyTally();
    const book = new OrderBook();
    const start = process.hrtime.bigint();
    for (let index = 0; index < count; index++) applyBaseline(book, records, index, tally);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { seconds, tally, resting: baselineResting(book) };
  },
  latency(records, count, samples) {
    const tally = emptyTally();
    const book = new OrderBook();
    const start = process.hrtime.bigint();
    for (let index = 0; index < count; index++) {
      const before = performance.now();
      applyBaseline(book, records, index, tally);
      samples[index] = performance.now() - before;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { seconds, tally, resting: baselineResting(book) };
  },
};

// ---- measuring ------------------------------------------------------------------------------------

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/** Nearest-rank percentiles in microseconds of samples taken in milliseconds. */
function percentilesMicros(samples: Float64Array, count: number): [p50: number, p99: number, p999: number] {
  const sorted = samples.slice(0, count).sort();
  const at = (q: number): number => (sorted[Math.max(0, Math.ceil(q * count) - 1)] ?? Number.NaN) * 1000;
  return [at(0.5), at(0.99), at(0.999)];
}

function countsMatch(pass: Pass, expected: WorkloadSummary): boolean {
  return pass.tally.fills === expected.fills && pass.resting === expected.finalResting;
}

/** Warms up on throwaway engines, then runs throughput and latency passes, collecting medians. */
function measure(
  contender: Contender,
  kind: Kind,
  records: Int32Array,
  count: number,
  options: BenchOptions,
  expected: WorkloadSummary,
  failures: string[],
): Row {
  const samples = new Float64Array(count);
  const warmup = Math.min(options.warmupOps, count);
  if (warmup > 0) {
    contender.throughput(records, warmup);
    contender.latency(records, warmup, samples);
  }
  const rates: number[] = [];
  const p50s: number[] = [];
  const p99s: number[] = [];
  const p999s: number[] = [];
  let last: Pass | undefined;
  for (let run = 1; run <= options.runs; run++) {
    process.stderr.write(`  ${kind} ${contender.name}: run ${run}/${options.runs}\n`);
    globalThis.gc?.();
    const timed = contender.throughput(records, count);
    rates.push(count / timed.seconds);
    globalThis.gc?.();
    const sampled = contender.latency(records, count, samples);
    const [p50, p99, p999] = percentilesMicros(samples, count);
    p50s.push(p50);
    p99s.push(p99);
    p999s.push(p999);
    // Only our engine is held to the generator's counts; the baseline's are shown for information.
    if (contender === ours) {
      for (const pass of [timed, sampled]) {
        if (!countsMatch(pass, expected)) failures.push(countLine(kind, contender.name, pass, expected));
      }
    }
    last = sampled;
  }
  if (last === undefined) throw new Error('runs must be at least 1');
  return {
    kind,
    engine: contender.name,
    ops: count,
    opsPerSecond: median(rates),
    p50: median(p50s),
    p99: median(p99s),
    p999: median(p999s),
    last,
    expected,
  };
}

/** The generator's counts for the baseline's prefix: rerun it for that length (cheap, deterministic). */
function prefixSummary(generator: string, kind: Kind, workload: Workload, count: number): WorkloadSummary {
  return count === workload.summary.ops ? workload.summary : generateWorkload(generator, kind, count).summary;
}

/** Smallest gap between two consecutive clock reads: the floor every latency sample includes. */
function clockGranularityMicros(): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (let index = 0; index < 10_000; index++) {
    const before = performance.now();
    const after = performance.now();
    if (after - before < smallest) smallest = after - before;
  }
  return smallest * 1000;
}

// ---- printing ---------------------------------------------------------------------------------------

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const micros = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function countLine(kind: Kind, engine: string, pass: Pass, expected: WorkloadSummary): string {
  return (
    `${kind} ${engine}: fills ${whole.format(pass.tally.fills)} (generator ${whole.format(expected.fills)}), ` +
    `resting ${whole.format(pass.resting)} (generator ${whole.format(expected.finalResting)})`
  );
}

function ratioText(row: Row, rows: readonly Row[]): string {
  const reference = rows.find((other) => other.kind === row.kind && other.engine === BASELINE);
  return reference === undefined ? '-' : `${(row.opsPerSecond / reference.opsPerSecond).toFixed(2)}x`;
}

function printTable(rows: readonly Row[]): void {
  const header = ['workload', 'engine', 'ops', 'ops/s', 'p50 us', 'p99 us', 'p99.9 us', 'vs baseline'];
  const body = rows.map((row) => [
    row.kind,
    row.engine,
    whole.format(row.ops),
    whole.format(row.opsPerSecond),
    micros.format(row.p50),
    micros.format(row.p99),
    micros.format(row.p999),
    ratioText(row, rows),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)));
  // Text columns align left, figures right.
  const line = (cells: readonly string[]): string =>
    cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const cells of body) console.log(line(cells));
}

function verdict(passed: boolean): string {
  return passed ? 'PASS' : 'MISS';
}

function printTargets(rows: readonly Row[]): void {
  const steady = rows.find((row) => row.kind === 'steady' && row.engine === OURS);
  const deep = rows.find((row) => row.kind === 'deep' && row.engine === OURS);
  if (steady === undefined || deep === undefined) return;
  const p99 = (row: Row): string => `${row.kind} ${micros.format(row.p99)} ${verdict(row.p99 < TARGETS.p99Micros)}`;
  console.log(
    `targets (${OURS}, informational): ` +
      `steady >= 1.5M ops/s: ${whole.format(steady.opsPerSecond)} ${verdict(steady.opsPerSecond >= TARGETS.steady)} | ` +
      `deep >= 1M ops/s: ${whole.format(deep.opsPerSecond)} ${verdict(deep.opsPerSecond >= TARGETS.deep)} | ` +
      `p99 < 5 us: ${p99(steady)}, ${p99(deep)}`,
  );
  const shares = KINDS.map((kind) => {
    const plain = rows.find((row) => row.kind === kind && row.engine === OURS);
    const routed = rows.find((row) => row.kind === kind && row.engine === OURS_AMM);
    if (plain === undefined || routed === undefined) return `${kind} -`;
    const share = routed.opsPerSecond / plain.opsPerSecond;
    return `${kind} ${share.toFixed(2)} ${verdict(share >= TARGETS.ammShare)}`;
  });
  console.log(`targets (AMM workload, half the orders routed): ops/s >= 0.5 of the book-only figure: ${shares.join(', ')}`);
}

function printNotes(rows: readonly Row[]): void {
  for (const row of rows) {
    const { tally } = row.last;
    if (row.engine === OURS) {
      console.log(
        `${row.kind} ${row.engine} events per run: fill ${whole.format(tally.fills)}, depth ${whole.format(tally.depthEvents)}, ` +
          `order ${whole.format(tally.orderEvents)}; filled ${whole.format(tally.filledQuantity)} lots`,
      );
    }
    if (row.engine === OURS_AMM) {
      // The pool trades where the book alone would not, so the generator's counts do not apply.
      console.log(
        `${row.kind} ${row.engine} per run: fills ${whole.format(tally.fills)}, pool swaps ${whole.format(tally.swaps)}, resting ${whole.format(row.last.resting)}`,
      );
      continue;
    }
    const verdictText = countsMatch(row.last, row.expected) ? 'match' : row.engine === OURS ? 'FAIL' : 'differ (informational)';
    console.log(`${countLine(row.kind, row.engine, row.last, row.expected)}: ${verdictText}`);
  }
}

function printHeader(options: BenchOptions): void {
  console.log(
    `node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), ${process.platform}/${process.arch}`,
  );
  console.log(
    `ops ${whole.format(options.ops)} (${OURS}), ${whole.format(options.baselineOps)} (${BASELINE}, first ops of the same workload), ` +
      `warm-up ${whole.format(options.warmupOps)}, median of ${options.runs} run(s)`,
  );
  console.log(
    `latency clock: performance.now() around each operation, nothing subtracted ` +
      `(smallest gap between two reads: ${micros.format(clockGranularityMicros())} us)`,
  );
  if (globalThis.gc === undefined) console.log('note: run with --expose-gc to collect garbage between runs');
}

// ---- main -------------------------------------------------------------------------------------------

function main(): number {
  const options = readOptions(process.argv.slice(2));
  const shared = sharedDir();
  if (shared === undefined) {
    console.log('bench:matching skipped: the shared folder (../shared or $SHARED_DIR) with the workload generator is absent.');
    return 0;
  }
  const generator = join(shared, 'bench/matching-workload.cjs');
  printHeader(options);

  const rows: Row[] = [];
  const failures: string[] = [];
  for (const kind of KINDS) {
    process.stderr.write(`generating ${kind} workload (${whole.format(options.ops)} ops)\n`);
    const workload = generateWorkload(generator, kind, options.ops);
    rows.push(measure(ours, kind, workload.records, options.ops, options, workload.summary, failures));
    rows.push(measure(oursWithPool, kind, workload.records, options.ops, options, workload.summary, failures));
    if (options.baselineOps > 0) {
      const expected = prefixSummary(generator, kind, workload, options.baselineOps);
      rows.push(measure(baseline, kind, workload.records, options.baselineOps, options, expected, failures));
    }
  }

  console.log('');
  printTable(rows);
  console.log('');
  printTargets(rows);
  console.log(`ratio = ops/s over the baseline's ops/s; the baseline runs a shorter prefix, so its book is shallower.`);
  printNotes(rows);
  for (const failure of failures) console.log(`FAIL ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (error: unknown) {
  console.error(`bench:matching: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
