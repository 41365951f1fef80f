import type { AmmChanges, KnownPair } from '../../domain/amm/amm-batch.js';
import type { PoolCandle } from '../../domain/amm/pool-candle.js';
import type { StakingTotals } from '../../domain/amm/staking-ledger.js';
import type { CreatedPairRef } from '../pair-ledger-ids.js';

/** A pool the factory created, with what the store keeps of it. */
export interface ChainPool {
  readonly poolId: number;
  /** Lower-case pair address. */
  readonly address: string;
  /** The pair contract's ledger id `0.0.N` (pair-ledger-ids.ts). */
  readonly contractId: string;
  /** The same id: a pair is its own LP token. */
  readonly lpTokenId: string;
  readonly lpTokenName: string;
  readonly lpTokenSymbol: string;
  readonly lpTokenDecimals: number;
  readonly tokenAId: string;
  readonly tokenBId: string;
  readonly createdBlock: bigint;
  readonly atMs: number;
}

/** A run of blocks the indexer read: what it changed and the last block read. */
export interface AmmBatch extends Omit<AmmChanges, 'created'> {
  readonly newPools: readonly ChainPool[];
  readonly cursorName: string;
  readonly cursor: bigint;
}

/** The AMM indexer's side of the store. */
export interface AmmStore {
  /** The last block whose events are recorded, or null before the first batch. */
  cursor(name: string): Promise<bigint | null>;
  /** The pairs recorded from the chain, by lower-case address, with their state. */
  pairs(): Promise<Map<string, KnownPair>>;
  stakingTotals(): Promise<StakingTotals>;
  /** Pairs recorded under their address for a contract id, before pairs had ledger ids. */
  unnamedPairs(): Promise<CreatedPairRef[]>;
  /** Gives such pools their pair's ledger id, as contract id and LP token id. */
  namePairs(names: readonly { readonly poolId: number; readonly contractId: string }[]): Promise<void>;
  /** Writes a batch and moves the cursor, in one transaction: a crash keeps both or neither. */
  commit(batch: AmmBatch): Promise<void>;
  /**
   * Drops everything recorded from blocks after `block` (pools, their history and candles, farm
   * events and the state they made, staking snapshots) and moves the cursor back to `block`, in
   * one transaction. Nothing happens when the cursor is not past `block`.
   */
  rewindTo(cursorName: string, block: bigint): Promise<void>;
}

/** Reads the pools' 5-minute candles (pool-candle.ts), the source of pool history and pool prices over time. */
export interface PoolCandleStore {
  /** Candles of a pool starting in [fromMs, toMs), oldest first. */
  range(poolId: number, fromMs: number, toMs: number): Promise<PoolCandle[]>;
  /** The last candle of a pool that starts before `atMs`, or undefined. */
  lastBefore(poolId: number, atMs: number): Promise<PoolCandle | undefined>;
  /** The last candle of a pool with a swap in it, or undefined. */
  lastWithSwaps(poolId: number): Promise<PoolCandle | undefined>;
}

/** The staking totals at the end of a block. */
export interface StakingPoint extends StakingTotals {
  readonly atMs: number;
}

/** Reads the SAUCE staking snapshots. */
export interface StakingStore {
  /** The last snapshot at or before `atMs`, or undefined. */
  atOrBefore(atMs: number): Promise<StakingPoint | undefined>;
  /** The first snapshot, or undefined before anyone staked. */
  first(): Promise<StakingPoint | undefined>;
}
