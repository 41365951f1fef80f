import type { AmmEvent, ChainPosition, FarmEvent, PairEvent, StakingEvent } from './amm-events.js';
import { poolIdOfPairIndex } from './contract-ids.js';
import { applyPairEvent, NEW_POOL, type PoolChange, type PoolState } from './pool-ledger.js';
import { applyStakingEvent, type StakingTotals } from './staking-ledger.js';

/** A pair the store knows, by its lower-case address. */
export interface KnownPair {
  readonly poolId: number;
  readonly state: PoolState;
}

/** A pair the factory created in the batch. Pool ids: poolIdOfPairIndex. */
export interface CreatedPair extends ChainPosition {
  readonly poolId: number;
  readonly address: string;
  readonly token0: string;
  readonly token1: string;
}

/** The staking totals at the end of a block that changed them. */
export interface StakingSnapshot extends StakingTotals {
  readonly block: bigint;
  readonly atMs: number;
}

/** What a run of blocks changed, to be written in one transaction with the cursor. */
export interface AmmChanges {
  readonly created: readonly CreatedPair[];
  /** Every change of every pool, in chain order. */
  readonly poolChanges: readonly PoolChange[];
  /** The state each changed pool is left in, with the time of its last change. */
  readonly pools: ReadonlyMap<number, PoolState & { readonly updatedAt: number }>;
  /** Farm events in chain order, applied by the store (farm-ledger.ts) and kept to apply again after a rewind. */
  readonly farmEvents: readonly (FarmEvent & ChainPosition)[];
  readonly staking: readonly StakingSnapshot[];
}

const isPairEvent = (event: AmmEvent): event is PairEvent & ChainPosition =>
  ['created', 'lpMinted', 'lpBurnt', 'sync', 'swap'].includes(event.kind);
const isStakingEvent = (event: AmmEvent): event is StakingEvent & ChainPosition =>
  ['sauceIn', 'sauceOut', 'sharesMinted', 'sharesBurnt'].includes(event.kind);

/**
 * Folds events (in chain order) into the changes they make, from the pairs the store knows and the
 * staking totals it holds. Events of a pair the factory did not create are ignored.
 */
export function foldAmmEvents(
  events: readonly AmmEvent[],
  known: ReadonlyMap<string, KnownPair>,
  totals: StakingTotals,
): AmmChanges {
  const pairs = new Map(known);
  const created: CreatedPair[] = [];
  const poolChanges: PoolChange[] = [];
  const pools = new Map<number, PoolState & { updatedAt: number }>();
  const farmEvents: (FarmEvent & ChainPosition)[] = [];
  const staking: StakingSnapshot[] = [];
  let stake = totals;
  for (const event of events) {
    if (isPairEvent(event)) {
      if (event.kind === 'created') {
        const poolId = poolIdOfPairIndex(event.index);
        created.push({ ...event, poolId, address: event.pair });
        pairs.set(event.pair, { poolId, state: NEW_POOL });
        pools.set(poolId, { ...NEW_POOL, updatedAt: event.atMs });
        continue;
      }
      const pair = pairs.get(event.pair);
      if (pair === undefined) continue;
      const { kind, after, swap } = applyPairEvent(pair.state, event);
      const { block, logIndex, atMs } = event;
      poolChanges.push({ poolId: pair.poolId, block, logIndex, atMs, kind, before: pair.state, after, swap });
      pairs.set(event.pair, { ...pair, state: after });
      pools.set(pair.poolId, { ...after, updatedAt: atMs });
    } else if (isStakingEvent(event)) {
      stake = applyStakingEvent(stake, event);
      const last = staking.at(-1);
      const snapshot = { ...stake, block: event.block, atMs: event.atMs };
      if (last?.block === event.block) staking[staking.length - 1] = snapshot;
      else staking.push(snapshot);
    } else {
      farmEvents.push(event);
    }
  }
  return { created, poolChanges, pools, farmEvents, staking };
}
