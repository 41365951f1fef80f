import type { KnownPair } from '../../domain/amm/amm-batch.js';
import { poolCandleStart } from '../../domain/amm/pool-candle.js';
import { NEW_POOL, type PoolChange, type PoolState } from '../../domain/amm/pool-ledger.js';
import { NO_STAKING } from '../../domain/amm/staking-ledger.js';
import type { AmmBatch, AmmStore } from '../../ports/store/amm-ports.js';
import { sqliteFarmLedger } from './amm-farm-ledger.js';
import { inTransaction, type SqlDatabase } from './driver.js';
import { poolCandleWriter } from './pool-candle-store.js';

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

function ammStatements(db: SqlDatabase) {
  return {
    cursor: db.prepare<{ block_number: number }>('SELECT block_number FROM chain_cursors WHERE name = ?'),
    setCursor: db.prepare(
      `INSERT INTO chain_cursors (name, block_number) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET block_number = excluded.block_number`,
    ),
    pairs: db.prepare<{
      id: number;
      address: string;
      token_reserve_a: string;
      token_reserve_b: string;
      lp_token_reserve: string;
    }>('SELECT id, address, token_reserve_a, token_reserve_b, lp_token_reserve FROM pools WHERE address IS NOT NULL'),
    insertPool: db.prepare(
      `INSERT INTO pools (id, contract_id, lp_token_id, lp_token_name, lp_token_symbol, lp_token_decimals, token_a_id,
         token_b_id, lp_token_reserve, token_reserve_a, token_reserve_b, address, created_block, updated_at)
       VALUES (@poolId, @contractId, @lpTokenId, @lpTokenName, @lpTokenSymbol, @lpTokenDecimals, @tokenAId, @tokenBId,
         '0', '0', '0', @address, @createdBlock, @atMs)`,
    ),
    setPool: db.prepare(
      'UPDATE pools SET token_reserve_a = ?, token_reserve_b = ?, lp_token_reserve = ?, updated_at = ? WHERE id = ?',
    ),
    insertEvent: db.prepare(
      `INSERT INTO pool_events (block_number, log_index, pool_id, at_ms, kind, reserve_a, reserve_b, lp_supply, a_in, b_in,
         a_out, b_out) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    lostFirsts: db.prepare<{ pool_id: number; at_ms: number }>(
      'SELECT pool_id, min(at_ms) AS at_ms FROM pool_events WHERE block_number > ? GROUP BY pool_id',
    ),
    dropEventsAfter: db.prepare('DELETE FROM pool_events WHERE block_number > ?'),
    lastBefore: db.prepare<PoolEventRow>(
      `SELECT * FROM pool_events WHERE pool_id = ? AND at_ms < ? ORDER BY block_number DESC, log_index DESC LIMIT 1`,
    ),
    since: db.prepare<PoolEventRow>(
      'SELECT * FROM pool_events WHERE pool_id = ? AND at_ms >= ? ORDER BY block_number, log_index',
    ),
    last: db.prepare<PoolEventRow>(
      'SELECT * FROM pool_events WHERE pool_id = ? ORDER BY block_number DESC, log_index DESC LIMIT 1',
    ),
    dropCandlesOfLost: db.prepare('DELETE FROM pool_candles_5m WHERE pool_id IN (SELECT id FROM pools WHERE created_block > ?)'),
    dropPoolsAfter: db.prepare('DELETE FROM pools WHERE created_block > ?'),
    putSnapshot: db.prepare(
      `INSERT INTO staking_snapshots (block_number, at_ms, sauce, xsauce) VALUES (?, ?, ?, ?)
       ON CONFLICT (block_number) DO UPDATE SET at_ms = excluded.at_ms, sauce = excluded.sauce, xsauce = excluded.xsauce`,
    ),
    lastSnapshot: db.prepare<{ sauce: string; xsauce: string }>(
      'SELECT sauce, xsauce FROM staking_snapshots ORDER BY block_number DESC LIMIT 1',
    ),
    dropSnapshotsAfter: db.prepare('DELETE FROM staking_snapshots WHERE block_number > ?'),
  };
}

type AmmStatements = ReturnType<typeof ammStatements>;

function recordChanges(statements: AmmStatements, changes: readonly PoolChange[]): void {
  for (const change of changes) {
    const { after, swap } = change;
    statements.insertEvent.run(
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
  }
}

interface Writers {
  readonly statements: AmmStatements;
  readonly farms: ReturnType<typeof sqliteFarmLedger>;
  readonly candles: ReturnType<typeof poolCandleWriter>;
}

/** Folds a pool's candles again from `atMs`'s bucket, and sets the pool to its last remaining event. */
function refold({ statements, candles }: Writers, poolId: number, atMs: number): void {
  const startMs = poolCandleStart(atMs);
  candles.dropFrom(poolId, startMs);
  const previous = statements.lastBefore.get(poolId, startMs);
  let before = previous === undefined ? NEW_POOL : stateOf(previous);
  const changes: PoolChange[] = [];
  for (const row of statements.since.all(poolId, startMs)) {
    const change = changeOf(row, before);
    changes.push(change);
    before = change.after;
  }
  candles.fold(changes);
  const last = statements.last.get(poolId);
  const state = last === undefined ? NEW_POOL : stateOf(last);
  const updatedAt = last === undefined ? atMs : Number(last.at_ms);
  statements.setPool.run(state.reserveA.toString(), state.reserveB.toString(), state.lpSupply.toString(), updatedAt, poolId);
}

function commit(writers: Writers, batch: AmmBatch): void {
  const { statements, farms, candles } = writers;
  for (const pool of batch.newPools) statements.insertPool.run({ ...pool, createdBlock: Number(pool.createdBlock) });
  recordChanges(statements, batch.poolChanges);
  candles.fold(batch.poolChanges);
  for (const [poolId, { reserveA, reserveB, lpSupply, updatedAt }] of batch.pools) {
    statements.setPool.run(reserveA.toString(), reserveB.toString(), lpSupply.toString(), updatedAt, poolId);
  }
  farms.apply(batch.farmEvents);
  for (const { block, atMs, sauce, xsauce } of batch.staking) {
    statements.putSnapshot.run(Number(block), atMs, sauce.toString(), xsauce.toString());
  }
  statements.setCursor.run(batch.cursorName, Number(batch.cursor));
}

function rewind(writers: Writers, cursorName: string, block: bigint): void {
  const { statements, farms } = writers;
  const at = Number(block);
  const lost = statements.lostFirsts.all(at);
  statements.dropEventsAfter.run(at);
  statements.dropCandlesOfLost.run(at);
  statements.dropPoolsAfter.run(at);
  const remaining = new Set(statements.pairs.all().map((row) => Number(row.id)));
  for (const { pool_id, at_ms } of lost) if (remaining.has(Number(pool_id))) refold(writers, Number(pool_id), Number(at_ms));
  farms.rewindTo(block);
  statements.dropSnapshotsAfter.run(at);
  statements.setCursor.run(cursorName, at);
}

/**
 * The pools, farms and staking the AMM indexer reads from the chain (migration 8). A batch and its
 * cursor are one transaction; so is a rewind, which folds the candles of the lost blocks' buckets
 * again from the events that remain and applies the remaining farm events from the start.
 */
export function sqliteAmmStore(db: SqlDatabase): AmmStore {
  const statements = ammStatements(db);
  const writers: Writers = { statements, farms: sqliteFarmLedger(db), candles: poolCandleWriter(db) };
  return {
    async cursor(name) {
      const row = statements.cursor.get(name);
      return row === undefined ? null : BigInt(row.block_number);
    },
    async pairs() {
      const pairs = new Map<string, KnownPair>();
      for (const row of statements.pairs.all()) {
        const state = { reserve_a: row.token_reserve_a, reserve_b: row.token_reserve_b, lp_supply: row.lp_token_reserve };
        pairs.set(row.address, { poolId: Number(row.id), state: stateOf(state) });
      }
      return pairs;
    },
    async stakingTotals() {
      const row = statements.lastSnapshot.get();
      return row === undefined ? NO_STAKING : { sauce: BigInt(row.sauce), xsauce: BigInt(row.xsauce) };
    },
    async commit(batch) {
      inTransaction(db, () => commit(writers, batch));
    },
    async rewindTo(cursorName, block) {
      const cursor = statements.cursor.get(cursorName);
      if (cursor === undefined || BigInt(cursor.block_number) <= block) return;
      inTransaction(db, () => rewind(writers, cursorName, block));
    },
  };
}
