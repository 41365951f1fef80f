/** What bench:settlement reads of the server's SQLite store, while it waits and after the run. */
import type { Hash } from 'viem';
import type { SqlDatabase } from '../../packages/server/src/adapters/sqlite/driver.js';

const POLL_MS = 50;
const STALL_MS = 30_000;

export interface Progress {
  readonly trades: number;
  readonly settled: number;
  readonly failed: number;
  readonly open: number;
}

export function progress(db: SqlDatabase): Progress {
  const rows = db.prepare<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM settlements GROUP BY status').all();
  const of = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
  const trades = db.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM trades').get()?.n ?? 0;
  return { trades, settled: of('settled'), failed: of('failed'), open: of('pending') + of('submitted') };
}

/** Waits until every trade is settled or failed; gives up at the deadline or when nothing moved for STALL_MS. */
export async function settledAll(db: SqlDatabase, trades: number, deadline: number): Promise<void> {
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

export interface SettlementTx {
  readonly hash: Hash;
  readonly fills: number;
  /** When the service applied the transaction's events (server clock, ms). */
  readonly settledAt: number;
}

/** The settlement transactions of trades `from`..`to` (ids), in the order they were applied. */
export function transactions(db: SqlDatabase, from: number, to: number): SettlementTx[] {
  return db
    .prepare<{ hash: Hash; fills: number; settled_at: number }>(
      `SELECT tx_hash AS hash, COUNT(*) AS fills, MAX(updated_at) AS settled_at FROM settlements
       WHERE status = 'settled' AND trade_id BETWEEN ? AND ? GROUP BY tx_hash ORDER BY settled_at, MIN(trade_id)`,
    )
    .all(from, to)
    .map((row) => ({ hash: row.hash, fills: row.fills, settledAt: row.settled_at }));
}

/** Match-to-settled times (ms) of trades `from`..`to`, sorted. */
export function latencies(db: SqlDatabase, from: number, to: number): number[] {
  return db
    .prepare<{ ms: number }>(
      `SELECT s.updated_at - t.executed_at AS ms FROM settlements s JOIN trades t ON t.id = s.trade_id
       WHERE s.status = 'settled' AND t.id BETWEEN ? AND ? ORDER BY ms`,
    )
    .all(from, to)
    .map((row) => row.ms);
}

export function lastTradeId(db: SqlDatabase): number {
  return db.prepare<{ id: number | null }>('SELECT MAX(id) AS id FROM trades').get()?.id ?? 0;
}

/** Settled trades `from`..`to`: with the pool (no maker order) and on the book, and the base they moved, in raw units. */
export function tradeMix(db: SqlDatabase, from: number, to: number) {
  const rows = db
    .prepare<{ pool: number; n: number; base: string }>(
      `SELECT t.maker_order_id IS NULL AS pool, COUNT(*) AS n, SUM(CAST(t.base_amount AS INTEGER)) AS base
       FROM trades t JOIN settlements s ON s.trade_id = t.id AND s.status = 'settled'
       WHERE t.id BETWEEN ? AND ? GROUP BY pool`,
    )
    .all(from, to);
  const of = (pool: number) => rows.find((row) => row.pool === pool);
  return {
    poolTrades: of(1)?.n ?? 0,
    bookTrades: of(0)?.n ?? 0,
    poolBase: BigInt(of(1)?.base ?? 0),
    bookBase: BigInt(of(0)?.base ?? 0),
  };
}

/** The crossing orders of trades `from`..`to` that opted in to the pool (use_amm): how they split their size. */
export function optedInTakers(db: SqlDatabase, from: number, to: number) {
  const row = db
    .prepare<{ orders: number; split: number | null; poolOnly: number | null; bookOnly: number | null }>(
      `SELECT COUNT(*) AS orders, SUM(pool > 0 AND book > 0) AS split, SUM(book = 0) AS poolOnly, SUM(pool = 0) AS bookOnly
       FROM (SELECT t.taker_order_id, SUM(t.maker_order_id IS NULL) AS pool, SUM(t.maker_order_id IS NOT NULL) AS book
             FROM trades t JOIN orders o ON o.id = t.taker_order_id
             WHERE t.id BETWEEN ? AND ? AND o.use_amm = 1 GROUP BY t.taker_order_id)`,
    )
    .get(from, to);
  return { orders: row?.orders ?? 0, split: row?.split ?? 0, poolOnly: row?.poolOnly ?? 0, bookOnly: row?.bookOnly ?? 0 };
}

/** Fills in which an Ed25519 account's order is the maker's, the taker's, either; and orders signed by each kind (book fills). */
export function keyMix(db: SqlDatabase) {
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
