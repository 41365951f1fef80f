import type { PoolRecord, PoolStore } from '../../ports/store/pool-ports.js';
import { StoreConflictError } from '../../ports/store/ports.js';
import type { SqlDatabase } from './driver.js';

interface PoolRow {
  id: number;
  contract_id: string;
  lp_token_id: string;
  token_a_id: string;
  token_b_id: string;
  lp_token_reserve: string;
  token_reserve_a: string;
  token_reserve_b: string;
  updated_at: number;
}

function toPool(row: PoolRow): PoolRecord {
  return {
    id: Number(row.id),
    contractId: row.contract_id,
    lpTokenId: row.lp_token_id,
    tokenAId: row.token_a_id,
    tokenBId: row.token_b_id,
    lpTokenReserve: BigInt(row.lp_token_reserve),
    tokenReserveA: BigInt(row.token_reserve_a),
    tokenReserveB: BigInt(row.token_reserve_b),
    updatedAt: Number(row.updated_at),
  };
}

/** Constant-product pools (migration 3). */
export function sqlitePoolStore(db: SqlDatabase): PoolStore {
  const statements = {
    list: db.prepare<PoolRow>('SELECT * FROM pools ORDER BY id'),
    get: db.prepare<PoolRow>('SELECT * FROM pools WHERE id = ?'),
    save: db.prepare(
      `INSERT INTO pools (id, contract_id, lp_token_id, token_a_id, token_b_id, lp_token_reserve, token_reserve_a,
         token_reserve_b, updated_at)
       VALUES (@id, @contractId, @lpTokenId, @tokenAId, @tokenBId, @lpTokenReserve, @tokenReserveA, @tokenReserveB, @updatedAt)
       ON CONFLICT (id) DO UPDATE SET contract_id = excluded.contract_id, lp_token_id = excluded.lp_token_id,
         token_a_id = excluded.token_a_id, token_b_id = excluded.token_b_id, lp_token_reserve = excluded.lp_token_reserve,
         token_reserve_a = excluded.token_reserve_a, token_reserve_b = excluded.token_reserve_b, updated_at = excluded.updated_at`,
    ),
  };
  return {
    async list() {
      return statements.list.all().map(toPool);
    },
    async get(id) {
      const row = statements.get.get(id);
      return row === undefined ? undefined : toPool(row);
    },
    async save(pool) {
      try {
        statements.save.run({
          ...pool,
          lpTokenReserve: pool.lpTokenReserve.toString(),
          tokenReserveA: pool.tokenReserveA.toString(),
          tokenReserveB: pool.tokenReserveB.toString(),
        });
      } catch (error) {
        if (db.constraintOf(error) === undefined) throw error;
        throw new StoreConflictError(
          `pool ${pool.id} names an unknown token, reuses a contract or LP token, or pairs a token with itself`,
          {
            cause: error,
          },
        );
      }
    },
  };
}
