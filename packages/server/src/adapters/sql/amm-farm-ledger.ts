import type { ChainPosition, FarmEvent } from '../../domain/amm/amm-events.js';
import {
  applyFarmEvent,
  type FarmLedgerView,
  type FarmProgram,
  type FarmState,
  farmEmissions,
  NO_PROGRAM,
} from '../../domain/amm/farm-ledger.js';
import { type SqlExecutor, sql } from './sql-client.js';

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

const statements = {
  chainFarms: sql<ChainFarmRow>('SELECT * FROM farms WHERE lp_token IS NOT NULL ORDER BY id'),
  putFarm: sql(
    `INSERT INTO farms (id, pool_id, lp_token, alloc_point, sauce_emissions, hbar_emissions, total_staked, updated_at)
     VALUES (@pid, NULL, @lpToken, @allocPoint, '0', '0', @totalStaked, @updatedAt)
     ON CONFLICT (id) DO UPDATE SET lp_token = excluded.lp_token, alloc_point = excluded.alloc_point,
       total_staked = excluded.total_staked, updated_at = excluded.updated_at`,
  ),
  stake: sql<{ staked: string }>('SELECT staked FROM farm_stakes WHERE farm_id = ? AND account_id = ?'),
  putStake: sql(
    `INSERT INTO farm_stakes (farm_id, account_id, staked, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, farm_id) DO UPDATE SET staked = excluded.staked, updated_at = excluded.updated_at`,
  ),
  dropStake: sql('DELETE FROM farm_stakes WHERE farm_id = ? AND account_id = ?'),
  program: sql<{ sauce_per_second: string; native_per_second: string }>('SELECT * FROM farm_program WHERE id = 1'),
  putProgram: sql(
    `INSERT INTO farm_program (id, sauce_per_second, native_per_second) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET sauce_per_second = excluded.sauce_per_second, native_per_second = excluded.native_per_second`,
  ),
  resolvePools: sql(
    'UPDATE farms SET pool_id = (SELECT id FROM pools WHERE address = farms.lp_token) WHERE lp_token IS NOT NULL',
  ),
  setEmissions: sql('UPDATE farms SET sauce_emissions = ?, hbar_emissions = ? WHERE id = ?'),
  insertEvent: sql('INSERT INTO farm_events (block_number, log_index, event) VALUES (?, ?, ?)'),
  events: sql<FarmEventRow>('SELECT * FROM farm_events ORDER BY block_number, log_index'),
  dropEventsAfter: sql('DELETE FROM farm_events WHERE block_number > ?'),
  dropChainStakes: sql('DELETE FROM farm_stakes WHERE farm_id IN (SELECT id FROM farms WHERE lp_token IS NOT NULL)'),
  dropChainFarms: sql('DELETE FROM farms WHERE lp_token IS NOT NULL'),
  dropProgram: sql('DELETE FROM farm_program'),
};

const stakeKey = (pid: number, account: string) => `${pid}:${account}`;

function farmStateOf(row: ChainFarmRow): FarmState {
  return {
    pid: Number(row.id),
    lpToken: row.lp_token,
    allocPoint: BigInt(row.alloc_point),
    totalStaked: BigInt(row.total_staked),
    updatedAt: Number(row.updated_at),
  };
}

/**
 * The farms' state in memory for farm-ledger.ts to apply events to, read from the store before
 * and written back after: the farms (few), the program and the stakes the events touch.
 */
class FarmLedgerMemory implements FarmLedgerView {
  readonly changedFarms = new Set<number>();
  readonly changedStakes = new Map<string, { pid: number; account: string; staked: bigint; atMs: number }>();
  programChanged = false;

  constructor(
    private readonly farms: Map<number, FarmState>,
    private readonly stakes: Map<string, bigint>,
    private current: FarmProgram,
  ) {}

  farm(pid: number): FarmState | undefined {
    return this.farms.get(pid);
  }
  putFarm(farm: FarmState): void {
    this.farms.set(farm.pid, farm);
    this.changedFarms.add(farm.pid);
  }
  stake(pid: number, account: string): bigint {
    return this.stakes.get(stakeKey(pid, account)) ?? 0n;
  }
  putStake(pid: number, account: string, staked: bigint, atMs: number): void {
    this.stakes.set(stakeKey(pid, account), staked);
    this.changedStakes.set(stakeKey(pid, account), { pid, account, staked, atMs });
  }
  program(): FarmProgram {
    return this.current;
  }
  putProgram(program: FarmProgram): void {
    this.current = program;
    this.programChanged = true;
  }
  allFarms(): FarmState[] {
    return [...this.farms.values()];
  }
}

async function loadProgram(tx: SqlExecutor): Promise<FarmProgram> {
  const row = await tx.get(statements.program);
  if (row === undefined) return NO_PROGRAM;
  return { saucePerSecond: BigInt(row.sauce_per_second), nativePerSecond: BigInt(row.native_per_second) };
}

/** The stakes the events touch, as the store has them now. */
async function loadStakes(tx: SqlExecutor, events: readonly FarmEvent[]): Promise<Map<string, bigint>> {
  const pairs = new Map<string, { pid: number; account: string }>();
  for (const event of events) {
    if (event.kind === 'staked' || event.kind === 'unstaked') {
      pairs.set(stakeKey(event.pid, event.account), { pid: event.pid, account: event.account });
    }
  }
  const rows = await Promise.all([...pairs.values()].map(({ pid, account }) => tx.get(statements.stake, pid, account)));
  return new Map([...pairs.keys()].map((key, index) => [key, BigInt(rows[index]?.staked ?? '0')]));
}

/** Writes back what the events changed, then links farms to pools and shares the rates by allocation. */
async function writeBack(tx: SqlExecutor, memory: FarmLedgerMemory): Promise<void> {
  const writes = [...memory.changedFarms].map((pid) => {
    const farm = memory.farm(pid) as FarmState;
    return tx.run(statements.putFarm, {
      pid,
      lpToken: farm.lpToken,
      allocPoint: farm.allocPoint.toString(),
      totalStaked: farm.totalStaked.toString(),
      updatedAt: farm.updatedAt,
    });
  });
  for (const { pid, account, staked, atMs } of memory.changedStakes.values()) {
    // An account is in a farm while it has a stake there.
    writes.push(
      staked === 0n
        ? tx.run(statements.dropStake, pid, account)
        : tx.run(statements.putStake, pid, account, staked.toString(), atMs),
    );
  }
  const program = memory.program();
  if (memory.programChanged) {
    writes.push(tx.run(statements.putProgram, program.saucePerSecond.toString(), program.nativePerSecond.toString()));
  }
  writes.push(tx.run(statements.resolvePools));
  await Promise.all(writes);
  const farms = memory.allFarms();
  const total = farms.reduce((sum, farm) => sum + farm.allocPoint, 0n);
  await Promise.all(
    farms.map((farm) => {
      const { sauce, tinybar } = farmEmissions(program, farm.allocPoint, total);
      return tx.run(statements.setEmissions, sauce.toString(), tinybar.toString(), farm.pid);
    }),
  );
}

/** Records farm events and applies them to the farms in the store; call inside a transaction. */
export const farmLedger = {
  /** Records and applies events in chain order, then settles the farms. */
  async apply(tx: SqlExecutor, events: readonly (FarmEvent & ChainPosition)[]): Promise<void> {
    const [farmRows, stakes, program] = await Promise.all([
      tx.all(statements.chainFarms),
      loadStakes(tx, events),
      loadProgram(tx),
    ]);
    const memory = new FarmLedgerMemory(new Map(farmRows.map((row) => [Number(row.id), farmStateOf(row)])), stakes, program);
    await Promise.all(
      events.map((event) => tx.run(statements.insertEvent, Number(event.block), event.logIndex, farmEventJson(event))),
    );
    for (const event of events) applyFarmEvent(memory, event);
    await writeBack(tx, memory);
  },

  /** Forgets the events after `block` and builds the farms again from the rest. */
  async rewindTo(tx: SqlExecutor, block: bigint): Promise<void> {
    await tx.run(statements.dropEventsAfter, Number(block));
    await tx.run(statements.dropChainStakes);
    await tx.run(statements.dropChainFarms);
    await tx.run(statements.dropProgram);
    const memory = new FarmLedgerMemory(new Map(), new Map(), NO_PROGRAM);
    for (const row of await tx.all(statements.events)) applyFarmEvent(memory, farmEventOf(row));
    await writeBack(tx, memory);
  },
};
