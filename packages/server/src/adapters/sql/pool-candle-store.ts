import { foldPoolChange, type PoolCandle, poolCandleStart } from '../../domain/amm/pool-candle.js';
import type { PoolChange } from '../../domain/amm/pool-ledger.js';
import type { PoolCandleStore } from '../../ports/store/amm-ports.js';
import { type SqlClient, type SqlExecutor, sql } from './sql-client.js';

interface PoolCandleRow {
  pool_id: number;
  start_ms: number;
  open_a: string;
  open_b: string;
  high_a: string;
  high_b: string;
  low_a: string;
  low_b: string;
  close_a: string;
  close_b: string;
  lp_supply: string;
  a_in: string;
  b_in: string;
  a_out: string;
  b_out: string;
  swaps: number;
}

function toPoolCandle(row: PoolCandleRow): PoolCandle {
  return {
    poolId: Number(row.pool_id),
    startMs: Number(row.start_ms),
    open: { a: BigInt(row.open_a), b: BigInt(row.open_b) },
    high: { a: BigInt(row.high_a), b: BigInt(row.high_b) },
    low: { a: BigInt(row.low_a), b: BigInt(row.low_b) },
    close: { a: BigInt(row.close_a), b: BigInt(row.close_b) },
    lpSupply: BigInt(row.lp_supply),
    aIn: BigInt(row.a_in),
    bIn: BigInt(row.b_in),
    aOut: BigInt(row.a_out),
    bOut: BigInt(row.b_out),
    swaps: Number(row.swaps),
  };
}

function rowOf(candle: PoolCandle): Record<string, string | number> {
  return {
    poolId: candle.poolId,
    startMs: candle.startMs,
    openA: candle.open.a.toString(),
    openB: candle.open.b.toString(),
    highA: candle.high.a.toString(),
    highB: candle.high.b.toString(),
    lowA: candle.low.a.toString(),
    lowB: candle.low.b.toString(),
    closeA: candle.close.a.toString(),
    closeB: candle.close.b.toString(),
    lpSupply: candle.lpSupply.toString(),
    aIn: candle.aIn.toString(),
    bIn: candle.bIn.toString(),
    aOut: candle.aOut.toString(),
    bOut: candle.bOut.toString(),
    swaps: candle.swaps,
  };
}

const statements = {
  range: sql<PoolCandleRow>(
    'SELECT * FROM pool_candles_5m WHERE pool_id = ? AND start_ms >= ? AND start_ms < ? ORDER BY start_ms',
  ),
  lastBefore: sql<PoolCandleRow>(
    'SELECT * FROM pool_candles_5m WHERE pool_id = ? AND start_ms < ? ORDER BY start_ms DESC LIMIT 1',
  ),
  lastWithSwaps: sql<PoolCandleRow>(
    'SELECT * FROM pool_candles_5m WHERE pool_id = ? AND swaps > 0 ORDER BY start_ms DESC LIMIT 1',
  ),
  get: sql<PoolCandleRow>('SELECT * FROM pool_candles_5m WHERE pool_id = ? AND start_ms = ?'),
  put: sql(
    `INSERT INTO pool_candles_5m (pool_id, start_ms, open_a, open_b, high_a, high_b, low_a, low_b, close_a, close_b,
         lp_supply, a_in, b_in, a_out, b_out, swaps)
       VALUES (@poolId, @startMs, @openA, @openB, @highA, @highB, @lowA, @lowB, @closeA, @closeB, @lpSupply, @aIn, @bIn,
         @aOut, @bOut, @swaps)
       ON CONFLICT (pool_id, start_ms) DO UPDATE SET open_a = excluded.open_a, open_b = excluded.open_b,
         high_a = excluded.high_a, high_b = excluded.high_b, low_a = excluded.low_a, low_b = excluded.low_b,
         close_a = excluded.close_a, close_b = excluded.close_b, lp_supply = excluded.lp_supply, a_in = excluded.a_in,
         b_in = excluded.b_in, a_out = excluded.a_out, b_out = excluded.b_out, swaps = excluded.swaps`,
  ),
  dropFrom: sql('DELETE FROM pool_candles_5m WHERE pool_id = ? AND start_ms >= ?'),
};

/** Writes pool changes into their 5-minute candles; call inside a transaction. */
export const poolCandleWriter = {
  /** Folds changes (in chain order) into their candles: one read and one write per candle touched. */
  async fold(tx: SqlExecutor, changes: readonly PoolChange[]): Promise<void> {
    const keys = new Map<string, { poolId: number; startMs: number }>();
    for (const change of changes) {
      const startMs = poolCandleStart(change.atMs);
      keys.set(`${change.poolId}:${startMs}`, { poolId: change.poolId, startMs });
    }
    const rows = await Promise.all([...keys.values()].map(({ poolId, startMs }) => tx.get(statements.get, poolId, startMs)));
    const stored = new Map([...keys.keys()].map((key, index) => [key, rows[index]] as const));
    const touched = new Map<string, PoolCandle>();
    for (const change of changes) {
      const key = `${change.poolId}:${poolCandleStart(change.atMs)}`;
      const row = stored.get(key);
      const current = touched.get(key) ?? (row === undefined ? undefined : toPoolCandle(row));
      touched.set(key, foldPoolChange(current, change));
    }
    await Promise.all([...touched.values()].map((candle) => tx.run(statements.put, rowOf(candle))));
  },
  /** Drops a pool's candles from `startMs` on (to fold them again from the events that remain). */
  async dropFrom(tx: SqlExecutor, poolId: number, startMs: number): Promise<void> {
    await tx.run(statements.dropFrom, poolId, startMs);
  },
};

/** Reads `pool_candles_5m`, which the AMM store keeps in step with the pools' events. */
export function sqlPoolCandleStore(db: SqlClient): PoolCandleStore {
  return {
    async range(poolId, fromMs, toMs) {
      return (await db.all(statements.range, poolId, fromMs, toMs)).map(toPoolCandle);
    },
    async lastBefore(poolId, atMs) {
      const row = await db.get(statements.lastBefore, poolId, atMs);
      return row === undefined ? undefined : toPoolCandle(row);
    },
    async lastWithSwaps(poolId) {
      const row = await db.get(statements.lastWithSwaps, poolId);
      return row === undefined ? undefined : toPoolCandle(row);
    },
  };
}
