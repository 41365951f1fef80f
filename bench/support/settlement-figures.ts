/** The figures bench:settlement prints: per phase, CPU use, and book-only fills beside fills with pool legs. */
import { cpus } from 'node:os';
import type { Hash } from 'viem';
import type { SqlDatabase } from '../../packages/server/src/adapters/sqlite/driver.js';
import type { CpuUse } from './cpu.js';
import { printTable, tenths, whole } from './report.js';
import { type GasShares, gasShares, type TxCost } from './settlement-chain.js';
import { AMM_POOL, BOOK_PRICES, POOL_BOOK_PRICES, price } from './settlement-orders.js';
import { optedInTakers, type SettlementTx, tradeMix } from './settlement-store.js';

export type Processes = 'server' | 'anvil';

/** CPU of the server, anvil, this client and everything else, in cores over the wall time. */
export function coresText(use: CpuUse<Processes>): string {
  const cores = (value: number | undefined) => (value === undefined ? 'n/a' : (value / use.wall).toFixed(2));
  const { server, anvil } = use.processes;
  return `server ${cores(server)}, anvil ${cores(anvil)}, client ${cores(use.client)}, other processes ${cores(use.others)} (of ${cpus().length} cores)`;
}

/** Wall and CPU milliseconds per settlement transaction while only settlement ran. */
export function perTransactionText(use: CpuUse<Processes>, transactions: number): string {
  const each = (seconds: number | undefined) => (seconds === undefined ? 'n/a' : whole.format((seconds * 1000) / transactions));
  const { server, anvil } = use.processes;
  return (
    `after the last order was saved, per settlement transaction (${transactions}): wall ${each(use.wall)} ms, ` +
    `server CPU ${each(server)} ms, anvil CPU ${each(anvil)} ms, other processes ${each(use.others)} ms`
  );
}

export interface Phase {
  readonly name: string;
  readonly fills: number;
  readonly txs: SettlementTx[];
  readonly latencies: number[];
  readonly cpu: CpuUse<Processes>;
  /** Orders saved per second while the phase sent them. */
  readonly intakeRate: number;
}

/** Settled fills/s from the phase's first settlement transaction to its last (the first one's fills not counted). */
export function drainRate(txs: readonly SettlementTx[]): number {
  const first = txs[0];
  const last = txs[txs.length - 1];
  if (first === undefined || last === undefined || last.settledAt === first.settledAt) return Number.NaN;
  const fills = txs.slice(1).reduce((sum, tx) => sum + tx.fills, 0);
  return (fills * 1000) / (last.settledAt - first.settledAt);
}

/** A phase's transactions as the chain counted them. */
function phaseCosts(phase: Phase, costs: ReadonlyMap<Hash, TxCost>): TxCost[] {
  return phase.txs.flatMap((tx) => {
    const cost = costs.get(tx.hash);
    return cost === undefined ? [] : [cost];
  });
}

export function phaseDetails(phase: Phase, costs: ReadonlyMap<Hash, TxCost>, batchFills: number): string[] {
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

interface Totals {
  readonly fills: number;
  readonly poolFills: number;
  readonly gas: number;
  readonly txs: number;
  readonly newEd25519: number;
}

function totals(list: readonly TxCost[]): Totals {
  return list.reduce(
    (sum, cost) => ({
      fills: sum.fills + cost.bookFills + cost.poolFills,
      poolFills: sum.poolFills + cost.poolFills,
      gas: sum.gas + Number(cost.gas),
      txs: sum.txs + 1,
      newEd25519: sum.newEd25519 + cost.newEd25519,
    }),
    { fills: 0, poolFills: 0, gas: 0, txs: 0, newEd25519: 0 },
  );
}

/**
 * The book-only throughput phase beside the one with pool legs: settled fills/s and gas per fill
 * (ratios against the book-only phase, the baseline), then the gas shared among book fills, pool
 * fills and first-checked Ed25519 signatures over both phases' transactions.
 */
export function printPoolComparison(
  book: Phase,
  pooled: Phase,
  costs: ReadonlyMap<Hash, TxCost>,
  share: number,
): GasShares | undefined {
  const base = totals(phaseCosts(book, costs));
  const mixed = totals(phaseCosts(pooled, costs));
  const rate = { base: drainRate(book.txs), mixed: drainRate(pooled.txs) };
  const ratio = (value: number, of: number) => `${(value / of).toFixed(2)}x`;
  const row = (name: string, t: Totals, fillsPerSecond: number) => [
    name,
    whole.format(t.fills),
    t.fills === 0 ? 'n/a' : `${((100 * t.poolFills) / t.fills).toFixed(1)}%`,
    whole.format(fillsPerSecond),
    ratio(fillsPerSecond, rate.base),
    whole.format(t.gas / t.fills),
    ratio(t.gas / t.fills, base.gas / base.fills),
    tenths.format(t.fills / t.txs),
    tenths.format((1000 * t.newEd25519) / t.fills),
  ];
  console.log('');
  printTable(
    [
      'backlog draining (full batches)',
      'fills',
      'pool fills',
      'fills/s',
      'ratio',
      'gas/fill',
      'ratio',
      'fills/tx',
      'Ed25519 checks/1k fills',
    ],
    [
      row('book only (baseline)', base, rate.base),
      row(`${Math.round(share * 100)}% of takers opted in to the pool`, mixed, rate.mixed),
    ],
  );
  const shares = gasShares([...phaseCosts(book, costs), ...phaseCosts(pooled, costs)]);
  console.log(
    shares === undefined
      ? 'gas shares: the transactions do not tell book fills, pool fills and signature checks apart'
      : `gas shared by least squares over the ${shares.transactions} transactions of both phases: ` +
          `${whole.format(shares.bookFill)} per book fill, ${whole.format(shares.poolFill)} per pool fill, ` +
          `${whole.format(shares.ed25519Order)} per Ed25519 signature checked for the first time ` +
          `(the per-transaction cost and first writes of an order's filled amount are spread over its fills)`,
  );
  return shares;
}

/**
 * What the phase with pool legs traded, read from the store: pool fills (trades without a maker
 * order) and how the opted-in orders split their size; checks that its trades moved `wantedBase`
 * in all and that some went to the pool.
 */
export function poolPhaseLines(
  db: SqlDatabase,
  phase: { readonly firstTrade: number; readonly last: number },
  wantedBase: bigint,
  poolMoved: number,
  problems: string[],
): string[] {
  const trades = tradeMix(db, phase.firstTrade, phase.last);
  const opted = optedInTakers(db, phase.firstTrade, phase.last);
  const allBase = trades.poolBase + trades.bookBase;
  const all = trades.poolTrades + trades.bookTrades;
  if (allBase !== wantedBase)
    problems.push(`the pool phase's settled trades moved ${allBase} base units, its orders ${wantedBase}`);
  if (trades.poolTrades === 0) problems.push('no crossing order traded with the pool: nothing was routed');
  const pct = (part: number | bigint, of: number | bigint) => `${((100 * Number(part)) / Number(of)).toFixed(1)}%`;
  return [
    `  pool fills (trades with maker_order_id NULL): ${whole.format(trades.poolTrades)} of ${whole.format(all)} ` +
      `(${pct(trades.poolTrades, all)}), ${pct(trades.poolBase, allBase)} of the base traded; ` +
      `of ${whole.format(opted.orders)} opted-in orders ${whole.format(opted.split)} took part of their size from the pool, ` +
      `${whole.format(opted.poolOnly)} all of it, ${whole.format(opted.bookOnly)} none; refused swaps (PoolMoved): ${poolMoved}`,
    `  book at ${price(POOL_BOOK_PRICES.bidTicks)} / ${price(POOL_BOOK_PRICES.askTicks)} (the book-only phases: ` +
      `${price(BOOK_PRICES.bidTicks)} / ${price(BOOK_PRICES.askTicks)}), pool ${AMM_POOL.base} + ${AMM_POOL.quote} at 1.0 (0.3 % fee); ` +
      'opted-in orders come from 2 traders who alternate buying and selling and rest nothing',
  ];
}
