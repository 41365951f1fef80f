import type { PoolRecord, PoolStore } from '../../ports/store/pool-ports.js';
import { StoreConflictError } from '../../ports/store/ports.js';
import { type SqlClient, sql } from './sql-client.js';

export interface PoolRow {
  id: number;
  contract_id: string;
  lp_token_id: string;
  lp_token_name: string;
  lp_token_symbol: string;
  lp_token_decimals: number;
  token_a_id: string;
  token_b_id: string;
  lp_token_reserve: string;
  token_reserve_a: string;
  token_reserve_b: string;
  address: string | null;
  created_block: number | null;
  updated_at: number;
}

export function toPool(row: PoolRow): PoolRecord {
  return {
    id: Number(row.id),
    contractId: row.contract_id,
    lpTokenId: row.lp_token_id,
    lpTokenName: row.lp_token_name,
    lpTokenSymbol: row.lp_token_symbol,
    lpTokenDecimals: Number(row.lp_token_decimals),
    tokenAId: row.token_a_id,
    tokenBId: row.token_b_id,
    lpTokenReserve: BigInt(row.lp_token_reserve),
    tokenReserveA: BigInt(row.token_reserve_a),
    tokenReserveB: BigInt(row.token_reserve_b),
    updatedAt: Number(row.updated_at),
  };
}

const statements = {
  list: sql<PoolRow>('SELECT * FROM pools ORDER BY id'),
  get: sql<PoolRow>('SELECT * FROM pools WHERE id = ?'),
  listed: sql<{ count: number }>('SELECT count(*) AS count FROM tokens WHERE id IN (?, ?)'),
  save: sql(
    `INSERT INTO pools (id, contract_id, lp_token_id, lp_token_name, lp_token_symbol, lp_token_decimals, token_a_id,
         token_b_id, lp_token_reserve, token_reserve_a, token_reserve_b, updated_at)
       VALUES (@id, @contractId, @lpTokenId, @lpTokenName, @lpTokenSymbol, @lpTokenDecimals, @tokenAId, @tokenBId,
         @lpTokenReserve, @tokenReserveA, @tokenReserveB, @updatedAt)
       ON CONFLICT (id) DO UPDATE SET contract_id = excluded.contract_id, lp_token_id = excluded.lp_token_id,
         lp_token_name = excluded.lp_token_name, lp_token_symbol = excluded.lp_token_symbol,
         lp_token_decimals = excluded.lp_token_decimals, token_a_id = excluded.token_a_id, token_b_id = excluded.token_b_id,
         lp_token_reserve = excluded.lp_token_reserve, token_reserve_a = excluded.token_reserve_a,
         token_reserve_b = excluded.token_reserve_b, updated_at = excluded.updated_at`,
  ),
};

/** Constant-product pools (migration 8): written by the AMM indexer (amm-store.ts), or by hand here. */
export function sqlPoolStore(db: SqlClient): PoolStore {
  const conflict = (pool: PoolRecord, cause?: unknown) =>
    new StoreConflictError(
      `pool ${pool.id} names an unknown token, reuses a contract or LP token, or pairs a token with itself`,
      { cause },
    );
  return {
    async list() {
      return (await db.all(statements.list)).map(toPool);
    },
    async get(id) {
      const row = await db.get(statements.get, id);
      return row === undefined ? undefined : toPool(row);
    },
    async save(pool) {
      // A pool recorded by hand names listed tokens; the indexer's name the chain's (no reference, see migration 8).
      if (
        pool.tokenAId !== pool.tokenBId &&
        Number((await db.get(statements.listed, pool.tokenAId, pool.tokenBId))?.count) !== 2
      ) {
        throw conflict(pool);
      }
      try {
        await db.run(statements.save, {
          ...pool,
          lpTokenReserve: pool.lpTokenReserve.toString(),
          tokenReserveA: pool.tokenReserveA.toString(),
          tokenReserveB: pool.tokenReserveB.toString(),
        });
      } catch (error) {
        if (db.constraintOf(error) === undefined) throw error;
        throw conflict(pool, error);
      }
    },
  };
}
