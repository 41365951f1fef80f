import type { FarmRecord, FarmStake, FarmStore } from '../../ports/store/pool-ports.js';
import { StoreConflictError } from '../../ports/store/ports.js';
import type { SqlDatabase } from './driver.js';

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

/** Liquidity-mining farms and the stakes of accounts in them (migration 3). */
export function sqliteFarmStore(db: SqlDatabase): FarmStore {
  const statements = {
    list: db.prepare<FarmRow>('SELECT * FROM farms ORDER BY id'),
    save: db.prepare(
      `INSERT INTO farms (id, pool_id, sauce_emissions, hbar_emissions, total_staked, updated_at)
       VALUES (@id, @poolId, @sauceEmissions, @hbarEmissions, @totalStaked, @updatedAt)
       ON CONFLICT (id) DO UPDATE SET pool_id = excluded.pool_id, sauce_emissions = excluded.sauce_emissions,
         hbar_emissions = excluded.hbar_emissions, total_staked = excluded.total_staked, updated_at = excluded.updated_at`,
    ),
    stakesOf: db.prepare<StakeRow>('SELECT * FROM farm_stakes WHERE account_id = ? ORDER BY farm_id'),
    saveStake: db.prepare(
      `INSERT INTO farm_stakes (farm_id, account_id, staked, updated_at) VALUES (@farmId, @accountId, @staked, @updatedAt)
       ON CONFLICT (account_id, farm_id) DO UPDATE SET staked = excluded.staked, updated_at = excluded.updated_at`,
    ),
  };
  const refused = (error: unknown, message: string): never => {
    if (db.constraintOf(error) === undefined) throw error;
    throw new StoreConflictError(message, { cause: error });
  };
  return {
    async list() {
      return statements.list.all().map(toFarm);
    },
    async save(farm) {
      try {
        statements.save.run({
          ...farm,
          sauceEmissions: farm.sauceEmissions.toString(),
          hbarEmissions: farm.hbarEmissions.toString(),
          totalStaked: farm.totalStaked.toString(),
        });
      } catch (error) {
        refused(error, `farm ${farm.id} names an unknown pool`);
      }
    },
    async stakesOf(accountId) {
      return statements.stakesOf.all(accountId).map(toStake);
    },
    async saveStake(stake) {
      try {
        statements.saveStake.run({ ...stake, staked: stake.staked.toString() });
      } catch (error) {
        refused(error, `the stake of ${stake.accountId} names an unknown farm ${stake.farmId}`);
      }
    },
  };
}
