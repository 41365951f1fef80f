import type { KnownPair } from '../../domain/amm/amm-batch.js';
import { poolCandleStart } from '../../domain/amm/pool-candle.js';
import { NEW_POOL, type PoolChange, type PoolState } from '../../domain/amm/pool-ledger.js';
import { NO_STAKING } from '../../domain/amm/staking-ledger.js';
import type { AmmBatch, AmmStore } from '../../ports/store/amm-ports.js';
import { farmLedger } from './amm-farm-ledger.js';
import { poolCandleWriter } from './pool-candle-store.js';
import { type SqlClient, type SqlExecutor, sql } from './sql-client.js';

interface PoolEventRow {
  block_number: number;
  log_index: number;
  pool_id: number;
  at_ms: number;
  kind: PoolChange['kind'];
  reserve_a: string;
  reserve_b: string;
  lp_supply: string;
  a_in: string | null;
  b_in: string | null;
  a_out: string | null;
  b_out: string | null;
}

const stateOf = (row: Pick<PoolEventRow, 'reserve_a' | 'reserve_b' | 'lp_supply'>): PoolState => ({
  reserveA: BigInt(row.reserve_a),
  reserveB: BigInt(row.reserve_b),
  lpSupply: BigInt(row.lp_supply),
});

function changeOf(row: PoolEventRow, before: PoolState): PoolChange {
  const swap =
    row.kind === 'SWAP'
      ? { aIn: BigInt(row.a_in ?? 0), bIn: BigInt(row.b_in ?? 0), aOut: BigInt(row.a_out ?? 0), bOut: BigInt(row.b_out ?? 0) }
      : null;
  return {
    poolId: Number(row.pool_id),
    block: BigInt(row.block_number),
    logIndex: Number(row.log_index),
    atMs: Number(row.at_ms),
    kind: row.kind,
    before,
    after: stateOf(row),
    swap,
  };
}

const statements = {
  cursor: sql<{ block_number: number }>('SELECT block_number FROM chain_cursors WHERE name = ?'),
  setCursor: sql(
    `INSERT INTO chain_cursors (name, block_number) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET block_number = excluded.block_number`,
  ),
  pairs: sql<{
    id: number;
    address: string;
    token_reserve_a: string;
    token_reserve_b: string;
    lp_token_reserve: string;
  }>('SELECT id, address, token_reserve_a, token_reserve_b, lp_token_reserve FROM pools WHERE address IS NOT NULL'),
  insertPool: sql(
    `INSERT INTO pools (id, contract_id, lp_token_id, lp_token_name, lp_token_symbol, lp_token_decimals, token_a_id,
         token_b_id, lp_token_reserve, token_reserve_a, token_reserve_b, address, created_block, updated_at)
       VALUES (@poolId, @contractId, @lpTokenId, @lpTokenName, @lpTokenSymbol, @lpTokenDecimals, @tokenAId, @tokenBId,
         '0', '0', '0', @address, @createdBlock, @atMs)`,
  ),
  unnamedPairs: sql<{ id: number; address: string }>(
    'SELECT id, address FROM pools WHERE address IS NOT NULL AND contract_id = address ORDER BY id',
  ),
  namePair: sql('UPDATE pools SET contract_id = ?, lp_token_id = ? WHERE id = ? AND contract_id = address'),
  setPool: sql('UPDATE pools SET token_reserve_a = ?, token_reserve_b = ?, lp_token_reserve = ?, updated_at = ? WHERE id = ?'),
  insertEvent: sql(
    `INSERT INTO pool_events (block_number, log_index, pool_id, at_ms, kind, reserve_a, reserve_b, lp_supply, a_in, b_in,
         a_out, b_out) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  lostFirsts: sql<{ pool_id: number; at_ms: number }>(
    'SELECT pool_id, min(at_ms) AS at_ms FROM pool_events WHERE block_number > ? GROUP BY pool_id',
  ),
  dropEventsAfter: sql('DELETE FROM pool_events WHERE block_number > ?'),
  lastBefore: sql<PoolEventRow>(
    `SELECT * FROM pool_events WHERE pool_id = ? AND at_ms < ? ORDER BY block_number DESC, log_index DESC LIMIT 1`,
  ),
  since: sql<PoolEventRow>('SELECT * FROM pool_events WHERE pool_id = ? AND at_ms >= ? ORDER BY block_number, log_index'),
  last: sql<PoolEventRow>('SELECT * FROM pool_events WHERE pool_id = ? ORDER BY block_number DESC, log_index DESC LIMIT 1'),
  dropCandlesOfLost: sql('DELETE FROM pool_candles_5m WHERE pool_id IN (SELECT id FROM pools WHERE created_block > ?)'),
  dropPoolsAfter: sql('DELETE FROM pools WHERE created_block > ?'),
  putSnapshot: sql(
    `INSERT INTO staking_snapshots (block_number, at_ms, sauce, xsauce) VALUES (?, ?, ?, ?)
       ON CONFLICT (block_number) DO UPDATE SET at_ms = excluded.at_ms, sauce = excluded.sauce, xsauce = excluded.xsauce`,
  ),
  lastSnapshot: sql<{ sauce: string; xsauce: string }>(
    'SELECT sauce, xsauce FROM staking_snapshots ORDER BY block_number DESC LIMIT 1',
  ),
  dropSnapshotsAfter: sql('DELETE FROM staking_snapshots WHERE block_number > ?'),
};

function recordChanges(tx: SqlExecutor, changes: readonly PoolChange[]): Promise<number>[] {
  return changes.map((change) => {
    const { after, swap } = change;
    return tx.run(
      statements.insertEvent,
      Number(change.block),
      change.logIndex,
      change.poolId,
      change.atMs,
      change.kind,
      after.reserveA.toString(),
      after.reserveB.toString(),
      after.lpSupply.toString(),
      swap?.aIn.toString() ?? null,
      swap?.bIn.toString() ?? null,
      swap?.aOut.toString() ?? null,
      swap?.bOut.toString() ?? null,
    );
  });
}

/** Folds a pool's candles again from `atMs`'s bucket, and sets the pool to its last remaining event. */
async function refold(tx: SqlExecutor, poolId: number, atMs: number): Promise<void> {
  const startMs = poolCandleStart(atMs);
  await poolCandleWriter.dropFrom(tx, poolId, startMs);
  const [previous, rows, last] = await Promise.all([
    tx.get(statements.lastBefore, poolId, startMs),
    tx.all(statements.since, poolId, startMs),
    tx.get(statements.last, poolId),
  ]);
  let before = previous === undefined ? NEW_POOL : stateOf(previous);
  const changes: PoolChange[] = [];
  for (const row of rows) {
    const change = changeOf(row, before);
    changes.push(change);
    before = change.after;
  }
  await poolCandleWriter.fold(tx, changes);
  const state = last === undefined ? NEW_POOL : stateOf(last);
  const updatedAt = last === undefined ? atMs : Number(last.at_ms);
  await tx.run(
    statements.setPool,
    state.reserveA.toString(),
    state.reserveB.toString(),
    state.lpSupply.toString(),
    updatedAt,
    poolId,
  );
}

async function commit(tx: SqlExecutor, batch: AmmBatch): Promise<void> {
  await Promise.all(
    batch.newPools.map((pool) => tx.run(statements.insertPool, { ...pool, createdBlock: Number(pool.createdBlock) })),
  );
  await Promise.all(recordChanges(tx, batch.poolChanges));
  await poolCandleWriter.fold(tx, batch.poolChanges);
  await Promise.all(
    [...batch.pools].map(([poolId, { reserveA, reserveB, lpSupply, updatedAt }]) =>
      tx.run(statements.setPool, reserveA.toString(), reserveB.toString(), lpSupply.toString(), updatedAt, poolId),
    ),
  );
  await farmLedger.apply(tx, batch.farmEvents);
  await Promise.all(
    batch.staking.map(({ block, atMs, sauce, xsauce }) =>
      tx.run(statements.putSnapshot, Number(block), atMs, sauce.toString(), xsauce.toString()),
    ),
  );
  await tx.run(statements.setCursor, batch.cursorName, Number(batch.cursor));
}

async function rewind(tx: SqlExecutor, cursorName: string, block: bigint): Promise<void> {
  const at = Number(block);
  const lost = await tx.all(statements.lostFirsts, at);
  await tx.run(statements.dropEventsAfter, at);
  await tx.run(statements.dropCandlesOfLost, at);
  await tx.run(statements.dropPoolsAfter, at);
  const remaining = new Set((await tx.all(statements.pairs)).map((row) => Number(row.id)));
  for (const { pool_id, at_ms } of lost) if (remaining.has(Number(pool_id))) await refold(tx, Number(pool_id), Number(at_ms));
  await farmLedger.rewindTo(tx, block);
  await tx.run(statements.dropSnapshotsAfter, at);
  await tx.run(statements.setCursor, cursorName, at);
}

/**
 * The pools, farms and staking the AMM indexer reads from the chain (migration 8). A batch and its
 * cursor are one transaction; so is a rewind, which folds the candles of the lost blocks' buckets
 * again from the events that remain and applies the remaining farm events from the start.
 */
export function sqlAmmStore(db: SqlClient): AmmStore {
  return {
    async cursor(name) {
      const row = await db.get(statements.cursor, name);
      return row === undefined ? null : BigInt(row.block_number);
    },
    async pairs() {
      const pairs = new Map<string, KnownPair>();
      for (const row of await db.all(statements.pairs)) {
        const state = { reserve_a: row.token_reserve_a, reserve_b: row.token_reserve_b, lp_supply: row.lp_token_reserve };
        pairs.set(row.address, { poolId: Number(row.id), state: stateOf(state) });
      }
      return pairs;
    },
    async unnamedPairs() {
      return (await db.all(statements.unnamedPairs)).map((row) => ({ poolId: Number(row.id), address: row.address }));
    },
    async namePairs(names) {
      await db.transaction(async (tx) => {
        for (const { poolId, contractId } of names) await tx.run(statements.namePair, contractId, contractId, poolId);
      });
    },
    async stakingTotals() {
      const row = await db.get(statements.lastSnapshot);
      return row === undefined ? NO_STAKING : { sauce: BigInt(row.sauce), xsauce: BigInt(row.xsauce) };
    },
    async commit(batch) {
      await db.transaction((tx) => commit(tx, batch));
    },
    async rewindTo(cursorName, block) {
      await db.transaction(async (tx) => {
        const cursor = await tx.get(statements.cursor, cursorName);
        if (cursor === undefined || BigInt(cursor.block_number) <= block) return;
        await rewind(tx, cursorName, block);
      });
    },
  };
}
