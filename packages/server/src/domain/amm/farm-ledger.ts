import { WEI_PER_TINYBAR } from '@dex/core';
import type { ChainPosition, FarmEvent } from './amm-events.js';

/** One of the farm contract's pools: the LP token it takes, its allocation points and what is staked in it. */
export interface FarmState {
  readonly pid: number;
  /** Lower-case address of the LP token. */
  readonly lpToken: string;
  readonly allocPoint: bigint;
  /** Raw LP units staked. */
  readonly totalStaked: bigint;
  /** Unix ms of the block that last changed it. */
  readonly updatedAt: number;
}

/** The farm's rates for all its pools together: SAUCE raw units and native wei per second. */
export interface FarmProgram {
  readonly saucePerSecond: bigint;
  readonly nativePerSecond: bigint;
}

export const NO_PROGRAM: FarmProgram = { saucePerSecond: 0n, nativePerSecond: 0n };

/** The farm's state as a store holds it, read and written one piece at a time inside one transaction. */
export interface FarmLedgerView {
  farm(pid: number): FarmState | undefined;
  putFarm(farm: FarmState): void;
  /** Raw LP units `account` (lower-case address) has staked in the pool. */
  stake(pid: number, account: string): bigint;
  putStake(pid: number, account: string, staked: bigint, atMs: number): void;
  program(): FarmProgram;
  putProgram(program: FarmProgram): void;
}

/** Applies one farm event, in chain order. Events of a pool the view does not know change nothing. */
export function applyFarmEvent(view: FarmLedgerView, event: FarmEvent & ChainPosition): void {
  switch (event.kind) {
    case 'farmAdded':
      view.putFarm({
        pid: event.pid,
        lpToken: event.lpToken,
        allocPoint: event.allocPoint,
        totalStaked: 0n,
        updatedAt: event.atMs,
      });
      return;
    case 'farmSet': {
      const farm = view.farm(event.pid);
      if (farm !== undefined) view.putFarm({ ...farm, allocPoint: event.allocPoint, updatedAt: event.atMs });
      return;
    }
    case 'emissionsSet':
      view.putProgram({ saucePerSecond: event.saucePerSecond, nativePerSecond: event.nativePerSecond });
      return;
    case 'staked':
    case 'unstaked': {
      const farm = view.farm(event.pid);
      if (farm === undefined) return;
      const delta = event.kind === 'staked' ? event.amount : -event.amount;
      view.putFarm({ ...farm, totalStaked: farm.totalStaked + delta, updatedAt: event.atMs });
      view.putStake(event.pid, event.account, view.stake(event.pid, event.account) + delta, event.atMs);
      return;
    }
  }
}

/**
 * A pool's share of the farm's rates, as the contract splits them: by allocation points, rounded
 * down; SAUCE in raw units, the native coin in tinybar (rounded down from wei) per second.
 */
export function farmEmissions(
  program: FarmProgram,
  allocPoint: bigint,
  totalAllocPoint: bigint,
): { sauce: bigint; tinybar: bigint } {
  if (totalAllocPoint === 0n) return { sauce: 0n, tinybar: 0n };
  return {
    sauce: (program.saucePerSecond * allocPoint) / totalAllocPoint,
    tinybar: (program.nativePerSecond * allocPoint) / totalAllocPoint / WEI_PER_TINYBAR,
  };
}
