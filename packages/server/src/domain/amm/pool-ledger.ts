import type { ChainPosition, PairEvent } from './amm-events.js';

/**
 * A pool as its pair's events leave it. Token A is the pair's token0 (the lower address), token B
 * its token1.
 */
export interface PoolState {
  readonly reserveA: bigint;
  readonly reserveB: bigint;
  /** LP units in existence. */
  readonly lpSupply: bigint;
}

export const NEW_POOL: PoolState = { reserveA: 0n, reserveB: 0n, lpSupply: 0n };

/** Raw units a swap moved in and out of the pool. */
export interface PoolSwap {
  readonly aIn: bigint;
  readonly bIn: bigint;
  readonly aOut: bigint;
  readonly bOut: bigint;
}

/** One change of a pool, a row of its history: its state before and after, and what a swap moved. */
export interface PoolChange extends ChainPosition {
  readonly poolId: number;
  readonly kind: 'LP' | 'SYNC' | 'SWAP';
  readonly before: PoolState;
  readonly after: PoolState;
  readonly swap: PoolSwap | null;
}

type PairChange = Exclude<PairEvent, { kind: 'created' }>;

/**
 * The pool after one of its pair's events. A Sync states the reserves; the LP supply moves with
 * mints and burns; a Swap moves nothing itself (its Sync came first) but records the amounts.
 */
export function applyPairEvent(
  state: PoolState,
  event: PairChange,
): { kind: PoolChange['kind']; after: PoolState; swap: PoolSwap | null } {
  switch (event.kind) {
    case 'lpMinted':
      return { kind: 'LP', after: { ...state, lpSupply: state.lpSupply + event.amount }, swap: null };
    case 'lpBurnt':
      return { kind: 'LP', after: { ...state, lpSupply: state.lpSupply - event.amount }, swap: null };
    case 'sync':
      return { kind: 'SYNC', after: { ...state, reserveA: event.reserve0, reserveB: event.reserve1 }, swap: null };
    case 'swap':
      return {
        kind: 'SWAP',
        after: state,
        swap: { aIn: event.amount0In, bIn: event.amount1In, aOut: event.amount0Out, bOut: event.amount1Out },
      };
  }
}
