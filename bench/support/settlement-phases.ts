/** The phases of bench:settlement: resting orders seeded, crossing orders saved at once, the backlog timed as it drains. */
import type { SqlDatabase } from '../../packages/server/src/adapters/sqlite/driver.js';
import { MAX_OPEN_ORDERS_PER_ACCOUNT } from '../../packages/server/src/application/desk/trading-desk.js';
import type { Account } from './accounts.js';
import { cpuMark, cpuUse } from './cpu.js';
import type { Market } from './market.js';
import { whole } from './report.js';
import { type Phase, perTransactionText } from './settlement-figures.js';
import { type Batch, type BookPrices, plan, saveAll, signBatches, type TraderPicker } from './settlement-orders.js';
import type { Server } from './settlement-server.js';
import { lastTradeId, latencies, progress, settledAll, transactions } from './settlement-store.js';

/** Resting orders per request, split between the key kinds as the crossing flow is. */
const MAKER_UNIT = 50;

/**
 * Builds and signs the orders of resting `makers` and crossing `takers`, and rests the resting
 * ones: the crossing units are left to send.
 */
export async function prepare(
  server: Server,
  market: Market,
  makers: readonly Batch[],
  takers: Batch[][],
  problems: string[],
): Promise<Batch[][]> {
  const resting = new Map<Account, number>();
  for (const batch of makers) resting.set(batch.trader, (resting.get(batch.trader) ?? 0) + batch.size);
  for (const [trader, orders] of resting) {
    if (orders > MAX_OPEN_ORDERS_PER_ACCOUNT) {
      throw new Error(`${trader.id} would rest ${orders} orders, over the cap of ${MAX_OPEN_ORDERS_PER_ACCOUNT}: add --accounts`);
    }
  }
  const all = [...makers, ...takers.flat()];
  process.stderr.write(`  building and signing ${whole.format(all.reduce((sum, batch) => sum + batch.size, 0))} orders\n`);
  await signBatches(server.client, market, all);
  process.stderr.write(`  resting ${whole.format(makers.reduce((sum, batch) => sum + batch.size, 0))} orders\n`);
  await saveAll(server.client, makers, problems);
  return takers;
}

/** Resting orders for `fills` fills at `prices` (each fills FILLS_PER_MAKER times), in units of MAKER_UNIT. */
export function makersFor(picker: TraderPicker, fills: number, prices: BookPrices): Batch[] {
  return plan(picker, fills, MAKER_UNIT, false, prices).flat();
}

export type Pids = { server: number | undefined; anvil: number | undefined };

/** A throughput phase: saves crossing orders at once and waits until every trade is settled; the phase's figures. */
export async function burst(
  server: Server,
  db: SqlDatabase,
  pids: Pids,
  name: string,
  batches: readonly Batch[],
  deadline: number,
  problems: string[],
) {
  const firstTrade = lastTradeId(db) + 1;
  const orders = batches.reduce((sum, batch) => sum + batch.size, 0);
  const before = cpuMark(pids);
  const started = performance.now();
  await saveAll(server.client, batches, problems);
  const intakeRate = (orders * 1000) / (performance.now() - started);
  const saved = cpuMark(pids);
  // Every crossing order filled as its save answered: its trades are stored.
  await settledAll(db, progress(db).trades, deadline);
  const settled = cpuMark(pids);
  const last = lastTradeId(db);
  const txs = transactions(db, firstTrade, last);
  const phase: Phase = {
    name,
    fills: last - firstTrade + 1,
    txs,
    latencies: latencies(db, firstTrade, last),
    cpu: cpuUse(before, settled),
    intakeRate,
  };
  const drainTxs = txs.filter((tx) => tx.settledAt > saved.at).length;
  return { phase, firstTrade, last, drainText: perTransactionText(cpuUse(saved, settled), drainTxs) };
}

export type Burst = Awaited<ReturnType<typeof burst>>;
