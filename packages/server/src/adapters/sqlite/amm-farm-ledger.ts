import type { ChainPosition, FarmEvent } from '../../domain/amm/amm-events.js';
import {
  applyFarmEvent,
  type FarmLedgerView,
  type FarmProgram,
  type FarmState,
  farmEmissions,
  NO_PROGRAM,
} from '../../domain/amm/farm-ledger.js';
import type { SqlDatabase } from './driver.js';

interface ChainFarmRow {
  id: number;
  lp_token: string;
  alloc_point: string;
  total_staked: string;
  updated_at: number;
}

interface FarmEventRow {
  block_number: number;
  log_index: number;
  event: string;
}

const BIGINT_FIELDS = new Set(['allocPoint', 'saucePerSecond', 'nativePerSecond', 'amount']);

/** A farm event as farm_events keeps it: JSON with amounts as decimal strings, its place in the key. */
export function farmEventJson(event: FarmEvent & ChainPosition): string {
  const { block: _block, logIndex: _logIndex, ...rest } = event;
  return JSON.stringify(rest, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

function farmEventOf(row: FarmEventRow): FarmEvent & ChainPosition {
  const parsed = JSON.parse(row.event, (key, value: unknown) => (BIGINT_FIELDS.has(key) ? BigInt(value as string) : value));
  return { ...parsed, block: BigInt(row.block_number), logIndex: Number(row.log_index) };
}

function farmStatements(db: SqlDatabase) {
  return {
    farm: db.prepare<ChainFarmRow>('SELECT * FROM farms WHERE id = ? AND lp_token IS NOT NULL'),
    putFarm: db.prepare(
      `INSERT INTO farms (id, pool_id, lp_token, alloc_point, sauce_emissions, hbar_emissions, total_staked, updated_at)
       VALUES (@pid, NULL, @lpToken, @allocPoint, '0', '0', @totalStaked, @updatedAt)
       ON CONFLICT (id) DO UPDATE SET lp_token = excluded.lp_token, alloc_point = excluded.alloc_point,
         total_staked = excluded.total_staked, updated_at = excluded.updated_at`,
    ),
    stake: db.prepare<{ staked: string }>('SELECT staked FROM farm_stakes WHERE farm_id = ? AND account_id = ?'),
    putStake: db.prepare(
      `INSERT INTO farm_stakes (farm_id, account_id, staked, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id, farm_id) DO UPDATE SET staked = excluded.staked, updated_at = excluded.updated_at`,
    ),
    dropStake: db.prepare('DELETE FROM farm_stakes WHERE farm_id = ? AND account_id = ?'),
    program: db.prepare<{ sauce_per_second: string; native_per_second: string }>('SELECT * FROM farm_program WHERE id = 1'),
    putProgram: db.prepare(
      `INSERT INTO farm_program (id, sauce_per_second, native_per_second) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET sauce_per_second = excluded.sauce_per_second, native_per_second = excluded.native_per_second`,
    ),
    chainFarms: db.prepare<ChainFarmRow>('SELECT * FROM farms WHERE lp_token IS NOT NULL ORDER BY id'),
    resolvePools: db.prepare(
      'UPDATE farms SET pool_id = (SELECT id FROM pools WHERE address = farms.lp_token) WHERE lp_token IS NOT NULL',
    ),
    setEmissions: db.prepare('UPDATE farms SET sauce_emissions = ?, hbar_emissions = ? WHERE id = ?'),
    insertEvent: db.prepare('INSERT INTO farm_events (block_number, log_index, event) VALUES (?, ?, ?)'),
    events: db.prepare<FarmEventRow>('SELECT * FROM farm_events ORDER BY block_number, log_index'),
    dropEventsAfter: db.prepare('DELETE FROM farm_events WHERE block_number > ?'),
    dropChainStakes: db.prepare('DELETE FROM farm_stakes WHERE farm_id IN (SELECT id FROM farms WHERE lp_token IS NOT NULL)'),
    dropChainFarms: db.prepare('DELETE FROM farms WHERE lp_token IS NOT NULL'),
    dropProgram: db.prepare('DELETE FROM farm_program'),
  };
}

/** The farm's state in the store, for farm-ledger.ts to apply events to; call inside a transaction. */
export function sqliteFarmLedger(db: SqlDatabase) {
  const statements = farmStatements(db);
  const view: FarmLedgerView = {
    farm(pid) {
      const row = statements.farm.get(pid);
      if (row === undefined) return undefined;
      return {
        pid,
        lpToken: row.lp_token,
        allocPoint: BigInt(row.alloc_point),
        totalStaked: BigInt(row.total_staked),
        updatedAt: Number(row.updated_at),
      } satisfies FarmState;
    },
    putFarm(farm) {
      statements.putFarm.run({
        pid: farm.pid,
        lpToken: farm.lpToken,
        allocPoint: farm.allocPoint.toString(),
        totalStaked: farm.totalStaked.toString(),
        updatedAt: farm.updatedAt,
      });
    },
    stake(pid, account) {
      return BigInt(statements.stake.get(pid, account)?.staked ?? '0');
    },
    putStake(pid, account, staked, atMs) {
      // An account is in a farm while it has a stake there.
      if (staked === 0n) statements.dropStake.run(pid, account);
      else statements.putStake.run(pid, account, staked.toString(), atMs);
    },
    program() {
      const row = statements.program.get();
      if (row === undefined) return NO_PROGRAM;
      return { saucePerSecond: BigInt(row.sauce_per_second), nativePerSecond: BigInt(row.native_per_second) };
    },
    putProgram(program: FarmProgram) {
      statements.putProgram.run(program.saucePerSecond.toString(), program.nativePerSecond.toString());
    },
  };

  /** Links farms to the pools of their LP tokens and gives each its share of the rates by allocation. */
  const settle = (): void => {
    statements.resolvePools.run();
    const farms = statements.chainFarms.all();
    const total = farms.reduce((sum, farm) => sum + BigInt(farm.alloc_point), 0n);
    const program = view.program();
    for (const farm of farms) {
      const { sauce, tinybar } = farmEmissions(program, BigInt(farm.alloc_point), total);
      statements.setEmissions.run(sauce.toString(), tinybar.toString(), farm.id);
    }
  };

  return {
    /** Records and applies events in chain order, then settles the farms. */
    apply(events: readonly (FarmEvent & ChainPosition)[]): void {
      for (const event of events) {
        statements.insertEvent.run(Number(event.block), event.logIndex, farmEventJson(event));
        applyFarmEvent(view, event);
      }
      settle();
    },
    /** Forgets the events after `block` and builds the farms again from the rest. */
    rewindTo(block: bigint): void {
      statements.dropEventsAfter.run(Number(block));
      statements.dropChainStakes.run();
      statements.dropChainFarms.run();
      statements.dropProgram.run();
      for (const row of statements.events.all()) applyFarmEvent(view, farmEventOf(row));
      settle();
    },
  };
}
