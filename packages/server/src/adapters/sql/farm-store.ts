import type { FarmRecord, FarmStake, FarmStore } from '../../ports/store/pool-ports.js';
import { StoreConflictError } from '../../ports/store/ports.js';
import { type SqlClient, type SqlDialect, sql } from './sql-client.js';

interface FarmRow {
  id: number;
  pool_id: number;
  sauce_emissions: string;
  hbar_emissions: string;
  total_staked: string;
  updated_at: number;
}

interface StakeRow {
  farm_id: number;
  account_id: string;
  staked: string;
  updated_at: number;
}

function toFarm(row: FarmRow): FarmRecord {
  return {
    id: Number(row.id),
    poolId: Number(row.pool_id),
    sauceEmissions: BigInt(row.sauce_emissions),
    hbarEmissions: BigInt(row.hbar_emissions),
    totalStaked: BigInt(row.total_staked),
    updatedAt: Number(row.updated_at),
  };
}

function toStake(row: StakeRow): FarmStake {
  return {
    farmId: Number(row.farm_id),
    accountId: row.account_id,
    staked: BigInt(row.staked),
    updatedAt: Number(row.updated_at),
  };
}

function farmStatements(dialect: SqlDialect) {
  return {
    list: sql<FarmRow>(
      `SELECT id, pool_id, sauce_emissions, hbar_emissions, total_staked, updated_at FROM farms
       WHERE pool_id IS NOT NULL ORDER BY id`,
    ),
    poolExists: sql<{ id: number }>('SELECT id FROM pools WHERE id = ?'),
    save: sql(
      `INSERT INTO farms (id, pool_id, alloc_point, sauce_emissions, hbar_emissions, total_staked, updated_at)
       VALUES (@id, @poolId, '0', @sauceEmissions, @hbarEmissions, @totalStaked, @updatedAt)
       ON CONFLICT (id) DO UPDATE SET pool_id = excluded.pool_id, sauce_emissions = excluded.sauce_emissions,
         hbar_emissions = excluded.hbar_emissions, total_staked = excluded.total_staked, updated_at = excluded.updated_at`,
    ),
    stakesOf: sql<StakeRow>(
      `SELECT s.* FROM farm_stakes s JOIN farms f ON f.id = s.farm_id
       WHERE s.account_id IN ${dialect.jsonList('text')} AND f.pool_id IS NOT NULL ORDER BY s.farm_id, s.account_id`,
    ),
    saveStake: sql(
      `INSERT INTO farm_stakes (farm_id, account_id, staked, updated_at) VALUES (@farmId, @accountId, @staked, @updatedAt)
       ON CONFLICT (account_id, farm_id) DO UPDATE SET staked = excluded.staked, updated_at = excluded.updated_at`,
    ),
  };
}

/** Liquidity-mining farms and the stakes of accounts in them (migration 8): from the chain (amm-store.ts), or by hand here. */
export function sqlFarmStore(db: SqlClient): FarmStore {
  const statements = farmStatements(db.dialect);
  const refused = (error: unknown, message: string): never => {
    if (db.constraintOf(error) === undefined) throw error;
    throw new StoreConflictError(message, { cause: error });
  };
  return {
    async list() {
      return (await db.all(statements.list)).map(toFarm);
    },
    async save(farm) {
      if ((await db.get(statements.poolExists, farm.poolId)) === undefined) {
        throw new StoreConflictError(`farm ${farm.id} names an unknown pool`);
      }
      await db.run(statements.save, {
        ...farm,
        sauceEmissions: farm.sauceEmissions.toString(),
        hbarEmissions: farm.hbarEmissions.toString(),
        totalStaked: farm.totalStaked.toString(),
      });
    },
    async stakesOf(accountIds) {
      return (await db.all(statements.stakesOf, JSON.stringify(accountIds))).map(toStake);
    },
    async saveStake(stake) {
      try {
        await db.run(statements.saveStake, { ...stake, staked: stake.staked.toString() });
      } catch (error) {
        refused(error, `the stake of ${stake.accountId} names an unknown farm ${stake.farmId}`);
      }
    },
  };
}
